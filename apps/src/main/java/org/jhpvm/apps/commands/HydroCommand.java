package org.jhpvm.apps.commands;

import static org.jhpvm.apps.commands.HydroResultFiles.grid;

import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Reports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.hydro.Blast3d;
import org.jhpvm.hydro.Checkpoint;
import org.jhpvm.hydro.Communication;
import org.jhpvm.hydro.EnergyScheme;
import org.jhpvm.hydro.ExactRiemann;
import org.jhpvm.hydro.Geometry;
import org.jhpvm.hydro.HydroConfig;
import org.jhpvm.hydro.HydroRun;
import org.jhpvm.hydro.NonPhysical;
import org.jhpvm.hydro.Problem;
import org.jhpvm.hydro.VtkOutput;
import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fm.Scheduling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jhpvm hydro PROBLEM}: the ZEUS-type hydrodynamics code on Global Arrays or MPI. */
@Command(name = "hydro", mixinStandardHelpOptions = true,
    description = {"A ZEUS-type hydrodynamics code (staggered mesh, operator split, van Leer transport) on Global "
        + "Arrays (or MPI: --comm mpi) over the emulated fabric, validated against exact solutions.",
        "Problems (defaults: dims, zones per dimension, t-end, gamma):",
        "  sod      any 1-D Riemann problem (--left/--right/--x0), along x of a 1-3-D grid; exact Riemann solver "
            + "(1, 400, 0.2, 1.4)",
        "  sedov    point blast, planar/cylindrical/spherical in 1/2/3-D; Sedov-Taylor solution (2; 400, 128, 48; "
            + "shock at r = 0.75; 1.4)",
        "  noh      Noh's implosion, 1/2/3-D; exact solution (2; 400, 128, 48; 0.6; 5/3)",
        "           sedov and noh on --geometry spherical (r, theta) default to 48 zones, on 3-D cylindrical to 16 and "
            + "spherical to 12: the origin's small zones set the time step, and these finish within a minute",
        "  kh       Kelvin-Helmholtz in the periodic unit square (2 only; 128; 1.0; 1.4)",
        "  blast3d  3-D blast in a periodic box, the scaling workload (3 only; 48; 0.2; 5/3); --scaling runs "
            + "--zones^3 zones per PE on 1, 2, 4, 8 PEs",
        "Prints the density L1 error and shock position against the exact solution, and conservation errors where "
            + "the boundaries conserve. --out writes DIR/PROBLEM.csv (1-D: x,rho,u,p,e; else x,y[,z],rho,u,v[,w],p,e "
            + "at zone centres, velocities interpolated, e the specific internal energy; cylindrical grids "
            + "r,z,phi and v_r,v_z,v_phi, spherical r,theta,phi and v_r,v_theta,v_phi, angles in radians) and "
            + "DIR/PROBLEM.png (1-D: "
            + "profiles with the exact solution; 2-D: a density image; 3-D: the density in the mid-plane z slice; "
            + "plus DIR/PROBLEM-profile.png with the radial profile where there is one); with --snapshots or --every, "
            + "also the VTK XML time series DIR/PROBLEM_NNNN.vti (.vts on ratioed and curvilinear grids) and "
            + "DIR/PROBLEM.pvd."})
public final class HydroCommand implements Callable<Integer> {
    /** What a checkpoint written before --energy, --geometry and --ratio existed had. */
    private static final Map<String, String> BEFORE_OPTIONS = Map.of("energy", EnergyScheme.INTERNAL.key(),
        "geometry", Geometry.CARTESIAN.key(), "ratio", Double.toString(1.0));

    @Parameters(index = "0", paramLabel = "PROBLEM", description = "sod, sedov, noh, kh or blast3d (default: "
        + "${DEFAULT-VALUE}).", defaultValue = "sod")
    private String problem;

    @Option(names = "--pes", paramLabel = "N", description = "PEs (default: 4, or the launched job's PEs under "
        + "launch; --scaling: --scaling-pes).")
    private int pes = Launched.pes(4);

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec command;

    @Option(names = "--zones", paramLabel = "N", description = "Zones per dimension (default: per problem, above; "
        + "--scaling: zones per PE per dimension, 32).")
    private Integer zones;

    @Option(names = "--dims", paramLabel = "D", description = "Grid dimensions 1, 2 or 3 (default: per problem).")
    private Integer dims;

