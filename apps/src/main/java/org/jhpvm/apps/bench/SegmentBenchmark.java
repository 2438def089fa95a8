package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;

import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricSegment;

/**
 * SHMEM on symmetric objects in host memory ({@link SymmetricSegment}) between 2 PEs, measured as {@link ShmemBenchmark}
 * measures heap arrays: 8-byte put latency (a ping-pong of puts, each side waiting with {@code waitUntil} for the
 * other's), blocking 8-byte get latency, fetch-add latency, and put and get bandwidth at 64 KiB and 1 MiB (a stream of
 * blocking transfers from PE 0, closed by a quiet). A latency point is timed in blocks of {@value #BLOCK} operations
 * and a trial gives the median block's mean: operations of tens of nanoseconds would otherwise be measured against the
 * rare stalls of this VM (a core taken away for 20-35 ms, seen in one JVM and between processes alike), which decide
 * a plain mean of tens of milliseconds of them. Between PEs of one host each is a load or store by the caller;
 * the result says whether PE 0 reached PE 1 directly, so a figure always names the path it measured.
 */
public final class SegmentBenchmark {
    /** Bandwidth sizes, bytes. */
    public static final int[] BANDWIDTH_SIZES = {65536, 1 << 20};
    private static final int MAX_BYTES = 1 << 20;
    /** Operations per timed block of a latency point; a trial's figure is the median block's mean. */
    private static final int BLOCK = 1_000;

    private final int trials;
    private final int warmups;
    private final int roundTrips;
    private final long bytesPerPoint;

    /**
     * Keeps the settings of the {@code bench shmem} run it is part of.
     *
     * @param trials        measured trials
     * @param warmups       warm-up passes
     * @param roundTrips    round trips per latency point
     * @param bytesPerPoint bytes per bandwidth point
     */
    public SegmentBenchmark(final int trials, final int warmups, final int roundTrips, final long bytesPerPoint) {
        this.trials = trials;
        this.warmups = warmups;
        this.roundTrips = roundTrips;
        this.bytesPerPoint = bytesPerPoint;
    }

    /**
     * The progress steps {@link #run} reports: one per pass.
     *
     * @return steps
     */
    public int steps() {
        return warmups + trials;
    }

