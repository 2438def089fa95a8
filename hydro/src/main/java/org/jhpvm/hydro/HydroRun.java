package org.jhpvm.hydro;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.DoubleConsumer;
import java.util.function.Supplier;

import mpi.MPI;

import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.mpi.MpiJob;
import org.jhpvm.shmem.ShmemJob;

/**
 * Runs the ZEUS solver on a job of PEs: set up, integrate (to a time, or a number of cycles after warm-up cycles),
 * measure, and read the final fields back to PE 0 for analysis. The job is a SHMEM job with Global Arrays on it, or
 * an MPI job ({@link Spec#comm}); the fields come out bitwise the same on both.
 */
public final class HydroRun {
    private HydroRun() {
    }

    /**
     * What to run.
     *
     * @param cfg     grid, gas and boundaries
     * @param initial the initial state
     * @param inflow  the state of {@link Boundary#INFLOW} faces, or null
     * @param tEnd    end time (ignored when {@code cycles > 0})
     * @param warmup  cycles run before the clock starts (cycle-count runs)
     * @param cycles  cycles to time after the warm-up, or 0 to run to {@code tEnd}
     * @param gather  whether PE 0 reads the final fields back
     * @param comm    the layer the solver communicates through
     */
    public record Spec(HydroConfig cfg, ZeusSolver.Initial initial, ZeusSolver.Inflow inflow, double tEnd,
                       int warmup, int cycles, boolean gather, Communication comm) {
        /** Checks the spec. */
        public Spec {
            java.util.Objects.requireNonNull(comm, "comm");
            if (cycles < 0 || warmup < 0 || (cycles == 0 && !(tEnd > 0 && Double.isFinite(tEnd)))) {
                throw new IllegalArgumentException("need a finite end time > 0 (or cycles > 0), warm-up >= 0; got "
                    + "t-end " + tEnd + ", " + cycles + " cycles, " + warmup + " warm-up");
            }
            long values = cfg.fields();
            for (int d = 0; d < cfg.dims(); d++) {
                values *= cfg.zones()[d];
            }
            if (gather && values > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("grid too large to read back into one array: " + values
                    + " values; use fewer zones");
            }
        }

        /**
         * A run on Global Arrays.
         *
         * @param cfg     grid, gas and boundaries
         * @param initial the initial state
         * @param inflow  the state of {@link Boundary#INFLOW} faces, or null
         * @param tEnd    end time (ignored when {@code cycles > 0})
         * @param warmup  cycles run before the clock starts (cycle-count runs)
         * @param cycles  cycles to time after the warm-up, or 0 to run to {@code tEnd}
         * @param gather  whether PE 0 reads the final fields back
         */
        public Spec(final HydroConfig cfg, final ZeusSolver.Initial initial, final ZeusSolver.Inflow inflow,
            final double tEnd, final int warmup, final int cycles, final boolean gather) {
            this(cfg, initial, inflow, tEnd, warmup, cycles, gather, Communication.GA);
        }

        /**
         * The same run on another layer.
         *
         * @param layer the layer the solver communicates through
         * @return the spec
         */
        public Spec withComm(final Communication layer) {
            return new Spec(cfg, initial, inflow, tEnd, warmup, cycles, gather, layer);
        }

        /**
         * The same run with another energy scheme.
         *
         * @param scheme the energy the solver evolves
         * @return the spec
         */
        public Spec withEnergy(final EnergyScheme scheme) {
            return new Spec(cfg.withEnergy(scheme), initial, inflow, tEnd, warmup, cycles, gather, comm);
        }

        /**
         * A run to {@code tEnd} whose fields are read back.
         *
         * @param cfg     grid, gas and boundaries
         * @param initial the initial state
         * @param inflow  the inflow state, or null
         * @param tEnd    end time
         * @return the spec
         */
        public static Spec toTime(final HydroConfig cfg, final ZeusSolver.Initial initial,
            final ZeusSolver.Inflow inflow, final double tEnd) {
            return new Spec(cfg, initial, inflow, tEnd, 0, 0, true);
        }
    }

