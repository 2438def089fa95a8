package org.jhpvm.hydro;

import org.jhpvm.ga.GlobalArrays;

/**
 * A ZEUS-type solver of the ideal-gas Euler equations (Stone &amp; Norman 1992, ZEUS-2D; the hydro part of Zeus-MP)
 * on one PE's block of the grid, for 1-, 2- and 3-D grids. The block and its communication come from the layer the
 * solver runs on ({@link SolverComm}): Global Arrays (one GA array, GA's ghost update and {@code gop}), or MPI as
 * Zeus-MP ran (a Cartesian communicator, halo exchange of subarray types by {@code sendRecv}, {@code allReduce}).
 * <p>
 * Staggered mesh: density {@code d} and internal energy density {@code e} at zone centres, the velocity component
 * {@code v[dir]} at the zone's lower face in that direction. A PE's fields live in one array of dimensions
 * {@code [2 + dims, n0, (n1, (n2))]} ({@code 3 + dims} with total energy: {@link #dualEnergyField}), three ghost
 * layers in the spatial dimensions, never split along the field dimension; one ghost exchange fills every field's, then the physical-boundary ghosts are filled.
 * A cycle: the Courant time step (one global max-reduction: exact, so every PE count gets the same {@code dt});
 * the source step (pressure gradient, von Neumann-Richtmyer artificial viscosity with its heating, compressional
 * heating in ZEUS's time-centred implicit form); the transport step, directionally split in alternating order,
 * with consistent advection (mass fluxes from van Leer-interpolated densities carry the specific energy and the
 * momenta, also van Leer-interpolated). Boundaries are refreshed before every substep that reads neighbours, so
 * every value is computed once, by its owner, from the same inputs whatever the decomposition: the fields are
 * bitwise identical on any number of PEs.
 * <p>
 * A grid whose first dimension has ratioed zones or is a curvilinear radius (1-D, or 2-D cylindrical (r, z) and
 * spherical (r, theta)) runs {@link RadialStep}'s and {@link RadialTransport}'s kernels, which carry the widths,
 * areas and volumes of its {@link RadialGrid} and {@link TransverseGrid}; uniform Cartesian grids keep the loops
 * below.
 * <p>
 * With {@link EnergyScheme#TOTAL} (ZEUS-MP's total-energy option) the work of the pressure and of the viscosity
 * enters as the divergence of a flux, the transport step advects total energy, and one more ghost refresh at the end
 * of the cycle lets every zone recover its internal energy: total energy is conserved to round-off. Beside it the
 * internal energy is evolved by its own equation, as the internal-energy scheme evolves it, in one more field (the
 * dual-energy formalism of Bryan et al. 1995, as ENZO has it): where the total less the kinetic energy is a small
 * part of the total ({@link EnergyScheme#DUAL_ENERGY_ETA}) or not positive, that one is the zone's internal
 * energy, and what the total holds beyond it stays in the dual-energy field, so that the total is unchanged.
 * <p>
 * This class drives the cycle; the work is in its parts, each a view of the PE's {@link ZeusBlock}:
 * {@link GhostZones} (the ghost exchange and the physical boundaries), {@link CourantTimestep}, {@link SourceStep}
 * and {@link TransportStep}. Their kernels are plain loops over the PE's {@code double[]} block, innermost along the
 * contiguous dimension.
 */
public final class ZeusSolver {
    /** Ghost layers: van Leer interpolation at a face and the new density one zone out need three. */
    public static final int GHOST = 3;
    /** Field number of the density. */
    public static final int D = 0;
    /** Field number of the internal energy density. */
    public static final int E = 1;
    /** Field number of the first velocity component (V + dir). */
    public static final int V = 2;

    /**
     * Field number of the dual-energy field of the total-energy scheme, after the velocities. Between cycles (in
     * snapshots and checkpoints) it holds the part of each zone's total energy that its internal energy and kinetic
     * energy do not: 0 wherever the internal energy is the total less the kinetic energy, else the difference from
     * the separately evolved internal energy that the zone holds instead. During a cycle it holds that separately
     * evolved internal energy. The internal-energy scheme has no such field.
     *
     * @param dims the grid's dimensions
     * @return {@code V + dims}
     */
    public static int dualEnergyField(final int dims) {
        return V + dims;
    }

