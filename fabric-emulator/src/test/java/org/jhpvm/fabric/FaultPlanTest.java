package org.jhpvm.fabric;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FaultPlanTest {
    private static final int FRAMES = 200_000;

    private static FaultPlan plan(final long seed) {
        return FaultPlan.builder(seed).drop(0.05).corrupt(0.02).duplicate(0.03).reorder(0.04).delay(0.01, 1000)
            .receiverStall(0.005, 1000).build();
    }

    @Test
    void sameSeedShouldGiveTheSameDecisions() {
        final FaultPlan a = plan(7);
        final FaultPlan b = plan(7);
        for (int n = 0; n < 10_000; n++) {
            assertEquals(a.decide(1, 2, n, 0), b.decide(1, 2, n, 0));
            assertEquals(a.decide(3, 0, n, 1), b.decide(3, 0, n, 1));
            assertEquals(a.corruptionBit(1, 2, n, 0, 0, 999), b.corruptionBit(1, 2, n, 0, 0, 999));
        }
    }

    @Test
    void differentSeedsPathsAndAttemptsShouldGiveDifferentDecisions() {
        final FaultPlan a = plan(7);
        final FaultPlan b = plan(8);
        int differSeed = 0;
        int differPath = 0;
        int differAttempt = 0;
        for (int n = 0; n < 10_000; n++) {
            differSeed += a.decide(1, 2, n, 0) != b.decide(1, 2, n, 0) ? 1 : 0;
            differPath += a.decide(1, 2, n, 0) != a.decide(2, 1, n, 0) ? 1 : 0;
            differAttempt += a.decide(1, 2, n, 0) != a.decide(1, 2, n, 1) ? 1 : 0;
        }
        // About 14% of frames get some fault; two independent draws differ on roughly a quarter of them.
        assertTrue(differSeed > 1_000, "seeds differ on only " + differSeed);
        assertTrue(differPath > 1_000, "paths differ on only " + differPath);
        assertTrue(differAttempt > 1_000, "attempts differ on only " + differAttempt);
    }

    @Test
    void shouldMeetTheRequestedRatesWithinStatisticalTolerance() {
        final FaultPlan plan = plan(11);
        final int[] counts = new int[7];
        for (int n = 0; n < FRAMES; n++) {
            final int d = plan.decide(n % 5, (n + 1) % 5, n / 5, 0);
            for (int bit = 0; bit < 7; bit++) {
                counts[bit] += (d >>> bit) & 1;
            }
        }
        assertRate("drop", counts[0], 0.05);
        assertRate("corrupt", counts[1], 0.02);
        assertRate("duplicate", counts[2], 0.03);
        assertRate("reorder", counts[3], 0.04);
        assertRate("delay", counts[4], 0.01);
        assertRate("stall", counts[5], 0.005);
        assertEquals(0, counts[6], "no link-down windows were planned");
    }

    private static void assertRate(final String name, final int count, final double p) {
        final double mean = FRAMES * p;
        final double sigma = Math.sqrt(FRAMES * p * (1 - p));
        assertTrue(Math.abs(count - mean) < 5 * sigma, name + ": " + count + " faults, expected " + mean + " +- "
            + 5 * sigma);
    }

    @Test
    void shouldCoverLinkDownWindowsOnPathsOutOfAndIntoTheNic() {
        final FaultPlan plan = FaultPlan.builder(1).linkDown(new LinkDownWindow(2, 10, 20)).build();
        assertFalse(plan.isNone());
        assertEquals(FaultPlan.LINK_DOWN, plan.decide(2, 0, 10, 0));
        assertEquals(FaultPlan.LINK_DOWN, plan.decide(0, 2, 19, 0));
        assertEquals(0, plan.decide(2, 0, 9, 0));
        assertEquals(0, plan.decide(2, 0, 20, 0));
        assertEquals(0, plan.decide(0, 1, 15, 0));
    }

    @Test
    void corruptionBitsShouldStayInsideTheFrame() {
        final FaultPlan plan = plan(3);
        for (int n = 0; n < 10_000; n++) {
            final int bit = plan.corruptionBit(0, 1, n, 0, n % 3, 17);
            assertTrue(bit >= 0 && bit < 17);
            final int flips = plan.corruptionFlips(0, 1, n, 0);
            assertTrue(flips >= 1 && flips <= 3);
        }
    }

    @Test
    void shouldRejectProbabilitiesOutsideZeroToOneAndNegativeDurations() {
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.builder(1).drop(1.5).build());
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.builder(1).corrupt(-0.1).build());
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.builder(1).reorder(Double.NaN).build());
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.builder(1).delay(0.1, -1).build());
        assertThrows(IllegalArgumentException.class, () -> new LinkDownWindow(0, 5, 5));
        assertThrows(IllegalArgumentException.class, () -> new LinkDownWindow(-1, 0, 5));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> FaultPlan.builder(1).duplicate(2).build());
        assertTrue(e.getMessage().contains("duplicate probability=2.0"), e.getMessage());
    }

    @Test
    void noneShouldInjectNothing() {
        assertTrue(FaultPlan.none().isNone());
        assertEquals(0, FaultPlan.none().decide(0, 1, 5, 0));
        assertEquals(List.of(), FaultPlan.none().linkDown());
    }
}
