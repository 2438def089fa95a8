package org.jhpvm.apps.bench;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.function.IntConsumer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import org.jhpvm.mpi.MpiJob;

/**
 * OSU-style measurements of MPI-FM, with Fast Messages' own figures and {@code System.arraycopy} in the same run:
 * <ul>
 * <li>latency: one-way time of a ping-pong of {@code send}/{@code recv} between 2 ranks (half the mean round
 * trip), against FM's ping-pong of one-piece streams; MPI's overhead at 8 bytes against FM's ping-pong on the same
 * endpoint in the same job ({@link SameEndpoint});</li>
 * <li>bandwidth: windows of {@value #WINDOW} {@code iSend}s from Java arrays (the zero-copy path) completed by
 * {@code waitAll}, the receiver posting as many {@code iRecv}s, one acknowledgement at the end; against FM's stream of
 * messages with one acknowledgement, in FM's own job and on the MPI job's endpoint right after each window (the
 * efficiency); the same window from direct buffers (the Open MPI bindings' form) and in both directions at once;</li>
 * <li>allReduce of doubles, 8 B .. 1 MiB, on 2 .. 64 ranks: the mean time per call on rank 0.</li>
 * </ul>
 * Each figure is the median over trials; FM's and MPI's trials alternate (a job each, warmed up first). The target
 * figures pair MPI with FM on the same endpoint in the same job, as close in time as can be ({@link SameEndpoint}).
 */
public final class MpiBenchmark {
    /** Sizes of the point-to-point sweeps, bytes. */
    public static final int[] SIZES = {8, 64, 512, 4096, 32768, 262144, 1 << 20, 4 << 20};
    /** Sizes of the allReduce sweep, bytes. */
    public static final int[] ALLREDUCE_SIZES = {8, 1024, 65536, 1 << 20};
    /** Rank counts of the allReduce sweep. */
    public static final int[] ALLREDUCE_RANKS = {2, 4, 8, 16, 32, 64};
    /** Sends in flight per window. */
    public static final int WINDOW = 64;
    /** Pairs of MPI and FM blocks of the paired 8-byte latency ({@link SameEndpoint}) per pass. */
    static final int PAIRED_BLOCKS = 21;

    private final int trials;
    private final int warmups;
    private final int roundTrips;
    private final long bytesPerPoint;
    private final int maxRanks;

    /**
     * Keeps the settings (checked by {@code bench mpi}).
     *
     * @param trials        measured trials
     * @param warmups       warm-up passes per job
     * @param roundTrips    ping-pong round trips per latency point
     * @param bytesPerPoint bytes streamed per bandwidth point
     * @param maxRanks      the largest rank count of the allReduce sweep
     */
    public MpiBenchmark(final int trials, final int warmups, final int roundTrips, final long bytesPerPoint,
                        final int maxRanks) {
        this.trials = trials;
        this.warmups = warmups;
        this.roundTrips = roundTrips;
        this.bytesPerPoint = bytesPerPoint;
        this.maxRanks = maxRanks;
    }

    /**
     * Progress steps {@link #run} reports.
     *
     * @return steps
     */
    public int steps() {
        return 1 + 2 * trials * (warmups + 1) + rankCounts();
    }

    private int rankCounts() {
        int n = 0;
        for (final int r : ALLREDUCE_RANKS) {
            n += r <= maxRanks ? 1 : 0;
        }
        return n;
    }

    /** Messages per bandwidth point: as many as FM's sweep streams (50 .. 200,000), in whole windows. */
    private int messages(final int size) {
        final long n = Math.max(WINDOW, Math.min(200_000, bytesPerPoint / size));
        return (int) (n / WINDOW * WINDOW);
    }

