package org.jhpvm.apps.bench;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.fm.FmConfig;

/**
 * {@code bench shmem} under {@code launch -n 2}: what two processes cost against the same program on 2 PEs in one JVM,
 * measured in the same run (issue 32's {@code process_*} figures). Two kinds of symmetric object:
 * <ul>
 *   <li>Java arrays on each process's heap ({@code process_heap_*}): puts, gets and atomics carried over the launched
 *       fabric and served by the target process; the bytes of transfers of FM's {@code hostStagingBytes} or more
 *       (written as {@code process_heap_staging_bytes}) go through rings in host memory;</li>
 *   <li>segments in host memory ({@link SegmentBenchmark}; {@code process_*} without {@code heap}): loads and stores
 *       of the caller straight into the other process's memory. Written only when the two processes did share their
 *       host (not under {@code JHPVM_TRANSPORT=udp}, nor across hosts): a figure of the message path under these
 *       names would lie.</li>
 * </ul>
 */
public final class ProcessFigures {
    /** Largest latency ratio (2 processes over 1 JVM) on heap arrays. */
    public static final double HEAP_LATENCY_RATIO_MAX = 3.0;
    /** Smallest bandwidth ratio (2 processes over arraycopy) on heap arrays. */
    public static final double HEAP_BW_RATIO_MIN = 0.5;
    /** Largest latency ratio (2 processes over 1 JVM) on segments in host memory. */
    public static final double SHARED_LATENCY_RATIO_MAX = 1.3;
    /** Smallest bandwidth ratio (2 processes over arraycopy) on segments in host memory. */
    public static final double SHARED_BW_RATIO_MIN = 0.7;
    /** FM's {@code hostStagingBytes} (the bench runs with FM's defaults): heap transfers this long and longer. */
    private static final int STAGING_BYTES = FmConfig.defaults().hostStagingBytes();
    /** Largest ratio of a get from a computing target over an idle get. */
    public static final double BUSY_TARGET_RATIO_MAX = 1.2;

    private static final int MIB = 1 << 20;

    /**
     * One figure.
     *
     * @param key    its JSON key under {@code metrics}
     * @param value  the figure
     * @param atMost whether it must be at most {@code bound} (else at least)
     * @param bound  the target
     */
    public record Figure(String key, double value, boolean atMost, double bound) {
        /**
         * Whether the figure meets its target.
         *
         * @return true if met
         */
        public boolean met() {
            return atMost ? value <= bound : value >= bound;
        }
    }

    private ProcessFigures() {
    }

    /**
     * The figures of one launched run.
     *
     * @param processes       the run over the launched fabric (2 PEs in 2 processes)
     * @param oneJvm          the same program on 2 PEs in one JVM, in the same run
     * @param sharedProcesses the segment run over the launched fabric
     * @param sharedOneJvm    the segment run on 2 PEs in one JVM
     * @return the figures, in the order printed (the segment ones only if the processes shared their host)
     */
    public static List<Figure> of(final ShmemBenchmark.Result processes, final ShmemBenchmark.Result oneJvm,
                                  final SegmentBenchmark.Result sharedProcesses,
                                  final SegmentBenchmark.Result sharedOneJvm) {
        final List<Figure> f = new ArrayList<>();
        if (sharedProcesses.direct()) {
            final double copy = Stats.at(ShmemBenchmark.BANDWIDTH_SIZES, processes.raw().arraycopyMBps(), MIB);
            f.add(new Figure("process_put_latency_ratio_8B", sharedProcesses.putNs() / sharedOneJvm.putNs(), true,
                SHARED_LATENCY_RATIO_MAX));
            f.add(new Figure("process_get_latency_ratio_8B", sharedProcesses.getNs() / sharedOneJvm.getNs(), true,
                SHARED_LATENCY_RATIO_MAX));
            f.add(new Figure("process_fetch_add_latency_ratio",
                sharedProcesses.fetchAddNs() / sharedOneJvm.fetchAddNs(), true, SHARED_LATENCY_RATIO_MAX));
            f.add(new Figure("process_put_bw_arraycopy_ratio_1MiB", sharedProcesses.putMBpsAt(MIB) / copy, false,
                SHARED_BW_RATIO_MIN));
            f.add(new Figure("process_get_bw_arraycopy_ratio_1MiB", sharedProcesses.getMBpsAt(MIB) / copy, false,
                SHARED_BW_RATIO_MIN));
        }
        f.add(new Figure("process_heap_put_latency_ratio_8B", processes.putNs()[0] / oneJvm.putNs()[0], true,
            HEAP_LATENCY_RATIO_MAX));
        f.add(new Figure("process_heap_get_latency_ratio_8B", processes.getNs()[0] / oneJvm.getNs()[0], true,
            HEAP_LATENCY_RATIO_MAX));
        f.add(new Figure("process_heap_fetch_add_latency_ratio", processes.fetchAddNs() / oneJvm.fetchAddNs(), true,
            HEAP_LATENCY_RATIO_MAX));
        f.add(new Figure("process_heap_put_bw_arraycopy_ratio_1MiB", processes.putBwArraycopyRatio(MIB), false,
            HEAP_BW_RATIO_MIN));
        f.add(new Figure("process_heap_get_bw_arraycopy_ratio_1MiB", processes.getBwArraycopyRatio(MIB), false,
            HEAP_BW_RATIO_MIN));
        f.add(new Figure("process_get_latency_busy_target_ratio", processes.getBusyTargetRatio(), true,
            BUSY_TARGET_RATIO_MAX));
        return f;
    }

