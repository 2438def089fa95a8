package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.IntConsumer;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmConfig;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmJob;
import org.jhpvm.fm.FmOutputStream;

/**
 * The FM 1.0 paper's measurements on 2 PEs: one-way latency by ping-pong and streaming bandwidth, over FM 2.x
 * streams (a message is {@code beginMessage}, one {@code sendPiece}, {@code endMessage}; the handler receives it
 * into a buffer of its own). The raw SPSC ping-pong and {@code System.arraycopy} are measured in the same run, and
 * the FM sweep is repeated over a fabric that drops 1% of frames. Each figure is the median over trials; each job
 * first runs warm-up passes over every size.
 */
public final class FmBenchmark {
    private static final int PING = 1;
    private static final int STREAM = 2;
    private static final int ACK = 3;
    private static final long WAIT_NS = 120_000_000_000L;

    /** Sizes of the latency sweep, bytes. */
    public static final int[] LATENCY_SIZES = {8, 64, 512, 4096, 16384, 65536};
    /** Sizes of the bandwidth sweep, bytes. */
    public static final int[] BANDWIDTH_SIZES = {8, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20};

    private final int trials;
    private final int warmups;
    private final int roundTrips;
    private final long bytesPerPoint;
    private final double dropRate;
    private final int[] latencySizes;
    private final int[] bandwidthSizes;

    /**
     * Keeps the settings; nothing runs until {@link #run} or a sweep is called. They are not checked here
     * ({@code bench fm} checks its options): trials below 1 fail only when the medians are taken.
     *
     * @param trials        measured trials; medians are reported
     * @param warmups       warm-up passes per job
     * @param roundTrips    ping-pong round trips per latency point (also of the SPSC baseline)
     * @param bytesPerPoint bytes streamed per bandwidth point (between 50 and 200,000 messages whatever the size)
     * @param dropRate      drop probability of the lossy sweep, 0..1
     */
    public FmBenchmark(final int trials, final int warmups, final int roundTrips, final long bytesPerPoint,
                       final double dropRate) {
        this(trials, warmups, roundTrips, bytesPerPoint, dropRate, LATENCY_SIZES, BANDWIDTH_SIZES);
    }

    /**
     * As the other constructor, with sweeps of other sizes (a layer above comparing itself with FM at its own
     * sizes); a {@link Sweep}'s arrays then follow these sizes, and its size lookups do not apply.
     *
     * @param trials         measured trials
     * @param warmups        warm-up passes per job
     * @param roundTrips     ping-pong round trips per latency point
     * @param bytesPerPoint  bytes streamed per bandwidth point
     * @param dropRate       drop probability of the lossy sweep
     * @param latencySizes   sizes of the latency sweep, bytes
     * @param bandwidthSizes sizes of the bandwidth sweep, bytes
     */
    public FmBenchmark(final int trials, final int warmups, final int roundTrips, final long bytesPerPoint,
                       final double dropRate, final int[] latencySizes, final int[] bandwidthSizes) {
        this.latencySizes = latencySizes.clone();
        this.bandwidthSizes = bandwidthSizes.clone();
        this.trials = trials;
        this.warmups = warmups;
        this.roundTrips = roundTrips;
        this.bytesPerPoint = bytesPerPoint;
        this.dropRate = dropRate;
    }

    /**
     * The length of a progress bar for {@link #run}: the baselines, then one step per pass of each of the two FM
     * jobs.
     *
     * @return progress steps {@link #run} reports
     */
    public int steps() {
        return 2 * (warmups + trials) + trials + 2 + 2 * trials;
    }

    /**
     * The 8 B one-way latency of two PEs under {@code none} and {@code dcs}: per trial one job per policy, alternated
     * (each job warms up first).
     *
     * @param progress told of each finished job
     * @return the figures
     */
    public SchedulingLatency schedulingLatency(final IntConsumer progress) {
        return SchedulingLatency.measure(trials, progress, policy -> {
            final double[] one = new double[1];
            FmJob.builder().fabric(FabricConfig.builder(2).build())
                .fm(FmConfig.builder().scheduling(policy, 0, FmConfig.defaults().quantumNs()).build())
                .timeout(Duration.ofMinutes(5)).inProcess().build().run(fm -> {
                    final PeState s = new PeState(fm, 0, 8);
                    for (int w = 0; w < Math.max(1, warmups); w++) {
                        s.pingPong(8, roundTrips);
                    }
                    final double v = s.pingPong(8, roundTrips);
                    if (fm.pe() == 0) {
                        one[0] = v;
                    }
                });
            return one[0];
        });
    }

