package org.jhpvm.apps.commands;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.MpiBenchmark;
import org.knowm.xchart.XYChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import org.jhpvm.fabric.ClockSettings;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code jhpvm bench mpi}: MPI-FM against Fast Messages and {@code System.arraycopy}, OSU style. */
@Command(name = "mpi", mixinStandardHelpOptions = true,
    description = {"MPI-FM on 2 ranks against Fast Messages and System.arraycopy in the same run: one-way latency "
        + "(send/recv ping-pong) and window bandwidth (" + MpiBenchmark.WINDOW + " iSends, waitAll) for 8 B .. 4 MiB, "
        + "from arrays and from direct buffers, bidirectional bandwidth; allReduce of doubles, 8 B .. 1 MiB, on "
        + "2 .. 64 ranks.",
        "Targets: mpi_min_efficiency (MPI bandwidth / FM bandwidth, the lowest over every size) >= "
            + BenchMpiCommand.EFFICIENCY_TARGET + ", mpi_latency_overhead_ns_8B (MPI one-way - FM one-way) <= "
            + BenchMpiCommand.OVERHEAD_TARGET_NS + "."})
final class BenchMpiCommand implements Callable<Integer> {
    static final double EFFICIENCY_TARGET = 0.9;
    static final double OVERHEAD_TARGET_NS = 60;
    /** Under launch, the defaults of the settings not given. */
    static final int LAUNCHED_TRIALS = 3;
    static final int LAUNCHED_WARMUPS = 1;
    static final int LAUNCHED_ROUND_TRIPS = 1_000;
    static final int LAUNCHED_MB_PER_POINT = 16;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (key \"metrics\"; "
        + "default: none).")
    private Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "Draw latency and bandwidth curves into a PNG "
        + "(default: none).")
    private Path png;

    @Option(names = "--trials", paramLabel = "N", description = "Measured trials; medians are reported (default: "
        + "${DEFAULT-VALUE}; under launch " + LAUNCHED_TRIALS + ").")
    private int trials = 5;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes per job (default: ${DEFAULT-VALUE}; "
        + "under launch " + LAUNCHED_WARMUPS + ").")
    private int warmups = 2;

    @Option(names = "--round-trips", paramLabel = "N", description = "Ping-pong round trips per latency point "
        + "(a fiftieth of them from 1 MiB; default: ${DEFAULT-VALUE}; under launch " + LAUNCHED_ROUND_TRIPS + ").")
    private int roundTrips = 5_000;

    @Option(names = "--mb-per-point", paramLabel = "MB", description = "Megabytes streamed per bandwidth point "
        + "(default: ${DEFAULT-VALUE}; under launch " + LAUNCHED_MB_PER_POINT + ").")
    private int mbPerPoint = 64;

    @Option(names = "--max-ranks", paramLabel = "N", description = "Largest rank count of the allReduce sweep (of "
        + "2, 4, 8, 16, 32, 64; default: ${DEFAULT-VALUE}; under launch at most the launched job's PEs).")
    private int maxRanks = 64;

    @Spec
    private CommandSpec spec;

    /** What the run measured, for the JSON's {@code config.path}: {@code emulated}, or {@code aeron_ipc|udp|jvm}. */
    private String measuredPath = "emulated";

    @Option(names = "--clock", paramLabel = "wall|virtual", description = "virtual: the MPI-FM paper's figures on a "
        + "modelled machine's clock (--machine, --model), MPI's own work costing what the machine file says "
        + "(default: wall).")
    private String clock = "wall";

    @Option(names = "--machine", paramLabel = "NAME|FILE", description = "With --clock virtual: the machine "
        + "(default: ${DEFAULT-VALUE}; info --all lists them).")
    private String machine = "ppro-pci-1998";

    @Option(names = "--model", paramLabel = "KEY=VALUE", description = "With --clock virtual: a switch of the "
        + "machine's model (repeatable; default: the machine's own choices).")
    private java.util.Map<String, String> model = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (clock.equals("virtual")) {
            return VirtualMpiReport.run(new ClockSettings(true, machine, model, false), json);
        }
        if (!clock.equals("wall")) {
            throw new IllegalArgumentException("--clock " + clock + ": must be wall or virtual");
        }
        if (trials < 1 || warmups < 0 || roundTrips < 1 || mbPerPoint < 1 || maxRanks < 2) {
            throw new IllegalArgumentException("need --trials >= 1, --warmups >= 0, --round-trips >= 1, "
                + "--mb-per-point >= 1, --max-ranks >= 2");
        }
        // Under launch every job of the run is a job of the launched processes: the point-to-point figures run on its
        // 2 PEs over the launched fabric, and the allReduce sweep stops at its size (a job of more PEs cannot run).
        String path = "in one JVM over the emulated Myrinet";
        if (Launched.environment().isPresent()) {
            final var env = Launched.environment().get();
            final String kind = Launched.twoPeTransport("bench mpi");
            measuredPath = "aeron_" + kind;
            path = "over Aeron " + kind.toUpperCase(java.util.Locale.ROOT) + " (" + env.processes()
                + " launched process(es))";
            maxRanks = Math.min(maxRanks, env.nicCount());
            // Over Aeron a message costs tens of microseconds, not hundreds of nanoseconds: the settings the user did
            // not give are lighter, so that the run ends within a few minutes (measured: about 2 on 2 cores).
            final ParseResult given = spec.commandLine().getParseResult();
            trials = given.hasMatchedOption("--trials") ? trials : LAUNCHED_TRIALS;
            warmups = given.hasMatchedOption("--warmups") ? warmups : LAUNCHED_WARMUPS;
            roundTrips = given.hasMatchedOption("--round-trips") ? roundTrips : LAUNCHED_ROUND_TRIPS;
            mbPerPoint = given.hasMatchedOption("--mb-per-point") ? mbPerPoint : LAUNCHED_MB_PER_POINT;
        }
        final MpiBenchmark bench = new MpiBenchmark(trials, warmups, roundTrips, (long) mbPerPoint << 20, maxRanks);
        final MpiBenchmark.Result r;
        try (Progress progress = new Progress("bench mpi", bench.steps())) {
            r = bench.run(progress);
        }
        if (!Launched.reports()) {
            return 0;
        }
        final int[] sizes = MpiBenchmark.SIZES;
        System.out.printf("bench mpi: 2 ranks %s, FM over the same path and arraycopy in the same run; "
            + "medians of %d trials after %d warm-up passes (mpi/fm and the latency overhead: MPI against FM on the "
            + "same endpoint in the same job, FM's stream right after each window, blocks of each ping-pong "
            + "alternated; fm_same_MBps is that stream)%n", path, trials, warmups);
        System.out.printf("%10s %12s %12s %12s %12s %12s %14s %12s %12s %10s%n", "bytes", "fm_lat_ns",
            "mpi_lat_ns", "fm_MBps", "fm_same_MBps", "mpi_MBps", "mpi_buf_MBps", "mpi_bi_MBps", "copy_MBps", "mpi/fm");
        for (int i = 0; i < sizes.length; i++) {
            System.out.printf("%10d %12.1f %12.1f %12.1f %12.1f %12.1f %14.1f %12.1f %12.1f %10.2f%n", sizes[i],
                r.fm().latencyNs()[i], r.mpiLatencyNs()[i], r.fm().bandwidthMBps()[i], r.fmSameJobMBps()[i],
                r.mpiMBps()[i], r.mpiBufferMBps()[i], r.mpiBiMBps()[i], r.arraycopyMBps()[i], r.efficiency()[i]);
        }
        System.out.printf("allReduce of doubles, microseconds per call (rank 0):%n%8s", "ranks");
        for (final int b : MpiBenchmark.ALLREDUCE_SIZES) {
            System.out.printf(" %12s", b + " B");
        }
        System.out.println();
        final List<Integer> rankCounts = rankCounts();
        for (int k = 0; k < rankCounts.size(); k++) {
            System.out.printf("%8d", rankCounts.get(k));
            for (int j = 0; j < MpiBenchmark.ALLREDUCE_SIZES.length; j++) {
                System.out.printf(" %12.1f", r.allReduceUs()[k * MpiBenchmark.ALLREDUCE_SIZES.length + j]);
            }
            System.out.println();
        }
        final double eff = r.minEfficiency();
        final double overhead = r.latencyOverheadNs8B();
        System.out.printf("mpi_min_efficiency = %.3f (target >= %.1f: %s; against FM's own jobs: %.3f)%n", eff,
            EFFICIENCY_TARGET, eff >= EFFICIENCY_TARGET ? "met" : "MISSED", r.minEfficiencyJobs());
        System.out.printf("mpi_latency_overhead_ns_8B = %.1f (target <= %.0f: %s; against FM's own job: %.1f)%n",
            overhead, OVERHEAD_TARGET_NS, overhead <= OVERHEAD_TARGET_NS ? "met" : "MISSED", r.overheadNs8BJobs());
        System.out.printf("mpi_bw_MBps_1MiB = %.1f, arraycopy_bw_MBps_1MiB = %.1f%n",
            MpiBenchmark.Result.at(r.mpiMBps(), 1 << 20), MpiBenchmark.Result.at(r.arraycopyMBps(), 1 << 20));
        if (json != null) {
            Reports.writeJson(json, toJson(r, rankCounts));
            System.out.println("wrote " + json);
        }
        if (png != null) {
            Reports.writePng(png, charts(r));
            System.out.println("wrote " + png);
        }
        return 0;
    }

    private List<Integer> rankCounts() {
        return java.util.Arrays.stream(MpiBenchmark.ALLREDUCE_RANKS).filter(n -> n <= maxRanks).boxed().toList();
    }

    private ObjectNode toJson(final MpiBenchmark.Result r, final List<Integer> rankCounts) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "mpi");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("ranks", 2).put("path", measuredPath).put("trials", trials).put("warmups", warmups).put("round_trips", roundTrips)
            .put("mb_per_point", mbPerPoint).put("window", MpiBenchmark.WINDOW).put("max_ranks", maxRanks)
            .put("cores", Runtime.getRuntime().availableProcessors()).put("java", System.getProperty("java.version"));
        final ObjectNode m = root.putObject("metrics");
        m.put("mpi_min_efficiency", r.minEfficiency());
        m.put("mpi_min_efficiency_separate_jobs", r.minEfficiencyJobs());
        m.put("mpi_latency_overhead_ns_8B", r.latencyOverheadNs8B());
        m.put("mpi_latency_overhead_ns_8B_separate_jobs", r.overheadNs8BJobs());
        m.put("mpi_latency_ns_8B", r.mpiLatencyNs()[0]);
        m.put("fm_latency_ns_8B", r.fm().latencyNs()[0]);
        m.put("mpi_bw_MBps_1MiB", MpiBenchmark.Result.at(r.mpiMBps(), 1 << 20));
        m.put("fm_bw_MBps_1MiB", MpiBenchmark.Result.at(r.fm().bandwidthMBps(), 1 << 20));
        m.put("arraycopy_bw_MBps_1MiB", MpiBenchmark.Result.at(r.arraycopyMBps(), 1 << 20));
        m.put("mpi_buffer_bw_MBps_1MiB", MpiBenchmark.Result.at(r.mpiBufferMBps(), 1 << 20));
        m.put("mpi_bibw_MBps_1MiB", MpiBenchmark.Result.at(r.mpiBiMBps(), 1 << 20));
        for (int k = 0; k < rankCounts.size(); k++) {
            for (int j = 0; j < MpiBenchmark.ALLREDUCE_SIZES.length; j++) {
                m.put("allreduce_us_" + MpiBenchmark.ALLREDUCE_SIZES[j] + "B_" + rankCounts.get(k) + "ranks",
                    r.allReduceUs()[k * MpiBenchmark.ALLREDUCE_SIZES.length + j]);
            }
        }
        final ObjectNode targets = root.putObject("targets");
        targets.put("mpi_min_efficiency_min", EFFICIENCY_TARGET);
        targets.put("mpi_min_efficiency_met", r.minEfficiency() >= EFFICIENCY_TARGET);
        targets.put("mpi_latency_overhead_ns_8B_max", OVERHEAD_TARGET_NS);
        targets.put("mpi_latency_overhead_ns_8B_met", r.latencyOverheadNs8B() <= OVERHEAD_TARGET_NS);
        final ArrayNode rows = root.putArray("sizes");
        for (int i = 0; i < MpiBenchmark.SIZES.length; i++) {
            rows.addObject().put("bytes", MpiBenchmark.SIZES[i]).put("fm_latency_ns", r.fm().latencyNs()[i])
                .put("mpi_latency_ns", r.mpiLatencyNs()[i]).put("fm_bw_MBps", r.fm().bandwidthMBps()[i])
                .put("mpi_bw_MBps", r.mpiMBps()[i]).put("mpi_buffer_bw_MBps", r.mpiBufferMBps()[i])
                .put("mpi_bibw_MBps", r.mpiBiMBps()[i]).put("arraycopy_bw_MBps", r.arraycopyMBps()[i])
                .put("fm_same_job_bw_MBps", r.fmSameJobMBps()[i]).put("efficiency", r.efficiency()[i])
                .put("efficiency_separate_jobs", r.efficiencyJobs()[i]);
        }
        final ArrayNode ar = root.putArray("allreduce");
        for (int k = 0; k < rankCounts.size(); k++) {
            final ObjectNode row = ar.addObject().put("ranks", rankCounts.get(k));
            for (int j = 0; j < MpiBenchmark.ALLREDUCE_SIZES.length; j++) {
                row.put("us_" + MpiBenchmark.ALLREDUCE_SIZES[j] + "B",
                    r.allReduceUs()[k * MpiBenchmark.ALLREDUCE_SIZES.length + j]);
            }
        }
        return root;
    }

    private static List<XYChart> charts(final MpiBenchmark.Result r) {
        final double[] x = java.util.Arrays.stream(MpiBenchmark.SIZES).asDoubleStream().toArray();
        final XYChart lat = Reports.logLogChart("One-way latency", "ns");
        lat.addSeries("FM", x, r.fm().latencyNs());
        lat.addSeries("MPI", x, r.mpiLatencyNs());
        final XYChart bw = Reports.logLogChart("Bandwidth", "MB/s");
        bw.addSeries("FM stream", x, r.fm().bandwidthMBps());
        bw.addSeries("MPI iSend window (arrays)", x, r.mpiMBps());
        bw.addSeries("MPI iSend window (direct buffers)", x, r.mpiBufferMBps());
        bw.addSeries("arraycopy", x, r.arraycopyMBps());
        return List.of(lat, bw);
    }
}