    /**
     * Runs everything.
     *
     * @param progress told of each finished pass
     * @return the medians
     */
    public Result run(final IntConsumer progress) {
        final double[][] copy = new double[SIZES.length][trials];
        for (int t = 0; t < trials; t++) {
            for (int i = 0; i < SIZES.length; i++) {
                copy[i][t] = FabricBenchmark.arraycopyMBps(SIZES[i], messages(SIZES[i]));
            }
        }
        progress.accept(1);
        final double[][] fmLat = new double[SIZES.length][trials];
        final double[][] fmBw = new double[SIZES.length][trials];
        final double[][] lat = new double[SIZES.length][trials];
        final double[][] bw = new double[SIZES.length][trials];
        final double[][] bwBuffer = new double[SIZES.length][trials];
        final double[][] bibw = new double[SIZES.length][trials];
        final double[] paired = new double[trials];
        final double[][] fmSame = new double[SIZES.length][trials];
        // FM and MPI alternate, one trial each, so that both see the machine in the same state (a VM's speed
        // drifts over minutes); each job warms up first.
        final FmBenchmark fmBench = new FmBenchmark(1, warmups, roundTrips, bytesPerPoint, 0, SIZES, SIZES);
        long rendezvous = 0;
        for (int t = 0; t < trials; t++) {
            final FmBenchmark.Sweep fm = fmBench.cleanSweep(progress);
            rendezvous += fm.rendezvousMessages();
            for (int i = 0; i < SIZES.length; i++) {
                fmLat[i][t] = fm.latencyNs()[i];
                fmBw[i][t] = fm.bandwidthMBps()[i];
            }
            mpiTrial(t, lat, bw, bwBuffer, bibw, fmSame, paired, progress);
        }
        final FmBenchmark.Sweep fm = new FmBenchmark.Sweep(Stats.medians(fmLat), new double[SIZES.length],
            Stats.medians(fmBw), 0, 0, rendezvous);
        final int counts = rankCounts();
        final double[][] allReduceUs = new double[counts * ALLREDUCE_SIZES.length][];
        int k = 0;
        for (final int ranks : ALLREDUCE_RANKS) {
            if (ranks > maxRanks) {
                continue;
            }
            final double[][] us = allReduce(ranks);
            for (final double[] row : us) {
                allReduceUs[k++] = row;
            }
            progress.accept(1);
        }
        return new Result(Stats.medians(copy), fm, Stats.medians(lat), Stats.medians(bw), Stats.medians(bwBuffer),
            Stats.medians(bibw), Stats.medians(allReduceUs), Stats.medians(fmSame), pairedRatios(bw, fmSame),
            pairedRatios(bw, fmBw), Stats.median(paired), pairedDifference(lat[0], fmLat[0]));
    }

