package org.jhpvm.apps.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

import org.jctools.queues.SpscArrayQueue;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;

/**
 * {@code bench fabric}: the emulated Myrinet between 2 NICs against the raw baselines, measured in one run.
 * <ul>
 *   <li>one-way frame latency: ping-pong between two host threads, half the round trip, for payloads 8 B up to
 *       the frame size; baseline: two JCTools SPSC queues ping-ponging an 8-byte message between two
 *       threads;</li>
 *   <li>streaming frame bandwidth: one host streams frames of each size to the other; baseline:
 *       {@code System.arraycopy} of the same size on one thread.</li>
 * </ul>
 * In both the sender copies the payload into the frame and the receiver reads its first and last 8 bytes (it
 * checks them) before releasing it; copying a payload out belongs to the layer above and is measured there.
 * Each figure is the median of {@code trials} trials; each ratio is the median of the per-trial ratios of figures
 * measured back to back.
 */
public final class FabricBenchmark {
    private static final long TIMEOUT_S = 120;

    private final FabricConfig config;
    private final int trials;
    private final int warmups;
    private final int roundTrips;
    private final long bytesPerTrial;

    /**
     * Checks and keeps the settings; nothing is created until {@link #run}.
     *
     * @param config        fabric settings (2 NICs, no faults)
     * @param trials        measured trials per figure, at least 1
     * @param warmups       warm-up passes over every workload before measuring, at least 0
     * @param roundTrips    ping-pong round trips per latency trial, at least 1
     * @param bytesPerTrial payload bytes per bandwidth trial, at least 1 (each trial streams between 200,000 and
     *                      2,000,000 frames whatever this asks)
     * @throws IllegalArgumentException if the fabric does not have exactly 2 NICs, has a fault plan, or a count is
     *                                  out of range
     */
    public FabricBenchmark(final FabricConfig config, final int trials, final int warmups, final int roundTrips,
                           final long bytesPerTrial) {
        if (config.nicCount() != 2 || !config.faultPlan().isNone()) {
            throw new IllegalArgumentException("bench fabric needs 2 NICs and no faults, got " + config.nicCount()
                + " NICs, faults=" + !config.faultPlan().isNone());
        }
        if (trials < 1 || warmups < 0 || roundTrips < 1 || bytesPerTrial < 1) {
            throw new IllegalArgumentException("trials=" + trials + " >= 1, warmups=" + warmups + " >= 0, roundTrips="
                + roundTrips + " >= 1 and bytesPerTrial=" + bytesPerTrial + " >= 1 required");
        }
        this.config = config;
        this.trials = trials;
        this.warmups = warmups;
        this.roundTrips = roundTrips;
        this.bytesPerTrial = bytesPerTrial;
    }