    /**
     * Runs the 2-PE job: over the launched fabric in a launched job, or in this JVM.
     *
     * @param inProcess both PEs in this JVM even in a process of a launched job
     * @param progress  told of each finished pass
     * @return the medians (on the process of PE 0; zeros elsewhere)
     */
    public Result run(final boolean inProcess, final IntConsumer progress) {
        final double[] put = new double[trials];
        final double[] get = new double[trials];
        final double[] fadd = new double[trials];
        final double[][] putBw = new double[BANDWIDTH_SIZES.length][trials];
        final double[][] getBw = new double[BANDWIDTH_SIZES.length][trials];
        final boolean[] direct = new boolean[1];
        final ShmemJob.Builder job = ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(10));
        (inProcess ? job.inProcess() : job).build().run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(MAX_BYTES);
            final long[] src = new long[MAX_BYTES / 8];
            final long[] dst = new long[MAX_BYTES / 8];
            final int other = 1 - sh.myPe();
            direct[0] = s.ptr(other) != null;
            long seq = 0;
            for (int pass = 0; pass < warmups + trials; pass++) {
                final int t = pass - warmups;
                final boolean record = t >= 0 && sh.myPe() == 0;
                final int blocks = Math.max(1, rounds(8) / BLOCK);
                final double[] blockNs = new double[blocks];
                sh.barrierAll();
                for (int b = 0; b < blocks; b++) {
                    final long t0 = System.nanoTime();
                    for (int k = 0; k < BLOCK; k++) {
                        src[0] = ++seq;
                        if (sh.myPe() == 0) {
                            s.put(1, 0, src, 0, 1);
                            s.waitUntil(0, Cmp.EQ, seq);
                        } else {
                            s.waitUntil(0, Cmp.EQ, seq);
                            s.put(0, 0, src, 0, 1);
                        }
                    }
                    blockNs[b] = (System.nanoTime() - t0) / (2.0 * BLOCK);
                }
                final double putNs = Stats.median(blockNs);
                sh.barrierAll();
                if (sh.myPe() == 0) {
                    for (int b = 0; b < blocks; b++) {
                        final long t0 = System.nanoTime();
                        for (int k = 0; k < BLOCK; k++) {
                            s.get(1, 8, dst, 0, 1);
                        }
                        blockNs[b] = (System.nanoTime() - t0) / (double) BLOCK;
                    }
                }
                final double getNs = Stats.median(blockNs);
                sh.barrierAll();
                if (sh.myPe() == 0) {
                    for (int b = 0; b < blocks; b++) {
                        final long t0 = System.nanoTime();
                        for (int k = 0; k < BLOCK; k++) {
                            s.atomicFetchAdd(1, 16, 1);
                        }
                        blockNs[b] = (System.nanoTime() - t0) / (double) BLOCK;
                    }
                }
                final double faddNs = Stats.median(blockNs);
                if (record) {
                    put[t] = putNs;
                    get[t] = getNs;
                    fadd[t] = faddNs;
                }
                for (int i = 0; i < BANDWIDTH_SIZES.length; i++) {
                    final double a = stream(sh, s, src, BANDWIDTH_SIZES[i], true);
                    final double b = stream(sh, s, dst, BANDWIDTH_SIZES[i], false);
                    if (record) {
                        putBw[i][t] = a;
                        getBw[i][t] = b;
                    }
                }
                if (sh.myPe() == 0) {
                    progress.accept(1);
                }
            }
            sh.barrierAll();
            sh.free(s);
        });
        return new Result(direct[0], Stats.median(put), Stats.median(get), Stats.median(fadd), Stats.medians(putBw),
            Stats.medians(getBw));
    }

    /** MB/s of blocking puts or gets of {@code bytes} from PE 0, closed by a quiet. */
    private double stream(final Shmem sh, final SymmetricSegment s, final long[] local, final int bytes,
                          final boolean put) {
        final int m = (int) Math.max(20, Math.min(20_000, bytesPerPoint / bytes));
        final int longs = bytes / 8;
        sh.barrierAll();
        final long t0 = System.nanoTime();
        if (sh.myPe() == 0) {
            for (int k = 0; k < m; k++) {
                if (put) {
                    s.put(1, 0, local, 0, longs);
                } else {
                    s.get(1, 0, local, 0, longs);
                }
            }
            sh.quiet();
        }
        final double mbps = (double) m * bytes * 1e3 / (System.nanoTime() - t0);
        sh.barrierAll();
        return mbps;
    }

    private int rounds(final int size) {
        return (int) Math.max(20, Math.min(roundTrips, bytesPerPoint / 8 / size));
    }

    /**
     * The medians of one run.
     *
     * @param direct     whether PE 0 reached PE 1's part directly (same host) or by messages
     * @param putNs      8-byte put one-way latency (put, then the other side's {@code waitUntil})
     * @param getNs      blocking 8-byte get latency
     * @param fetchAddNs fetch-add latency
     * @param putMBps    put bandwidth per {@link #BANDWIDTH_SIZES}
     * @param getMBps    get bandwidth per {@link #BANDWIDTH_SIZES}
     */
    public record Result(boolean direct, double putNs, double getNs, double fetchAddNs, double[] putMBps,
                         double[] getMBps) {
        /**
         * Put bandwidth at one of {@link #BANDWIDTH_SIZES}.
         *
         * @param size bytes
         * @return MB/s
         */
        public double putMBpsAt(final int size) {
            return Stats.at(BANDWIDTH_SIZES, putMBps, size);
        }

        /**
         * Get bandwidth at one of {@link #BANDWIDTH_SIZES}.
         *
         * @param size bytes
         * @return MB/s
         */
        public double getMBpsAt(final int size) {
            return Stats.at(BANDWIDTH_SIZES, getMBps, size);
        }

        /**
         * The path measured, for people.
         *
         * @return "direct" or "messages"
         */
        public String path() {
            return direct ? "direct" : "messages";
        }
    }
}
