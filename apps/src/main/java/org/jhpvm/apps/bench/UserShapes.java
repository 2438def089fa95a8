package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.Arrays;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.ReduceOp;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * SHMEM as users' programs use it, not the benchmark's own loops: a ping-pong of an 8-byte {@code p} answered after a
 * {@code waitUntil} on the other side, and loops of {@code barrierAll}, an 8-byte {@code broadcast} and an 8-byte sum
 * {@code reduce}, each on 2 and on 4 PEs (PEs 0-1 and 2-3 ping-pong at once), with the job's default settings. Each
 * figure is timed in blocks of iterations on PE 0 after warm-up blocks; the median and the 90th percentile of the
 * blocks' mean times show whether the waits are fast every time or only some of the time (a waiter that falls asleep
 * before the answer comes makes a block slow).
 */
public final class UserShapes {
    /** The PE counts measured. */
    public static final int[] PES = {2, 4};
    /** The shapes, in their JSON names: {@code user_SHAPE_ns...}. */
    public static final String[] SHAPES = {"pingpong", "barrier", "broadcast", "reduce"};
    private static final int WARMUP_BLOCKS = 20;

    private final int blocks;
    private final int iterations;
    private final java.util.Map<String, String> options;

    /**
     * User shapes measured with no extra job options.
     *
     * @param blocks     timed blocks per figure (the percentiles are over them)
     * @param iterations iterations per block
     */
    public UserShapes(final int blocks, final int iterations) {
        this(blocks, iterations, java.util.Map.of());
    }

    /**
     * User shapes whose jobs all get the same options.
     *
     * @param blocks     timed blocks per figure (the percentiles are over them)
     * @param iterations iterations per block
     * @param options    job options ({@code fm.*} and the like) every figure's job gets
     */
    public UserShapes(final int blocks, final int iterations, final java.util.Map<String, String> options) {
        this.options = java.util.Map.copyOf(options);
        if (blocks < 1 || iterations < 1) {
            throw new IllegalArgumentException("blocks=" + blocks + " and iterations=" + iterations
                + " must be at least 1");
        }
        this.blocks = blocks;
        this.iterations = iterations;
    }

    /**
     * One figure's blocks.
     *
     * @param shape    the shape's name
     * @param pes      PEs of the job
     * @param blockNs  each timed block's mean time per iteration, ns (one-way for the ping-pong)
     */
    public record Figure(String shape, int pes, double[] blockNs) {
        /**
         * The median block.
         *
         * @return the median block, ns
         */
        public double medianNs() {
            return Stats.median(blockNs);
        }

        /**
         * The 90th percentile of the blocks.
         *
         * @return the 90th percentile of the blocks, ns
         */
        public double p90Ns() {
            return percentile(blockNs, 0.9);
        }
    }

    /** {@code user_pingpong_ns_8B} over the same run's {@code put_latency_ns_8B}: at most this. */
    public static final double PINGPONG_TARGET = 2.0;
    /** {@code user_barrier_ns_2pe}, {@code user_broadcast_ns_2pe}, {@code user_reduce_ns_2pe}: at most this, ns. */
    public static final double COLLECTIVE_TARGET_NS = 10_000;

    /**
     * The JSON key of a figure: {@code user_pingpong_ns_8B} (2 PEs), {@code user_pingpong_ns_8B_4pe},
     * {@code user_barrier_ns_2pe}, ...
     *
     * @param f a figure
     * @return its key (its 90th percentile's is the key and {@code _p90})
     */
    public static String key(final Figure f) {
        return f.shape().equals("pingpong") ? "user_pingpong_ns_8B" + (f.pes() == 2 ? "" : "_" + f.pes() + "pe")
            : "user_" + f.shape() + "_ns_" + f.pes() + "pe";
    }

    /**
     * Prints the figures with their targets.
     *
     * @param figures    what {@link #run} measured
     * @param putNs      the same run's {@code put_latency_ns_8B}
     */
    public static void print(final Figure[] figures, final double putNs) {
        System.out.println("SHMEM as programs use it (blocks of iterations on PE 0; median and 90th percentile of the "
            + "blocks):");
        for (final Figure f : figures) {
            final String target;
            if (f.shape().equals("pingpong") && f.pes() == 2) {
                final boolean met = f.medianNs() <= PINGPONG_TARGET * putNs && f.p90Ns() <= PINGPONG_TARGET * putNs;
                target = String.format("target <= %.0fx put_latency_ns_8B (%.0f ns) at both: %s", PINGPONG_TARGET,
                    putNs, met ? "met" : "MISSED");
            } else if (!f.shape().equals("pingpong") && f.pes() == 2) {
                target = String.format("target <= %.0f ns: %s", COLLECTIVE_TARGET_NS,
                    f.medianNs() <= COLLECTIVE_TARGET_NS ? "met" : "MISSED");
            } else {
                target = "";
            }
            System.out.printf("  %-28s median %10.1f ns, p90 %10.1f ns  %s%n", key(f), f.medianNs(), f.p90Ns(),
                target);
        }
    }

