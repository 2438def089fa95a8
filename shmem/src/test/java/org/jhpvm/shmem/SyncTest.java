package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

@Timeout(120)
class SyncTest {
    static final int[] PES = ShmemTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldSeeTheDataOnceTheSignalArrives(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs data = sh.mallocLongs(1000);
            final SymmetricLongs sig = sh.mallocLongs(2);
            final long[] src = new long[1000];
            for (int round = 1; round <= 5; round++) {
                for (int i = 0; i < src.length; i++) {
                    src[i] = round * 1_000_000L + me * 1000 + i;
                }
                data.putSignal((me + 1) % n, 0, src, 0, 1000, sig, 0, round, SignalOp.SET);
                data.putSignal((me + 1) % n, 0, src, 0, 0, sig, 1, 1, SignalOp.ADD);
                assertEquals(round, sig.signalWaitUntil(0, Cmp.GE, round));
                final int from = (me - 1 + n) % n;
                sig.waitUntil(1, Cmp.EQ, round);
                for (int i = 0; i < 1000; i++) {
                    assertEquals(round * 1_000_000L + from * 1000 + i, data.local()[i]);
                }
                assertEquals(round, sig.signalFetch(1));
                sh.barrierAll();
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldWaitAndTestWithEveryComparisonAndSet(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricInts flags = sh.mallocInts(4);
            final SymmetricLongs lflags = sh.mallocLongs(4);
            sh.barrierAll();
            assertTrue(flags.test(0, Cmp.EQ, 0));
            assertFalse(flags.test(0, Cmp.NE, 0));
            assertTrue(flags.test(0, Cmp.LE, 0) && flags.test(0, Cmp.GE, 0));
            assertFalse(flags.test(0, Cmp.LT, 0) || flags.test(0, Cmp.GT, 0));
            assertEquals(-1, flags.testAny(0, 4, null, Cmp.NE, 0));
            final int[] idx = new int[4];
            assertEquals(0, flags.testSome(0, 4, idx, null, Cmp.NE, 0));
            assertTrue(flags.testAll(0, 4, null, Cmp.EQ, 0));
            sh.barrierAll();
            // The left neighbour sets elements 2 and 3 of my flags; wait for any, some, all.
            final int to = (me + 1) % n;
            flags.atomicSet(to, 2, 7);
            final int any = flags.waitUntilAny(0, 4, null, Cmp.EQ, 7);
            assertEquals(2, any);
            flags.atomicSet(to, 3, 9);
            final int some = flags.waitUntilSome(0, 4, idx, new int[] {0, 0, 1, 0}, Cmp.GT, 5);
            assertEquals(1, some, "element 2 is excluded by its status");
            assertEquals(3, idx[0]);
            flags.waitUntilAll(2, 2, null, Cmp.GE, 7);
            assertEquals(-1, flags.waitUntilAny(0, 2, new int[] {1, 1}, Cmp.EQ, 0), "all excluded");
            lflags.atomicAdd(to, 0, 5);
            lflags.waitUntil(0, Cmp.GT, 4);
            assertTrue(lflags.testAll(0, 1, null, Cmp.EQ, 5));
            sh.barrierAll();
            assertArrayEquals(new int[] {0, 0, 7, 9}, flags.local());
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldCompletePutsAndNonBlockingOpsAtQuiet(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs data = sh.mallocLongs(n * 64);
            final SymmetricLongs done = sh.mallocLongs(n);
            final long[] src = new long[64];
            java.util.Arrays.fill(src, me + 1);
            for (int t = 0; t < n; t++) {
                data.putNbi(t, me * 64, src, 0, 64);
            }
            sh.quiet();
            // After quiet, the puts are visible: announce it with an atomic, which is ordered after them anyway.
            for (int t = 0; t < n; t++) {
                done.atomicSet(t, me, 1);
            }
            for (int s = 0; s < n; s++) {
                done.waitUntil(s, Cmp.EQ, 1);
                for (int i = 0; i < 64; i++) {
                    assertEquals(s + 1, data.local()[s * 64 + i]);
                }
            }
            sh.fence();
            sh.barrierAll();
        });
    }
}
