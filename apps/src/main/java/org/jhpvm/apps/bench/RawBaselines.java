package org.jhpvm.apps.bench;

import org.jctools.queues.SpscArrayQueue;

/**
 * What the machine gives without jhpvm, measured in the same run as a layer so that the layer's ratios compare like
 * with like: the one-way latency of a JCTools SPSC queue between two threads (ping-pong), the rate at which one thread
 * streams 8-byte messages to another through such a queue, and {@code System.arraycopy} bandwidth per size.
 *
 * @param spscLatencyNs median one-way SPSC latency, ns
 * @param spscRateMops  median 8-byte SPSC streaming rate, millions of messages per second
 * @param arraycopyMBps median {@code System.arraycopy} bandwidth per entry of the sizes measured, MB/s
 */
public record RawBaselines(double spscLatencyNs, double spscRateMops, double[] arraycopyMBps) {
    private static final long TIMEOUT_S = 120;
    private static final int RATE_MESSAGES = 2_000_000;

    /**
     * Measures the three baselines, each the median of {@code trials} runs after {@code warmups} runs not counted
     * (at a JVM's start the JIT compiler shares the cores with the threads measured).
     *
     * @param warmups    runs per SPSC figure not counted
     * @param trials     runs per figure, at least 1
     * @param roundTrips ping-pong round trips per SPSC latency run
     * @param sizes      the {@code System.arraycopy} sizes, bytes
     * @param copies     copies per size, for size {@code sizes[i]}: {@code copies[i]}
     * @return the medians
     */
    public static RawBaselines measure(final int warmups, final int trials, final int roundTrips, final int[] sizes,
                                       final int[] copies) {
        final double[] latency = new double[trials];
        final double[] rate = new double[trials];
        final double[][] copy = new double[sizes.length][trials];
        try (PairRunner pair = new PairRunner("bench-raw", TIMEOUT_S)) {
            for (int w = 0; w < warmups; w++) {
                FabricBenchmark.spscLatencyNs(pair, 32, roundTrips);
                spscRateMops(pair, RATE_MESSAGES);
            }
            for (int t = 0; t < trials; t++) {
                latency[t] = FabricBenchmark.spscLatencyNs(pair, 32, roundTrips);
                rate[t] = spscRateMops(pair, RATE_MESSAGES);
            }
        }
        for (int i = 0; i < sizes.length; i++) {
            for (int t = 0; t < trials; t++) {
                copy[i][t] = FabricBenchmark.arraycopyMBps(sizes[i], copies[i]);
            }
        }
        return new RawBaselines(Stats.median(latency), Stats.median(rate), Stats.medians(copy));
    }

    /**
     * One thread offers {@code n} 8-byte messages to a JCTools SPSC queue as fast as it can take them, the other
     * polls them: the time until the last is polled.
     *
     * @return millions of messages per second
     */
    static double spscRateMops(final PairRunner pair, final int n) {
        final SpscArrayQueue<long[]> queue = new SpscArrayQueue<>(1024);
        final long[] message = new long[16];
        final long[] received = new long[1];
        final long elapsedNs = pair.run(() -> {
            final long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
            final long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                while (!queue.offer(message)) {
                    FabricBenchmark.spin(deadline);
                }
            }
            while (queue.size() > 0) {
                FabricBenchmark.spin(deadline);
            }
            return System.nanoTime() - t0;
        }, () -> {
            final long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
            long got = 0;
            while (got < n) {
                if (queue.relaxedPoll() != null) {
                    got++;
                } else {
                    FabricBenchmark.spin(deadline);
                }
            }
            received[0] = got;
        });
        if (received[0] != n) {
            throw new IllegalStateException("spsc rate: " + received[0] + " of " + n + " messages polled");
        }
        return n * 1e3 / elapsedNs;
    }
}
