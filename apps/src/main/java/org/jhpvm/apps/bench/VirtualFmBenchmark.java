package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.timing.MachineModel;
import org.jhpvm.fm.FmConfig;
import org.jhpvm.fm.FmJob;

/**
 * FM on 2 PEs in virtual time ({@code bench fm --clock virtual}): the FM 1.0 paper's measurements on a modelled
 * machine. One-way latency by ping-pong; per-message time of a stream by two streams of different lengths (their
 * difference leaves out the first message's latency and the closing acknowledgement), hence the bandwidth curve;
 * t0 as the paper defines it (Table 2, Appendix A: the startup overhead, the per-message time of a stream at zero
 * length), r_inf as the curve's peak, n1/2 as the size at which the curve reaches half of it. Every figure is the
 * modelled machine's time, read from the PEs' virtual clocks, so one trial gives it: with the machine's CPU time not
 * counted ({@code cpu_scale} 0, or {@code fabric.cpu=declared}) the same run gives the same figures bitwise.
 */
public final class VirtualFmBenchmark {
    /** Frame size when the machine sends one packet per message: the largest message fits one frame. */
    public static final int MESSAGE_FRAME_BYTES = 65536;

    /** Sizes of the latency sweep, bytes. */
    public static final int[] LATENCY_SIZES = {0, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 16384};
    /** Sizes of the bandwidth sweep, bytes: fine where n1/2 lies. */
    public static final int[] STREAM_SIZES = {0, 4, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224,
        256, 320, 384, 448, 512, 640, 768, 1024, 1536, 2048, 4096, 8192, 16384, 32768, 65536};

    private final ClockSettings clock;
    private final int roundTrips;
    private final int messages;

    /**
     * Keeps the settings; nothing runs until {@link #run}.
     *
     * @param clock      a virtual clock: the machine and its switches
     * @param roundTrips ping-pong round trips per latency point
     * @param messages   messages of the longer stream per bandwidth point (the shorter sends a quarter)
     */
    public VirtualFmBenchmark(final ClockSettings clock, final int roundTrips, final int messages) {
        if (!clock.virtual()) {
            throw new IllegalArgumentException("the virtual-time bench needs a virtual clock");
        }
        if (roundTrips < 1 || messages < 8) {
            throw new IllegalArgumentException("need round trips >= 1 and messages >= 8");
        }
        this.clock = clock;
        this.roundTrips = roundTrips;
        this.messages = messages;
    }

    /**
     * Runs the job.
     *
     * @param progress told of each finished point
     * @return the modelled figures
     */
    public Result run(final IntConsumer progress) {
        return run(progress, 0);
    }

    /**
     * Runs the job over a fabric that drops frames: FM's retransmission runs on the virtual clock, so the figures
     * include the modelled time of every timeout and resend.
     *
     * @param progress told of each finished point
     * @param drop     drop probability per frame, 0..1 (seed 1998, as the wall-clock bench's lossy sweep)
     * @return the modelled figures
     */
    public Result run(final IntConsumer progress, final double drop) {
        final MachineModel machine = clock.model();
        final int frameBytes = machine.packetBytes() > 0 ? machine.packetBytes() : MESSAGE_FRAME_BYTES;
        final double[] latencyUs = new double[LATENCY_SIZES.length];
        final double[] perMessageUs = new double[STREAM_SIZES.length];
        final long wallStart = System.nanoTime();
        final FabricConfig.Builder fabric = FabricConfig.builder(2).frameBytes(frameBytes).clock(clock);
        if (drop > 0) {
            fabric.faultPlan(FaultPlan.builder(1998).drop(drop).build());
        }
        final FmJob.Report report = FmJob.builder().fabric(fabric.build())
            .fm(FmConfig.defaults()).timeout(Duration.ofMinutes(30)).inProcess().build().run(fm -> {
                final FmPingStream pe = new FmPingStream(fm, MESSAGE_FRAME_BYTES);
                for (int i = 0; i < LATENCY_SIZES.length; i++) {
                    final double us = pe.pingPongUs(LATENCY_SIZES[i], roundTrips);
                    if (fm.pe() == 0) {
                        latencyUs[i] = us;
                        progress.accept(1);
                    }
                }
                for (int i = 0; i < STREAM_SIZES.length; i++) {
                    final long shortPs = pe.streamPs(STREAM_SIZES[i], messages / 4);
                    final long longPs = pe.streamPs(STREAM_SIZES[i], messages);
                    if (fm.pe() == 0) {
                        // The difference of the two streams leaves out the first message's latency and the closing
                        // acknowledgement. Under losses each stream also pays its own timeouts, which a difference
                        // would subtract at random: there the longer stream's whole time counts, latency included.
                        perMessageUs[i] = drop > 0 ? longPs / 1e6 / messages
                            : (longPs - shortPs) / 1e6 / (messages - messages / 4);
                        progress.accept(1);
                    }
                }
            });
        final double wallS = (System.nanoTime() - wallStart) / 1e9;
        final double[] mbps = new double[STREAM_SIZES.length];
        for (int i = 0; i < mbps.length; i++) {
            mbps[i] = STREAM_SIZES[i] / perMessageUs[i];
        }
        return new Result(machine, frameBytes, latencyUs, perMessageUs, mbps, wallS,
            report.fabricTotals().framesDropped(), report.totals().framesRetransmitted());
    }

    /**
     * The length of a progress bar for {@link #run}.
     *
     * @return progress steps {@link #run} reports
     */
    public static int steps() {
        return LATENCY_SIZES.length + STREAM_SIZES.length;
    }

    /**
     * The modelled figures.
     *
     * @param machine      the machine, its switches applied
     * @param frameBytes   the fabric's frame size in the run
     * @param latencyUs    one-way latency per {@link #LATENCY_SIZES} entry, microseconds
     * @param perMessageUs per-message time of a stream per {@link #STREAM_SIZES} entry, microseconds
     * @param bandwidthMBps bandwidth per {@link #STREAM_SIZES} entry, MB/s (10^6 bytes per second)
     * @param wallSeconds  the wall-clock time the run took
     * @param dropped      frames the fabric dropped
     * @param retransmitted frames FM sent again
     */
    public record Result(MachineModel machine, int frameBytes, double[] latencyUs, double[] perMessageUs,
                         double[] bandwidthMBps, double wallSeconds, long dropped, long retransmitted) {
        /**
         * The startup overhead t0: the per-message time of a stream of empty messages.
         *
         * @return microseconds
         */
        public double t0Us() {
            return perMessageUs[0];
        }

        /**
         * The peak bandwidth r_inf: the bandwidth curve's peak.
         *
         * @return MB/s (10^6 bytes per second)
         */
        public double rInfMBps() {
            return Stats.peak(bandwidthMBps);
        }

        /**
         * The half-power point n1/2, interpolated on the bandwidth curve.
         *
         * @return bytes
         */
        public double nHalfBytes() {
            return Stats.halfPowerPoint(STREAM_SIZES, bandwidthMBps);
        }

        /**
         * The one-way latency of an 8-byte message.
         *
         * @return microseconds
         */
        public double latency8Us() {
            return latencyUs[1];
        }
    }
}
