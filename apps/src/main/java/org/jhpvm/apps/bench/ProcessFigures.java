package org.jhpvm.apps.bench;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code bench shmem} under {@code launch -n 2}: what two processes cost against the same program on 2 PEs in one JVM,
 * measured in the same run (issue 32's {@code process_*} figures). Symmetric objects are Java arrays on each process's
 * heap, so these are the {@code process_heap_*} figures: puts, gets and atomics carried over the launched fabric and
 * served by the target process. The {@code process_*} figures of symmetric objects in shared memory are not written:
 * jhpvm has no such objects yet, and a figure of another path under their name would lie.
 */
public final class ProcessFigures {
    /** Largest latency ratio (2 processes over 1 JVM) on heap arrays. */
    public static final double HEAP_LATENCY_RATIO_MAX = 3.0;
    /** Smallest bandwidth ratio (2 processes over arraycopy) on heap arrays. */
    public static final double HEAP_BW_RATIO_MIN = 0.5;
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
     * @param processes the run over the launched fabric (2 PEs in 2 processes)
     * @param oneJvm    the same program on 2 PEs in one JVM, in the same run
     * @return the figures, in the order printed
     */
    public static List<Figure> of(final ShmemBenchmark.Result processes, final ShmemBenchmark.Result oneJvm) {
        final List<Figure> f = new ArrayList<>();
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
     * @param figures   the figures
     * @param processes the run over the launched fabric (for the busy-target get in ns)
     */
    public static void print(final List<Figure> figures, final ShmemBenchmark.Result processes) {
        System.out.printf("2 processes against 1 JVM (symmetric objects on the heap, served by the target process):%n");
        for (final Figure x : figures) {
            System.out.printf("  %-42s %8.3f (target %s %.1f: %s)%n", x.key(), x.value(), x.atMost() ? "<=" : ">=",
                x.bound(), x.met() ? "met" : "MISSED");
        }
        System.out.printf("  %-42s %8.1f ns (target computing, no SHMEM calls)%n",
            "process_get_latency_busy_target_ns_8B", processes.getBusyTargetNs());
        System.out.printf("  process_* of symmetric objects in shared memory: not measured (jhpvm has none yet)%n");
    }

    /**
     * Writes the figures into a run's JSON: each under {@code metrics}, its bound and verdict under {@code targets}
     * ({@code KEY_max}/{@code KEY_min} and {@code KEY_met}).
     *
     * @param figures   the figures
     * @param processes the run over the launched fabric
     * @param metrics   the JSON's {@code metrics}
     * @param targets   the JSON's {@code targets}
     */
    public static void write(final List<Figure> figures, final ShmemBenchmark.Result processes,
                             final ObjectNode metrics, final ObjectNode targets) {
        for (final Figure x : figures) {
            metrics.put(x.key(), x.value());
            targets.put(x.key() + (x.atMost() ? "_max" : "_min"), x.bound());
            targets.put(x.key() + "_met", x.met());
        }
        metrics.put("process_get_latency_busy_target_ns_8B", processes.getBusyTargetNs());
    }
}
