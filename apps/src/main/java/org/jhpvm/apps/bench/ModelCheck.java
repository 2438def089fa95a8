package org.jhpvm.apps.bench;

import java.util.function.IntConsumer;

import org.jhpvm.fabric.ClockSettings;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.timing.MachineModel;

/**
 * The model against the machine it was calibrated on: FM's curves ({@link FmSweep}) in virtual time on a machine and
 * measured on this machine's wall clock in the same run, with the relative error of every point. The virtual run uses
 * the machine's packets as frames; the wall-clock run the fabric's default frames, as users run.
 *
 * @param model the modelled curves
 * @param wall  the measured ones (medians of the trials)
 */
public record ModelCheck(FmSweep.Curve model, FmSweep.Curve wall) {
    /**
     * Runs both.
     *
     * @param clock    a virtual clock on the machine to check
     * @param warmups  wall-clock passes not counted
     * @param trials   wall-clock passes counted
     * @param progress told of each pass (the virtual run is one)
     * @return both curves
     */
    public static ModelCheck fm(final ClockSettings clock, final int warmups, final int trials,
                                final IntConsumer progress) {
        final MachineModel machine = clock.model();
        final int frames = machine.packetBytes() > 0 ? machine.packetBytes()
            : VirtualFmBenchmark.MESSAGE_FRAME_BYTES;
        final FmSweep.Curve model = FmSweep.run(FabricConfig.builder(2).frameBytes(frames).clock(clock).build(), 0, 1,
            progress);
        final FmSweep.Curve wall = FmSweep.run(FabricConfig.builder(2).build(), warmups, trials, progress);
        return new ModelCheck(model, wall);
    }

    /**
     * The relative error of the modelled one-way latency at one size.
     *
     * @param i the entry of {@link FmSweep#SIZES}
     * @return model / measured - 1
     */
    public double latencyError(final int i) {
        return model.latencyUs()[i] / wall.latencyUs()[i] - 1;
    }

    /**
     * The relative error of the modelled stream bandwidth at one size.
     *
     * @param i the entry of {@link FmSweep#SIZES}
     * @return model / measured - 1
     */
    public double bandwidthError(final int i) {
        return model.bandwidthMBps(i) / wall.bandwidthMBps(i) - 1;
    }

    /**
     * The largest relative error, in magnitude, of the latency over the sizes.
     *
     * @return |model / measured - 1|, largest
     */
    public double maxLatencyError() {
        double max = 0;
        for (int i = 0; i < FmSweep.SIZES.length; i++) {
            max = Math.max(max, Math.abs(latencyError(i)));
        }
        return max;
    }

    /**
     * The largest relative error, in magnitude, of the bandwidth over the sizes.
     *
     * @return |model / measured - 1|, largest
     */
    public double maxBandwidthError() {
        double max = 0;
        for (int i = 0; i < FmSweep.SIZES.length; i++) {
            max = Math.max(max, Math.abs(bandwidthError(i)));
        }
        return max;
    }

    /**
     * The largest relative error, in magnitude, of latency or bandwidth over the sizes.
     *
     * @return |model / measured - 1|, largest
     */
    public double maxError() {
        return Math.max(maxLatencyError(), maxBandwidthError());
    }
}
