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
import org.jhpvm.apps.bench.Stats;
import org.jhpvm.apps.bench.ViaBenchmark;
import org.jhpvm.fabric.FabricConfig;
import org.knowm.xchart.XYChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jhpvm bench via}: the NIC's RDMA and registered memory against System.arraycopy. */
@Command(name = "via", mixinStandardHelpOptions = true,
    description = {"The emulated Myrinet's NIC as a processor (VIA): RDMA against System.arraycopy, and the cost of "
        + "registering memory.",
        "On 2 NICs (default fabric settings, no faults), for 8 B .. 16 MiB: RDMA write and read latency (post one "
        + "descriptor, wait for its completion; mean per op) and bandwidth (posts streamed within the completion "
        + "queue's capacity, then drained), next to System.arraycopy of the same bytes between the same arrays "
        + "measured in the same run, with the ratios; register + deregister of a buffer of each size: named "
        + "(never cached), a cache miss, a cache hit."})
final class BenchViaCommand implements Callable<Integer> {
    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (key \"metrics\"; "
        + "default: none).")
    private Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "Draw latency, bandwidth and registration curves "
        + "into a PNG (default: none).")
    private Path png;

    @Option(names = "--trials", paramLabel = "N", description = "Measured passes; medians are reported (default: "
        + "${DEFAULT-VALUE}).")
    private int trials = 7;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes over every size before measuring "
        + "(default: ${DEFAULT-VALUE}).")
    private int warmups = 3;

    @Option(names = "--ops", paramLabel = "N", description = "RDMA ops per latency point at small sizes; fewer at "
        + "large ones, so that a point moves at most --mb-per-point (default: ${DEFAULT-VALUE}).")
    private int ops = 50_000;

    @Option(names = "--mb-per-point", paramLabel = "MB", description = "Megabytes per bandwidth point (between 8 "
        + "and 200,000 ops whatever the size; default: ${DEFAULT-VALUE}).")
    private int mbPerPoint = 64;

    @Option(names = "--registrations", paramLabel = "N", description = "Register + deregister pairs per "
        + "registration point (default: ${DEFAULT-VALUE}).")
    private int registrations = 20_000;

    @Override
    public Integer call() throws Exception {
        if (trials < 1 || warmups < 0 || ops < 1 || mbPerPoint < 1 || registrations < 1) {
            throw new IllegalArgumentException("need --trials >= 1, --warmups >= 0, --ops >= 1, --mb-per-point >= 1, "
                + "--registrations >= 1");
        }
        if (Launched.skipsInProcessBench("bench via")) {
            return 0;
        }
        final FabricConfig config = FabricConfig.builder(2).build();
        final ViaBenchmark bench = new ViaBenchmark(config, trials, warmups, ops, (long) mbPerPoint << 20,
            registrations);
        final ViaBenchmark.Result r;
        try (Progress progress = new Progress("bench via", bench.steps())) {
            r = bench.run(progress);
        }
        print(config, bench, r);
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

    private void print(final FabricConfig config, final ViaBenchmark bench, final ViaBenchmark.Result r) {
        System.out.printf("bench via: emulated Myrinet, 2 NICs, completion queue %d, RDMA segment %d B, no faults; "
            + "median of %d trials after %d warm-up passes%n", config.completionQueueCapacity(),
            config.rdmaSegmentBytes(), trials, warmups);
        System.out.printf("NIC threads: none. The emulated NIC carries out each RDMA inside post(), on the posting "
            + "host's thread (one copy, region to region); the target needs no host thread (NIC 1's host makes no "
            + "call after registering its buffer), and the completion is on the initiator's queue when post() "
            + "returns (%d of %d latency ops here).%n", r.completionsReadyAtPost(), r.latencyCompletions());
        System.out.printf("latency: post one descriptor, wait for its completion, mean per op (%d ops at 8 B, %d at "
            + "16 MiB); arraycopy: System.arraycopy of the same bytes between the same arrays, mean per copy%n",
            bench.latencyOps(8), bench.latencyOps(16 << 20));
        System.out.printf("%10s %12s %12s %14s %11s %11s%n", "bytes", "write_ns", "read_ns", "arraycopy_ns",
            "write/copy", "read/copy");
        final int[] sizes = r.sizes();
        for (int i = 0; i < sizes.length; i++) {
            System.out.printf("%10d %12.1f %12.1f %14.1f %11.2f %11.2f%n", sizes[i], r.writeNs()[i], r.readNs()[i],
                r.arraycopyNs()[i], r.writeLatencyRatio()[i], r.readLatencyRatio()[i]);
        }
        System.out.printf("bandwidth: posts streamed within the completion queue's capacity (%d), then drained; "
            + "arraycopy: a stream of copies (MB/s = 10^6 bytes/s)%n", config.completionQueueCapacity());
        System.out.printf("%10s %12s %12s %14s %11s %11s%n", "bytes", "write_MBps", "read_MBps", "arraycopy_MBps",
            "write/copy", "read/copy");
        for (int i = 0; i < sizes.length; i++) {
            System.out.printf("%10d %12.1f %12.1f %14.1f %11.2f %11.2f%n", sizes[i], r.writeMBps()[i],
                r.readMBps()[i], r.arraycopyMBps()[i], r.writeBwRatio()[i], r.readBwRatio()[i]);
        }
        System.out.printf("registration, ns per register + deregister: uncached = named register(buffer, handle, key)"
            + "; miss = register(buffer) of a buffer not registered; cached = register(buffer) of a buffer "
            + "registered already (a cache hit)%n");
        System.out.printf("%10s %14s %14s %14s%n", "bytes", "uncached_ns", "miss_ns", "cached_ns");
        for (int i = 0; i < sizes.length; i++) {
            System.out.printf("%10d %14.1f %14.1f %14.1f%n", sizes[i], r.registerUncachedNs()[i],
                r.registerMissNs()[i], r.registerCachedNs()[i]);
        }
        System.out.printf("RDMA write: r_inf = %.1f MB/s, n1/2 = %.0f bytes%n", r.writePeakMBps(),
            r.writeHalfPowerBytes());
    }

    private ObjectNode toJson(final FabricConfig config, final ViaBenchmark.Result r) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "via");
        final ObjectNode cfg = root.putObject("config");
        cfg.put("nics", 2);
        cfg.put("path", "emulated");
        cfg.put("completion_queue", config.completionQueueCapacity());
        cfg.put("rdma_segment_bytes", config.rdmaSegmentBytes());
        cfg.put("faults", false);
        cfg.put("nic_threads", 0);
        cfg.put("target_host_thread", false);
        cfg.put("trials", trials);
        cfg.put("warmups", warmups);
        cfg.put("ops", ops);
        cfg.put("mb_per_point", mbPerPoint);
        cfg.put("registrations", registrations);
        cfg.put("cores", Runtime.getRuntime().availableProcessors());
        cfg.put("java", System.getProperty("java.version"));
        final int[] s = r.sizes();
        final ObjectNode m = root.putObject("metrics");
        m.put("rdma_write_latency_ns_8B", Stats.at(s, r.writeNs(), 8));
        m.put("rdma_read_latency_ns_8B", Stats.at(s, r.readNs(), 8));
        m.put("arraycopy_latency_ns_8B", Stats.at(s, r.arraycopyNs(), 8));
        m.put("write_latency_arraycopy_ratio_8B", Stats.at(s, r.writeLatencyRatio(), 8));
        m.put("read_latency_arraycopy_ratio_8B", Stats.at(s, r.readLatencyRatio(), 8));
        m.put("rdma_write_bw_MBps_1MiB", Stats.at(s, r.writeMBps(), 1 << 20));
        m.put("rdma_read_bw_MBps_1MiB", Stats.at(s, r.readMBps(), 1 << 20));
        m.put("arraycopy_bw_MBps_1MiB", Stats.at(s, r.arraycopyMBps(), 1 << 20));
        m.put("write_bw_arraycopy_ratio_1MiB", Stats.at(s, r.writeBwRatio(), 1 << 20));
        m.put("read_bw_arraycopy_ratio_1MiB", Stats.at(s, r.readBwRatio(), 1 << 20));
        m.put("write_bw_arraycopy_ratio_64KiB", Stats.at(s, r.writeBwRatio(), 65536));
        m.put("read_bw_arraycopy_ratio_64KiB", Stats.at(s, r.readBwRatio(), 65536));
        m.put("rdma_write_r_inf_MBps", r.writePeakMBps());
        m.put("rdma_write_n_half_bytes", r.writeHalfPowerBytes());
        m.put("register_ns_uncached_4KiB", Stats.at(s, r.registerUncachedNs(), 4096));
        m.put("register_ns_cache_miss_4KiB", Stats.at(s, r.registerMissNs(), 4096));
        m.put("register_ns_cached_4KiB", Stats.at(s, r.registerCachedNs(), 4096));
        m.put("register_ns_uncached_16MiB", Stats.at(s, r.registerUncachedNs(), 16 << 20));
        m.put("register_ns_cached_16MiB", Stats.at(s, r.registerCachedNs(), 16 << 20));
        final ArrayNode rdma = root.putArray("rdma");
        for (int i = 0; i < s.length; i++) {
            final ObjectNode row = rdma.addObject();
            row.put("bytes", s[i]);
            row.put("write_latency_ns", r.writeNs()[i]);
            row.put("read_latency_ns", r.readNs()[i]);
            row.put("arraycopy_latency_ns", r.arraycopyNs()[i]);
            row.put("write_latency_arraycopy_ratio", r.writeLatencyRatio()[i]);
            row.put("read_latency_arraycopy_ratio", r.readLatencyRatio()[i]);
            row.put("write_bw_MBps", r.writeMBps()[i]);
            row.put("read_bw_MBps", r.readMBps()[i]);
            row.put("arraycopy_bw_MBps", r.arraycopyMBps()[i]);
            row.put("write_bw_arraycopy_ratio", r.writeBwRatio()[i]);
            row.put("read_bw_arraycopy_ratio", r.readBwRatio()[i]);
        }
        final ArrayNode registration = root.putArray("registration");
        for (int i = 0; i < s.length; i++) {
            final ObjectNode row = registration.addObject();
            row.put("bytes", s[i]);
            row.put("register_ns_uncached", r.registerUncachedNs()[i]);
            row.put("register_ns_cache_miss", r.registerMissNs()[i]);
            row.put("register_ns_cached", r.registerCachedNs()[i]);
        }
        return root;
    }

    private static List<XYChart> charts(final ViaBenchmark.Result r) {
        final double[] x = Arrays.stream(r.sizes()).asDoubleStream().toArray();
        final XYChart latency = Reports.logLogChart("latency, post to completion", "ns");
        latency.addSeries("RDMA write", x, r.writeNs());
        latency.addSeries("RDMA read", x, r.readNs());
        latency.addSeries("System.arraycopy", x, r.arraycopyNs());
        final XYChart bandwidth = Reports.logLogChart("streaming bandwidth", "MB/s");
        bandwidth.addSeries("RDMA write", x, r.writeMBps());
        bandwidth.addSeries("RDMA read", x, r.readMBps());
        bandwidth.addSeries("System.arraycopy", x, r.arraycopyMBps());
        final XYChart registration = Reports.logLogChart("register + deregister", "ns");
        registration.setXAxisTitle("buffer size (bytes)");
        registration.addSeries("named (uncached)", x, r.registerUncachedNs());
        registration.addSeries("cache miss", x, r.registerMissNs());
        registration.addSeries("cache hit", x, r.registerCachedNs());
        return List.of(latency, bandwidth, registration);
    }
}