    @Option(names = "--t-end", paramLabel = "T", description = "End time (default: per problem).")
    private Double tEnd;

    @Option(names = "--gamma", paramLabel = "G", description = "Ratio of specific heats (default: per problem).")
    private Double gamma;

    @Option(names = "--energy", paramLabel = "SCHEME", description = "internal (ZEUS's scheme, the default) or total "
        + "(ZEUS-MP's total-energy option: conserves total energy to round-off on closed boundaries; the dual-energy "
        + "formalism keeps every pressure positive).")
    private String energy;

    @Option(names = "--geometry", paramLabel = "G", description = "cartesian (default), cylindrical or spherical: "
        + "sod, sedov and noh in 1-3 dimensions, cylindrical (r, z, phi) or, for sedov and noh, spherical (r, theta, "
        + "phi) with theta from the axis to the equator and phi a quarter turn (the first dimension is the radius; "
        + "sod runs in a shell at radius 1000).")
    private String geometry;

    @Option(names = "--ratio", paramLabel = "Q", description = "sod, sedov and noh: each zone of the "
        + "first dimension Q times as wide as the one before (default: 1, uniform).")
    private Double ratio;

    @Option(names = "--comm", paramLabel = "LAYER", description = "ga (Global Arrays, the default) or mpi (MPI on "
        + "a Cartesian communicator, halo exchange by sendRecv of subarray types, as Zeus-MP): the same bits either "
        + "way.")
    private String comm;

    @Option(names = "--scheduling", paramLabel = "POLICY", description = "How the PEs share this machine's cores: "
        + "none (the operating system decides; the default), dcs (run slots: at most one running PE per core, a PE "
        + "woken by a message first) or gang (gangs of as many PEs as cores take turns).")
    private String scheduling;
    private Scheduling policy = Scheduling.NONE;

    @Option(names = "--left", paramLabel = "RHO,U,P", split = ",", description = "sod: left state (default: 1,0,1).")
    private double[] left;

    @Option(names = "--right", paramLabel = "RHO,U,P", split = ",", description = "sod: right state (default: "
        + "0.125,0,0.1).")
    private double[] right;

    @Option(names = "--x0", paramLabel = "X", description = "sod: initial discontinuity (default: 0.5).")
    private Double x0;

    @Option(names = "--scaling", description = "blast3d: weak scaling, a fixed block per PE on each of --scaling-pes "
        + "(default: off).")
    private boolean scaling;

    @Option(names = "--scaling-pes", paramLabel = "N,N,..", split = ",", description = "PE counts of --scaling "
        + "(default: 1,2,4,8).")
    private int[] scalingPes;

    @Option(names = "--cycles", paramLabel = "N", description = "--scaling: timed cycles per run (default: 100).")
    private Integer cycles;

    @Option(names = "--warmup", paramLabel = "N", description = "--scaling: untimed cycles first, each run "
        + "(default: 20).")
    private Integer warmup;

    @Option(names = "--trials", paramLabel = "N", description = "--scaling: rounds over the PE counts; each row "
        + "gives its best round (noise only slows a run down) and the median (default: 5).")
    private Integer trials;

    @Option(names = "--independent", description = "--scaling: in each round, beside N PEs, also N one-PE solvers "
        + "at once that never communicate: what this machine's cores and caches give N blocks, the ceiling of the "
        + "parallel code's rows (default: off).")
    private boolean independent;

    @Option(names = "--out", paramLabel = "DIR", description = "Write DIR/PROBLEM.csv and DIR/PROBLEM.png "
        + "(--scaling: DIR/blast3d-scaling.csv and .png) (default: none).")
    private Path out;

    @Option(names = "--snapshots", paramLabel = "K", description = "With --out: write the fields as VTK XML "
        + "(DIR/PROBLEM_NNNN.vti and the time series DIR/PROBLEM.pvd for ParaView and VisIt): the initial state and "
        + "K more, at t-end*k/K, each at the end of the first cycle that reaches its time (default: none).")
    private Integer snapshots;

    @Option(names = "--every", paramLabel = "T", description = "With --out: VTK snapshots at the initial state, "
        + "then every T of simulated time and at the end (default: none).")
    private Double every;

