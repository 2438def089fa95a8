package org.jhpvm.apps.hydro;

import static org.jhpvm.apps.hydro.ZeusSolver.V;

/**
 * The source step's kernels on one PE's block, as {@link ZeusSolver} drives them: {@link SourceStep} on a uniform
 * Cartesian grid, {@link RadialStep} on a ratioed or curvilinear one. Each works on the block's own zones and reads
 * the ghosts the solver refreshed before it. Under the total-energy scheme both account for the work of a substep
 * with the velocities kept here before it.
 */
abstract class SourceKernels extends ZeusBlock {
    /** Under the total-energy scheme: the velocity fields as the substep being accounted for found them. */
    final double[] vOld;

    /**
     * @param block this PE's block
     */
    SourceKernels(final ZeusBlock block) {
        super(block);
        this.vOld = total ? new double[dims * sF] : null;
    }
    /**
     * The pressure force on the face velocities.
     *
     * @param dt the time step
     */
    abstract void pressure(double dt);

    /**
     * Von Neumann-Richtmyer viscosity: its force, and its heating under the internal-energy scheme.
     *
     * @param dt the time step
     */
    abstract void viscosity(double dt);

    /**
     * Compressional heating (the internal-energy scheme).
     *
     * @param dt the time step
     */
    abstract void heating(double dt);

    /** Keeps the velocities, ghosts included, for the work of the substep that follows (total energy). */
    final void saveVelocities() {
        System.arraycopy(a, V * sF, vOld, 0, dims * sF);
    }

    /**
     * Turns the energy field into total energy less the pressure's work (total energy, after {@link #pressure}).
     *
     * @param dt the time step
     */
    abstract void pressureWork(double dt);

    /**
     * Takes the viscous work out of the total energy (after {@link #viscosity}).
     *
     * @param dt the time step
     */
    abstract void viscousWork(double dt);

    /** Recovers the internal energy from the total at the end of the cycle, after a ghost refresh. */
    abstract void internalFromTotal();
}
