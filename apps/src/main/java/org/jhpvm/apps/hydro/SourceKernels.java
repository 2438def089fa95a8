package org.jhpvm.apps.hydro;

/**
 * The source step's kernels on one PE's block, as {@link ZeusSolver} drives them: {@link SourceStep} on a uniform
 * Cartesian grid, {@link RadialStep} on a ratioed or curvilinear one. Each works on the block's own zones and reads
 * the ghosts the solver refreshed before it.
 */
interface SourceKernels {
    /**
     * The pressure force on the face velocities.
     *
     * @param dt the time step
     */
    void pressure(double dt);

    /**
     * Von Neumann-Richtmyer viscosity: its force, and its heating under the internal-energy scheme.
     *
     * @param dt the time step
     */
    void viscosity(double dt);

    /**
     * Compressional heating (the internal-energy scheme).
     *
     * @param dt the time step
     */
    void heating(double dt);

    /** Keeps the velocities, ghosts included, for the work of the substep that follows (total energy). */
    void saveVelocities();

    /**
     * Turns the energy field into total energy less the pressure's work (total energy, after {@link #pressure}).
     *
     * @param dt the time step
     */
    void pressureWork(double dt);

    /**
     * Takes the viscous work out of the total energy (after {@link #viscosity}).
     *
     * @param dt the time step
     */
    void viscousWork(double dt);

    /** Recovers the internal energy from the total at the end of the cycle, after a ghost refresh. */
    void internalFromTotal();
}