    @Option(names = "--checkpoint-every", paramLabel = "N", description = "With --checkpoint: save the run's state "
        + "every N cycles to DIR/PROBLEM.ckpt, replacing the last one only when the new one is complete (default: "
        + "none).")
    private Integer checkpointEvery;

    @Option(names = "--checkpoint", paramLabel = "DIR", description = "Where --checkpoint-every saves (default: none).")
    private Path checkpointDir;

    @Option(names = "--restart", paramLabel = "FILE", description = "Continue from a checkpoint of the same problem, "
        + "grid and gas (any number of PEs, any --t-end): the run ends with the same bits as the one that saved it "
        + "(default: none).")
    private Path restart;

    @Option(names = "--deck", paramLabel = "FILE", description = "An input deck: a properties file of options "
        + "(key: the option's name without the dashes, or problem), overridden by the options given here. Every run "
        + "with --out writes the complete deck it used to DIR/PROBLEM.deck; a rerun from it must give its own --out "
        + "(and --json, --checkpoint where the deck has them), so as not to overwrite the deck's results (default: "
        + "none).")
    private Path deck;

    @Option(names = "--json", paramLabel = "FILE", description = "Write errors, shock position, conservation, "
        + "cycles, wall time and zone-cycles per second as JSON (default: none).")
    private Path json;

    @Option(names = "--drop", paramLabel = "P", description = "Fabric fault plan: drop probability per frame "
        + "(default: 0).")
    private double drop;

    @Option(names = "--corrupt", paramLabel = "P", description = "Fabric fault plan: corruption probability "
        + "(default: 0).")
    private double corrupt;

    @Option(names = "--duplicate", paramLabel = "P", description = "Fabric fault plan: duplication probability "
        + "(default: 0).")
    private double duplicate;

    @Option(names = "--seed", paramLabel = "S", description = "Fault plan seed (default: ${DEFAULT-VALUE}).")
    private long seed = 1;

    @Option(names = "--clock", paramLabel = "wall|virtual", description = "virtual: run on a modelled machine's clock "
        + "(fabric.clock=virtual; --machine, --model); the times printed are the model's (default: wall).")
    private String clock = "wall";

    @Option(names = "--machine", paramLabel = "NAME|FILE", description = "With --clock virtual: the machine "
        + "(default: sparc-sbus-1995; info --all lists them).")
    private String machine;

    @Option(names = "--model", paramLabel = "KEY=VALUE", split = ",", description = "With --clock virtual: a "
        + "switch of the machine's model (repeatable, or several joined by commas; default: the machine's own "
        + "choices).")
    private Map<String, String> model = new LinkedHashMap<>();

    @Option(names = "--cpu", paramLabel = "measured|declared", description = "With --clock virtual: what the "
        + "computation costs: each PE thread's CPU time times the machine's cpu_scale (measured), or the solver's "
        + "declared cost per zone of each substep times cpu_scale (declared: the same run gives the same times, bit "
        + "for bit; default: measured).")
    private String cpu;

    /** Creates the {@code jhpvm hydro} command; picocli calls this reflectively, then sets the options given. */
    public HydroCommand() {
    }