    /**
     * Runs everything.
     *
     * @param progress told of each finished pass
     * @return the medians
     */
    public Result run(final IntConsumer progress) {
        final double spscNs;
        try (PairRunner pair = new PairRunner("bench-spsc", 120)) {
            final double[] spsc = new double[trials];
            for (int t = 0; t < trials; t++) {
                spsc[t] = FabricBenchmark.spscLatencyNs(pair, 32, roundTrips);
            }
            spscNs = Stats.median(spsc);
        }
        progress.accept(1);
        final double[][] copy = new double[BANDWIDTH_SIZES.length][trials];
        for (int t = 0; t < trials; t++) {
            for (int i = 0; i < BANDWIDTH_SIZES.length; i++) {
                copy[i][t] = FabricBenchmark.arraycopyMBps(BANDWIDTH_SIZES[i], messages(BANDWIDTH_SIZES[i]));
            }
            progress.accept(1);
        }
        progress.accept(1);
        final Sweep clean = sweep(FaultPlan.none(), progress, false, null);
        final Sweep lossy = sweep(FaultPlan.builder(1998).drop(dropRate).build(), progress, false, null);
        return new Result(spscNs, Stats.medians(copy), clean, lossy, schedulingLatency(progress));
    }

    /**
     * The fault-free FM sweep alone (for layers above that compare against FM in the same run).
     *
     * @param progress told of each finished pass
     * @return medians over the trials
     */
    public Sweep cleanSweep(final IntConsumer progress) {
        return sweep(FaultPlan.none(), progress, false, null);
    }

    /**
     * The fault-free FM sweep, timing every round trip too (for {@link Sweep#latencyMedianNs}, the statistic Aeron's
     * ping-pong sample reports), with a step PE 0 runs before each measured trial while PE 1 waits: a baseline
     * measured between the trials, so that it sees the machine in the same state as the trial it is compared with.
     *
     * @param progress    told of each finished pass
     * @param beforeTrial run by PE 0 with the trial's index before each measured trial (none if null)
     * @return medians over the trials
     */
    public Sweep cleanSweepPerRoundTrip(final IntConsumer progress, final IntConsumer beforeTrial) {
        return sweep(FaultPlan.none(), progress, true, beforeTrial);
    }

    /**
     * The fault-free FM sweep on the emulated fabric in this JVM, also in a process of a launched job (whose FM jobs
     * otherwise run over the launched fabric).
     *
     * @param progress told of each finished pass
     * @return medians over the trials
     */
    public Sweep inProcessSweep(final IntConsumer progress) {
        inProcess = true;
        try {
            return sweep(FaultPlan.none(), progress, true, null);
        } finally {
            inProcess = false;
        }
    }

    private boolean inProcess;

    private int messages(final int size) {
        return (int) Math.max(50, Math.min(200_000, bytesPerPoint / size));
    }

    /**
     * One job: warm-ups, then trials of the latency and bandwidth sweeps; with {@code perRoundTrip}, every round trip
     * of PE 0 is timed as well.
     */
    private Sweep sweep(final FaultPlan plan, final IntConsumer progress, final boolean perRoundTrip,
                        final IntConsumer beforeTrial) {
        final double[][] latency = new double[latencySizes.length][trials];
        final double[][] latencyMedian = new double[latencySizes.length][trials];
        final double[][] bandwidth = new double[bandwidthSizes.length][trials];
        final FmJob.Builder builder = FmJob.builder().fabric(FabricConfig.builder(2).faultPlan(plan).build())
            .fm(FmConfig.defaults()).timeout(Duration.ofMinutes(20));
        final FmJob job = (inProcess ? builder.inProcess() : builder).build();
        final FmJob.Report report = job.run(fm -> {
            final PeState s = new PeState(fm, perRoundTrip && fm.pe() == 0 ? roundTrips : 0, maxSize());
            for (int pass = 0; pass < warmups + trials; pass++) {
                final boolean measured = pass >= warmups;
                if (measured && beforeTrial != null && fm.pe() == 0) {
                    beforeTrial.accept(pass - warmups);
                }
                for (int i = 0; i < latencySizes.length; i++) {
                    final double ns = s.pingPong(latencySizes[i], measured ? roundTrips : roundTrips / 10 + 1);
                    if (measured && fm.pe() == 0) {
                        latency[i][pass - warmups] = ns;
                        latencyMedian[i][pass - warmups] = s.medianOneWayNs;
                    }
                }
                for (int i = 0; i < bandwidthSizes.length; i++) {
                    final int size = bandwidthSizes[i];
                    final int n = measured ? messages(size) : messages(size) / 10 + 1;
                    final double mbps = s.stream(size, n);
                    if (measured && fm.pe() == 0) {
                        bandwidth[i][pass - warmups] = mbps;
                    }
                }
                if (fm.pe() == 0) {
                    progress.accept(1);
                }
            }
        });
        return new Sweep(Stats.medians(latency), Stats.medians(latencyMedian), Stats.medians(bandwidth),
            report.totals().framesRetransmitted(),
            report.fabricTotals().framesDropped(), report.totals().rendezvousMessages());
    }

