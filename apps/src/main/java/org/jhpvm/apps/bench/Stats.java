package org.jhpvm.apps.bench;

import java.util.Arrays;

/** Small statistics helpers for benchmark trials. */
public final class Stats {
    private Stats() {
    }

    /**
     * The median of a set of trials, the figure the benchmarks report: robust against the odd trial a noisy machine
     * spoils.
     *
     * @param values trial results (not modified)
     * @return the median (mean of the middle two for an even count)
     * @throws IllegalArgumentException if there are no values
     */
    public static double median(final double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("median of no values");
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /**
     * Looks up the figure measured at one size of a sweep.
     *
     * @param sizes  measured sizes
     * @param values the figure at each size
     * @param size   one of {@code sizes}
     * @return the figure at that size
     * @throws IllegalArgumentException if the size was not measured
     */
    public static double at(final int[] sizes, final double[] values, final int size) {
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] == size) {
                return values[i];
            }
        }
        throw new IllegalArgumentException("size=" + size + " is not measured");
    }

    /**
     * The half-power point of a bandwidth curve (FM 1.0's n1/2): the message size at which the bandwidth reaches
     * half of its peak, interpolated linearly between measured sizes.
     *
     * @param sizes      message sizes, ascending
     * @param bandwidths bandwidth at each size
     * @return n1/2 in bytes
     */
    public static double halfPowerPoint(final int[] sizes, final double[] bandwidths) {
        final double half = peak(bandwidths) / 2;
        for (int i = 0; i < sizes.length; i++) {
            if (bandwidths[i] >= half) {
                if (i == 0) {
                    return sizes[0];
                }
                final double t = (half - bandwidths[i - 1]) / (bandwidths[i] - bandwidths[i - 1]);
                return sizes[i - 1] + t * (sizes[i] - sizes[i - 1]);
            }
        }
        return sizes[sizes.length - 1];
    }

    /**
     * The peak of a curve of measurements, e.g. a bandwidth curve's r_inf; never below 0, as the search starts there.
     *
     * @param values measured values
     * @return the largest, or 0 if there are none
     */
    public static double peak(final double[] values) {
        double peak = 0;
        for (final double v : values) {
            peak = Math.max(peak, v);
        }
        return peak;
    }

    /**
     * The median of each size's trials (see {@link #median}).
     *
     * @param trialsBySize per size, the trial results (not modified)
     * @return per size, the median
     * @throws IllegalArgumentException if a size has no trials
     */
    public static double[] medians(final double[][] trialsBySize) {
        final double[] m = new double[trialsBySize.length];
        for (int i = 0; i < m.length; i++) {
            m[i] = median(trialsBySize[i]);
        }
        return m;
    }
}