    @Override
    public Integer call() throws IOException {
        if (deck != null) {
            return HydroDeck.rerun(deck, command);
        }
        if (!Problem.NAMES.contains(problem)) {
            throw new IllegalArgumentException("PROBLEM '" + problem + "': one of " + String.join(", ",
                Problem.NAMES));
        }
        if (pes < 1 || (zones != null && zones < 1) || (tEnd != null && !(tEnd > 0 && Double.isFinite(tEnd)))) {
            throw new IllegalArgumentException("need --pes >= 1, --zones >= 1, a finite --t-end > 0");
        }
        if (gamma != null && !(gamma > 1 && Double.isFinite(gamma))) {
            throw new IllegalArgumentException("--gamma " + gamma + ": a finite number > 1");
        }
        final EnergyScheme scheme = energy == null ? EnergyScheme.INTERNAL : EnergyScheme.of(energy);
        final Geometry geo = geometry == null ? Geometry.CARTESIAN : Geometry.of(geometry);
        final Communication layer = comm == null ? Communication.GA : Communication.of(comm);
        if (scaling && (geometry != null || ratio != null)) {
            throw new IllegalArgumentException("--geometry and --ratio are not for --scaling");
        }
        for (final double prob : new double[] {drop, corrupt, duplicate}) {
            if (!(prob >= 0 && prob <= 1)) {
                throw new IllegalArgumentException("--drop, --corrupt, --duplicate: probabilities in [0, 1]");
            }
        }
        if (!"sod".equals(problem) && (left != null || right != null || x0 != null)) {
            throw new IllegalArgumentException("--left, --right and --x0 are for sod only");
        }
        if ((left != null && !state(left)) || (right != null && !state(right))) {
            throw new IllegalArgumentException("--left and --right take RHO,U,P: finite, RHO > 0, P > 0");
        }
        if (x0 != null && !(x0 > 0 && x0 < 1)) {
            throw new IllegalArgumentException("--x0 " + x0 + ": inside (0, 1)");
        }
        if (scaling && !"blast3d".equals(problem)) {
            throw new IllegalArgumentException("--scaling is for blast3d only");
        }
        final boolean pesGiven = command != null && command.commandLine().getParseResult().hasMatchedOption("--pes");
        if (scaling && (dims != null || tEnd != null || gamma != null || pesGiven)) {
            throw new IllegalArgumentException("--scaling takes --zones (per PE), --scaling-pes, --cycles, --warmup "
                + "(not --pes, --dims, --t-end or --gamma)");
        }
        if (snapshots != null && every != null) {
            throw new IllegalArgumentException("--snapshots and --every: one or the other");
        }
        if ((snapshots != null || every != null) && (out == null || scaling)) {
            throw new IllegalArgumentException("--snapshots and --every write into --out DIR, and not with --scaling");
        }
        if (snapshots != null && !(snapshots >= 1 && snapshots <= 100_000)) {
            throw new IllegalArgumentException("--snapshots " + snapshots + ": 1 to 100000");
        }
        if (every != null && !(every > 0 && Double.isFinite(every))) {
            throw new IllegalArgumentException("--every " + every + ": a finite time > 0");
        }
        if ((checkpointEvery == null) != (checkpointDir == null)) {
            throw new IllegalArgumentException("--checkpoint-every N and --checkpoint DIR go together");
        }
        if (checkpointEvery != null && checkpointEvery < 1) {
            throw new IllegalArgumentException("--checkpoint-every " + checkpointEvery + ": at least 1 cycle");
        }
        if (scaling && (checkpointEvery != null || restart != null)) {
            throw new IllegalArgumentException("--checkpoint-every and --restart are not for --scaling");
        }
        if (!scaling && (cycles != null || warmup != null || scalingPes != null || trials != null || independent)) {
            throw new IllegalArgumentException("--cycles, --warmup, --trials, --independent and --scaling-pes go with "
                + "--scaling");
        }
        policy = scheduling == null ? Scheduling.NONE : Scheduling.parse(scheduling);
        final Map<String, String> options = new LinkedHashMap<>();
        options.put("fm.scheduling", policy.toString());
        if (drop > 0 || corrupt > 0 || duplicate > 0) {
            options.put("fabric.faults.seed", Long.toString(seed));
            options.put("fabric.faults.drop", Double.toString(drop));
            options.put("fabric.faults.corrupt", Double.toString(corrupt));
            options.put("fabric.faults.duplicate", Double.toString(duplicate));
        }
        if (!clock.equals("wall") && !clock.equals("virtual")) {
            throw new IllegalArgumentException("--clock " + clock + ": must be wall or virtual");
        }
        if (cpu != null && !cpu.equals("measured") && !cpu.equals("declared")) {
            throw new IllegalArgumentException("--cpu " + cpu + ": must be measured or declared");
        }
        if (clock.equals("virtual")) {
            final ClockSettings settings = new ClockSettings(true,
                machine == null ? ClockSettings.DEFAULT_MACHINE : machine, model, !"declared".equals(cpu));
            settings.model(); // a bad machine or switch fails here, before anything runs
            options.putAll(settings.options());
        } else if (machine != null || !model.isEmpty() || cpu != null) {
            throw new IllegalArgumentException("--machine, --model and --cpu describe a virtual clock: add --clock "
                + "virtual");
        }
        return scaling ? scaling(options, scheme, layer) : single(options, scheme, geo, layer);
    }

