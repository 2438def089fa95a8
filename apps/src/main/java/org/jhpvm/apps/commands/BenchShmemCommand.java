package org.jhpvm.apps.commands;

import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.bench.ContextScalingBenchmark;
import org.jhpvm.apps.bench.ProcessFigures;
import org.jhpvm.apps.bench.SegmentBenchmark;
import org.jhpvm.apps.bench.SchedulingLatency;
import org.jhpvm.apps.bench.ShmemBenchmark;
import org.jhpvm.apps.bench.Stats;
import org.jhpvm.apps.bench.ComputeGapShape;
import org.jhpvm.apps.bench.UserShapes;
import org.knowm.xchart.XYChart;
import picocli.CommandLine.Command;
import org.jhpvm.fabric.ClockSettings;
import picocli.CommandLine.Option;

/** {@code jhpvm bench shmem}: SHMEM put/get/atomics/barrier against FM in the same run. */
@Command(name = "shmem", mixinStandardHelpOptions = true,
    description = {"SHMEM on 2 PEs, OSU style, against Fast Messages and the raw machine (a JCTools SPSC queue, "
        + "System.arraycopy) measured in the same run: put and get latency (8 B .. 1 MiB), fetchAdd latency, get and "
        + "fetchAdd with the target computing, put / putNbi / getNbi bandwidth, and barrierAll latency on 2..64 PEs.",
        "Targets: put_latency_spsc_ratio <= " + BenchShmemCommand.PUT_SPSC_TARGET + ", get_latency_spsc_ratio and "
            + "fetch_add_latency_spsc_ratio <= " + BenchShmemCommand.GET_SPSC_TARGET + ", put_bw_arraycopy_ratio "
            + "(64 KiB, 1 MiB) and get_bw_arraycopy_ratio_1MiB >= " + BenchShmemCommand.BW_TARGET
            + ", put_rate_spsc_ratio_8B >= " + BenchShmemCommand.RATE_TARGET + ", min_put_efficiency (smallest put "
            + "/ FM bandwidth) >= " + BenchShmemCommand.EFFICIENCY_TARGET + ", get_latency_busy_target_ns_8B <= "
            + BenchShmemCommand.BUSY_TARGET + " x get_latency_ns_8B; put_latency_ratio (put / FM one-way 8 B) <= "
            + BenchShmemCommand.LATENCY_TARGET + "."})
