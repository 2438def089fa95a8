package org.jhpvm.hydro;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The hydrodynamics code from a user's program: one of the problems {@code bin/jhpvm hydro} runs, set up with the
 * same options and defaults, run as a job of its own (threads of this JVM, or this process's part of a launched
 * job), and judged as the command judges it:
 * <pre>{@code
 * Hydro.Result r = Hydro.problem("sod").zones(800).pes(2).run();
 * System.out.println(r.snapshot().cycles() + " cycles, L1 error " + r.analysis().metrics().get("l1_density"));
 * }</pre>
 * For a problem of one's own, build a {@link HydroRun.Spec} (grid, initial state, boundaries, end time) and call
 * {@link HydroRun#run}. Not thread-safe: one builder per run.
 */
public final class Hydro {
    private final String name;
    private int pes = 1;
    private Integer dims;
    private Integer zones;
    private Double tEnd;
    private Double gamma;
    private Geometry geometry = Geometry.CARTESIAN;
    private double ratio = 1;
    private EnergyScheme energy = EnergyScheme.INTERNAL;
    private Communication comm = Communication.GA;
    private final Map<String, String> options = new LinkedHashMap<>();

    private Hydro(final String name) {
        this.name = name;
    }

    /**
     * A run of a named problem with its defaults.
     *
     * @param name one of {@link Problem#NAMES}: sod, sedov, noh, kh, blast3d
     * @return the builder
     * @throws IllegalArgumentException for another name
     */
    public static Hydro problem(final String name) {
        if (!Problem.NAMES.contains(Objects.requireNonNull(name, "name"))) {
            throw new IllegalArgumentException("problem '" + name + "': one of " + String.join(", ", Problem.NAMES));
        }
        return new Hydro(name);
    }

    /**
     * PEs of the job (default 1).
     *
     * @param n at least 1
     * @return this
     */
    public Hydro pes(final int n) {
        if (n < 1) {
            throw new IllegalArgumentException("pes=" + n + ": at least 1");
        }
        this.pes = n;
        return this;
    }

    /**
     * Grid dimensions (the problem's default if not set).
     *
     * @param d 1, 2 or 3, as the problem takes
     * @return this
     */
    public Hydro dims(final int d) {
        this.dims = d;
        return this;
    }

    /**
     * Zones per dimension (the problem's default if not set).
     *
     * @param n zones
     * @return this
     */
    public Hydro zones(final int n) {
        this.zones = n;
        return this;
    }

    /**
     * The end time (the problem's default if not set).
     *
     * @param t simulated time
     * @return this
     */
    public Hydro tEnd(final double t) {
        this.tEnd = t;
        return this;
    }

    /**
     * The ratio of specific heats (the problem's default if not set).
     *
     * @param g gamma
     * @return this
     */
    public Hydro gamma(final double g) {
        this.gamma = g;
        return this;
    }

    /**
     * The coordinates and the ratio of neighbouring zone widths along the first dimension (sod, sedov and noh take
     * curvilinear ones).
     *
     * @param g coordinates
     * @param q zone-width ratio, 1 for uniform zones
     * @return this
     */
    public Hydro geometry(final Geometry g, final double q) {
        this.geometry = Objects.requireNonNull(g, "geometry");
        this.ratio = q;
        return this;
    }

    /**
     * The energy equation solved (default {@link EnergyScheme#INTERNAL}, as {@code bin/jhpvm hydro}).
     *
     * @param e the scheme
     * @return this
     */
    public Hydro energy(final EnergyScheme e) {
        this.energy = Objects.requireNonNull(e, "energy");
        return this;
    }

    /**
     * The communication layer of the halo exchange (default {@link Communication#GA}).
     *
     * @param c Global Arrays or MPI
     * @return this
     */
    public Hydro comm(final Communication c) {
        this.comm = Objects.requireNonNull(c, "comm");
        return this;
    }

    /**
     * A job option, as {@code --option key=value} gives it (a fault plan, a scheduling policy, ...).
     *
     * @param key   the option's key
     * @param value its value
     * @return this
     */
    public Hydro option(final String key, final String value) {
        options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /**
     * What a run gives: the state at the end (fields, time, cycles, wall time) and the verdict.
     *
     * @param snapshot the final state
     * @param analysis errors against the exact solution where there is one, conservation, the smallest pressure
     */
    public record Result(HydroRun.Snapshot snapshot, Problem.Analysis analysis) {
    }

    /**
     * Sets the problem up, runs it and judges it.
     *
     * @return the result, or null in a process of a launched job that does not hold PE 0 (PE 0's process reports)
     * @throws IllegalArgumentException for options the problem does not take
     */
    public Result run() {
        final Problem p = Problem.of(name, new Problem.Params(pes, dims, zones, tEnd, gamma, geometry, ratio),
            new ExactRiemann.State(1, 0, 1), new ExactRiemann.State(0.125, 0, 0.1), 0.5);
        final HydroRun.Spec spec = p.spec().withEnergy(energy).withComm(comm);
        final HydroRun.Snapshot s = HydroRun.run(pes, new LinkedHashMap<>(options), spec, null);
        if (s == null) {
            return null;
        }
        final Problem.Analysis a = p.analyse(s);
        Problem.conservation(s, a);
        final NonPhysical bad = NonPhysical.of(s);
        a.metrics().put("nonphysical_zones", (double) bad.zones());
        a.metrics().put("min_pressure", bad.minPressure());
        return new Result(s, a);
    }
}
