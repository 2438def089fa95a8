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
import org.jhpvm.apps.bench.FabricBenchmark;
import org.jhpvm.fabric.FabricConfig;
import org.knowm.xchart.XYChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jhpvm bench fabric}: the emulated Myrinet against a raw SPSC queue and arraycopy. */
@Command(name = "fabric", mixinStandardHelpOptions = true,
    description = {"The emulated Myrinet against a raw SPSC queue and System.arraycopy.",
        "One-way frame latency (ping-pong) and streaming frame bandwidth between 2 NICs of the emulated "
        + "Myrinet, with the raw JCTools SPSC ping-pong and System.arraycopy measured in the same run.",
        "Targets: latency_ratio (fabric 8 B / spsc) <= " + BenchFabricCommand.LATENCY_TARGET
            + ", bw_ratio (fabric / arraycopy at the frame size) >= " + BenchFabricCommand.BW_TARGET + "."})
final class BenchFabricCommand implements Callable<Integer> {
    static final double LATENCY_TARGET = 1.5;
    static final double BW_TARGET = 0.5;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (key \"metrics\"; "
        + "default: none).")
    private Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "Draw latency and bandwidth curves into a PNG"
        + " (default: none).")
    private Path png;

    @Option(names = "--frame-bytes", paramLabel = "B", description = "Frame size (default: ${DEFAULT-VALUE}).")
    private int frameBytes = FabricConfig.DEFAULT_FRAME_BYTES;

    @Option(names = "--ring", paramLabel = "R", description = "Send and receive ring capacity (default: "
        + "${DEFAULT-VALUE}).")
    private int ring = FabricConfig.DEFAULT_RING_CAPACITY;

    @Option(names = "--trials", paramLabel = "N", description = "Measured trials per figure; the median is "
        + "reported (default: ${DEFAULT-VALUE}).")
    private int trials = 7;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes over every workload before "
        + "measuring (default: ${DEFAULT-VALUE}).")
    private int warmups = 5;

    @Option(names = "--round-trips", paramLabel = "N", description = "Ping-pong round trips per latency trial "
        + "(default: ${DEFAULT-VALUE}).")
    private int roundTrips = 200_000;

    @Option(names = "--mb-per-trial", paramLabel = "MB", description = "Megabytes streamed per bandwidth trial "
        + "(default: ${DEFAULT-VALUE}).")
    private int mbPerTrial = 4096;

    @Mixin
    private ClockOptions clock = new ClockOptions();

    @Override
    public Integer call() throws Exception {
        if (clock.virtual()) {
            return VirtualFabricReport.run(clock.declared(), json);
        }
        if (Launched.skipsInProcessBench("bench fabric")) {
            return 0;
        }
        final FabricConfig config = FabricConfig.builder(2).frameBytes(frameBytes).sendRingCapacity(ring)
            .receiveRingCapacity(ring).build();
        final FabricBenchmark bench = new FabricBenchmark(config, trials, warmups, roundTrips,
            (long) mbPerTrial << 20);
        final FabricBenchmark.Result r;
        try (Progress progress = new Progress("bench fabric", bench.steps())) {
            r = bench.run(progress);
        }
        print(config, r);
        if (json != null) {
            Reports.writeJson(json, toJson(config, r));
            System.out.println("wrote " + json);
        }
        if (png != null) {
            Reports.writePng(png, charts(r));
            System.out.println("wrote " + png);
        }
        return 0;
    }

    private void print(final FabricConfig config, final FabricBenchmark.Result r) {
        System.out.printf("bench fabric: emulated Myrinet, 2 NICs, frameBytes=%d, rings %d/%d, median of %d trials "
            + "(after %d warm-up passes)%n", config.frameBytes(), config.sendRingCapacity(),
            config.receiveRingCapacity(), trials, warmups);
        System.out.printf("%10s %14s %14s %8s %16s %16s %8s%n", "bytes", "fabric_ns", "spsc_ns(8B)", "ratio",
            "fabric_MBps", "arraycopy_MBps", "ratio");
        final int[] sizes = r.sizes();
        for (int i = 0; i < sizes.length; i++) {
            System.out.printf("%10d %14.1f %14.1f %8.2f %16.1f %16.1f %8.2f%n", sizes[i], r.fabricNs()[i], r.spscNs(),
                r.fabricNs()[i] / r.spscNs(), r.fabricMBps()[i], r.arraycopyMBps()[i],
                r.fabricMBps()[i] / r.arraycopyMBps()[i]);
        }
        System.out.printf("latency_ratio = %.2f (target <= %.1f: %s)%n", r.latencyRatio(), LATENCY_TARGET,
            r.latencyRatio() <= LATENCY_TARGET ? "met" : "MISSED");
        System.out.printf("bw_ratio      = %.2f (target >= %.1f: %s)%n", r.bandwidthRatio(), BW_TARGET,
            r.bandwidthRatio() >= BW_TARGET ? "met" : "MISSED");
        System.out.printf("r_inf = %.1f MB/s, n1/2 = %.0f bytes%n", r.peakMBps(), r.halfPowerBytes());
    }

    private ObjectNode toJson(final FabricConfig config, final FabricBenchmark.Result r) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "fabric");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("nics", 2);
        cfg.put("path", "emulated");
        cfg.put("frame_bytes", config.frameBytes());
        cfg.put("header_bytes", config.headerBytes());
        cfg.put("send_ring", config.sendRingCapacity());
        cfg.put("receive_ring", config.receiveRingCapacity());
        cfg.put("trials", trials);
        cfg.put("warmups", warmups);
        cfg.put("round_trips", roundTrips);
        cfg.put("cores", Runtime.getRuntime().availableProcessors());
        cfg.put("java", System.getProperty("java.version"));
        final int last = r.sizes().length - 1;
        final ObjectNode m = root.putObject("metrics");
        m.put("fabric_latency_ns_8B", r.fabricNs()[0]);
        m.put("spsc_latency_ns", r.spscNs());
        m.put("latency_ratio", r.latencyRatio());
        m.put("fabric_bw_MBps_max_frame", r.fabricMBps()[last]);
        m.put("arraycopy_bw_MBps_max_frame", r.arraycopyMBps()[last]);
        m.put("bw_ratio", r.bandwidthRatio());
        m.put("r_inf_MBps", r.peakMBps());
        m.put("n_half_bytes", r.halfPowerBytes());
        m.put("max_frame_bytes", r.frameBytes());
        final ArrayNode latencyTrials = root.putArray("latency_ratio_trials");
        for (final double v : r.latencyRatios()) {
            latencyTrials.add(v);
        }
        final ArrayNode bwTrials = root.putArray("bw_ratio_trials");
        for (final double v : r.bandwidthRatios()) {
            bwTrials.add(v);
        }
        final ObjectNode targets = root.putObject("targets");
        targets.put("latency_ratio_max", LATENCY_TARGET);
        targets.put("bw_ratio_min", BW_TARGET);
        targets.put("latency_ratio_met", r.latencyRatio() <= LATENCY_TARGET);
        targets.put("bw_ratio_met", r.bandwidthRatio() >= BW_TARGET);
        final ArrayNode rows = root.putArray("sizes");
        for (int i = 0; i <= last; i++) {
            final ObjectNode row = rows.addObject();
            row.put("bytes", r.sizes()[i]);
            row.put("fabric_latency_ns", r.fabricNs()[i]);
            row.put("fabric_bw_MBps", r.fabricMBps()[i]);
            row.put("arraycopy_bw_MBps", r.arraycopyMBps()[i]);
            row.put("bw_ratio", r.fabricMBps()[i] / r.arraycopyMBps()[i]);
        }
        return root;
    }

    private static List<XYChart> charts(final FabricBenchmark.Result r) {
        final double[] x = Arrays.stream(r.sizes()).asDoubleStream().toArray();
        final XYChart latency = Reports.logLogChart("one-way latency", "ns");
        latency.addSeries("emulated Myrinet", x, r.fabricNs());
        final double[] spsc = new double[x.length];
        Arrays.fill(spsc, r.spscNs());
        latency.addSeries("JCTools SPSC (8 B)", x, spsc);
        final XYChart bandwidth = Reports.logLogChart("streaming bandwidth", "MB/s");
        bandwidth.addSeries("emulated Myrinet", x, r.fabricMBps());
        bandwidth.addSeries("System.arraycopy", x, r.arraycopyMBps());
        return List.of(latency, bandwidth);
    }
}
