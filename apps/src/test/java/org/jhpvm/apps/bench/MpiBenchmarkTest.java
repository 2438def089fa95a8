package org.jhpvm.apps.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The pairing of MPI trials with FM trials that {@code bench mpi}'s targets are computed from. */
class MpiBenchmarkTest {
    @Test
    void aSlowSpellInOneTrialShouldNotDecideTheRatiosOrTheOverhead() {
        // Three trials; in the second the machine ran three times slower for both layers, in the third only FM's
        // run was slow. Paired trial by trial, MPI is 0.9 of FM in every trial it could be compared fairly.
        final double[][] fm = {{100, 33.3, 50}};
        final double[][] mpi = {{90, 30, 90}};
        final double[] ratios = MpiBenchmark.pairedRatios(mpi, fm);
        assertArrayEquals(new double[] {0.9009}, ratios, 1e-3, "the median of 0.9, 0.9009, 1.8");
        // Medians taken apart would say 50 / 90: nearly 2x off.
        assertEquals(90.0 / 50, Stats.median(mpi[0]) / Stats.median(fm[0]), 1e-9);
        final double[] fmLat = {240, 2_700, 250};
        final double[] mpiLat = {330, 2_790, 3_000};
        assertEquals(90, MpiBenchmark.pairedDifference(mpiLat, fmLat), 1e-9, "the median of 90, 90, 2750");
    }
}
