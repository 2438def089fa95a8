package org.jhpvm.apps.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** bench shmem's SPSC hop paired with SHMEM's operations on the same PE threads. */
class SpscPairingTest {
    @Test
    @Timeout(120)
    void twoPesOfOneJvmShouldShareItAndPeZeroShouldGetEveryRatio() {
        final SpscPairing pairing = new SpscPairing();
        final AtomicReferenceArray<SpscPairing.Ratios> out = new AtomicReferenceArray<>(2);
        final boolean[] shared = new boolean[2];
        final long[] counted = new long[2];
        ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(100)).inProcess().build().run(sh -> {
            final SymmetricLongs buf = sh.mallocLongs(16);
            pairing.join();
            sh.barrierAll();
            shared[sh.myPe()] = pairing.shared();
            SpscPairing.Ratios r = null;
            for (int pass = 0; pass < 2; pass++) { // a second pass: the put's values go on growing, no stale match
                r = pairing.run(sh, buf, new long[1], 50);
            }
            out.set(sh.myPe(), r);
            sh.barrierAll();
            counted[sh.myPe()] = buf.local()[buf.local().length - 3];
        });
        assertTrue(shared[0] && shared[1], "both PE threads joined the one object");
        final SpscPairing.Ratios r0 = out.get(0);
        assertTrue(r0.measured());
        for (final double v : new double[] {r0.hopNs(), r0.put(), r0.get(), r0.fetchAdd()}) {
            assertTrue(v > 0 && Double.isFinite(v), "a positive figure: " + r0);
        }
        assertSame(SpscPairing.Ratios.NONE, out.get(1), "PE 1 reports nothing");
        // PE 0 made 50 fetch-adds to PE 1's counter per block, 15 blocks a pass, 2 passes.
        assertEquals(2L * SpscPairing.BLOCKS * 50, counted[1]);
        assertEquals(0, counted[0]);
    }

    @Test
    void aPairingJoinedOnceIsNotShared() {
        final SpscPairing pairing = new SpscPairing();
        pairing.join(); // a launched process: its own object, one PE
        assertFalse(pairing.shared());
        assertFalse(SpscPairing.Ratios.NONE.measured());
        assertFalse(ShmemBenchmark.medianRatios(new SpscPairing.Ratios[] {SpscPairing.Ratios.NONE}).measured());
        final SpscPairing.Ratios m = ShmemBenchmark.medianRatios(new SpscPairing.Ratios[] {
            new SpscPairing.Ratios(100, 2, 3, 4), SpscPairing.Ratios.NONE, new SpscPairing.Ratios(300, 4, 5, 6)});
        assertEquals(new SpscPairing.Ratios(200, 3, 4, 5), m, "medians over the paired trials only");
    }
}
