package org.jhpvm.apps.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.function.IntConsumer;

import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * OSU-style SHMEM micro-benchmarks on 2 PEs, with FM and the raw machine ({@link RawBaselines}: a JCTools SPSC queue,
 * {@code System.arraycopy}) measured in the same run for the ratios: put latency (ping-pong of puts, each side waiting
 * for the last element of the other's put), blocking get latency, fetchAdd latency, the same get and fetchAdd while
 * the target computes without calling SHMEM, put / putNbi / getNbi bandwidth (a stream of operations closed by a
 * quiet), and barrier latency on 2 to 64 PEs. Medians over trials after warm-up passes.
 */
public final class ShmemBenchmark {
    /** Latency sweep sizes, bytes (8 B .. 1 MiB). */
    public static final int[] LATENCY_SIZES = {8, 64, 512, 4096, 65536, 1 << 20};
    /** Bandwidth sweep sizes, bytes: FM's, so the ratios are side by side. */
    public static final int[] BANDWIDTH_SIZES = FmBenchmark.BANDWIDTH_SIZES;
    /** PE counts of the barrier sweep. */
    public static final int[] BARRIER_PES = {2, 4, 8, 16, 32, 64};
    /** Gets and fetch-adds per pass while the target computes. */
    private static final int BUSY_OPERATIONS = 2_000;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final int trials;
    private final int warmups;
    private final int roundTrips;
    private final long bytesPerPoint;

    /**
     * Keeps the settings, shared with the FM sweep measured beside SHMEM; nothing runs until {@link #run} or
     * {@link #runTwoPes}. They are not checked here ({@code bench shmem} checks its options): trials below 1 fail
     * only when the medians are taken.
     *
     * @param trials        measured trials
     * @param warmups       warm-up passes
     * @param roundTrips    round trips per small latency point (fewer for large sizes)
     * @param bytesPerPoint bytes per bandwidth point
     */
    public ShmemBenchmark(final int trials, final int warmups, final int roundTrips, final long bytesPerPoint) {
        this.trials = trials;
        this.warmups = warmups;
        this.roundTrips = roundTrips;
        this.bytesPerPoint = bytesPerPoint;
    }

    /**
     * The length of a progress bar for {@link #run}: one step per pass of the FM job and of the SHMEM job, and one
     * per barrier PE count.
     *
     * @return progress steps {@link #run} reports
     */
    public int steps() {
        return (warmups + trials) + (warmups + trials) + BARRIER_PES.length;
    }

    /**
     * Runs everything.
     *
     * @param progress told of each finished pass
     * @return the medians
     */
    public Result run(final IntConsumer progress) {
        final RawBaselines raw = baselines();
        final FmBenchmark.Sweep fm = new FmBenchmark(trials, warmups, roundTrips, bytesPerPoint, 0.01)
            .cleanSweep(progress);
        final double[] barrier = new double[BARRIER_PES.length];
        final Result r = twoPes(raw, fm, false, progress, barrier);
        for (int p = 0; p < BARRIER_PES.length; p++) {
            barrier[p] = barrierNs(BARRIER_PES[p], false);
            progress.accept(1);
        }
        return r;
    }

    /**
     * The length of a progress bar for {@link #runTwoPes}: one step per pass of the FM job and of the SHMEM job, and
     * one for the 2-PE barrier.
     *
     * @return progress steps {@link #runTwoPes} reports
     */
    public int twoPeSteps() {
        return 2 * (warmups + trials) + 1;
    }

    /**
     * Everything on 2 PEs (the barrier too), for a launched job of 2 PEs: FM and SHMEM over the launched fabric, or,
     * with {@code inProcess}, both PEs in this JVM over the emulated fabric.
     *
     * @param inProcess run in this JVM even in a process of a launched job
     * @param progress  told of each finished pass
     * @return the medians; {@link Result#barrierNs} has the 2-PE entry only
     */
    public Result runTwoPes(final boolean inProcess, final IntConsumer progress) {
        final FmBenchmark fmBench = new FmBenchmark(trials, warmups, roundTrips, bytesPerPoint, 0.01);
        final RawBaselines raw = baselines();
        final FmBenchmark.Sweep fm = inProcess ? fmBench.inProcessSweep(progress) : fmBench.cleanSweep(progress);
        final double[] barrier = new double[1];
        final Result r = twoPes(raw, fm, inProcess, progress, barrier);
        barrier[0] = barrierNs(2, inProcess);
        progress.accept(1);
        return r;
    }

    /**
     * The length of a progress bar for {@link #schedulingLatency}: one step per job.
     *
     * @return progress steps it reports
     */
    public int schedulingSteps() {
        return 2 * trials;
    }

    /**
     * The 8 B put one-way latency of two PEs (ping-pong of puts, each side waiting for the other's) under
     * {@code fm.scheduling=none} and {@code dcs}: per trial one job per policy, alternated, each warming up first.
     *
     * @param progress told of each finished job
     * @return the figures
     */
    public SchedulingLatency schedulingLatency(final IntConsumer progress) {
        return SchedulingLatency.measure(trials, progress, policy -> {
            final double[] one = new double[1];
            ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(5)).option("fm.scheduling", policy.toString())
                .inProcess().build().run(sh -> {
                    final SymmetricLongs buf = sh.mallocLongs(1);
                    final long[] src = new long[1];
                    final int n = rounds(8);
                    final long[] seq = new long[1];
                    for (int pass = 0; pass <= Math.max(1, warmups); pass++) {
                        one[0] = putPingPong(sh, buf, src, 1, n, seq); // the last pass is the measured one
                    }
                });
            return one[0];
        });
    }

    /** Per figure, the median over the trials that were paired; {@link SpscPairing.Ratios#NONE} if none was. */
    static SpscPairing.Ratios medianRatios(final SpscPairing.Ratios[] trials) {
        final double[][] v = new double[4][];
        final SpscPairing.Ratios[] measured = java.util.Arrays.stream(trials).filter(SpscPairing.Ratios::measured)
            .toArray(SpscPairing.Ratios[]::new);
        if (measured.length == 0) {
            return SpscPairing.Ratios.NONE;
        }
        for (int k = 0; k < 4; k++) {
            v[k] = new double[measured.length];
        }
        for (int t = 0; t < measured.length; t++) {
            v[0][t] = measured[t].hopNs();
            v[1][t] = measured[t].put();
            v[2][t] = measured[t].get();
            v[3][t] = measured[t].fetchAdd();
        }
        return new SpscPairing.Ratios(Stats.median(v[0]), Stats.median(v[1]), Stats.median(v[2]),
            Stats.median(v[3]));
    }

    /** The SPSC queue and arraycopy of this run, at the bandwidth sweep's sizes. */
    private RawBaselines baselines() {
        final int[] copies = new int[BANDWIDTH_SIZES.length];
        for (int i = 0; i < copies.length; i++) {
            copies[i] = messages(BANDWIDTH_SIZES[i], true);
        }
        return RawBaselines.measure(warmups, trials, roundTrips, BANDWIDTH_SIZES, copies);
    }

    /** The 2-PE SHMEM job: latency and bandwidth sweeps; {@code barrier} is filled in by the caller. */
    private Result twoPes(final RawBaselines raw, final FmBenchmark.Sweep fm, final boolean inProcess,
                          final IntConsumer progress, final double[] barrier) {
        final double[][] put = new double[LATENCY_SIZES.length][trials];
        final double[][] get = new double[LATENCY_SIZES.length][trials];
        final double[] fadd = new double[trials];
        final double[] getBusy = new double[trials];
        final double[] faddBusy = new double[trials];
        final double[][] putBw = new double[BANDWIDTH_SIZES.length][trials];
        final double[][] nbiBw = new double[BANDWIDTH_SIZES.length][trials];
        final double[][] getBw = new double[BANDWIDTH_SIZES.length][trials];
        final SpscPairing pairing = new SpscPairing();
        final SpscPairing.Ratios[] paired = new SpscPairing.Ratios[trials];
        java.util.Arrays.fill(paired, SpscPairing.Ratios.NONE);
        final ShmemJob.Builder job = ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(20));
        (inProcess ? job.inProcess() : job).build().run(sh -> {
            final int maxLongs = 1 << 17;
            final SymmetricLongs buf = sh.mallocLongs(maxLongs);
            final long[] src = new long[maxLongs];
            final long[] dst = new long[maxLongs];
            pairing.join();
            sh.barrierAll();
            final boolean pairs = pairing.shared();
            final long[] seq = new long[1];
            for (int pass = 0; pass < warmups + trials; pass++) {
                final boolean measured = pass >= warmups;
                final int t = pass - warmups;
                for (int i = 0; i < LATENCY_SIZES.length; i++) {
                    final int longs = LATENCY_SIZES[i] / 8;
                    final int n = rounds(LATENCY_SIZES[i]);
                    // Untimed rounds first, as OSU's benchmarks skip a size's first iterations: the first tenth
                    // after the pass's bandwidth section ran 5-6x slower than the rest (1.3-1.4 us against 0.22).
                    putPingPong(sh, buf, src, longs, Math.max(10, n / 10), seq);
                    final double putNs = putPingPong(sh, buf, src, longs, n, seq);
                    sh.barrierAll();
                    long t0 = System.nanoTime();
                    if (sh.myPe() == 0) {
                        for (int k = 0; k < n; k++) {
                            buf.get(1, 0, dst, 0, longs);
                        }
                    }
                    final double getNs = (System.nanoTime() - t0) / (double) n;
                    if (measured && sh.myPe() == 0) {
                        put[i][t] = putNs;
                        get[i][t] = getNs;
                    }
                }
                if (pairs) {
                    final SpscPairing.Ratios r = pairing.run(sh, buf, dst, Math.max(200, rounds(8) / 20));
                    if (measured && sh.myPe() == 0) {
                        paired[t] = r;
                    }
                }
                sh.barrierAll();
                final int n = rounds(8);
                final long t0 = System.nanoTime();
                if (sh.myPe() == 0) {
                    for (int k = 0; k < n; k++) {
                        buf.atomicFetchAdd(1, 0, 1);
                    }
                }
                if (measured && sh.myPe() == 0) {
                    fadd[t] = (System.nanoTime() - t0) / (double) n;
                }
                final double[] busy = busyTarget(sh, buf, dst, pass, measured ? BUSY_OPERATIONS : 20);
                if (measured && sh.myPe() == 0) {
                    getBusy[t] = busy[0];
                    faddBusy[t] = busy[1];
                }
                for (int i = 0; i < BANDWIDTH_SIZES.length; i++) {
                    final int longs = Math.max(1, BANDWIDTH_SIZES[i] / 8);
                    final int m = messages(BANDWIDTH_SIZES[i], measured);
                    final double a = stream(sh, buf, src, longs, m, 0);
                    final double b = stream(sh, buf, src, longs, m, 1);
                    final double c = stream(sh, buf, dst, longs, m, 2);
                    if (measured && sh.myPe() == 0) {
                        putBw[i][t] = a;
                        nbiBw[i][t] = b;
                        getBw[i][t] = c;
                    }
                }
                if (sh.myPe() == 0) {
                    progress.accept(1);
                }
            }
        });
        return new Result(fm, Stats.medians(put), Stats.medians(get), Stats.median(fadd), Stats.medians(putBw),
            Stats.medians(nbiBw), Stats.medians(getBw), barrier, raw, Stats.median(getBusy), Stats.median(faddBusy),
            medianRatios(paired));
    }

    /**
     * PE 1 computes (a Java loop, no SHMEM call) while PE 0 makes {@code n} blocking 8-byte gets and then {@code n}
     * fetch-adds to it; PE 1 stops when PE 0 puts a flag into its memory, which it reads with plain opaque loads
     * between bouts of computing. On the NIC the target's host is not needed; elsewhere its progress agent serves.
     *
     * @return on PE 0: mean get and fetch-add latency, ns
     */
    private static double[] busyTarget(final Shmem sh, final SymmetricLongs buf, final long[] dst, final int pass,
                                       final int n) {
        final int flag = buf.local().length - 1;
        final long done = -1L - pass;
        sh.barrierAll();
        final double[] ns = new double[2];
        if (sh.myPe() == 1) {
            final long deadline = System.nanoTime() + 600_000_000_000L;
            double x = 1;
            while ((long) LONGS.getOpaque(buf.local(), flag) != done) {
                for (int k = 0; k < 1_000; k++) {
                    x = x * 1.000001 + 1e-9;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("PE 0 never finished its operations on a busy target");
                }
            }
            if (x == 0) {
                throw new AssertionError("unreachable: keeps the computing alive");
            }
        } else {
            long t0 = System.nanoTime();
            for (int k = 0; k < n; k++) {
                buf.get(1, 0, dst, 0, 1);
            }
            ns[0] = (System.nanoTime() - t0) / (double) n;
            t0 = System.nanoTime();
            for (int k = 0; k < n; k++) {
                buf.atomicFetchAdd(1, 1, 1);
            }
            ns[1] = (System.nanoTime() - t0) / (double) n;
            buf.p(1, flag, done);
            sh.quiet();
        }
        sh.barrierAll();
        return ns;
    }

    /** MB/s of {@code m} operations of {@code longs} elements from PE 0, closed by a quiet. */
    private static double stream(final Shmem sh, final SymmetricLongs buf, final long[] local, final int longs,
        final int m, final int kind) {
        sh.barrierAll();
        final long t0 = System.nanoTime();
        if (sh.myPe() == 0) {
            for (int k = 0; k < m; k++) {
                switch (kind) {
                    case 0 -> buf.put(1, 0, local, 0, longs);
                    case 1 -> buf.putNbi(1, 0, local, 0, longs);
                    default -> buf.getNbi(1, 0, local, 0, longs);
                }
            }
            sh.quiet();
        }
        final double mbps = (double) m * longs * 8 * 1e3 / (System.nanoTime() - t0);
        sh.barrierAll();
        return mbps;
    }

    private double barrierNs(final int pes, final boolean inProcess) {
        final double[] ns = new double[trials];
        final int n = Math.max(20, 2_000 / pes);
        final ShmemJob.Builder job = ShmemJob.builder().pes(pes).timeout(Duration.ofMinutes(5));
        (inProcess ? job.inProcess() : job).build().run(sh -> {
            for (int w = 0; w < n; w++) {
                sh.barrierAll();
            }
            for (int t = 0; t < trials; t++) {
                final long t0 = System.nanoTime();
                for (int k = 0; k < n; k++) {
                    sh.barrierAll();
                }
                if (sh.myPe() == 0) {
                    ns[t] = (System.nanoTime() - t0) / (double) n;
                }
            }
        });
        return Stats.median(ns);
    }

    /**
     * {@code n} rounds of a put of {@code longs} longs and a {@code waitUntil} on the last one, PE 0 first, between
     * barriers.
     *
     * @param seq the value the last round put, carried from call to call
     * @return one-way nanoseconds
     */
    private static double putPingPong(final Shmem sh, final SymmetricLongs buf, final long[] src, final int longs,
        final int n, final long[] seq) {
        sh.barrierAll();
        final long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) {
            final long s = ++seq[0];
            src[longs - 1] = s;
            if (sh.myPe() == 0) {
                buf.put(1, 0, src, 0, longs);
                buf.waitUntil(longs - 1, Cmp.EQ, s);
            } else {
                buf.waitUntil(longs - 1, Cmp.EQ, s);
                buf.put(0, 0, src, 0, longs);
            }
        }
        return (System.nanoTime() - t0) / (2.0 * n);
    }

    private int rounds(final int size) {
        // Warm-up passes as long as measured ones: a tenth left the put path partly interpreted (2.5x slower).
        return (int) Math.max(20, Math.min(roundTrips, bytesPerPoint / 8 / size));
    }

    private int messages(final int size, final boolean measured) {
        final int n = (int) Math.max(50, Math.min(200_000, bytesPerPoint / size));
        return measured ? n : n / 10 + 1;
    }

    /**
     * Everything measured (medians).
     *
     * @param fm                   FM's fault-free sweep of the same run
     * @param putNs                put one-way latency per {@link #LATENCY_SIZES}
     * @param getNs                blocking get latency per {@link #LATENCY_SIZES}
     * @param fetchAddNs           fetchAdd latency
     * @param putMBps              put bandwidth per {@link #BANDWIDTH_SIZES}
     * @param putNbiMBps           putNbi bandwidth
     * @param getNbiMBps           getNbi bandwidth
     * @param barrierNs            barrierAll latency per {@link #BARRIER_PES} entry, as many as were measured (the
     *                             2-PE one only under launch)
     * @param raw                  the SPSC queue and arraycopy of the same run, arraycopy at {@link #BANDWIDTH_SIZES}
     * @param getBusyTargetNs      blocking 8-byte get latency while the target computes without calling SHMEM
     * @param fetchAddBusyTargetNs fetchAdd latency while the target computes
     * @param paired               the SPSC hop between the PE threads and the 8-byte operations over it, block by
     *                             block ({@link SpscPairing}); {@link SpscPairing.Ratios#NONE} where the PEs are not
     *                             threads of one JVM
     */
    public record Result(FmBenchmark.Sweep fm, double[] putNs, double[] getNs, double fetchAddNs, double[] putMBps,
                         double[] putNbiMBps, double[] getNbiMBps, double[] barrierNs, RawBaselines raw,
                         double getBusyTargetNs, double fetchAddBusyTargetNs, SpscPairing.Ratios paired) {
        /**
         * What SHMEM's put adds to FM for the smallest message, measured in the same run ({@code bench shmem} holds
         * it to its latency target).
         *
         * @return SHMEM put 8 B over FM 8 B one-way latency
         */
        public double putLatencyRatio() {
            return putNs[0] / fm.latencyNs()[0];
        }

        /**
         * SHMEM put's bandwidth efficiency against FM streaming the same sizes, at its worst over every size
         * ({@code bench shmem} holds it to its efficiency target).
         *
         * @return the smallest put / FM bandwidth ratio over {@link #BANDWIDTH_SIZES}
         */
        public double minPutEfficiency() {
            double min = Double.MAX_VALUE;
            for (int i = 0; i < BANDWIDTH_SIZES.length; i++) {
                min = Math.min(min, putMBps[i] / fm.bandwidthMBps()[i]);
            }
            return min;
        }

        /**
         * Put latency against the machine's ({@code put_latency_spsc_ratio}): SHMEM's one-way 8-byte put over the
         * SPSC hop between the same PE threads, block by block ({@link SpscPairing}); where the PEs are not threads of
         * one JVM, over the raw baseline's hop ({@link #putLatencySpscRatioSeparate}).
         *
         * @return the ratio
         */
        public double putLatencySpscRatio() {
            return paired.measured() ? paired.put() : putLatencySpscRatioSeparate();
        }

        /**
         * Get latency against the machine's ({@code get_latency_spsc_ratio}): a blocking 8-byte get (a round trip)
         * over the SPSC one-way hop, paired as {@link #putLatencySpscRatio}.
         *
         * @return the ratio
         */
        public double getLatencySpscRatio() {
            return paired.measured() ? paired.get() : getLatencySpscRatioSeparate();
        }

        /**
         * Atomic latency against the machine's ({@code fetch_add_latency_spsc_ratio}): a fetchAdd over the SPSC
         * one-way hop, paired as {@link #putLatencySpscRatio}.
         *
         * @return the ratio
         */
        public double fetchAddLatencySpscRatio() {
            return paired.measured() ? paired.fetchAdd() : fetchAddLatencySpscRatioSeparate();
        }

        /**
         * {@code put_latency_spsc_ratio_separate}.
         *
         * @return {@code put_latency_ns_8B / spsc_latency_ns}: against the raw baseline measured once per run
         */
        public double putLatencySpscRatioSeparate() {
            return putNs[0] / raw.spscLatencyNs();
        }

        /**
         * {@code get_latency_spsc_ratio_separate}.
         *
         * @return {@code get_latency_ns_8B / spsc_latency_ns}: against the raw baseline measured once per run
         */
        public double getLatencySpscRatioSeparate() {
            return getNs[0] / raw.spscLatencyNs();
        }

        /**
         * {@code fetch_add_latency_spsc_ratio_separate}.
         *
         * @return {@code fetch_add_latency_ns / spsc_latency_ns}: against the raw baseline measured once per run
         */
        public double fetchAddLatencySpscRatioSeparate() {
            return fetchAddNs / raw.spscLatencyNs();
        }

        /**
         * Put bandwidth against {@code System.arraycopy} of the same size in the same run.
         *
         * @param size bytes, one of {@link #BANDWIDTH_SIZES}
         * @return put MB/s over arraycopy MB/s at that size
         */
        public double putBwArraycopyRatio(final int size) {
            return Stats.at(BANDWIDTH_SIZES, putMBps, size) / Stats.at(BANDWIDTH_SIZES, raw.arraycopyMBps(), size);
        }

        /**
         * Get bandwidth (getNbi streamed, then quiet) against {@code System.arraycopy} of the same size.
         *
         * @param size bytes, one of {@link #BANDWIDTH_SIZES}
         * @return getNbi MB/s over arraycopy MB/s at that size
         */
        public double getBwArraycopyRatio(final int size) {
            return Stats.at(BANDWIDTH_SIZES, getNbiMBps, size) / Stats.at(BANDWIDTH_SIZES, raw.arraycopyMBps(), size);
        }

        /**
         * The rate of 8-byte puts streamed then closed by a quiet.
         *
         * @return millions of puts per second
         */
        public double putRateMops8B() {
            return Stats.at(BANDWIDTH_SIZES, putMBps, 8) / 8;
        }

        /**
         * The rate of 8-byte puts (streamed, then quiet) over the raw rate of 8-byte SPSC messages.
         *
         * @return {@code put_rate_Mops_8B / spsc_rate_Mops_8B}
         */
        public double putRateSpscRatio() {
            return putRateMops8B() / raw.spscRateMops();
        }

        /**
         * How much a computing target slows a get: the get latency with the target busy over it with the target
         * waiting in SHMEM.
         *
         * @return {@code get_latency_busy_target_ns_8B / get_latency_ns_8B}
         */
        public double getBusyTargetRatio() {
            return getBusyTargetNs / getNs[0];
        }

        /**
         * FM's mean one-way latency at one size, to print beside SHMEM's latencies (FM's latency sweep stops at
         * 64 KiB, SHMEM's goes on to 1 MiB).
         *
         * @param size bytes
         * @return FM's one-way latency at that size in ns, or NaN if FM's sweep does not have it
         */
        public double fmLatencyAt(final int size) {
            for (int i = 0; i < FmBenchmark.LATENCY_SIZES.length; i++) {
                if (FmBenchmark.LATENCY_SIZES[i] == size) {
                    return fm.latencyNs()[i];
                }
            }
            return Double.NaN;
        }
    }
}
