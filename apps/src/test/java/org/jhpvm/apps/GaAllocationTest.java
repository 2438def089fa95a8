package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Global Arrays' data path allocates nothing on the calling PE: put, get, acc of 1-D sections and 2-D patches,
 * strided and periodic sections, scatter/gather, readInc to another PE, and ghost updates (each PE's own thread
 * measured, after a warm-up that lets the JIT compile the path).
 */
@Timeout(120)
class GaAllocationTest {
    private static final int OPS = 20_000;

    @Test
    void sectionOperationsAndGhostUpdatesShouldNotAllocate() {
        final long[] bytes = new long[2];
        ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(100)).build().run(sh -> {
            final GlobalArrays ga = new GlobalArrays(sh);
            final GlobalArray a = ga.builder(GaType.DOUBLE, 4096).procGrid(2).create();
            final GlobalArray m = ga.builder(GaType.DOUBLE, 64, 64).ghosts(1, 1).procGrid(2, 1).create();
            final GlobalArray counter = ga.create(GaType.LONG, new int[] {2}, "counter");
            final double[] buf = new double[512];
            final int[] lo = {2048};
            final int[] hi = {2048 + 127};
            final int[] plo = {40, 3};
            final int[] phi = {50, 20};
            final int[] pld = {18};
            final int[] skip = {3};
            final int[] wlo = {4090};
            final int[] whi = {4100};
            final int[][] subs = {{2100}, {3000}, {7}};
            final int[] one = {1};
            for (int round = 0; round < 3; round++) {
                final long before = ThreadAllocation.bytes();
                if (ga.nodeid() == 0) {
                    for (int i = 0; i < OPS; i++) {
                        a.put(lo, hi, buf, null);
                        a.get(lo, hi, buf, null);
                        a.acc(lo, hi, buf, null, 1.0);
                        m.put(plo, phi, buf, pld);
                        a.stridedPut(lo, hi, skip, buf, null);
                        a.periodicGet(wlo, whi, buf, null);
                        a.scatter(buf, subs, subs.length);
                        a.gather(buf, subs, subs.length);
                        counter.readInc(one, 1);
                    }
                    ga.fence();
                }
                for (int i = 0; i < OPS / 10; i++) {
                    m.updateGhosts();
                }
                bytes[ga.nodeid()] = ThreadAllocation.bytes() - before; // the last round counts
                ga.sync();
            }
        });
        // Slack for the measuring itself; one object per operation would be megabytes.
        assertTrue(bytes[0] < 16_384, bytes[0] + " bytes allocated by PE 0 for " + OPS + " rounds of operations");
        assertTrue(bytes[1] < 16_384, bytes[1] + " bytes allocated by PE 1 for " + OPS / 10 + " ghost updates");
    }
}