    private int maxSize() {
        int m = 0;
        for (final int x : latencySizes) {
            m = Math.max(m, x);
        }
        for (final int x : bandwidthSizes) {
            m = Math.max(m, x);
        }
        return m;
    }

    /** What one PE of the benchmark job keeps: its buffers and what has arrived. */
    private static final class PeState {
        private final FastMessages fm;
        private final int peer;
        private final byte[] out;
        private final byte[] in;
        private long pings;
        private long streamed;
        private long acks;
        /** Round-trip times of the last ping-pong (PE 0, when timing each), and their median halved. */
        private final long[] roundTripNs;
        private double medianOneWayNs = Double.NaN;

        PeState(final FastMessages fm, final int timedRoundTrips, final int maxBytes) {
            this.fm = fm;
            this.out = new byte[maxBytes];
            this.in = new byte[maxBytes];
            this.roundTripNs = new long[timedRoundTrips];
            this.peer = 1 - fm.pe();
            final FmHandler receiveAll = (stream, sender) -> stream.receive(in, 0, stream.declaredLength());
            fm.register(PING, (FmHandler) (stream, sender) -> {
                receiveAll.onMessage(stream, sender);
                pings++;
            });
            fm.register(STREAM, (FmHandler) (stream, sender) -> {
                receiveAll.onMessage(stream, sender);
                streamed++;
            });
            fm.register(ACK, (FmHandler) (stream, sender) -> acks++);
        }

        private void send(final int handler, final int size) {
            final FmOutputStream o = fm.beginMessage(peer, size, handler);
            o.sendPiece(out, 0, size);
            o.endMessage();
        }

        /**
         * @return mean one-way latency in ns (the whole exchange over 2n), as PE 0 sees it; when round trips are
         *     timed one by one, {@link #medianOneWayNs} is set too
         */
        double pingPong(final int size, final int n) {
            final boolean timed = n <= roundTripNs.length;
            final long t0 = System.nanoTime();
            long last = t0;
            for (int i = 0; i < n; i++) {
                if (fm.pe() == 0) {
                    send(PING, size);
                    await(() -> pings > 0);
                    pings--;
                    if (timed) {
                        final long now = System.nanoTime();
                        roundTripNs[i] = now - last;
                        last = now;
                    }
                } else {
                    await(() -> pings > 0);
                    pings--;
                    send(PING, size);
                }
            }
            final long elapsed = System.nanoTime() - t0;
            if (timed) {
                Arrays.sort(roundTripNs, 0, n);
                medianOneWayNs = roundTripNs[n / 2] / 2.0;
            }
            return elapsed / (2.0 * n);
        }

        /** @return MB/s (10^6 bytes per second) from PE 0 to PE 1, until PE 1 acknowledges the last message */
        double stream(final int size, final int n) {
            final long t0 = System.nanoTime();
            if (fm.pe() == 0) {
                for (int i = 0; i < n; i++) {
                    send(STREAM, size);
                }
                await(() -> acks > 0);
                acks--;
            } else {
                await(() -> streamed >= n);
                streamed -= n;
                send(ACK, 0);
            }
            return (double) n * size * 1e3 / (System.nanoTime() - t0);
        }

        private void await(final java.util.function.BooleanSupplier done) {
            if (!fm.extractUntil(done, WAIT_NS)) {
                throw new IllegalStateException("benchmark PE " + fm.pe() + " waited " + WAIT_NS / 1e9 + " s");
            }
        }
    }