    /**
     * A finished run.
     *
     * @param cfg     grid, gas and boundaries
     * @param pes     PEs
     * @param time    simulated time reached
     * @param cycles  cycles timed
     * @param seconds wall time of the timed cycles
     * @param fields  every field, {@code [field][zones...]} in row-major order (d, e, v0, (v1, (v2)), and with total
     *                energy the dual-energy field), or null
     * @param before  totals (mass, momenta, energy) after initialisation
     * @param after   totals at the end
     */
    public record Snapshot(HydroConfig cfg, int pes, double time, int cycles, double seconds, double[] fields,
                           double[] before, double[] after) {
        /**
         * The number of zones, the product of the zones per dimension: the length of each field in {@link #fields()}.
         *
         * @return zones in the grid
         */
        public long zones() {
            long z = 1;
            for (int d = 0; d < cfg.dims(); d++) {
                z *= cfg.zones()[d];
            }
            return z;
        }

        /**
         * The speed figure of hydro codes: zones times timed cycles over the wall time of those cycles.
         *
         * @return zone-cycles per second over the whole grid
         */
        public double zoneCyclesPerSecond() {
            return zones() * (double) cycles / seconds;
        }

        /**
         * One value of a field read back to PE 0; only for a run whose fields were gathered ({@code fields} is not
         * null).
         *
         * @param field {@link ZeusSolver#D}, {@link ZeusSolver#E} or {@code V + dir}
         * @param zone  row-major zone number
         * @return the value: density, internal energy density, or the velocity component at the zone's lower face
         */
        public double at(final int field, final int zone) {
            return fields[(int) (field * zones()) + zone];
        }

        /**
         * The density L1 error against an exact density field: the sum over zones of |rho - exact(centre)| times
         * the zone volume.
         *
         * @param exact the exact density at a point
         * @return the L1 error
         */
        public double l1Density(final java.util.function.ToDoubleFunction<double[]> exact) {
            final double[] x = new double[cfg.dims()];
            double l1 = 0;
            if (cfg.uniform()) {
                for (int z = 0; z < zones(); z++) {
                    centre(z, x);
                    l1 += Math.abs(at(ZeusSolver.D, z) - exact.applyAsDouble(x));
                }
                return l1 * cfg.zoneVolume();
            }
            for (int z = 0; z < zones(); z++) {
                centre(z, x);
                l1 += Math.abs(at(ZeusSolver.D, z) - exact.applyAsDouble(x)) * cfg.zoneVolume(z);
            }
            return l1;
        }

        /**
         * The coordinates of a zone's centre, written into the caller's array so that loops over zones allocate
         * nothing.
         *
         * @param zone row-major zone number
         * @param x    receives the zone centre's coordinates (at least {@code dims} long)
         */
        public void centre(final int zone, final double[] x) {
            int rest = zone;
            for (int d = cfg.dims() - 1; d >= 0; d--) {
                final int i = rest % cfg.zones()[d];
                rest /= cfg.zones()[d];
                x[d] = cfg.centre(d, i);
            }
        }

        /**
         * The velocity component at a zone centre: the mean of the zone's two faces in that direction (beyond the
         * last zone: the first face for periodic, 0 at a wall, else the last face).
         *
         * @param dir  direction
         * @param zone row-major zone number
         * @return the velocity
         */
        public double centredVelocity(final int dir, final int zone) {
            int stride = 1;
            for (int d = cfg.dims() - 1; d > dir; d--) {
                stride *= cfg.zones()[d];
            }
            final int n = cfg.zones()[dir];
            final int i = zone / stride % n;
            final double lower = at(ZeusSolver.V + dir, zone);
            final double upper;
            if (i < n - 1) {
                upper = at(ZeusSolver.V + dir, zone + stride);
            } else if (cfg.upper()[dir] == Boundary.PERIODIC) {
                upper = at(ZeusSolver.V + dir, zone - (n - 1) * stride);
            } else if (cfg.upper()[dir] == Boundary.REFLECT) {
                upper = 0;
            } else {
                upper = lower; // outflow; an inflow face's own velocity is not kept in the snapshot either
            }
            return 0.5 * (lower + upper);
        }
    }

    /**
     * Snapshots during a run to a time: the initial state, then, for each output time in turn, the state at the end
     * of the first cycle that reaches it (the time step is never shortened to meet an output time, so a run gives
     * the same bits with and without snapshots; each snapshot carries the time it was taken at). Taken collectively:
     * every PE syncs, PE 0 reads the fields back and hands them to {@code sink} on its thread.
     *
     * @param times output times, increasing, each above 0
     * @param sink  told each snapshot on PE 0 (fields gathered; {@code cycles} the cycles run so far)
     */
    public record Output(double[] times, java.util.function.Consumer<Snapshot> sink) {
        /** Checks the schedule. */
        public Output {
            java.util.Objects.requireNonNull(sink, "sink");
            for (int k = 0; k < times.length; k++) {
                if (!(times[k] > 0 && Double.isFinite(times[k])) || (k > 0 && !(times[k] > times[k - 1]))) {
                    throw new IllegalArgumentException("snapshot times must be finite, above 0 and increasing: "
                        + Arrays.toString(times));
                }
            }
        }
    }