    private int single(final Map<String, String> options, final EnergyScheme scheme, final Geometry geo,
        final Communication layer) throws IOException {
        final double[] l = left == null ? new double[] {1, 0, 1} : left;
        final double[] r = right == null ? new double[] {0.125, 0, 0.1} : right;
        final double q = ratio == null ? 1 : ratio;
        final Problem p = Problem.of(problem, new Problem.Params(pes, dims, zones, tEnd, gamma, geo, q),
            new ExactRiemann.State(l[0], l[1], l[2]), new ExactRiemann.State(r[0], r[1], r[2]),
            x0 == null ? 0.5 : x0);
        final HydroRun.Spec spec = p.spec().withEnergy(scheme).withComm(layer);
        final double end = spec.tEnd();
        final Map<String, String> used = new LinkedHashMap<>();
        used.put(HydroDeck.PROBLEM, problem);
        used.put("dims", Integer.toString(spec.cfg().dims()));
        used.put("zones", Integer.toString(spec.cfg().zones()[0]));
        used.put("gamma", Double.toString(spec.cfg().gamma()));
        used.put("energy", scheme.key());
        used.put("geometry", geo.key());
        used.put("ratio", Double.toString(q));
        if ("sod".equals(problem)) {
            used.put("left", l[0] + "," + l[1] + "," + l[2]);
            used.put("right", r[0] + "," + r[1] + "," + r[2]);
            used.put("x0", Double.toString(x0 == null ? 0.5 : x0));
        }
        final HydroRun.State from = restart == null ? null : restartState(used, spec.cfg());
        // A checkpoint restarts on any number of PEs, any end time, either layer.
        used.put("pes", Integer.toString(pes));
        used.put("t-end", Double.toString(end));
        used.put("comm", layer.key());
        used.put("scheduling", policy.toString());
        final HydroRun.Checkpoints saving = checkpointEvery == null ? null
            : new HydroRun.Checkpoints(checkpointEvery, state -> checkpoint(spec.cfg(), used, state));
        final VtkOutput vtk = snapshots == null && every == null ? null : new VtkOutput(out, problem);
        final HydroRun.Output output = vtk == null ? null : new HydroRun.Output(outputTimes(end), snap -> {
            final Path file = vtk.write(snap);
            final NonPhysical bad = NonPhysical.of(snap);
            if (bad.any()) {
                warn(file.getFileName() + " (t = " + snap.time() + "): " + bad);
            }
        });
        if (from != null) {
            System.out.printf(Locale.ROOT, "resumed from cycle %d (t = %.6g) of %s%n", from.cycle(), from.time(),
                restart);
        }
        final HydroRun.Snapshot s;
        try (HydroProgress progress = HydroProgress.of(problem, from == null ? 0 : from.time(), end,
            from == null ? 0 : from.cycle(), spec.cfg().zones()[0], spec.cfg().dims())) {
            s = HydroRun.run(pes, options, spec, progress, output, saving, from);
        }
        if (s == null) {
            return 0; // a process of a launched job without PE 0: rank 0 reports
        }
        final Problem.Analysis a = p.analyse(s);
        Problem.conservation(s, a);
        final NonPhysical bad = NonPhysical.of(s);
        a.metrics().put("nonphysical_zones", (double) bad.zones());
        a.metrics().put("min_pressure", bad.minPressure());
        final int d = s.cfg().dims();
        final double zc = s.zoneCyclesPerSecond();
        final String clockNote = !clock.equals("virtual") ? ""
            : ", modelled on " + options.getOrDefault("fabric.machine", ClockSettings.DEFAULT_MACHINE);
        System.out.printf("hydro %s: %s zones (%d-D) on %d PEs (%s), t = %.4g in %d cycles, %.2f s%s (%.3g "
            + "zone-cycles/s, %.3g per PE)%n", problem, grid(s.cfg().zones()), d, pes, layer.key().toUpperCase(
            java.util.Locale.ROOT), s.time(), s.cycles(), s.seconds(), clockNote, zc, zc / pes);
        a.lines().forEach(System.out::println);
        final List<Path> written = new ArrayList<>();
        if (out != null) {
            written.addAll(HydroResultFiles.write(s, a, problem, out));
            if (restart != null) {
                used.put("restart", restart.toString());
            }
            writeDeck(used);
            if (vtk != null) {
                System.out.println("wrote " + vtk.files().size() + " VTK snapshots and " + out.resolve(problem
                    + ".pvd"));
            }
        }
        if (json != null) {
            final ObjectNode o = Reports.object();
            o.put("problem", problem).put("pes", pes).put("dims", d).put("energy", s.cfg().energy().key())
                .put("comm", layer.key()).put("scheduling", policy.toString())
                .put("t_end", s.time())
                .put("cycles", s.cycles()).put("zone_cycles_per_second", zc)
                .put("zone_cycles_per_second_per_pe", zc / pes);
            if (clock.equals("virtual")) {
                // The run's time is the model's, not this machine's: said so, under a key of its own.
                o.put("clock", "virtual").put("machine", options.getOrDefault("fabric.machine",
                    ClockSettings.DEFAULT_MACHINE)).put("cpu", options.getOrDefault("fabric.cpu", "measured"))
                    .put("modelled_seconds", s.seconds());
            } else {
                o.put("wall_seconds", s.seconds());
            }
            o.put("zones", s.cfg().zones()[0]);
            final ArrayNode z = o.putArray("grid");
            Arrays.stream(s.cfg().zones()).forEach(z::add);
            a.metrics().forEach((k, v) -> {
                if (Double.isFinite(v)) {
                    o.put(k, v);
                } else {
                    o.putNull(k); // e.g. no shock found: JSON has no NaN
                }
            });
            Reports.writeJson(json, o);
            System.out.println("wrote " + json);
            written.add(json);
        }
        if (bad.any()) {
            // Never silently: the files are there to look at, and the run failed.
            warn((written.isEmpty() ? "the end state" : written.stream().map(f -> f.getFileName().toString())
                .collect(java.util.stream.Collectors.joining(", "))) + ": " + bad);
            return 1;
        }
        return 0;
    }

