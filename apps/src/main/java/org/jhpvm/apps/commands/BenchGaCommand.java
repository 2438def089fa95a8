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
import org.jhpvm.apps.bench.GaBenchmark;
import org.jhpvm.apps.bench.MatmulBenchmark;
import org.jhpvm.apps.bench.SparseBenchmark;
import org.jhpvm.apps.bench.GaBenchmark.Op;
import org.knowm.xchart.XYChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jhpvm bench ga}: Global Arrays sections and ghost updates against SHMEM in the same run. */
@Command(name = "ga", mixinStandardHelpOptions = true,
    description = {"Global Arrays on 2 PEs against SHMEM moving the same bytes in the same job: put/get/acc of 1-D "
        + "sections and 2-D patches, strided sections (8 B .. 1 MiB), and updateGhosts against a hand-written SHMEM "
        + "halo exchange.",
        "Targets: min_put_efficiency_1KiB and min_get_efficiency_1KiB >= " + BenchGaCommand.EFFICIENCY_TARGET
            + ", ghost_update_ratio <= " + BenchGaCommand.GHOST_TARGET + "."})
final class BenchGaCommand implements Callable<Integer> {
    static final double EFFICIENCY_TARGET = 0.9;
    static final double GHOST_TARGET = 1.2;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (key \"metrics\"; "
        + "default: none).")
    private Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "Draw the bandwidth curves (default: none).")
    private Path png;

    @Option(names = "--trials", paramLabel = "N", description = "Measured trials (default: ${DEFAULT-VALUE}).")
    private int trials = 5;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes (default: ${DEFAULT-VALUE}).")
    private int warmups = 2;

    @Option(names = "--mb-per-point", paramLabel = "MB", description = "Megabytes per point and trial "
        + "(default: ${DEFAULT-VALUE}).")
    private int mbPerPoint = 64;

    @Mixin
    private ClockOptions clock = new ClockOptions();

    @Override
    public Integer call() throws Exception {
        if (clock.virtual()) {
            return VirtualGaReport.run(clock.declared(), json);
        }
        if (trials < 1 || warmups < 0 || mbPerPoint < 1) {
            throw new IllegalArgumentException("need --trials >= 1, --warmups >= 0, --mb-per-point >= 1");
        }
        if (Launched.environment().isPresent()) {
            Launched.twoPeTransport("bench ga"); // its jobs have 2 PEs
        }
        final GaBenchmark bench = new GaBenchmark(trials, warmups, (long) mbPerPoint << 20);
        final GaBenchmark.Result r;
        try (Progress progress = new Progress("bench ga", bench.steps())) {
            r = bench.run(progress);
        }
        final MatmulBenchmark.Result mm = new MatmulBenchmark(trials, warmups).run();
        final SparseBenchmark.Result sp = new SparseBenchmark(trials, warmups).run();
        if (!Launched.reports()) {
            return 0; // under launch, rank 0 reports
        }
        print(r);
        System.out.printf("matmulPatch %d x %d doubles on 2 PEs: %.2f GFLOP/s; the same loop on one thread without GA: "
            + "%.2f GFLOP/s (ratio %.2f)%n", MatmulBenchmark.N, MatmulBenchmark.N, mm.patchGflops(),
            mm.localGflops(), mm.ratio());
        System.out.printf("sparse matvec, 5-point Laplacian of %d x %d on 2 PEs: %.1f Mflop/s; the same compressed-row "
            + "product on one thread: %.1f Mflop/s (ratio %.2f)%n", SparseBenchmark.N, SparseBenchmark.N,
            sp.matvecMflops(), sp.localMflops(), sp.ratio());
        if (json != null) {
            final ObjectNode root = toJson(r);
            final ObjectNode m = (ObjectNode) root.get("metrics");
            m.put("matmul_patch_gflops", mm.patchGflops());
            m.put("matmul_local_gflops", mm.localGflops());
            m.put("matmul_patch_ratio", mm.ratio());
            m.put("sparse_matvec_mflops", sp.matvecMflops());
            m.put("sparse_local_mflops", sp.localMflops());
            m.put("sparse_matvec_ratio", sp.ratio());
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        if (png != null) {
            Reports.writePng(png, charts(r));
            System.out.println("wrote " + png);
        }
        return 0;
    }

    private void print(final GaBenchmark.Result r) {
        System.out.printf("bench ga: 2 PEs %s, PE 0 to sections owned by PE 1, median of %d trials after %d "
            + "warm-ups; MB/s, GA vs SHMEM moving the same bytes (ratio: median over adjacent slice pairs)%n",
            Launched.pathDescription(), trials, warmups);
        for (final Op op : Op.values()) {
            System.out.printf("%-12s %10s %12s %12s %8s%n", op.name().toLowerCase(), "bytes", "ga_MBps",
                "shmem_MBps", "ratio");
            for (int i = 0; i < GaBenchmark.SIZES.length; i++) {
                System.out.printf("%-12s %10d %12.1f %12.1f %8.2f%n", "", GaBenchmark.SIZES[i],
                    r.gaMBps()[op.ordinal()][i], r.shmemMBps()[op.ordinal()][i], r.ratio()[op.ordinal()][i]);
            }
        }
        System.out.printf("%-12s %10s %12s %12s %8s%n", "ghosts", "N x N", "ga_ns", "halo_ns", "ratio");
        for (int i = 0; i < GaBenchmark.GHOST_N.length; i++) {
            System.out.printf("%-12s %10d %12.1f %12.1f %8.2f%n", "", GaBenchmark.GHOST_N[i], r.ghostNs()[i],
                r.haloNs()[i], r.ghostRatio()[i]);
        }
        System.out.printf("min_put_efficiency_1KiB = %.2f (target >= %.1f: %s)%n", r.minPutEfficiency1KiB(),
            EFFICIENCY_TARGET, r.minPutEfficiency1KiB() >= EFFICIENCY_TARGET ? "met" : "MISSED");
        System.out.printf("min_get_efficiency_1KiB = %.2f (target >= %.1f: %s)%n", r.minGetEfficiency1KiB(),
            EFFICIENCY_TARGET, r.minGetEfficiency1KiB() >= EFFICIENCY_TARGET ? "met" : "MISSED");
        System.out.printf("ghost_update_ratio      = %.2f (target <= %.1f: %s)%n", r.ghostUpdateRatio(),
            GHOST_TARGET, r.ghostUpdateRatio() <= GHOST_TARGET ? "met" : "MISSED");
    }

    private ObjectNode toJson(final GaBenchmark.Result r) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "ga");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("pes", 2);
        cfg.put("path", Launched.path());
        cfg.put("trials", trials);
        cfg.put("warmups", warmups);
        cfg.put("mb_per_point", mbPerPoint);
        cfg.put("row_doubles_2d", GaBenchmark.ROW);
        cfg.put("cores", Runtime.getRuntime().availableProcessors());
        cfg.put("java", System.getProperty("java.version"));
        final ObjectNode m = root.putObject("metrics");
        m.put("min_put_efficiency_1KiB", r.minPutEfficiency1KiB());
        m.put("min_get_efficiency_1KiB", r.minGetEfficiency1KiB());
        m.put("ghost_update_ratio", r.ghostUpdateRatio());
        final int last = GaBenchmark.SIZES.length - 1;
        for (final Op op : Op.values()) {
            m.put(op.name().toLowerCase() + "_ratio_1MiB", r.ratio()[op.ordinal()][last]);
        }
        final ObjectNode targets = root.putObject("targets");
        targets.put("min_efficiency_1KiB_min", EFFICIENCY_TARGET);
        targets.put("ghost_update_ratio_max", GHOST_TARGET);
        targets.put("min_put_efficiency_1KiB_met", r.minPutEfficiency1KiB() >= EFFICIENCY_TARGET);
        targets.put("min_get_efficiency_1KiB_met", r.minGetEfficiency1KiB() >= EFFICIENCY_TARGET);
        targets.put("ghost_update_ratio_met", r.ghostUpdateRatio() <= GHOST_TARGET);
        final ArrayNode rows = root.putArray("sections");
        for (final Op op : Op.values()) {
            for (int i = 0; i < GaBenchmark.SIZES.length; i++) {
                final ObjectNode row = rows.addObject();
                row.put("op", op.name().toLowerCase());
                row.put("bytes", GaBenchmark.SIZES[i]);
                row.put("ga_MBps", r.gaMBps()[op.ordinal()][i]);
                row.put("shmem_MBps", r.shmemMBps()[op.ordinal()][i]);
                row.put("ratio", r.ratio()[op.ordinal()][i]);
            }
        }
        final ArrayNode ghosts = root.putArray("ghosts");
        for (int i = 0; i < GaBenchmark.GHOST_N.length; i++) {
            final ObjectNode row = ghosts.addObject();
            row.put("n", GaBenchmark.GHOST_N[i]);
            row.put("update_ghosts_ns", r.ghostNs()[i]);
            row.put("hand_halo_ns", r.haloNs()[i]);
            row.put("ratio", r.ghostRatio()[i]);
        }
        return root;
    }

    private static List<XYChart> charts(final GaBenchmark.Result r) {
        final double[] x = Arrays.stream(GaBenchmark.SIZES).asDoubleStream().toArray();
        final XYChart put = Reports.logLogChart("put and acc", "MB/s");
        final XYChart get = Reports.logLogChart("get", "MB/s");
        final XYChart strided = Reports.logLogChart("strided (skip 2)", "MB/s");
        for (final Op op : Op.values()) {
            final XYChart c = switch (op) {
                case PUT_1D, PUT_2D, ACC_1D, ACC_2D -> put;
                case GET_1D, GET_2D -> get;
                default -> strided;
            };
            c.addSeries("GA " + op.name().toLowerCase(), x, r.gaMBps()[op.ordinal()]);
            c.addSeries("SHMEM for " + op.name().toLowerCase(), x, r.shmemMBps()[op.ordinal()]);
        }
        return List.of(put, get, strided);
    }
}