    /**
     * The payload sizes of both sweeps, ascending, in the order of the result's per-size arrays.
     *
     * @return payload sizes measured: powers of two from 8 B up to the frame size, and the frame size
     */
    public int[] sizes() {
        final List<Integer> sizes = new ArrayList<>();
        for (int s = 8; s < config.frameBytes(); s <<= 1) {
            sizes.add(s);
        }
        sizes.add(config.frameBytes());
        return sizes.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The length of a progress bar for {@link #run(IntConsumer)}: one step per warm-up pass and per measured figure.
     *
     * @return number of progress steps {@link #run(IntConsumer)} reports
     */
    public int steps() {
        return warmups + trials * (1 + 3 * sizes().length);
    }

    /**
     * Runs every measurement. First a warm-up pass over every workload ({@code warmups} times, results
     * discarded) so that the JIT has compiled the data paths before anything is measured: on 2 cores the compiler
     * threads compete with the two spinning benchmark threads. Then each trial measures the fabric and its
     * baseline back to back, so that the machine's drift hits both alike.
     *
     * @param progress told after each warm-up pass and each trial (argument 1)
     * @return the medians
     */
    public Result run(final IntConsumer progress) {
        final int[] sizes = sizes();
        final int last = sizes.length - 1;
        try (Fabric fabric = EmulatedMyrinet.create(config); PairRunner pair = new PairRunner("bench", TIMEOUT_S)) {
            for (int w = 0; w < warmups; w++) {
                spscLatencyNs(pair);
                for (final int size : new int[] {sizes[0], sizes[last]}) {
                    fabricLatencyNs(pair, fabric, size);
                    fabricBandwidthMBps(pair, fabric, size, framesFor(size));
                    arraycopyMBps(size, framesFor(size));
                }
                progress.accept(1);
            }
            settle();
            final double[] spsc = new double[trials];
            final double[][] fabricNs = new double[sizes.length][trials];
            final double[][] fabricMBps = new double[sizes.length][trials];
            final double[][] copyMBps = new double[sizes.length][trials];
            for (int i = 0; i < sizes.length; i++) {
                final int size = sizes[i];
                final int frames = framesFor(size);
                for (int t = 0; t < trials; t++) {
                    // Baseline and fabric back to back, in alternating order, so neither gains from going first.
                    final boolean baselineFirst = (t & 1) == 0;
                    if (i == 0 && baselineFirst) {
                        spsc[t] = spscLatencyNs(pair);
                        progress.accept(1);
                    }
                    fabricNs[i][t] = fabricLatencyNs(pair, fabric, size);
                    progress.accept(1);
                    if (i == 0 && !baselineFirst) {
                        spsc[t] = spscLatencyNs(pair);
                        progress.accept(1);
                    }
                    if (baselineFirst) {
                        copyMBps[i][t] = arraycopyMBps(size, frames);
                    }
                    fabricMBps[i][t] = fabricBandwidthMBps(pair, fabric, size, frames);
                    if (!baselineFirst) {
                        copyMBps[i][t] = arraycopyMBps(size, frames);
                    }
                    progress.accept(2);
                }
            }
            final double[] latencyRatios = new double[trials];
            final double[] bwRatios = new double[trials];
            for (int t = 0; t < trials; t++) {
                latencyRatios[t] = fabricNs[0][t] / spsc[t];
                bwRatios[t] = fabricMBps[last][t] / copyMBps[last][t];
            }
            return new Result(config.frameBytes(), sizes, Stats.median(spsc), Stats.medians(fabricNs),
                Stats.medians(fabricMBps), Stats.medians(copyMBps), Stats.median(latencyRatios),
                Stats.median(bwRatios), latencyRatios, bwRatios, trials);
        }
    }

    /** Gives the JIT compiler threads the cores for a moment after the warm-up. */
    private static void settle() {
        try {
            Thread.sleep(300);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("benchmark interrupted", e);
        }
    }

    private int framesFor(final int size) {
        // Long enough (tens of milliseconds) that a thread landing on the wrong core for a moment does not decide
        // the trial.
        return (int) Math.max(200_000, Math.min(2_000_000, bytesPerTrial / size));
    }

    private double spscLatencyNs(final PairRunner pair) {
        return spscLatencyNs(pair, config.receiveRingCapacity(), roundTrips);
    }

    /**
     * One-way latency of the raw SPSC baseline: a ping-pong over two JCTools queues.
     *
     * @param pair       the threads to run on
     * @param capacity   queue capacity
     * @param roundTrips round trips to time
     * @return ns
     */
    static double spscLatencyNs(final PairRunner pair, final int capacity, final int roundTrips) {
        final SpscPingPong hop = new SpscPingPong(capacity);
        final long elapsedNs = pair.run(() -> hop.ping(roundTrips, System.nanoTime() + TIMEOUT_S * 1_000_000_000L),
            () -> hop.pong(roundTrips, System.nanoTime() + TIMEOUT_S * 1_000_000_000L));
        return elapsedNs / (2.0 * roundTrips);
    }

    /** One-way frame latency through the fabric, ns. */
    private double fabricLatencyNs(final PairRunner pair, final Fabric fabric, final int size) {
        final Nic a = fabric.nic(0);
        final Nic b = fabric.nic(1);
        final byte[] payload = new byte[size];
        final int n = roundTrips;
        final long elapsedNs = pair.run(() -> {
            final long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
            final long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                send(a, 1, payload, size, i, deadline);
                final Frame reply = receive(a, deadline);
                check(reply, size, i);
                a.release(reply);
            }
            return System.nanoTime() - t0;
        }, () -> {
            final long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
            for (int i = 0; i < n; i++) {
                final Frame ping = receive(b, deadline);
                check(ping, size, i);
                b.release(ping);
                send(b, 0, payload, size, i, deadline);
            }
        });
        return elapsedNs / (2.0 * n);
    }

    /** Streaming bandwidth through the fabric, MB/s (10^6 bytes per second). */
    private double fabricBandwidthMBps(final PairRunner pair, final Fabric fabric, final int size,
                                       final int frames) {
        final Nic a = fabric.nic(0);
        final Nic b = fabric.nic(1);
        final byte[] payload = new byte[size];
        final long[] doneAt = new long[1];
        final java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        final long elapsedNs = pair.run(() -> {
            final long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
            final long t0 = System.nanoTime();
            for (int i = 0; i < frames; i++) {
                send(a, 1, payload, size, i, deadline);
            }
            while (done.get() == 0) {
                a.progress();
                spin(deadline);
            }
            return doneAt[0] - t0;
        }, () -> {
            final long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
            for (int i = 0; i < frames; i++) {
                final Frame frame = receive(b, deadline);
                check(frame, size, i);
                b.release(frame);
            }
            doneAt[0] = System.nanoTime();
            done.set(1);
        });
        return (double) frames * size * 1e3 / elapsedNs;
    }

    /** {@code n} copies of {@code size} bytes from {@code src} to {@code dst}, kept alive; the total ns. */
    static double copyNs(final byte[] src, final byte[] dst, final int size, final int n) {
        long sink = 0;
        final long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) {
            src[0] = (byte) k;
            System.arraycopy(src, 0, dst, 0, size);
            sink += dst[size - 1] + dst[0];
        }
        final long elapsed = System.nanoTime() - t0;
        if (sink == Long.MIN_VALUE) {
            throw new AssertionError("unreachable: keeps the copies alive");
        }
        return elapsed;
    }

    /** Single-thread {@code System.arraycopy} bandwidth, MB/s. */
    static double arraycopyMBps(final int size, final int copies) {
        final byte[] src = new byte[size];
        final byte[] dst = new byte[size];
        for (int i = 0; i < size; i++) {
            src[i] = (byte) i;
        }
        return (double) copies * size * 1e3 / copyNs(src, dst, size, copies);
    }

    private static void send(final Nic nic, final int dst, final byte[] payload, final int size, final long tag,
                             final long deadline) {
        Frame frame;
        while ((frame = nic.tryAcquire()) == null) {
            spin(deadline);
        }
        // The payload: the tag in its first 8 bytes, its complement in the last 8, the user's bytes in between
        // (an 8-byte frame carries just the tag, as the SPSC baseline's message does).
        frame.putPayloadLong(0, tag);
        if (size >= 16) {
            frame.putPayload(8, payload, 8, size - 16);
            frame.putPayloadLong(size - 8, ~tag);
        }
        frame.setLength(size).setDestination(dst);
        while (!nic.trySend(frame)) {
            spin(deadline);
        }
    }

    private static Frame receive(final Nic nic, final long deadline) {
        Frame frame;
        while ((frame = nic.poll()) == null) {
            spin(deadline);
        }
        return frame;
    }

    private static void check(final Frame frame, final int size, final long tag) {
        if (frame.length() != size || frame.getPayloadLong(0) != tag
            || size >= 16 && frame.getPayloadLong(size - 8) != ~tag) {
            throw new IllegalStateException("frame " + frame + " does not carry tag " + tag + " and size " + size);
        }
    }

    static void spin(final long deadline) {
        Thread.onSpinWait();
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("benchmark trial stopped: the other thread failed");
        }
        if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("benchmark trial exceeded " + TIMEOUT_S + " s");
        }
    }

    /**
     * The medians of one run.
     *
     * @param frameBytes   the fabric's frame size
     * @param sizes        payload sizes
     * @param spscNs       one-way latency of the raw SPSC baseline
     * @param fabricNs     one-way frame latency per size
     * @param fabricMBps   streaming bandwidth per size
     * @param arraycopyMBps arraycopy bandwidth per size
     * @param latencyRatio  median over trials of fabric 8 B latency / SPSC latency, measured back to back
     * @param bandwidthRatio median over trials of fabric / arraycopy bandwidth at the frame size, back to back
     * @param latencyRatios  the per-trial latency ratios
     * @param bandwidthRatios the per-trial bandwidth ratios
     * @param trials       measured trials per figure
     */
    public record Result(int frameBytes, int[] sizes, double spscNs, double[] fabricNs, double[] fabricMBps,
                         double[] arraycopyMBps, double latencyRatio, double bandwidthRatio,
                         double[] latencyRatios, double[] bandwidthRatios, int trials) {

        /**
         * The fabric's peak bandwidth, r_inf in the FM papers' terms: the highest median over the sizes.
         *
         * @return peak fabric bandwidth over the sizes (r_inf), MB/s
         */
        public double peakMBps() {
            return Stats.peak(fabricMBps);
        }

        /**
         * The fabric's half-power point: the payload size at which it reaches half its peak bandwidth (see
         * {@link Stats#halfPowerPoint}).
         *
         * @return n1/2 of the fabric's bandwidth curve, bytes
         */
        public double halfPowerBytes() {
            return Stats.halfPowerPoint(sizes, fabricMBps);
        }
    }
}