    /**
     * Prints the figures with their targets, and the line saying what is not measured.
     *
     * @param figures         the figures
     * @param processes       the run over the launched fabric (for the busy-target get in ns)
     * @param sharedProcesses the segment run over the launched fabric
     * @param sharedOneJvm    the segment run on 2 PEs in one JVM
     */
    public static void print(final List<Figure> figures, final ShmemBenchmark.Result processes,
                             final SegmentBenchmark.Result sharedProcesses, final SegmentBenchmark.Result sharedOneJvm) {
        System.out.printf("segments in host memory, 2 processes (%s) and 1 JVM (%s): put %.1f / %.1f ns, get %.1f / "
            + "%.1f ns, fetch-add %.1f / %.1f ns, put 1 MiB %.0f / %.0f MB/s, get 1 MiB %.0f / %.0f MB/s%n",
            sharedProcesses.path(), sharedOneJvm.path(), sharedProcesses.putNs(), sharedOneJvm.putNs(),
            sharedProcesses.getNs(), sharedOneJvm.getNs(), sharedProcesses.fetchAddNs(), sharedOneJvm.fetchAddNs(),
            sharedProcesses.putMBpsAt(MIB), sharedOneJvm.putMBpsAt(MIB), sharedProcesses.getMBpsAt(MIB),
            sharedOneJvm.getMBpsAt(MIB));
        if (!sharedProcesses.direct()) {
            System.out.printf("  process_* of segments in host memory: not written, the processes share no host "
                + "(JHPVM_TRANSPORT=udp, or other hosts): the figures above are of the message path%n");
        }
        System.out.printf("2 processes against 1 JVM (segments: direct; heap arrays: served by the target process, "
            + "the bytes of transfers of %d bytes or more through rings in host memory):%n", STAGING_BYTES);
        for (final Figure x : figures) {
            System.out.printf("  %-42s %8.3f (target %s %.1f: %s)%n", x.key(), x.value(), x.atMost() ? "<=" : ">=",
                x.bound(), x.met() ? "met" : "MISSED");
        }
        System.out.printf("  %-42s %8.1f ns (target computing, no SHMEM calls)%n",
            "process_get_latency_busy_target_ns_8B", processes.getBusyTargetNs());
    }

    /**
     * Writes the figures into a run's JSON: each under {@code metrics}, its bound and verdict under {@code targets}
     * ({@code KEY_max}/{@code KEY_min} and {@code KEY_met}).
     *
     * @param figures         the figures
     * @param processes       the run over the launched fabric
     * @param sharedProcesses the segment run over the launched fabric
     * @param sharedOneJvm    the segment run on 2 PEs in one JVM
     * @param metrics         the JSON's {@code metrics}
     * @param targets         the JSON's {@code targets}
     */
    public static void write(final List<Figure> figures, final ShmemBenchmark.Result processes,
                             final SegmentBenchmark.Result sharedProcesses, final SegmentBenchmark.Result sharedOneJvm,
                             final ObjectNode metrics, final ObjectNode targets) {
        metrics.put("process_segment_path", sharedProcesses.path());
        metrics.put("process_heap_staging_bytes", STAGING_BYTES);
        putSegment(metrics, "process_segment_", sharedProcesses);
        putSegment(metrics, "emulated_segment_", sharedOneJvm);
        for (final Figure x : figures) {
            metrics.put(x.key(), x.value());
            targets.put(x.key() + (x.atMost() ? "_max" : "_min"), x.bound());
            targets.put(x.key() + "_met", x.met());
        }
        metrics.put("process_get_latency_busy_target_ns_8B", processes.getBusyTargetNs());
    }

    private static void putSegment(final ObjectNode m, final String prefix, final SegmentBenchmark.Result r) {
        m.put(prefix + "put_latency_ns_8B", r.putNs());
        m.put(prefix + "get_latency_ns_8B", r.getNs());
        m.put(prefix + "fetch_add_latency_ns", r.fetchAddNs());
        m.put(prefix + "put_bw_MBps_64KiB", r.putMBpsAt(65536));
        m.put(prefix + "put_bw_MBps_1MiB", r.putMBpsAt(MIB));
        m.put(prefix + "get_bw_MBps_1MiB", r.getMBpsAt(MIB));
    }
}