    /**
     * Per size, the median over trials of {@code a[i][t] / b[i][t]}: each MPI trial against the FM trial run just
     * before it (the machine in the same state), so a slow spell in one trial does not decide the figure.
     */
    static double[] pairedRatios(final double[][] a, final double[][] b) {
        final double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            final double[] r = new double[a[i].length];
            for (int t = 0; t < r.length; t++) {
                r[t] = a[i][t] / b[i][t];
            }
            out[i] = Stats.median(r);
        }
        return out;
    }

    /** The median over trials of {@code a[t] - b[t]}, paired as in {@link #pairedRatios}. */
    static double pairedDifference(final double[] a, final double[] b) {
        final double[] d = new double[a.length];
        for (int t = 0; t < d.length; t++) {
            d[t] = a[t] - b[t];
        }
        return Stats.median(d);
    }

    /**
     * One MPI job: warm-up passes, then trial {@code t} of every point-to-point figure; each size's window is followed
     * by FM's stream on the same endpoint, and each pass ends with MPI's 8-byte latency paired with FM's there
     * ({@link SameEndpoint}).
     */
    private void mpiTrial(final int t, final double[][] lat, final double[][] bw, final double[][] bwBuffer,
                          final double[][] bibw, final double[][] fmSame, final double[] paired,
                          final IntConsumer progress) {
        MpiJob.builder().ranks(2).timeout(Duration.ofMinutes(30)).build().run(() -> {
            final SameEndpoint same = new SameEndpoint(SIZES[SIZES.length - 1]);
            MPI.Init(new String[0]);
            final PointToPoint p = new PointToPoint(SIZES[SIZES.length - 1]);
            for (int pass = 0; pass <= warmups; pass++) {
                final boolean measured = pass == warmups;
                for (int i = 0; i < SIZES.length; i++) {
                    final int n = measured ? roundTrips : roundTrips / 10 + 1;
                    final double ns = p.pingPong(SIZES[i], Math.max(10, SIZES[i] >= 1 << 20 ? n / 50 : n));
                    // Warm-up windows a tenth of the measured ones, as FM's job warms up its streams (one window each
                    // left MPI's paths to be compiled during the measured pass, FM's not).
                    final int m = measured ? messages(SIZES[i]) : Math.max(WINDOW, messages(SIZES[i]) / 10 / WINDOW
                        * WINDOW);
                    final double mbps = p.window(SIZES[i], m, false, false);
                    final double mbpsBuffer = p.window(SIZES[i], m, true, false);
                    final double both = p.window(SIZES[i], m, false, true);
                    final double fm = same.streamMBps(SIZES[i], m);
                    if (measured && p.me == 0) {
                        fmSame[i][t] = fm;
                        lat[i][t] = ns;
                        bw[i][t] = mbps;
                        bwBuffer[i][t] = mbpsBuffer;
                        bibw[i][t] = both;
                    }
                }
                final int blockTrips = Math.max(100, (measured ? roundTrips : roundTrips / 10) / 10);
                final double[] d = same.differencesNs(PAIRED_BLOCKS, blockTrips);
                if (measured && p.me == 0) {
                    paired[t] = Stats.median(d);
                }
                if (p.me == 0) {
                    progress.accept(1);
                }
            }
            MPI.Finalize();
        });
    }

    /** Times allReduce at each size on {@code ranks} ranks: per size, the trials' mean microseconds per call. */
    private double[][] allReduce(final int ranks) {
        final double[][] us = new double[ALLREDUCE_SIZES.length][trials];
        MpiJob.builder().ranks(ranks).timeout(Duration.ofMinutes(30)).build().run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            // Passes over every size, the warm-up ones first (so the first size is not timed cold).
            for (int pass = 0; pass < warmups + trials; pass++) {
                for (int i = 0; i < ALLREDUCE_SIZES.length; i++) {
                    final int count = ALLREDUCE_SIZES[i] / 8;
                    final double[] in = new double[count];
                    final double[] out = new double[count];
                    java.util.Arrays.fill(in, me);
                    final int calls = (int) Math.max(3, Math.min(2_000, (8L << 20) / ALLREDUCE_SIZES[i] / ranks));
                    MPI.COMM_WORLD.barrier();
                    final long t0 = System.nanoTime();
                    for (int c = 0; c < calls; c++) {
                        MPI.COMM_WORLD.allReduce(in, out, count, MPI.DOUBLE, MPI.SUM);
                    }
                    if (pass >= warmups && me == 0) {
                        us[i][pass - warmups] = (System.nanoTime() - t0) / 1e3 / calls;
                    }
                    if (out[0] != (double) ranks * (ranks - 1) / 2) {
                        throw new IllegalStateException("allReduce gave " + out[0] + " on " + ranks + " ranks");
                    }
                }
            }
            MPI.Finalize();
        });
        return us;
    }

    /** One rank's side of the point-to-point measurements. */
    private static final class PointToPoint {
        final int me;
        final int peer;
        final byte[] out;
        final byte[] in;
        final ByteBuffer outBuffer;
        final ByteBuffer inBuffer;
        final Request[] requests = new Request[2 * WINDOW];
        final byte[] ack = new byte[1];

        PointToPoint(final int maxBytes) throws MPIException {
            me = MPI.COMM_WORLD.getRank();
            peer = 1 - me;
            out = new byte[maxBytes];
            in = new byte[maxBytes];
            outBuffer = MPI.newByteBuffer(maxBytes);
            inBuffer = MPI.newByteBuffer(maxBytes);
        }

        /** Mean one-way latency in ns over {@code n} round trips. */
        double pingPong(final int size, final int n) throws MPIException {
            MPI.COMM_WORLD.barrier();
            final long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (me == 0) {
                    MPI.COMM_WORLD.send(out, size, MPI.BYTE, peer, 1);
                    MPI.COMM_WORLD.recv(in, size, MPI.BYTE, peer, 1);
                } else {
                    MPI.COMM_WORLD.recv(in, size, MPI.BYTE, peer, 1);
                    MPI.COMM_WORLD.send(out, size, MPI.BYTE, peer, 1);
                }
            }
            return (System.nanoTime() - t0) / (2.0 * n);
        }

        /**
         * MB/s of {@code n} messages in windows from rank 0 to rank 1 (both ways at once: the sum of the two
         * directions), until the last acknowledgement.
         */
        double window(final int size, final int n, final boolean buffers, final boolean both) throws MPIException {
            MPI.COMM_WORLD.barrier();
            final long t0 = System.nanoTime();
            for (int w = 0; w < n / WINDOW; w++) {
                int k = 0;
                for (int j = 0; j < WINDOW; j++) {
                    if (me == 1 || both) {
                        requests[k++] = buffers ? MPI.COMM_WORLD.iRecv(inBuffer, size, MPI.BYTE, peer, 2)
                            : MPI.COMM_WORLD.iRecv(in, size, MPI.BYTE, peer, 2);
                    }
                }
                for (int j = 0; j < WINDOW; j++) {
                    if (me == 0 || both) {
                        requests[k++] = buffers ? MPI.COMM_WORLD.iSend(outBuffer, size, MPI.BYTE, peer, 2)
                            : MPI.COMM_WORLD.iSend(out, size, MPI.BYTE, peer, 2);
                    }
                }
                Request.waitAll(java.util.Arrays.copyOf(requests, k));
            }
            if (me == 0) {
                MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, peer, 3);
            } else {
                MPI.COMM_WORLD.send(ack, 1, MPI.BYTE, peer, 3);
            }
            return (double) n * size * (both ? 2 : 1) * 1e3 / (System.nanoTime() - t0);
        }
    }

    /**
     * Everything measured, per {@link #SIZES} entry.
     *
     * @param arraycopyMBps  {@code System.arraycopy} of the same bytes
     * @param fm             FM's latency and streaming bandwidth at the same sizes
     * @param mpiLatencyNs   MPI one-way latency
     * @param mpiMBps        MPI window bandwidth from arrays
     * @param mpiBufferMBps  MPI window bandwidth from direct buffers
     * @param mpiBiMBps      MPI bidirectional window bandwidth (both directions added)
     * @param allReduceUs    microseconds per allReduce: rows rank count by rank count, {@link #ALLREDUCE_SIZES}
     *                       within each
     * @param fmSameJobMBps  FM's stream on the MPI job's own endpoint, right after each MPI window ({@link
     *                       SameEndpoint})
     * @param efficiency     per size, the median over trials of MPI bandwidth / FM's stream on the same endpoint
     *                       right after it
     * @param efficiencyJobs per size, the median over trials of MPI bandwidth / FM bandwidth in the FM job run just
     *                       before (the figure's older form: two jobs may see the machine in different states)
     * @param overheadNs8B   the median over trials of MPI's 8 B one-way latency minus FM's on the same endpoint
     *                       in the same job, each trial's figure the median over its pairs of blocks
     *                       ({@link SameEndpoint})
     * @param overheadNs8BJobs the median over trials of MPI's 8 B one-way latency (the table's) minus FM's in the
     *                       FM job run just before (the older form)
     */
    public record Result(double[] arraycopyMBps, FmBenchmark.Sweep fm, double[] mpiLatencyNs, double[] mpiMBps,
                         double[] mpiBufferMBps, double[] mpiBiMBps, double[] allReduceUs, double[] fmSameJobMBps,
                         double[] efficiency, double[] efficiencyJobs, double overheadNs8B, double overheadNs8BJobs) {
        /**
         * The lowest MPI-over-FM bandwidth ratio over every size ({@code mpi_min_efficiency}), each size's ratio
         * paired window by window with FM's stream on the same endpoint.
         *
         * @return min over sizes of the median MPI bandwidth / FM bandwidth
         */
        public double minEfficiency() {
            return min(efficiency);
        }

        /**
         * {@link #minEfficiency} against FM's own jobs ({@code mpi_min_efficiency_separate_jobs}).
         *
         * @return min over sizes of the median MPI bandwidth / FM job bandwidth
         */
        public double minEfficiencyJobs() {
            return min(efficiencyJobs);
        }

        private static double min(final double[] values) {
            double m = Double.MAX_VALUE;
            for (final double e : values) {
                m = Math.min(m, e);
            }
            return m;
        }

        /**
         * MPI's one-way latency minus FM's at 8 bytes ({@code mpi_latency_overhead_ns_8B}), FM on the same endpoint
         * in the same job, paired block by block ({@link SameEndpoint}).
         *
         * @return nanoseconds
         */
        public double latencyOverheadNs8B() {
            return overheadNs8B;
        }

        /**
         * A figure at one of {@link #SIZES}.
         *
         * @param values one per size
         * @param size   bytes
         * @return the value there
         */
        public static double at(final double[] values, final int size) {
            return Stats.at(SIZES, values, size);
        }
    }
}