    /**
     * The state a run continues from: everything a cycle reads, so that a run restarted from it takes the same
     * cycles as one that never stopped.
     *
     * @param time   the time reached
     * @param dtPrev the last time step (the next one grows at most 26% over it)
     * @param cycle  the cycles done (the order of the directional sweeps alternates with it)
     * @param before the totals after initialisation, for the conservation report
     * @param fields every field, {@code [field][zones...]} row-major (d, e, v0, (v1, (v2)), and with total energy
     *               the dual-energy field)
     */
    public record State(double time, double dtPrev, int cycle, double[] before, double[] fields) {
    }

    /**
     * Checkpoints during a run to a time: after every {@code every} cycles (counted from the start of the run, the
     * cycles before a restart included), collectively, PE 0 gathers the {@link State} and hands it to
     * {@code sink}.
     *
     * @param every cycles between checkpoints, at least 1
     * @param sink  told each state on PE 0's thread
     */
    public record Checkpoints(int every, java.util.function.Consumer<State> sink) {
        /** Checks the interval. */
        public Checkpoints {
            if (every < 1) {
                throw new IllegalArgumentException("checkpoints every " + every + " cycles: at least 1");
            }
            java.util.Objects.requireNonNull(sink, "sink");
        }
    }

    /**
     * Runs {@code spec} on {@code pes} PEs.
     *
     * @param pes      PEs
     * @param options  job options (a fault plan: "fabric.faults.*")
     * @param spec     what to run
     * @param progress told the simulated time after each cycle on PE 0's thread, or null
     * @return the snapshot (PE 0's; null in a launched process that does not host PE 0)
     */
    public static Snapshot run(final int pes, final Map<String, String> options, final Spec spec,
        final DoubleConsumer progress) {
        return run(pes, options, spec, progress, null);
    }

    /**
     * Runs {@code spec} on {@code pes} PEs, taking the snapshots {@code output} asks for (a run to a time only).
     *
     * @param pes      PEs
     * @param options  job options (a fault plan: "fabric.faults.*")
     * @param spec     what to run
     * @param progress told the simulated time after each cycle on PE 0's thread, or null
     * @param output   the snapshots to take, or null
     * @return the snapshot at the end (PE 0's; null in a launched process that does not host PE 0)
     * @throws IllegalArgumentException if {@code output} is given for a run of a number of cycles
     */
    public static Snapshot run(final int pes, final Map<String, String> options, final Spec spec,
        final DoubleConsumer progress, final Output output) {
        return run(pes, options, spec, progress, output, null, null);
    }

    /**
     * Runs {@code spec} on {@code pes} PEs from its initial state or from {@code restart}, taking the snapshots and
     * checkpoints asked for (a run to a time only). A restarted run ends with the same bits as the run that wrote
     * the state, on any number of PEs.
     *
     * @param pes         PEs
     * @param options     job options (a fault plan: "fabric.faults.*")
     * @param spec        what to run
     * @param progress    told the simulated time after each cycle on PE 0's thread, or null
     * @param output      the snapshots to take, or null
     * @param checkpoints the checkpoints to take, or null
     * @param restart     the state to continue from (of this spec's grid), or null
     * @return the snapshot at the end (PE 0's; null in a launched process that does not host PE 0)
     * @throws IllegalArgumentException for snapshots, checkpoints or a restart in a run of a number of cycles, or a
     *                                  state of another grid
     */
    public static Snapshot run(final int pes, final Map<String, String> options, final Spec spec,
        final DoubleConsumer progress, final Output output, final Checkpoints checkpoints, final State restart) {
        if ((output != null || checkpoints != null || restart != null) && spec.cycles() > 0) {
            throw new IllegalArgumentException("snapshots, checkpoints and restarts go with runs to a time, not with "
                + "timed cycle runs");
        }
        if (restart != null) {
            long values = spec.cfg().fields();
            for (int d = 0; d < spec.cfg().dims(); d++) {
                values *= spec.cfg().zones()[d];
            }
            if (restart.fields().length != values) {
                throw new IllegalArgumentException("the restart state holds " + restart.fields().length
                    + " values; this grid has " + values);
            }
        }
        final HydroConfig cfg = spec.cfg();
        final Snapshot[] out = new Snapshot[1];
        final IllegalArgumentException[] refused = new IllegalArgumentException[1];
        try {
            if (spec.comm() == Communication.MPI) {
                final MpiJob.Builder job = MpiJob.builder().ranks(pes).timeout(Duration.ofHours(2));
                options.forEach(job::option);
                job.build().run(() -> {
                    MPI.Init(new String[0]);
                    body(solver(() -> new MpiComm(cfg), cfg, refused), pes, spec, progress, output, checkpoints,
                        restart, out);
                    MPI.Finalize();
                });
            } else {
                final ShmemJob.Builder job = ShmemJob.builder().pes(pes).timeout(Duration.ofHours(2));
                options.forEach(job::option);
                job.build().run(sh -> body(solver(() -> new GaComm(new GlobalArrays(sh), cfg), cfg, refused), pes,
                    spec, progress, output, checkpoints, restart, out));
            }
        } catch (final RuntimeException e) {
            if (refused[0] != null) {
                // The layer refused the grid on every PE alike before anything moved (e.g. blocks thinner than the
                // ghosts).
                throw new IllegalArgumentException(cfg.dims() + "-D grid of " + Arrays.toString(cfg.zones())
                    + " zones on " + pes + " PEs: " + refused[0].getMessage(), e);
            }
            throw e;
        }
        return out[0];
    }

