package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

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

    /**
     * The dual-energy choice of zone z at the end of a cycle under the total-energy scheme, given its kinetic energy:
     * the total less the kinetic energy where that is more than {@link EnergyScheme#DUAL_ENERGY_ETA} of the total
     * (the separately evolved internal energy is then reset to it), else the separately evolved internal energy, which
     * the dual-energy field holds. The energy field gets the chosen internal energy, and the dual-energy field what
     * the total holds beyond it and the kinetic energy: exactly 0 in the first case. So the total, the sum of the
     * two fields and the kinetic energy, is what the cycle made it (to the rounding of one subtraction); the choice
     * never creates or destroys energy. A zone whose remainder is negative (a debt: the staggered momentum
     * advection has brought it kinetic energy ahead of the energy of the shock behind it) repays it when the total's
     * internal energy is taken again.
     *
     * @param z  the zone's offset in a field
     * @param ke its kinetic energy density, from the velocities at the end of the cycle
     */
    final void dualEnergy(final int z, final double ke) {
        final double etot = a[E * sF + z];
        final double fromTotal = etot - ke;
        final double e = fromTotal > EnergyScheme.DUAL_ENERGY_ETA * etot ? fromTotal : a[xb + z];
        a[E * sF + z] = e;
        a[xb + z] = fromTotal - e;
    }
}