    /** A warning line on standard error, in {@code JhpvmCommand}'s form. */
    static void warn(final String message) {
        System.err.println("jhpvm: warning: " + message);
    }

    /**
     * Writes a checkpoint and says so; a state with non-physical zones is refused with a warning instead, so that
     * the last checkpoint written, a state a run can continue from, stays.
     */
    private void checkpoint(final HydroConfig cfg, final Map<String, String> used, final HydroRun.State state) {
        final Path file = checkpointDir.resolve(problem + ".ckpt");
        final NonPhysical bad = NonPhysical.of(cfg, state.fields());
        if (bad.any()) {
            warn("checkpoint of cycle " + state.cycle() + " (t = " + state.time() + ") not written: " + bad
                + "; " + file + " keeps the last one");
            return;
        }
        try {
            Checkpoint.write(file, used, state);
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        System.out.printf(Locale.ROOT, "wrote checkpoint %s (cycle %d, t = %.6g)%n", file, state.cycle(),
            state.time());
    }

    /**
     * The state {@code --restart} names, refused with one line unless it is a good checkpoint of the run
     * {@code used} describes (problem, grid, gas; PEs and end time may differ).
     */
    private HydroRun.State restartState(final Map<String, String> used, final HydroConfig cfg) throws IOException {
        final Checkpoint.Read read = Checkpoint.read(restart);
        for (final Map.Entry<String, String> e : used.entrySet()) {
            // Checkpoints from before --energy, --geometry and --ratio existed: internal energy, a uniform
            // Cartesian grid.
            final String theirs = read.run().getOrDefault(e.getKey(), BEFORE_OPTIONS.get(e.getKey()));
            if (!e.getValue().equals(theirs)) {
                throw new IllegalArgumentException("checkpoint " + restart + ": written by a run with " + e.getKey()
                    + "=" + theirs + ", this run has " + e.getKey() + "=" + e.getValue());
            }
        }
        final long values = cfg.fields() * (long) Arrays.stream(cfg.zones()).asLongStream().reduce(1, (x, y) -> x * y);
        if (read.state().fields().length != values) {
            // A total-energy checkpoint from before the dual-energy field, whose zones may hold a negative internal
            // energy: it cannot be continued without the separately evolved one.
            throw new IllegalArgumentException("checkpoint " + restart + ": holds " + read.state().fields().length
                + " values, this run needs " + values + " (" + cfg.fields() + " fields: a total-energy checkpoint "
                + "written before the dual-energy field cannot be continued; rerun from the start)");
        }
        return read.state();
    }

    /** Completes a run's deck with the options every mode shares and writes DIR/PROBLEM.deck. */
    private void writeDeck(final Map<String, String> d) throws IOException {
        if (snapshots != null) {
            d.put("snapshots", Integer.toString(snapshots));
        }
        if (every != null) {
            d.put("every", Double.toString(every));
        }
        if (checkpointEvery != null) {
            d.put("checkpoint-every", Integer.toString(checkpointEvery));
            d.put("checkpoint", checkpointDir.toString());
        }
        if (clock.equals("virtual")) { // a deck reruns on the clock, the machine and the compute it ran on
            d.put("clock", clock);
            d.put("machine", machine == null ? ClockSettings.DEFAULT_MACHINE : machine);
            d.put("cpu", cpu == null ? "measured" : cpu);
            if (!model.isEmpty()) {
                d.put("model", String.join(",", model.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .toList()));
            }
        }
        d.put("drop", Double.toString(drop));
        d.put("corrupt", Double.toString(corrupt));
        d.put("duplicate", Double.toString(duplicate));
        d.put("seed", Long.toString(seed));
        d.put("out", out.toString());
        if (json != null) {
            d.put("json", json.toString());
        }
        Files.createDirectories(out);
        final Path file = out.resolve(problem + (scaling ? "-scaling" : "") + ".deck");
        HydroDeck.write(file, d);
        System.out.println("wrote " + file);
    }

    /** The snapshot times after the initial state: K evenly spaced ones, or every T and the end. */
    private double[] outputTimes(final double end) {
        if (snapshots != null) {
            final double[] t = new double[snapshots];
            for (int k = 1; k <= snapshots; k++) {
                t[k - 1] = k == snapshots ? end : end * k / snapshots;
            }
            return t;
        }
        final long n = (long) Math.ceil(end / every);
        if (n > 100_000) {
            throw new IllegalArgumentException("--every " + every + " gives " + n + " snapshots up to t-end " + end
                + ": at most 100000");
        }
        final List<Double> t = new ArrayList<>();
        for (long k = 1; k * every < end; k++) {
            t.add(k * every);
        }
        t.add(end);
        return t.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static boolean state(final double[] s) {
        return s.length == 3 && Arrays.stream(s).allMatch(Double::isFinite) && s[0] > 0 && s[2] > 0;
    }

    private int scaling(final Map<String, String> options, final EnergyScheme scheme, final Communication layer)
        throws IOException {
        final int block = zones == null ? 32 : zones;
        final int timed = cycles == null ? 100 : cycles;
        final int untimed = warmup == null ? 20 : warmup;
        // Five rounds: on the 2-core VM one invocation of three rounds in three missed a row's best by 5-10% (a slow
        // spell on every round of one PE count); of five, none did in the invocations measured.
        final int rounds = trials == null ? 5 : trials;
        final int[] peCounts = scalingPes == null ? new int[] {1, 2, 4, 8} : scalingPes;
        if (timed < 1 || untimed < 0 || rounds < 1 || peCounts.length == 0
            || Arrays.stream(peCounts).anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("--scaling needs --cycles >= 1, --warmup >= 0, --trials >= 1 and "
                + "--scaling-pes >= 1");
        }
        final List<HydroRun.Spec> specs = new ArrayList<>();
        for (final int n : peCounts) {
            // Blast3d.scaling checks the block before anything runs.
            specs.add(Blast3d.scaling(n, block, untimed, timed).withEnergy(scheme).withComm(layer));
        }
        if (out != null) {
            final Map<String, String> d = new LinkedHashMap<>();
            d.put(HydroDeck.PROBLEM, problem);
            d.put("scaling", "true");
            d.put("zones", Integer.toString(block));
            d.put("scaling-pes", String.join(",", Arrays.stream(peCounts).mapToObj(Integer::toString).toList()));
            d.put("cycles", Integer.toString(timed));
            d.put("warmup", Integer.toString(untimed));
            d.put("trials", Integer.toString(rounds));
            d.put("energy", scheme.key());
            d.put("comm", layer.key());
            d.put("scheduling", policy.toString());
            d.put("independent", Boolean.toString(independent));
            writeDeck(d);
        }
        new HydroScaling(block, timed, untimed, rounds, peCounts, specs, options, scheme, layer, policy, independent)
            .run(out, json);
        return 0;
    }
}