    /**
     * One FM sweep.
     *
     * @param latencyNs       median over the trials of the mean one-way latency (a trial's whole ping-pong over twice
     *                        its round trips) per {@link #LATENCY_SIZES} entry
     * @param latencyMedianNs median over the trials of the median one-way latency (half the median round trip) per
     *                        entry; NaN if round trips were not timed one by one
     * @param bandwidthMBps median streaming bandwidth per {@link #BANDWIDTH_SIZES} entry
     * @param retransmitted frames FM sent again during the job
     * @param dropped       frames the fabric dropped during the job
     * @param rendezvousMessages messages of the job that moved by rendezvous (RDMA from array to array)
     */
    public record Sweep(double[] latencyNs, double[] latencyMedianNs, double[] bandwidthMBps, long retransmitted,
                        long dropped, long rendezvousMessages) {
        /**
         * FM's peak streaming bandwidth (r_inf): the highest median over {@link #BANDWIDTH_SIZES}.
         *
         * @return peak bandwidth, MB/s
         */
        public double peakMBps() {
            return Stats.peak(bandwidthMBps);
        }

        /**
         * FM's half-power point n1/2, the FM 1.0 paper's measure of how well short messages use the network.
         *
         * @return bytes at which bandwidth reaches half the peak
         */
        public double halfPowerBytes() {
            return Stats.halfPowerPoint(BANDWIDTH_SIZES, bandwidthMBps);
        }

        /**
         * The startup cost of a message in Hockney's model {@code t(n) = t0 + n / r_inf}, which the FM papers use:
         * fitted to the mean one-way latencies of {@link #LATENCY_SIZES}.
         *
         * @return startup time t0 in ns: the intercept of a least-squares line through latency against size
         */
        public double t0Ns() {
            final int n = LATENCY_SIZES.length;
            double sx = 0;
            double sy = 0;
            double sxx = 0;
            double sxy = 0;
            for (int i = 0; i < n; i++) {
                sx += LATENCY_SIZES[i];
                sy += latencyNs[i];
                sxx += (double) LATENCY_SIZES[i] * LATENCY_SIZES[i];
                sxy += LATENCY_SIZES[i] * latencyNs[i];
            }
            final double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
            return (sy - slope * sx) / n;
        }

        /**
         * The median streaming bandwidth at one size of the sweep.
         *
         * @param size bytes, one of {@link #BANDWIDTH_SIZES}
         * @return the bandwidth at that size, MB/s
         * @throws IllegalArgumentException if {@code size} is not one of {@link #BANDWIDTH_SIZES}
         */
        public double bandwidthAt(final int size) {
            return Stats.at(BANDWIDTH_SIZES, bandwidthMBps, size);
        }
    }

    /**
     * Everything measured.
     *
     * @param spscNs        raw SPSC one-way latency, ns
     * @param arraycopyMBps arraycopy bandwidth per {@link #BANDWIDTH_SIZES} entry
     * @param clean         FM over a fault-free fabric
     * @param lossy         FM over a fabric dropping frames
     * @param scheduling    8 B one-way latency under {@code fm.scheduling=none} and {@code dcs}, paired per trial
     */
    public record Result(double spscNs, double[] arraycopyMBps, Sweep clean, Sweep lossy,
                         SchedulingLatency scheduling) {
        /**
         * How much FM adds to the smallest message, measured in the same run; {@code bench fm} holds it to its
         * latency target.
         *
         * @return FM 8-byte latency over SPSC latency
         */
        public double latencyRatio() {
            return clean.latencyNs()[0] / spscNs;
        }

        /**
         * The copy baseline at the size where {@code bench fm} compares bandwidths.
         *
         * @return arraycopy bandwidth at 64 KiB, MB/s
         */
        public double arraycopyAt64KiB() {
            return Stats.at(BANDWIDTH_SIZES, arraycopyMBps, 65536);
        }

        /**
         * FM's fault-free streaming against one thread's copy of the same bytes, measured in the same run;
         * {@code bench fm} holds it to its bandwidth target.
         *
         * @return FM bandwidth at 64 KiB over arraycopy at 64 KiB
         */
        public double bwRatio64KiB() {
            return clean.bandwidthAt(65536) / arraycopyAt64KiB();
        }

        /**
         * Whether large messages keep their speed: FM's bandwidth at 1 MiB over its bandwidth at 64 KiB ({@code bench
         * fm} holds it to its target; messages larger than the receive queue once ran 30-60x slower).
         *
         * @return FM bandwidth at 1 MiB over FM bandwidth at 64 KiB
         */
        public double largeOver64KiB() {
            return clean.bandwidthAt(1 << 20) / clean.bandwidthAt(65536);
        }
    }
}