    private final SolverComm comm;
    private final HydroConfig cfg;
    private final int dims;
    private final ZeusBlock block;
    private final GhostZones ghosts;
    private final CourantTimestep courant;
    private final SourceStep sourceStep;
    private final TransportStep transportStep;
    /** The kernels of a grid whose first dimension is ratioed or curvilinear, or null. */
    private final RadialStep radial;
    /** The transport step on such a grid along the radius, and along the other coordinates, or null. */
    private final RadialTransport radialTransport;
    private final AngularTransport angularTransport;
    /** The source step's kernels: {@link #radial}'s, or {@link #sourceStep}'s. */
    private final SourceKernels kernels;
    private final boolean total;
    /** The layers each substep reads, where the kernels are the uniform Cartesian ones with internal energy. */
    private final GhostLayers layers;
    private boolean partialGhosts;
    /** The substeps' declared costs, charged where the job's computation is declared. */
    private final DeclaredCosts costs;
    private double time;
    private double dtOld;
    private int cycle;

    /**
     * Creates the fields in a Global Array (collective over the world).
     *
     * @param ga  the PE's Global Arrays
     * @param cfg the problem's grid, gas and boundaries
     */
    public ZeusSolver(final GlobalArrays ga, final HydroConfig cfg) {
        this(new GaComm(ga, cfg), cfg);
    }

    /**
     * Creates the solver on a layer's block of the fields (collective).
     *
     * @param comm the layer: Global Arrays or MPI
     * @param cfg  the problem's grid, gas and boundaries
     */
    ZeusSolver(final SolverComm comm, final HydroConfig cfg) {
        this.comm = comm;
        this.cfg = cfg;
        this.dims = cfg.dims();
        this.block = comm.block();
        this.ghosts = new GhostZones(block, comm);
        this.courant = new CourantTimestep(block, comm);
        // The source and transport steps share one zone-sized scratch array: each rewrites it before reading it.
        final double[] q = new double[block.sF];
        this.sourceStep = new SourceStep(block, q);
        this.transportStep = new TransportStep(block, q);
        this.radial = cfg.uniform() ? null : new RadialStep(block, q);
        this.radialTransport = radial == null ? null : new RadialTransport(radial, q);
        this.angularTransport = radial == null || dims == 1 ? null
            : new AngularTransport(radial, radialTransport, transportStep, q);
        this.kernels = radial != null ? radial : sourceStep;
        this.total = cfg.energy() == EnergyScheme.TOTAL;
        long zones = block.owns ? 1 : 0;
        for (int s = 0; s < 3; s++) {
            zones *= block.hi[s] - block.lo[s] + 1;
        }
        this.costs = new DeclaredCosts(zones);
        this.layers = new GhostLayers(dims);
        this.partialGhosts = !total && radial == null;
    }

    /**
     * Makes every ghost exchange refresh every layer (false), as the total-energy scheme and the curvilinear grids
     * do, instead of only the layers each substep reads (true, the default where it applies), so that tests can
     * compare the two bit for bit. Collective in effect: every PE must set it alike, before the run.
     *
     * @param partial whether to exchange only the layers read, where the kernels allow it
     */
    void partialGhosts(final boolean partial) {
        this.partialGhosts = partial && !total && radial == null;
    }

    /**
     * Makes the inflow ghosts keep the inflow state between the refreshes of a cycle (true, the default) or evaluate
     * it at every refresh (false), so that tests can compare the two bit for bit.
     *
     * @param keep whether to keep the inflow state
     */
    void keepInflow(final boolean keep) {
        ghosts.keepInflow(keep);
    }

    /**
     * Makes 3-D transport sweeps go slab by slab (true, the default) or run each step over the whole block (false),
     * so that tests can compare the two bit for bit.
     *
     * @param bySlab whether to sweep slab by slab
     */
    void slabSweeps(final boolean bySlab) {
        transportStep.slabs(bySlab);
    }

    // ---------------------------------------------------------------- set-up and inspection

    /** The initial state at a point: density, velocity components (at faces), pressure. */
    public interface Initial {
        /**
         * The state at one point: {@link ZeusSolver#initialise} calls it at zone centres and at face centres. For
         * results that are bitwise the same on any number of PEs it must be a pure function of {@code x}
         * ({@code StrictMath}).
         *
         * @param x coordinates of the point, one per dimension (reused between calls: copy it to keep it)
         * @return {@code {rho, v0, (v1, (v2)), p}}
         */
        double[] at(double[] x);
    }