final class BenchShmemCommand implements Callable<Integer> {
    static final double LATENCY_TARGET = 1.2;
    static final double EFFICIENCY_TARGET = 0.9;
    static final double PUT_SPSC_TARGET = 2.0;
    static final double GET_SPSC_TARGET = 1.5;
    static final double BW_TARGET = 0.7;
    static final double RATE_TARGET = 0.25;
    static final double BUSY_TARGET = 1.2;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (key \"metrics\"; "
        + "default: none).")
    private Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "Draw latency, bandwidth and barrier curves"
        + " (default: none).")
    private Path png;

    @Option(names = "--trials", paramLabel = "N", description = "Measured trials (default: ${DEFAULT-VALUE}).")
    private int trials = 5;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes (default: ${DEFAULT-VALUE}).")
    private int warmups = 3;

    @Option(names = "--round-trips", paramLabel = "N", description = "Round trips per small latency point "
        + "(default: ${DEFAULT-VALUE}).")
    private int roundTrips = 100_000;

    @Option(names = "--mb-per-point", paramLabel = "MB", description = "Megabytes per bandwidth point "
        + "(default: ${DEFAULT-VALUE}).")
    private int mbPerPoint = 128;

    @Option(names = "--user-blocks", paramLabel = "N", description = "Timed blocks of each user-shaped figure "
        + "(ping-pong, barrier, broadcast, reduce loops on 2 and 4 PEs; default: ${DEFAULT-VALUE}).")
    private int userBlocks = 40;

    /** Iterations per block of the user-shaped figures. */
    private static final int USER_ITERATIONS = 200;
    /** A put after a computation ({@link ComputeGapShape}): rounds per figure, and the computation before each put. */
    private static final int COMPUTE_GAP_ROUNDS = 40;
    private static final int COMPUTE_GAP_MS = 5;

    /** 8-byte puts per pass of the context-scaling figure. */
    private static final int CONTEXT_PUTS = 1 << 20;

    @Option(names = "--clock", paramLabel = "wall|virtual", description = "virtual: the users' shapes of use (put and "
        + "wait_until, get, fetch-add, a stream of puts) on a modelled machine's clock (--machine, --model; default: "
        + "wall).")
    private String clock = "wall";

    @Option(names = "--machine", paramLabel = "NAME|FILE", description = "With --clock virtual: the machine "
        + "(default: ${DEFAULT-VALUE}; info --all lists them).")
    private String machine = ClockSettings.DEFAULT_MACHINE;

    @Option(names = "--model", paramLabel = "KEY=VALUE", description = "With --clock virtual: a switch of the "
        + "machine's model (repeatable; default: the machine's own choices).")
    private java.util.Map<String, String> model = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (clock.equals("virtual")) {
            return VirtualShmemReport.run(new ClockSettings(true, machine, model, false), json, warmups, trials);
        }
        if (!clock.equals("wall")) {
            throw new IllegalArgumentException("--clock " + clock + ": must be wall or virtual");
        }
        if (trials < 1 || warmups < 0 || roundTrips < 1 || mbPerPoint < 1 || userBlocks < 1) {
            throw new IllegalArgumentException("need --trials >= 1, --warmups >= 0, --round-trips >= 1, "
                + "--mb-per-point >= 1, --user-blocks >= 1");
        }
        final ShmemBenchmark bench = new ShmemBenchmark(trials, warmups, roundTrips, (long) mbPerPoint << 20);
        if (Launched.environment().isPresent()) {
            return launched(bench);
        }
        final ShmemBenchmark.Result r;
        final SchedulingLatency scheduling;
        final UserShapes.Figure[] user;
        final ComputeGapShape.Figure[] afterCompute;
        final UserShapes shapes = new UserShapes(userBlocks, USER_ITERATIONS);
        try (Progress progress = new Progress("bench shmem", bench.steps() + bench.schedulingSteps()
            + UserShapes.SHAPES.length * UserShapes.PES.length + 1)) {
            r = bench.run(progress);
            scheduling = bench.schedulingLatency(progress);
            user = shapes.run(() -> progress.accept(1));
            afterCompute = new ComputeGapShape(COMPUTE_GAP_ROUNDS, COMPUTE_GAP_MS).run(true);
            progress.accept(1);
        }
        final double[] ctxMops = new ContextScalingBenchmark(trials, warmups, CONTEXT_PUTS).run();
        print(r);
        System.out.printf("8 B put rate over contexts (batches of %d, each batch on the next context):%n",
            ContextScalingBenchmark.BATCH);
        for (int i = 0; i < ContextScalingBenchmark.CONTEXTS.length; i++) {
            System.out.printf("  %d context(s): %8.2f Mops/s (%.2f of 1 context)%n",
                ContextScalingBenchmark.CONTEXTS[i], ctxMops[i], ctxMops[i] / ctxMops[0]);
        }
        UserShapes.print(user, r.putNs()[0]);
        ComputeGapShape.print(afterCompute, COMPUTE_GAP_MS);
        System.out.printf("8 B put latency with run slots: dcs %.1f ns, none %.1f ns (medians; 2 PEs, %d cores); "
            + "dcs_latency_ratio_8B = %.2f (paired, target <= %.1f: %s)%n", scheduling.dcsMedianNs(),
            scheduling.noneMedianNs(), Runtime.getRuntime().availableProcessors(), scheduling.ratio(),
            BenchFmCommand.DCS_LATENCY_TARGET, scheduling.ratio() <= BenchFmCommand.DCS_LATENCY_TARGET ? "met"
                : "MISSED");
        if (json != null) {
            final ObjectNode root = toJson(r);
            final ObjectNode m = (ObjectNode) root.get("metrics");
            for (int i = 0; i < ContextScalingBenchmark.CONTEXTS.length; i++) {
                final int k = ContextScalingBenchmark.CONTEXTS[i];
                m.put("ctx_put_rate_Mops_8B_" + k + "ctx", ctxMops[i]);
                m.put("ctx_put_rate_ratio_" + k + "ctx", ctxMops[i] / ctxMops[0]);
            }
            m.put("put_latency_ns_8B_none", scheduling.noneMedianNs());
            m.put("put_latency_ns_8B_dcs", scheduling.dcsMedianNs());
            m.put("dcs_latency_ratio_8B", scheduling.ratio());
            final ObjectNode t = (ObjectNode) root.get("targets");
            UserShapes.toJson(m, t, user, r.putNs()[0]);
            ComputeGapShape.toJson(m, afterCompute, "");
            if (t != null) {
                t.put("dcs_latency_ratio_8B_max", BenchFmCommand.DCS_LATENCY_TARGET);
                t.put("dcs_latency_ratio_8B_met", scheduling.ratio() <= BenchFmCommand.DCS_LATENCY_TARGET);
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        if (png != null) {
            Reports.writePng(png, charts(r));
            System.out.println("wrote " + png);
        }
        return 0;
    }

    /**
     * Under {@code jhpvm launch -n 2}: FM and SHMEM over the launched fabric (Aeron IPC, or UDP), then, on rank 0,
     * the same on 2 PEs in this JVM over the emulated Myrinet, side by side. The barrier is measured on the 2 PEs.
     */
    private int launched(final ShmemBenchmark bench) throws Exception {
        final var env = Launched.environment().orElseThrow();
        final String kind = Launched.twoPeTransport("bench shmem");
        final ShmemBenchmark.Result aeron;
        try (Progress progress = new Progress("bench shmem over Aeron " + kind, bench.twoPeSteps())) {
            aeron = bench.runTwoPes(false, progress);
        }
        final SegmentBenchmark segments = new SegmentBenchmark(trials, warmups, roundTrips,
            (long) mbPerPoint << 20);
        final SegmentBenchmark.Result sharedAeron;
        try (Progress progress = new Progress("bench shmem segments over Aeron " + kind, segments.steps())) {
            sharedAeron = segments.run(false, progress);
        }
        final ComputeGapShape.Figure[] afterCompute = new ComputeGapShape(COMPUTE_GAP_ROUNDS, COMPUTE_GAP_MS)
            .run(false);
        if (!Launched.reports()) {
            return 0;
        }
        final ShmemBenchmark.Result emulated;
        try (Progress progress = new Progress("bench shmem in-JVM", bench.twoPeSteps())) {
            emulated = bench.runTwoPes(true, progress);
        }
        final SegmentBenchmark.Result sharedEmulated;
        try (Progress progress = new Progress("bench shmem segments in-JVM", segments.steps())) {
            sharedEmulated = segments.run(true, progress);
        }
        System.out.printf("bench shmem under launch: 2 PEs in %d process(es), SHMEM and FM over Aeron %s next to "
            + "both over the emulated Myrinet in one JVM; medians of %d trials after %d warm-up passes%n",
            env.processes(), kind.toUpperCase(java.util.Locale.ROOT), trials, warmups);
        System.out.printf("%10s %14s %14s %14s %16s %16s%n", "bytes", "aeron_put_ns", "aeron_get_ns", "aeron_fm_ns",
            "emulated_put_ns", "emulated_get_ns");
        for (int i = 0; i < ShmemBenchmark.LATENCY_SIZES.length; i++) {
            final int size = ShmemBenchmark.LATENCY_SIZES[i];
            System.out.printf("%10d %14.1f %14.1f %14.1f %16.1f %16.1f%n", size, aeron.putNs()[i], aeron.getNs()[i],
                aeron.fmLatencyAt(size), emulated.putNs()[i], emulated.getNs()[i]);
        }
        System.out.printf("%10s %15s %17s %17s %18s%n", "bytes", "aeron_put_MBps", "aeron_putNbi_MBps",
            "aeron_getNbi_MBps", "emulated_put_MBps");
        for (int i = 0; i < ShmemBenchmark.BANDWIDTH_SIZES.length; i++) {
            System.out.printf("%10d %15.1f %17.1f %17.1f %18.1f%n", ShmemBenchmark.BANDWIDTH_SIZES[i],
                aeron.putMBps()[i], aeron.putNbiMBps()[i], aeron.getNbiMBps()[i], emulated.putMBps()[i]);
        }
        System.out.printf("fetchAdd latency: %.1f ns over Aeron %s, %.1f ns in one JVM%n", aeron.fetchAddNs(), kind,
            emulated.fetchAddNs());
        System.out.printf("barrierAll on 2 PEs: %.1f ns over Aeron %s, %.1f ns in one JVM%n", aeron.barrierNs()[0],
            kind, emulated.barrierNs()[0]);
        System.out.printf("over Aeron %s: put_latency_ratio = %.2f (target <= %.1f: %s), min_put_efficiency = %.2f "
            + "(target >= %.1f: %s), against FM over the same fabric%n", kind, aeron.putLatencyRatio(),
            LATENCY_TARGET, aeron.putLatencyRatio() <= LATENCY_TARGET ? "met" : "MISSED", aeron.minPutEfficiency(),
            EFFICIENCY_TARGET, aeron.minPutEfficiency() >= EFFICIENCY_TARGET ? "met" : "MISSED");
        final List<ProcessFigures.Figure> process = ProcessFigures.of(aeron, emulated, sharedAeron, sharedEmulated);
        ProcessFigures.print(process, aeron, sharedAeron, sharedEmulated);
        System.out.printf("over Aeron %s: ", kind);
        ComputeGapShape.print(afterCompute, COMPUTE_GAP_MS);
        if (json != null) {
            final ObjectNode root = Reports.object();
            root.put("benchmark", "shmem");
            root.putObject("config").put("pes", 2).put("processes", env.processes()).put("transport", kind)
                .put("trials", trials).put("warmups", warmups).put("round_trips", roundTrips)
                .put("mb_per_point", mbPerPoint).put("cores", Runtime.getRuntime().availableProcessors())
                .put("java", System.getProperty("java.version"));
            final ObjectNode m = root.putObject("metrics");
            putLaunchedMetrics(m, "aeron_" + kind + "_", aeron);
            putLaunchedMetrics(m, "emulated_", emulated);
            ProcessFigures.write(process, aeron, sharedAeron, sharedEmulated, m, root.putObject("targets"));
            ComputeGapShape.toJson(m, afterCompute, "process_");
            final ArrayNode lat = root.putArray("latency");
            for (int i = 0; i < ShmemBenchmark.LATENCY_SIZES.length; i++) {
                lat.addObject().put("bytes", ShmemBenchmark.LATENCY_SIZES[i])
                    .put("aeron_put_latency_ns", aeron.putNs()[i]).put("aeron_get_latency_ns", aeron.getNs()[i])
                    .put("emulated_put_latency_ns", emulated.putNs()[i])
                    .put("emulated_get_latency_ns", emulated.getNs()[i]);
            }
            final ArrayNode bw = root.putArray("bandwidth");
            for (int i = 0; i < ShmemBenchmark.BANDWIDTH_SIZES.length; i++) {
                bw.addObject().put("bytes", ShmemBenchmark.BANDWIDTH_SIZES[i])
                    .put("aeron_put_bw_MBps", aeron.putMBps()[i]).put("aeron_put_nbi_bw_MBps", aeron.putNbiMBps()[i])
                    .put("aeron_get_nbi_bw_MBps", aeron.getNbiMBps()[i])
                    .put("emulated_put_bw_MBps", emulated.putMBps()[i]);
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        return 0;
    }

    private static void putLaunchedMetrics(final ObjectNode m, final String prefix, final ShmemBenchmark.Result r) {
        m.put(prefix + "shmem_put_latency_ns_8B", r.putNs()[0]);
        m.put(prefix + "shmem_get_latency_ns_8B", r.getNs()[0]);
        m.put(prefix + "shmem_fetch_add_latency_ns", r.fetchAddNs());
        m.put(prefix + "shmem_put_bw_MBps_64KiB", Stats.at(ShmemBenchmark.BANDWIDTH_SIZES, r.putMBps(), 65536));
        m.put(prefix + "shmem_barrier_ns_2pe", r.barrierNs()[0]);
        m.put(prefix + "fm_latency_mean_ns_8B", r.fm().latencyNs()[0]);
        m.put(prefix + "put_latency_ratio", r.putLatencyRatio());
        m.put(prefix + "min_put_efficiency", r.minPutEfficiency());
    }

    private void print(final ShmemBenchmark.Result r) {
        System.out.printf("bench shmem: 2 PEs (barrier: 2..64), median of %d trials after %d warm-up passes%n",
            trials, warmups);
        System.out.printf("%10s %12s %12s %8s %12s%n", "bytes", "put_ns", "fm_ns", "ratio", "get_ns");
        for (int i = 0; i < ShmemBenchmark.LATENCY_SIZES.length; i++) {
            final int size = ShmemBenchmark.LATENCY_SIZES[i];
            System.out.printf("%10d %12.1f %12.1f %8.2f %12.1f%n", size, r.putNs()[i], r.fmLatencyAt(size),
                r.putNs()[i] / r.fmLatencyAt(size), r.getNs()[i]);
        }
        System.out.printf("%10s %12s %12s %12s %12s %8s%n", "bytes", "put_MBps", "putNbi_MBps", "getNbi_MBps",
            "fm_MBps", "put/fm");
        for (int i = 0; i < ShmemBenchmark.BANDWIDTH_SIZES.length; i++) {
            System.out.printf("%10d %12.1f %12.1f %12.1f %12.1f %8.2f%n", ShmemBenchmark.BANDWIDTH_SIZES[i],
                r.putMBps()[i], r.putNbiMBps()[i], r.getNbiMBps()[i], r.fm().bandwidthMBps()[i],
                r.putMBps()[i] / r.fm().bandwidthMBps()[i]);
        }
        System.out.printf("fetchAdd latency %.1f ns%n", r.fetchAddNs());
        System.out.printf("target computing (no SHMEM calls): get 8 B %.1f ns, fetchAdd %.1f ns%n",
            r.getBusyTargetNs(), r.fetchAddBusyTargetNs());
        System.out.printf("raw machine: spsc one-way %.1f ns, spsc 8 B rate %.1f Mops/s; arraycopy MB/s 64 KiB %.1f, "
            + "1 MiB %.1f%n", r.raw().spscLatencyNs(), r.raw().spscRateMops(), arraycopyAt(r, 65536),
            arraycopyAt(r, 1 << 20));
        if (r.paired().measured()) {
            System.out.printf("spsc hop between the PE threads, paired block by block with put, get and fetchAdd: "
                + "%.1f ns (the ratios below; against the raw hop above: put %.2f, get %.2f, fetchAdd %.2f)%n",
                r.paired().hopNs(), r.putLatencySpscRatioSeparate(), r.getLatencySpscRatioSeparate(),
                r.fetchAddLatencySpscRatioSeparate());
        }
        for (int i = 0; i < ShmemBenchmark.BARRIER_PES.length; i++) {
            System.out.printf("barrierAll on %2d PEs: %10.1f ns%n", ShmemBenchmark.BARRIER_PES[i], r.barrierNs()[i]);
        }
        System.out.printf("put_latency_ratio  = %.2f (target <= %.1f: %s)%n", r.putLatencyRatio(), LATENCY_TARGET,
            r.putLatencyRatio() <= LATENCY_TARGET ? "met" : "MISSED");
        System.out.printf("min_put_efficiency = %.2f (target >= %.1f: %s)%n", r.minPutEfficiency(),
            EFFICIENCY_TARGET, r.minPutEfficiency() >= EFFICIENCY_TARGET ? "met" : "MISSED");
        target("put_latency_spsc_ratio", r.putLatencySpscRatio(), PUT_SPSC_TARGET, false);
        target("get_latency_spsc_ratio", r.getLatencySpscRatio(), GET_SPSC_TARGET, false);
        target("fetch_add_latency_spsc_ratio", r.fetchAddLatencySpscRatio(), GET_SPSC_TARGET, false);
        target("put_bw_arraycopy_ratio_64KiB", r.putBwArraycopyRatio(65536), BW_TARGET, true);
        target("put_bw_arraycopy_ratio_1MiB", r.putBwArraycopyRatio(1 << 20), BW_TARGET, true);
        target("get_bw_arraycopy_ratio_1MiB", r.getBwArraycopyRatio(1 << 20), BW_TARGET, true);
        target("put_rate_spsc_ratio_8B", r.putRateSpscRatio(), RATE_TARGET, true);
        target("get_latency_busy_target_ratio", r.getBusyTargetRatio(), BUSY_TARGET, false);
    }

    private static void target(final String name, final double value, final double target, final boolean atLeast) {
        final boolean met = atLeast ? value >= target : value <= target;
        System.out.printf("%-30s = %.2f (target %s %.2f: %s)%n", name, value, atLeast ? ">=" : "<=", target,
            met ? "met" : "MISSED");
    }

    private static double arraycopyAt(final ShmemBenchmark.Result r, final int size) {
        return Stats.at(ShmemBenchmark.BANDWIDTH_SIZES, r.raw().arraycopyMBps(), size);
    }

    private ObjectNode toJson(final ShmemBenchmark.Result r) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "shmem");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("pes", 2);
        cfg.put("trials", trials);
        cfg.put("warmups", warmups);
        cfg.put("round_trips", roundTrips);
        cfg.put("mb_per_point", mbPerPoint);
        cfg.put("cores", Runtime.getRuntime().availableProcessors());
        cfg.put("java", System.getProperty("java.version"));
        final ObjectNode m = root.putObject("metrics");
        m.put("put_latency_ns_8B", r.putNs()[0]);
        m.put("get_latency_ns_8B", r.getNs()[0]);
        m.put("fetch_add_latency_ns", r.fetchAddNs());
        m.put("fm_latency_ns_8B", r.fm().latencyNs()[0]);
        m.put("put_latency_ratio", r.putLatencyRatio());
        m.put("min_put_efficiency", r.minPutEfficiency());
        m.put("barrier_ns_2pe", r.barrierNs()[0]);
        m.put("barrier_ns_64pe", r.barrierNs()[ShmemBenchmark.BARRIER_PES.length - 1]);
        m.put("spsc_latency_ns", r.raw().spscLatencyNs());
        m.put("spsc_rate_Mops_8B", r.raw().spscRateMops());
        m.put("arraycopy_bw_MBps_64KiB", arraycopyAt(r, 65536));
        m.put("arraycopy_bw_MBps_1MiB", arraycopyAt(r, 1 << 20));
        m.put("put_rate_Mops_8B", r.putRateMops8B());
        m.put("put_bw_MBps_64KiB", Stats.at(ShmemBenchmark.BANDWIDTH_SIZES, r.putMBps(), 65536));
        m.put("put_bw_MBps_1MiB", Stats.at(ShmemBenchmark.BANDWIDTH_SIZES, r.putMBps(), 1 << 20));
        m.put("get_bw_MBps_1MiB", Stats.at(ShmemBenchmark.BANDWIDTH_SIZES, r.getNbiMBps(), 1 << 20));
        m.put("put_latency_spsc_ratio", r.putLatencySpscRatio());
        m.put("get_latency_spsc_ratio", r.getLatencySpscRatio());
        m.put("fetch_add_latency_spsc_ratio", r.fetchAddLatencySpscRatio());
        m.put("spsc_ratios_paired", r.paired().measured());
        if (r.paired().measured()) {
            m.put("spsc_latency_ns_paired", r.paired().hopNs());
        }
        m.put("put_latency_spsc_ratio_separate", r.putLatencySpscRatioSeparate());
        m.put("get_latency_spsc_ratio_separate", r.getLatencySpscRatioSeparate());
        m.put("fetch_add_latency_spsc_ratio_separate", r.fetchAddLatencySpscRatioSeparate());
        m.put("put_bw_arraycopy_ratio_64KiB", r.putBwArraycopyRatio(65536));
        m.put("put_bw_arraycopy_ratio_1MiB", r.putBwArraycopyRatio(1 << 20));
        m.put("get_bw_arraycopy_ratio_1MiB", r.getBwArraycopyRatio(1 << 20));
        m.put("put_rate_spsc_ratio_8B", r.putRateSpscRatio());
        m.put("get_latency_busy_target_ns_8B", r.getBusyTargetNs());
        m.put("fetch_add_latency_busy_target_ns", r.fetchAddBusyTargetNs());
        m.put("get_latency_busy_target_ratio", r.getBusyTargetRatio());
        final ObjectNode targets = root.putObject("targets");
        targets.put("put_latency_ratio_max", LATENCY_TARGET);
        targets.put("min_put_efficiency_min", EFFICIENCY_TARGET);
        targets.put("put_latency_ratio_met", r.putLatencyRatio() <= LATENCY_TARGET);
        targets.put("min_put_efficiency_met", r.minPutEfficiency() >= EFFICIENCY_TARGET);
        targets.put("put_latency_spsc_ratio_max", PUT_SPSC_TARGET);
        targets.put("put_latency_spsc_ratio_met", r.putLatencySpscRatio() <= PUT_SPSC_TARGET);
        targets.put("get_latency_spsc_ratio_max", GET_SPSC_TARGET);
        targets.put("get_latency_spsc_ratio_met", r.getLatencySpscRatio() <= GET_SPSC_TARGET);
        targets.put("fetch_add_latency_spsc_ratio_max", GET_SPSC_TARGET);
        targets.put("fetch_add_latency_spsc_ratio_met", r.fetchAddLatencySpscRatio() <= GET_SPSC_TARGET);
        targets.put("put_bw_arraycopy_ratio_min", BW_TARGET);
        targets.put("put_bw_arraycopy_ratio_64KiB_met", r.putBwArraycopyRatio(65536) >= BW_TARGET);
        targets.put("put_bw_arraycopy_ratio_1MiB_met", r.putBwArraycopyRatio(1 << 20) >= BW_TARGET);
        targets.put("get_bw_arraycopy_ratio_1MiB_met", r.getBwArraycopyRatio(1 << 20) >= BW_TARGET);
        targets.put("put_rate_spsc_ratio_8B_min", RATE_TARGET);
        targets.put("put_rate_spsc_ratio_8B_met", r.putRateSpscRatio() >= RATE_TARGET);
        targets.put("get_latency_busy_target_ratio_max", BUSY_TARGET);
        targets.put("get_latency_busy_target_met", r.getBusyTargetRatio() <= BUSY_TARGET);
        final ArrayNode lat = root.putArray("latency");
        for (int i = 0; i < ShmemBenchmark.LATENCY_SIZES.length; i++) {
            final ObjectNode row = lat.addObject();
            final int size = ShmemBenchmark.LATENCY_SIZES[i];
            row.put("bytes", size);
            row.put("put_latency_ns", r.putNs()[i]);
            row.put("get_latency_ns", r.getNs()[i]);
            if (!Double.isNaN(r.fmLatencyAt(size))) {
                row.put("fm_latency_ns", r.fmLatencyAt(size));
            }
        }
        final ArrayNode bw = root.putArray("bandwidth");
        for (int i = 0; i < ShmemBenchmark.BANDWIDTH_SIZES.length; i++) {
            final ObjectNode row = bw.addObject();
            row.put("bytes", ShmemBenchmark.BANDWIDTH_SIZES[i]);
            row.put("put_bw_MBps", r.putMBps()[i]);
            row.put("put_nbi_bw_MBps", r.putNbiMBps()[i]);
            row.put("get_nbi_bw_MBps", r.getNbiMBps()[i]);
            row.put("fm_bw_MBps", r.fm().bandwidthMBps()[i]);
            row.put("put_efficiency", r.putMBps()[i] / r.fm().bandwidthMBps()[i]);
            row.put("arraycopy_bw_MBps", r.raw().arraycopyMBps()[i]);
            row.put("put_bw_arraycopy_ratio", r.putMBps()[i] / r.raw().arraycopyMBps()[i]);
        }
        final ArrayNode bar = root.putArray("barrier");
        for (int i = 0; i < ShmemBenchmark.BARRIER_PES.length; i++) {
            final ObjectNode row = bar.addObject();
            row.put("pes", ShmemBenchmark.BARRIER_PES[i]);
            row.put("barrier_ns", r.barrierNs()[i]);
        }
        return root;
    }

    private static List<XYChart> charts(final ShmemBenchmark.Result r) {
        final double[] lx = Arrays.stream(ShmemBenchmark.LATENCY_SIZES).asDoubleStream().toArray();
        final XYChart latency = Reports.logLogChart("latency", "ns");
        latency.addSeries("SHMEM put (one-way)", lx, r.putNs());
        latency.addSeries("SHMEM get (round trip)", lx, r.getNs());
        final double[] bx = Arrays.stream(ShmemBenchmark.BANDWIDTH_SIZES).asDoubleStream().toArray();
        final XYChart bandwidth = Reports.logLogChart("bandwidth", "MB/s");
        bandwidth.addSeries("SHMEM put", bx, r.putMBps());
        bandwidth.addSeries("SHMEM putNbi", bx, r.putNbiMBps());
        bandwidth.addSeries("SHMEM getNbi", bx, r.getNbiMBps());
        bandwidth.addSeries("FM", bx, r.fm().bandwidthMBps());
        final double[] px = Arrays.stream(ShmemBenchmark.BARRIER_PES).asDoubleStream().toArray();
        final XYChart barrier = Reports.logLogChart("barrierAll", "ns");
        barrier.addSeries("barrierAll", px, r.barrierNs());
        return List.of(latency, bandwidth, barrier);
    }
}
