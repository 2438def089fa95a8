package org.jhpvm.apps.bench;

import java.util.function.IntConsumer;
import java.util.function.ToDoubleFunction;

import org.jhpvm.fm.Scheduling;

/**
 * What the run slots of {@code fm.scheduling=dcs} cost a small message: per trial one job under {@code none} and one
 * under {@code dcs}, alternated so that the two figures of a trial see the machine in the same state, and the median
 * of the per-trial ratios ({@code dcs_latency_ratio_8B}).
 *
 * @param noneNs per trial, the latency under {@code none}, ns
 * @param dcsNs  per trial, the latency under {@code dcs} measured right after, ns
 */
public record SchedulingLatency(double[] noneNs, double[] dcsNs) {
    /**
     * Measures: {@code trials} pairs of jobs, {@code none} first.
     *
     * @param trials   pairs
     * @param progress told of each finished job
     * @param oneJob   runs one job under the policy and returns its latency, ns
     * @return the figures
     */
    public static SchedulingLatency measure(final int trials, final IntConsumer progress,
                                            final ToDoubleFunction<Scheduling> oneJob) {
        final double[] none = new double[trials];
        final double[] dcs = new double[trials];
        for (int t = 0; t < trials; t++) {
            none[t] = oneJob.applyAsDouble(Scheduling.NONE);
            progress.accept(1);
            dcs[t] = oneJob.applyAsDouble(Scheduling.DCS);
            progress.accept(1);
        }
        return new SchedulingLatency(none, dcs);
    }

    /**
     * The paired ratio.
     *
     * @return the median over trials of the {@code dcs} latency over the {@code none} latency of the same trial
     */
    public double ratio() {
        final double[] r = new double[noneNs.length];
        for (int t = 0; t < r.length; t++) {
            r[t] = dcsNs[t] / noneNs[t];
        }
        return Stats.median(r);
    }

    /**
     * The median under {@code none}.
     *
     * @return ns
     */
    public double noneMedianNs() {
        return Stats.median(noneNs);
    }

    /**
     * The median under {@code dcs}.
     *
     * @return ns
     */
    public double dcsMedianNs() {
        return Stats.median(dcsNs);
    }
}
