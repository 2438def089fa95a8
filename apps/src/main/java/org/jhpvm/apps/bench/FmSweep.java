package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fm.FmConfig;
import org.jhpvm.fm.FmJob;

/**
 * FM's one-way latency and per-message stream time from 8 B to 4 MiB on 2 PEs, the same program on a wall-clock or a
 * virtual fabric ({@link FmPingStream}): what {@code bin/jhpvm calibrate} measures on this machine, and what
 * {@code bench fm --clock virtual --machine this-machine} runs on both clocks to compare the model with the machine.
 * Each point takes about the same number of bytes, so large sizes run few round trips and small ones many (up to
 * one per 32 KiB of a point's bytes, and a message per 16 KiB). The
 * per-message time of a stream of n messages is its time less the last message's latency and the acknowledgement's,
 * over n - 1.
 */
public final class FmSweep {
    /** Sizes of both curves, bytes. */
    public static final int[] SIZES = {8, 64, 512, 4096, 16384, 32768, 65536, 131072, 262144, 524288, 1 << 20,
        2 << 20, 4 << 20};
    /** Bytes each point moves by default. */
    public static final long BYTES_PER_POINT = 32L << 20;

    private FmSweep() {
    }

    /**
     * Round trips of a latency point.
     *
     * @param size          bytes
     * @param bytesPerPoint bytes the point should move
     * @return round trips
     */
    static int roundTrips(final int size, final long bytesPerPoint) {
        return (int) Math.max(8, Math.min(bytesPerPoint >> 15, bytesPerPoint / 4 / size));
    }

    /**
     * Messages of the stream of a point.
     *
     * @param size          bytes
     * @param bytesPerPoint bytes the point should move
     * @return messages
     */
    static int messages(final int size, final long bytesPerPoint) {
        return (int) Math.max(32, Math.min(bytesPerPoint >> 14, bytesPerPoint / size));
    }

    /**
     * Runs {@code warmups} passes and then {@code trials} passes over the sizes in one job; every point is the median
     * of its trials.
     *
     * @param fabric   2 PEs, on either clock; its frame size is the packet size of the measured fabric
     * @param warmups  passes not counted (the JIT's)
     * @param trials   passes counted, at least 1
     * @param progress told of each pass
     * @return the curves
     */
    public static Curve run(final FabricConfig fabric, final int warmups, final int trials,
                            final IntConsumer progress) {
        return run(fabric, warmups, trials, BYTES_PER_POINT, progress);
    }

    /**
     * As {@link #run(FabricConfig, int, int, IntConsumer)}, each point moving about {@code bytesPerPoint} (within
     * its least and most round trips and messages).
     *
     * @param fabric        2 PEs, on either clock
     * @param warmups       passes not counted
     * @param trials        passes counted, at least 1
     * @param bytesPerPoint bytes per point
     * @param progress      told of each pass
     * @return the curves
     */
    public static Curve run(final FabricConfig fabric, final int warmups, final int trials, final long bytesPerPoint,
                            final IntConsumer progress) {
        if (warmups < 0 || trials < 1 || fabric.nicCount() != 2) {
            throw new IllegalArgumentException("need 2 PEs, warmups >= 0 and trials >= 1");
        }
        final double[][] latency = new double[SIZES.length][trials];
        final double[][] perMessage = new double[SIZES.length][trials];
        FmJob.builder().fabric(fabric).fm(FmConfig.defaults()).timeout(Duration.ofMinutes(30)).inProcess().build()
            .run(fm -> {
                final FmPingStream pe = new FmPingStream(fm, SIZES[SIZES.length - 1]);
                for (int pass = 0; pass < warmups + trials; pass++) {
                    final double ackUs = pe.pingPongUs(0, roundTrips(8, bytesPerPoint));
                    for (int i = 0; i < SIZES.length; i++) {
                        final int size = SIZES[i];
                        final double us = pe.pingPongUs(size, roundTrips(size, bytesPerPoint));
                        final int n = messages(size, bytesPerPoint);
                        final long streamPs = pe.streamPs(size, n);
                        if (fm.pe() == 0 && pass >= warmups) {
                            latency[i][pass - warmups] = us;
                            // A stream of n takes n - 1 message times, the last message's latency and the
                            // acknowledgement's: both measured in this pass, so they come off. (The difference of two
                            // streams does the same, but a stall in the shorter one, frequent on a busy machine, can
                            // make it negative.)
                            perMessage[i][pass - warmups] = (streamPs / 1e6 - us - ackUs) / (n - 1);
                        }
                    }
                    if (fm.pe() == 0) {
                        progress.accept(1);
                    }
                }
            });
        return new Curve(Stats.medians(latency), Stats.medians(perMessage));
    }

    /**
     * FM's curves over {@link #SIZES}.
     *
     * @param latencyUs    one-way latency, microseconds
     * @param perMessageUs per-message time of a long stream, microseconds
     */
    public record Curve(double[] latencyUs, double[] perMessageUs) {
        /**
         * The stream's bandwidth at one size.
         *
         * @param i the entry of {@link #SIZES}
         * @return MB/s (10^6 bytes per second)
         */
        public double bandwidthMBps(final int i) {
            return SIZES[i] / perMessageUs[i];
        }
    }
}
