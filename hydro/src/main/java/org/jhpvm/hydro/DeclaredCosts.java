package org.jhpvm.hydro;

import org.jhpvm.mpi.ModelTime;

/**
 * The solver's declared cost model: what each substep of a cycle costs per zone of a block, charged to the PE's
 * modelled clock where the job's computation is declared ({@code fabric.cpu=declared} on a virtual-time fabric,
 * {@code hydro --clock virtual --cpu declared}). A run's modelled times then depend on the model alone, not on this
 * machine's CPU time (which on 2 cores shared by hundreds of PE threads also counts their cache misses): the same run
 * gives the same times, bit for bit, and the scaling it predicts is the communication's and the model's, not the
 * operating system's.
 * <p>
 * The costs are nanoseconds per zone on the reference core (one core of a 2020s x86 server; the machine files'
 * {@code cpu_scale} is relative to it), measured on this project's 2-core AMD EPYC machine: each kernel timed on its
 * own in blast3d runs on one PE, once the JIT had compiled them (8^3 zones over 60 runs of 131 cycles, 16^3 over 60 of
 * 851, 32^3 and 48^3 over 4 of 126 and 310), rounded to the middle of the four sizes, which differ by up to a fifth
 * and not in the block's size's order (a whole cycle: 145, 170, 153 and 151 ns a zone). Each charge is the block's
 * zones times the cost times the machine's {@code cpu_scale}. They are
 * the uniform Cartesian grid's kernels with the internal-energy scheme; the total-energy scheme's extra terms and the
 * curvilinear grids' kernels are charged as the substeps they belong to, which undercounts them. Ghost exchanges
 * and reductions are communication: the fabric's model times them.
 */
final class DeclaredCosts {
    /** The Courant time step's local rate (sound speed and velocity over the zone width), per zone. */
    static final double COURANT_NS = 13;
    /** The source step's pressure gradient, per zone. */
    static final double PRESSURE_NS = 5;
    /** The artificial viscosity, per zone. */
    static final double VISCOSITY_NS = 15;
    /** The compressional heating, per zone. */
    static final double HEATING_NS = 5.5;
    /** One direction's transport sweep (fluxes, momenta, energy), per zone. */
    static final double SWEEP_NS = 39;

    private final boolean on;
    private final long courant;
    private final long pressure;
    private final long viscosity;
    private final long heating;
    private final long sweep;

    /**
     * Works out the charges of a block, if the calling PE's computation is declared.
     *
     * @param zones the block's zones (0 for a PE without any)
     */
    DeclaredCosts(final long zones) {
        this.on = ModelTime.computeDeclared() && zones > 0;
        final double z = on ? zones * ModelTime.cpuScale() : 0;
        this.courant = Math.round(z * COURANT_NS);
        this.pressure = Math.round(z * PRESSURE_NS);
        this.viscosity = Math.round(z * VISCOSITY_NS);
        this.heating = Math.round(z * HEATING_NS);
        this.sweep = Math.round(z * SWEEP_NS);
    }

    void courant() {
        charge(courant);
    }

    void pressure() {
        charge(pressure);
    }

    void viscosity() {
        charge(viscosity);
    }

    void heating() {
        charge(heating);
    }

    void sweep() {
        charge(sweep);
    }

    private void charge(final long ns) {
        if (on) {
            ModelTime.charge(ns);
        }
    }
}