    /** The solver on the layer {@code comm} sets up; a refusal of the grid is kept in {@code refused}. */
    private static ZeusSolver solver(final Supplier<SolverComm> comm, final HydroConfig cfg,
        final IllegalArgumentException[] refused) {
        try {
            return new ZeusSolver(comm.get(), cfg);
        } catch (final IllegalArgumentException e) {
            refused[0] = e;
            throw e;
        }
    }

    private static void body(final ZeusSolver zeus, final int pes, final Spec spec, final DoubleConsumer progress,
        final Output output, final Checkpoints checkpoints, final State restart, final Snapshot[] out) {
        final HydroConfig cfg = spec.cfg();
        zeus.inflow(spec.inflow());
        final double[] before;
        if (restart == null) {
            zeus.initialise(spec.initial());
            before = zeus.totals();
        } else {
            zeus.restore(restart.fields(), restart.time(), restart.dtPrev(), restart.cycle());
            before = restart.before().clone();
        }
        final boolean first = zeus.rank() == 0;
        final DoubleConsumer told = first ? progress : null;
        final long t0;
        final int cycles;
        if (spec.cycles() > 0) {
            for (int c = 0; c < spec.warmup(); c++) {
                zeus.step(Double.MAX_VALUE);
            }
            zeus.barrier();
            t0 = clockNs();
            for (int c = 0; c < spec.cycles(); c++) {
                final double t = zeus.step(Double.MAX_VALUE);
                if (told != null) {
                    told.accept(t);
                }
            }
            cycles = spec.cycles();
        } else if (output == null && checkpoints == null && restart == null) {
            t0 = clockNs();
            zeus.run(0, spec.tEnd(), told);
            cycles = zeus.cycles();
        } else {
            t0 = clockNs();
            final double[] times = output == null ? new double[0] : output.times();
            int next = 0;
            while (next < times.length && zeus.time() >= times[next]) {
                next++; // a restart continues the schedule after its time
            }
            if (output != null) {
                snapshot(zeus, cfg, pes, output);
            }
            // The same cycles as zeus.run(0, tEnd): snapshots and checkpoints never shorten a step.
            while (zeus.time() < spec.tEnd()) {
                zeus.step(spec.tEnd());
                if (told != null) {
                    told.accept(zeus.time());
                }
                if (next < times.length && zeus.time() >= times[next]) {
                    snapshot(zeus, cfg, pes, output);
                    while (next < times.length && zeus.time() >= times[next]) {
                        next++;
                    }
                }
                if (checkpoints != null && zeus.cycles() % checkpoints.every() == 0 && zeus.time() < spec.tEnd()) {
                    final double[] fields = zeus.gather();
                    if (first) {
                        checkpoints.sink().accept(new State(zeus.time(), zeus.lastTimeStep(), zeus.cycles(),
                            before.clone(), fields));
                    }
                    zeus.barrier();
                }
            }
            cycles = zeus.cycles();
        }
        zeus.barrier(); // every PE has finished its last cycle
        final double seconds = (clockNs() - t0) / 1e9;
        final double[] after = zeus.totals();
        final double[] fields = spec.gather() ? zeus.gather() : null;
        if (first) {
            out[0] = new Snapshot(cfg, pes, zeus.time(), cycles, seconds, fields, before, after);
        }
        zeus.barrier();
    }

    /** Collective: PE 0 reads the fields back and tells the sink. */
    private static void snapshot(final ZeusSolver zeus, final HydroConfig cfg, final int pes, final Output output) {
        final double[] fields = zeus.gather();
        if (zeus.rank() == 0) {
            output.sink().accept(new Snapshot(cfg, pes, zeus.time(), zeus.cycles(), 0, fields, null, null));
        }
        zeus.barrier();
    }

    /**
     * The run's clock: {@code MPI_Wtime}'s, so that a job on a virtual-time fabric ({@code fabric.clock=virtual})
     * reports the modelled machine's time, and any other job the wall clock's.
     */
    private static long clockNs() {
        return Math.round(MPI.wtime() * 1e9);
    }
}