    /**
     * Adds the figures to a bench's JSON: each key and its {@code _p90}, the ping-pong's ratios to the put latency,
     * and the targets.
     *
     * @param metrics the bench's {@code metrics}
     * @param targets the bench's {@code targets}
     * @param figures what {@link #run} measured
     * @param putNs   the same run's {@code put_latency_ns_8B}
     */
    public static void toJson(final ObjectNode metrics, final ObjectNode targets, final Figure[] figures,
                              final double putNs) {
        for (final Figure f : figures) {
            metrics.put(key(f), f.medianNs());
            metrics.put(key(f) + "_p90", f.p90Ns());
            if (f.shape().equals("pingpong") && f.pes() == 2) {
                metrics.put("user_pingpong_put_latency_ratio", f.medianNs() / putNs);
                metrics.put("user_pingpong_put_latency_ratio_p90", f.p90Ns() / putNs);
                targets.put("user_pingpong_put_latency_ratio_max", PINGPONG_TARGET);
                targets.put("user_pingpong_put_latency_ratio_met", f.medianNs() <= PINGPONG_TARGET * putNs
                    && f.p90Ns() <= PINGPONG_TARGET * putNs);
            } else if (f.pes() == 2) {
                targets.put(key(f) + "_max", COLLECTIVE_TARGET_NS);
                targets.put(key(f) + "_met", f.medianNs() <= COLLECTIVE_TARGET_NS);
            }
        }
    }

    /** The value at fraction {@code q} of the sorted values (nearest rank). */
    static double percentile(final double[] values, final double q) {
        final double[] s = values.clone();
        Arrays.sort(s);
        final int rank = (int) Math.ceil(q * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, rank))];
    }

    /**
     * Measures every shape on every PE count, one job each.
     *
     * @param progress told of each finished figure
     * @return the figures, shape by shape, each on {@link #PES}
     */
    public Figure[] run(final Runnable progress) {
        final Figure[] out = new Figure[SHAPES.length * PES.length];
        int k = 0;
        for (final String shape : SHAPES) {
            for (final int pes : PES) {
                out[k++] = measure(shape, pes);
                progress.run();
            }
        }
        return out;
    }

    /**
     * Measures one shape on one PE count.
     *
     * @param shape one of {@link #SHAPES}
     * @param pes   PEs of the job (even, for the ping-pong)
     * @return its blocks
     */
    public Figure measure(final String shape, final int pes) {
        final double[] blockNs = new double[blocks];
        final ShmemJob.Builder job = ShmemJob.builder().pes(pes).timeout(Duration.ofMinutes(5));
        options.forEach(job::option);
        job.build().run(sh -> {
            final SymmetricLongs flag = sh.mallocLongs(1);
            final SymmetricLongs word = sh.mallocLongs(1);
            final long[] src = {sh.myPe() + 1L};
            final long[] dst = new long[1];
            final long[] counter = {0};
            sh.barrierAll();
            for (int b = -WARMUP_BLOCKS; b < blocks; b++) {
                final long t0 = System.nanoTime();
                for (int i = 0; i < iterations; i++) {
                    once(shape, sh, flag, word, src, dst, counter);
                }
                final long t = System.nanoTime() - t0;
                if (b >= 0 && sh.myPe() == 0) {
                    blockNs[b] = (double) t / iterations / (shape.equals("pingpong") ? 2 : 1);
                }
            }
            sh.barrierAll();
        });
        return new Figure(shape, pes, blockNs);
    }

    /** One iteration of a shape, as a user writes it. */
    private static void once(final String shape, final Shmem sh, final SymmetricLongs flag, final SymmetricLongs word,
                             final long[] src, final long[] dst, final long[] counter) {
        switch (shape) {
            case "pingpong" -> {
                final int me = sh.myPe();
                final int peer = me ^ 1;
                final long n = ++counter[0];
                if ((me & 1) == 0) {
                    flag.p(peer, 0, n);
                    flag.waitUntil(0, Cmp.GE, n);
                } else {
                    flag.waitUntil(0, Cmp.GE, n);
                    flag.p(peer, 0, n);
                }
            }
            case "barrier" -> sh.barrierAll();
            case "broadcast" -> word.broadcast(sh.teamWorld(), 0, src, 0, 1, 0);
            case "reduce" -> sh.reduce(sh.teamWorld(), ReduceOp.SUM, dst, src, 1);
            default -> throw new IllegalArgumentException("shape " + shape);
        }
    }
}