    /**
     * Fills this PE's zones: scalars from the state at the zone centre, each velocity component from the state at
     * the centre of the zone's lower face in that direction. For results that are bitwise the same on any number of
     * PEs the function must be too: use {@code StrictMath} for transcendental functions ({@code Math.exp} may
     * differ in the last bit between interpreted and compiled code).
     *
     * @param init the initial state
     */
    public void initialise(final Initial init) {
        final ZeusBlock b = block;
        if (!b.owns) {
            return;
        }
        final double[] a = b.a;
        final int sF = b.sF;
        final int[] lo = b.lo;
        final int[] hi = b.hi;
        final double gamma = b.gamma;
        final double[] x = new double[dims];
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                for (int k = lo[2]; k <= hi[2]; k++) {
                    final int z = b.index(i, j, k);
                    b.centre(i, j, k, x);
                    final double[] c = init.at(x);
                    a[D * sF + z] = c[0];
                    a[E * sF + z] = c[dims + 1] / (gamma - 1);
                    if (b.total) {
                        a[b.xb + z] = 0; // the total is the internal plus the kinetic energy
                    }
                    for (int dir = 0; dir < dims; dir++) {
                        b.faceCentre(dir, i, j, k, x);
                        a[(V + dir) * sF + z] = init.at(x)[1 + dir];
                    }
                }
            }
        }
        comm.written();
    }

    /**
     * Sets the state a checkpoint saved instead of {@link #initialise} (collective): PE 0 puts every field, every PE
     * takes the clock. What a cycle reads besides the fields is the time, the previous time step (its growth limit)
     * and the cycle count (the order of the directional sweeps); ghost zones are filled again at each step's start.
     *
     * @param fields every field, {@code [field][zones...]} row-major, as {@link #gather()} gives them (PE 0's only)
     * @param t      the time
     * @param dtPrev the last time step
     * @param cycles the cycles done
     */
    public void restore(final double[] fields, final double t, final double dtPrev, final int cycles) {
        comm.scatter(fields);
        this.time = t;
        this.dtOld = dtPrev;
        this.cycle = cycles;
    }

    /**
     * The last time step taken (0 before the first), which limits the next one's growth; a checkpoint saves it.
     *
     * @return the previous time step
     */
    public double lastTimeStep() {
        return dtOld;
    }

    /** The state that flows in through {@link Boundary#INFLOW} faces, as a function of place and time. */
    public interface Inflow {
        /**
         * Must be a pure function of its arguments (the same bits on every PE: {@code StrictMath}).
         *
         * @param x   coordinates of a point beyond the domain (a ghost zone's centre or face centre)
         * @param t   time
         * @param out receives {@code {rho, v0, (v1, (v2)), p}}
         */
        void at(double[] x, double t, double[] out);
    }

    /**
     * Sets the state of the {@link Boundary#INFLOW} faces (required when the configuration has one).
     *
     * @param f the inflow state
     */
    public void inflow(final Inflow f) {
        ghosts.inflow(f);
    }

    /**
     * Reads every field back to PE 0 (collective).
     *
     * @return on PE 0 every field, {@code [field][zones...]} row-major (d, e, v0, (v1, (v2)), and with total energy
     *         the dual-energy field); null elsewhere
     */
    public double[] gather() {
        return comm.gather();
    }

    /**
     * This PE's number on the layer the solver runs on.
     *
     * @return the rank, 0 for the PE that reads the fields back
     */
    public int rank() {
        return comm.rank();
    }

    /** Waits until every PE has come here (collective). */
    public void barrier() {
        comm.barrier();
    }

    /**
     * The number of cycles this solver has stepped, warm-up cycles included.
     *
     * @return cycles done
     */
    public int cycles() {
        return cycle;
    }

    /**
     * The simulated time the fields are at, advanced by every {@link #step}.
     *
     * @return the simulated time reached
     */
    public double time() {
        return time;
    }

    /**
     * Conserved totals over the grid (collective): mass, momentum per direction (face momenta, each face's density
     * the mean of its two zones), total energy (internal plus kinetic, each face's velocity carrying the mass of the
     * half zones on either side, plus the dual-energy field under the total-energy scheme: the total that scheme
     * conserves). For conservation checks; the sums' rounding depends on the decomposition.
     *
     * @return {@code {mass, momentum..., energy}}
     */
    public double[] totals() {
        boundary(); // face momenta need the neighbouring zone's current density
        final double[] t = new double[dims + 2];
        final ZeusBlock b = block;
        if (radial != null && b.owns) {
            radial.totals(t);
        } else if (b.owns) {
            final double[] a = b.a;
            final int sF = b.sF;
            final int[] lo = b.lo;
            final int[] hi = b.hi;
            final int[] st = b.st;
            final double vol = cfg.zoneVolume();
            for (int i = lo[0]; i <= hi[0]; i++) {
                for (int j = lo[1]; j <= hi[1]; j++) {
                    int z = b.index(i, j, lo[2]);
                    for (int k = lo[2]; k <= hi[2]; k++, z++) {
                        final double rho = a[D * sF + z];
                        t[0] += rho * vol;
                        for (int dir = 0; dir < dims; dir++) {
                            final int s = dir + 3 - dims;
                            final int vz = (V + dir) * sF + z;
                            t[1 + dir] += 0.5 * (rho + a[D * sF + z - st[s]]) * a[vz] * vol;
                        }
                        final double e = b.total ? a[E * sF + z] + a[b.xb + z] : a[E * sF + z];
                        t[dims + 1] += (e + b.kinetic(a, V * sF, z)) * vol;
                    }
                }
            }
        }
        comm.sum(t);
        return t;
    }

    // ---------------------------------------------------------------- the cycle

    /**
     * Advances to {@code tEnd} (the last step is shortened to land on it).
     *
     * @param t        current time
     * @param tEnd     end time
     * @param progress called after each cycle with the time reached (may be null)
     * @return the time reached (tEnd)
     */
    public double run(final double t, final double tEnd, final java.util.function.DoubleConsumer progress) {
        time = t;
        while (time < tEnd) {
            step(tEnd);
            if (progress != null) {
                progress.accept(time);
            }
        }
        return time;
    }

    /**
     * One cycle from the current time (0 at first, or where {@link #run} left off), never past {@code tEnd}
     * (collective).
     *
     * @param tEnd a time not to step beyond
     * @return the time reached
     */
    public double step(final double tEnd) {
        boundary(layers.oneLow, layers.oneHigh);
        final double rate = radial == null ? courant.localRate() : block.owns ? radial.courantRate() : 0;
        costs.courant();
        double dt = courant.reduce(rate);
        if (dtOld > 0) {
            dt = Math.min(dt, 1.26 * dtOld); // ZEUS: the time step grows at most 26% per cycle
        }
        dt = Math.min(dt, tEnd - time);
        source(dt);
        transport(dt);
        time = time + dt == time ? tEnd : time + dt;
        dtOld = dt;
        cycle++;
        return time;
    }

    /** Exchanges every field's ghosts between blocks, then fills the physical-boundary ghosts. */
    void boundary() {
        ghosts.update(time, null, null);
    }

    /**
     * As {@link #boundary()}, exchanging only {@code low[d]} layers below and {@code high[d]} above each block where
     * the kernels allow it ({@link GhostLayers}), else every layer.
     */
    private void boundary(final int[] low, final int[] high) {
        ghosts.update(time, partialGhosts ? low : null, high);
    }

    /**
     * The source step: pressure gradient, then artificial viscosity, then compressional heating, each reading
     * neighbours refreshed after the one before. Under the total-energy scheme the work of the pressure and of the
     * viscosity is accounted for after each, as the divergence of a flux, and the energy field holds total energy
     * from there to the end of the cycle; the viscous and compressional heating then go into the separately evolved
     * internal energy, in the dual-energy field.
     */
    void source(final double dt) {
        final boolean owns = block.owns;
        final SourceKernels k = kernels;
        if (total && owns) {
            k.saveVelocities();
        }
        if (owns) {
            k.pressure(dt);
            costs.pressure();
        }
        boundary(layers.oneLow, layers.oneHigh);
        if (total) {
            if (owns) {
                k.pressureWork(dt);
                k.saveVelocities();
            }
            ghosts.totalEnergy(true);
        }
        if (owns) {
            k.viscosity(dt);
            costs.viscosity();
        }
        boundary(layers.noneLow, layers.oneHigh);
        if (owns) {
            if (total) {
                k.viscousWork(dt);
            }
            k.heating(dt);
            costs.heating();
        }
    }

    /** The transport step: one sweep per direction, each after a ghost refresh. */
    void transport(final double dt) {
        // Directionally split; the order alternates every cycle (x, y, z then z, y, x). A grid whose first dimension
        // is ratioed or curvilinear has its own sweeps.
        for (int m = 0; m < dims; m++) {
            final int dir = cycle % 2 == 0 ? m : dims - 1 - m;
            boundary(layers.sweepLow[dir], layers.sweepHigh[dir]);
            if (block.owns) {
                costs.sweep();
                if (radialTransport != null) {
                    if (dir == 0) {
                        radialTransport.sweep(dt);
                    } else if (dir == 1) {
                        angularTransport.sweepSecond(dt);
                    } else {
                        angularTransport.sweepThird(dt);
                    }
                } else {
                    transportStep.sweep(dir, dt);
                }
            }
        }
        if (total) {
            // Every zone's kinetic energy needs the velocity of its upper faces, which the neighbour just moved.
            boundary();
            if (block.owns) {
                kernels.internalFromTotal();
            }
            ghosts.totalEnergy(false);
        }
    }
}
