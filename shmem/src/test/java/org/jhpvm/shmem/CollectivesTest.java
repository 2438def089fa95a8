package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

@Timeout(120)
class CollectivesTest {
    static final int[] PES = ShmemTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldNotLetAnyPeLeaveTheBarrierBeforeAllArrive(final int pes) {
        final AtomicInteger arrived = new AtomicInteger();
        final ConcurrentHashMap<Integer, Integer> seen = new ConcurrentHashMap<>();
        ShmemTestSupport.job(pes).run(sh -> {
            for (int round = 1; round <= 5; round++) {
                arrived.incrementAndGet();
                sh.barrierAll();
                final int now = arrived.get();
                if (now < round * sh.nPes()) {
                    seen.put(sh.myPe(), now);
                }
                sh.syncAll();
                sh.sync(sh.teamWorld());
            }
        });
        assertEquals(java.util.Map.of(), seen, "PEs that left a barrier early (with the arrival count they saw)");
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldBroadcastFromEveryRoot(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final SymmetricLongs dest = sh.mallocLongs(12);
            final SymmetricDoubles ddest = sh.mallocDoubles(3);
            for (int root = 0; root < Math.min(n, 5); root++) {
                final long[] src = new long[10];
                for (int i = 0; i < 10; i++) {
                    src[i] = root * 100 + i;
                }
                dest.broadcast(sh.teamWorld(), 2, sh.myPe() == root ? src : null, 0, 10, root);
                for (int i = 0; i < 10; i++) {
                    assertEquals(root * 100 + i, dest.local()[2 + i], "root " + root + " element " + i);
                }
                ddest.broadcast(sh.teamWorld(), 0, new double[] {root, -root, 0.5}, 0, 3, root);
                assertArrayEquals(new double[] {root, -root, 0.5}, ddest.local());
                sh.barrierAll();   // the destination is ready for the next broadcast (OpenSHMEM's rule)
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldCollectAndFcollectInRankOrder(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final int me = sh.myPe();
            final SymmetricInts f = sh.mallocInts(3 * n);
            final int[] mine = {me, me * 10, me * 100};
            f.fcollect(sh.teamWorld(), 0, mine, 0, 3);
            for (int p = 0; p < n; p++) {
                assertArrayEquals(new int[] {p, p * 10, p * 100}, java.util.Arrays.copyOfRange(f.local(), 3 * p,
                    3 * p + 3), "block of PE " + p);
            }
            // collect: PE p contributes p % 3 elements valued p.
            final SymmetricLongs c = sh.mallocLongs(n * 2 + 1);
            final long[] src = {me, me};
            c.collect(sh.teamWorld(), 1, src, 0, me % 3 == 2 ? 2 : me % 3);
            int at = 1;
            for (int p = 0; p < n; p++) {
                final int k = p % 3 == 2 ? 2 : p % 3;
                for (int j = 0; j < k; j++) {
                    assertEquals(p, c.local()[at++], "collect element of PE " + p);
                }
            }
            sh.barrierAll();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldExchangeAllToAllContiguousAndStrided(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final int me = sh.myPe();
            final SymmetricLongs d = sh.mallocLongs(2 * n);
            final long[] src = new long[2 * n];
            for (int j = 0; j < n; j++) {
                src[2 * j] = me * 1000 + j;
                src[2 * j + 1] = -(me * 1000 + j);
            }
            d.alltoall(sh.teamWorld(), 0, src, 0, 2);
            for (int j = 0; j < n; j++) {
                assertEquals(j * 1000 + me, d.local()[2 * j]);
                assertEquals(-(j * 1000 + me), d.local()[2 * j + 1]);
            }
            sh.barrierAll();
            final SymmetricInts s = sh.mallocInts(2 * n);
            final int[] isrc = new int[3 * n];
            for (int j = 0; j < n; j++) {
                isrc[3 * j] = me * 1000 + j;
            }
            s.alltoalls(sh.teamWorld(), 1, 2, isrc, 0, 3, 1);
            for (int j = 0; j < n; j++) {
                assertEquals(j * 1000 + me, s.local()[1 + 2 * j]);
                assertEquals(0, s.local()[2 * j]);
            }
            sh.barrierAll();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldReduceEveryOperatorAndTypeToTheSequentialResultWithTheSameBitsEverywhere(final int pes) {
        final ConcurrentHashMap<String, Long> sumBits = new ConcurrentHashMap<>();
        for (int run = 0; run < 2; run++) {
            final int thisRun = run;
            ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final int me = sh.myPe();
            final ShmemTeam w = sh.teamWorld();
            final long[] l = {me + 1, me * 7L - 3, 1L << me % 60, ~me};
            final long[] lr = new long[4];
            sh.reduce(w, ReduceOp.SUM, lr, l, 4);
            long s0 = 0;
            long s1 = 0;
            for (int p = 0; p < n; p++) {
                s0 += p + 1;
                s1 += p * 7L - 3;
            }
            assertEquals(s0, lr[0]);
            assertEquals(s1, lr[1]);
            sh.reduce(w, ReduceOp.MAX, lr, l, 4);
            assertEquals(n, lr[0]);
            sh.reduce(w, ReduceOp.MIN, lr, l, 4);
            assertEquals(-3, lr[1]);
            sh.reduce(w, ReduceOp.OR, lr, l, 4);
            long or = 0;
            long and = -1;
            long xor = 0;
            long prod = 1;
            for (int p = 0; p < n; p++) {
                or |= 1L << p % 60;
                and &= ~p;
                xor ^= ~p;
                prod *= p + 1;
            }
            assertEquals(or, lr[2]);
            sh.reduce(w, ReduceOp.AND, lr, l, 4);
            assertEquals(and, lr[3]);
            sh.reduce(w, ReduceOp.XOR, lr, l, 4);
            assertEquals(xor, lr[3]);
            sh.reduce(w, ReduceOp.PROD, lr, l, 4);
            assertEquals(prod, lr[0]);
            final int[] ir = new int[1];
            sh.reduce(w, ReduceOp.SUM, ir, new int[] {me}, 1);
            assertEquals(n * (n - 1) / 2, ir[0]);
            final byte[] br = new byte[1];
            sh.reduce(w, ReduceOp.MAX, br, new byte[] {(byte) me}, 1);
            assertEquals((byte) (n - 1), br[0]);
            final float[] fr = new float[1];
            sh.reduce(w, ReduceOp.MIN, fr, new float[] {-me * 0.5f}, 1);
            assertEquals(-(n - 1) * 0.5f, fr[0]);
            // In place, and a sum whose bits depend on the order of the additions.
            final double[] d = {0.1 * (me + 1) + 1e-17 * me, 1e16 / (me + 1)};
            sh.reduce(w, ReduceOp.SUM, d, d, 2);
            sumBits.put("run " + thisRun + " PE " + me, Double.doubleToRawLongBits(d[0]) * 31
                + Double.doubleToRawLongBits(d[1]));
            assertThrows(IllegalArgumentException.class, () -> sh.reduce(w, ReduceOp.XOR, d, d, 2));
            });
        }
        assertEquals(2 * pes, sumBits.size());
        assertEquals(1, sumBits.values().stream().distinct().count(), "every PE, in both runs, got the same bits: "
            + sumBits);
    }
}
