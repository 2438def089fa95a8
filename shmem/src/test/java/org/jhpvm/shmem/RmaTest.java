package org.jhpvm.shmem;

import static org.jhpvm.shmem.ShmemTestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

@Timeout(120)
class RmaTest {
    static final int[] PES = ShmemTestSupport.PES;

    /**
     * Strided gets of 8-byte elements: the target's NIC replies element by element, each reply a word at its own
     * place in the reply (the one-word copy's offsets), and lands at its stride in the destination.
     */
    @ParameterizedTest
    @FieldSource("PES")
    void shouldGetWordsStrided(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs longs = sh.mallocLongs(64);
            final SymmetricDoubles doubles = sh.mallocDoubles(64);
            for (int i = 0; i < 64; i++) {
                longs.local()[i] = me * 1_000_000L + i;
                doubles.local()[i] = me + i / 64.0;
            }
            sh.barrierAll();
            final int from = (me + 1) % n;
            final long[] l = new long[25];
            final double[] d = new double[25];
            longs.iget(from, 2, 3, l, 1, 2, 12);
            doubles.iget(from, 1, 5, d, 0, 2, 12);
            for (int k = 0; k < 12; k++) {
                assertEquals(from * 1_000_000L + 2 + 3 * k, l[1 + 2 * k], "long " + k);
                assertEquals(0, l[2 * k], "gap " + k);
                assertEquals(from + (1 + 5 * k) / 64.0, d[2 * k], "double " + k);
            }
            sh.barrierAll();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldPutToTheRightNeighbourAndGetFromTheLeft(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs a = sh.mallocLongs(100);
            final long[] src = new long[100];
            for (int i = 0; i < 100; i++) {
                src[i] = value(me, (me + 1) % n, i);
            }
            a.put((me + 1) % n, 0, src, 0, 100);
            sh.barrierAll();
            final int left = (me - 1 + n) % n;
            for (int i = 0; i < 100; i++) {
                assertEquals(value(left, me, i), a.local()[i], "element " + i);
            }
            final long[] got = new long[100];
            a.get(left, 0, got, 0, 100);
            final int leftLeft = (left - 1 + n) % n;
            for (int i = 0; i < 100; i++) {
                assertEquals(value(leftLeft, left, i), got[i], "got " + i);
            }
            sh.barrierAll();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMoveEveryTypeStridedAndSingle(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int to = (me + 1) % n;
            final SymmetricInts ints = sh.mallocInts(40);
            final SymmetricDoubles doubles = sh.mallocDoubles(40);
            final SymmetricFloats floats = sh.mallocFloats(40);
            final SymmetricBytes bytes = sh.mallocBytes(40);
            final int[] is = new int[20];
            final double[] ds = new double[20];
            final float[] fs = new float[20];
            final byte[] bs = new byte[20];
            for (int i = 0; i < 20; i++) {
                is[i] = me * 1000 + i;
                ds[i] = me + i / 8.0;
                fs[i] = me - i / 4.0f;
                bs[i] = (byte) (me * 3 + i);
            }
            ints.iput(to, 1, 2, is, 0, 2, 10);         // odd elements from even sources
            doubles.putNbi(to, 5, ds, 0, 20);
            floats.put(to, 0, fs, 0, 20);
            bytes.iput(to, 0, 3, bs, 1, 1, 10);
            ints.p(to, 0, -me - 1);
            sh.quiet();
            sh.barrierAll();
            final int from = (me - 1 + n) % n;
            assertEquals(-from - 1, ints.local()[0]);
            for (int k = 0; k < 10; k++) {
                assertEquals(from * 1000 + 2 * k, ints.local()[1 + 2 * k], "int " + k);
                assertEquals((byte) (from * 3 + 1 + k), bytes.local()[3 * k], "byte " + k);
            }
            assertEquals(0, ints.local()[2], "gap untouched");
            for (int i = 0; i < 20; i++) {
                assertEquals(from + i / 8.0, doubles.local()[5 + i]);
                assertEquals(from - i / 4.0f, floats.local()[i]);
            }
            // Strided get back from the left neighbour, and single-element g.
            final int[] back = new int[10];
            ints.iget(from, 1, 2, back, 0, 1, 10);
            final int ll = (from - 1 + n) % n;
            for (int k = 0; k < 10; k++) {
                assertEquals(ll * 1000 + 2 * k, back[k]);
            }
            assertEquals(-ll - 1, ints.g(from, 0));
            assertEquals(ll + 1 / 8.0, doubles.g(from, 6));
            final double[] dback = new double[20];
            doubles.getNbi(from, 5, dback, 0, 20);
            sh.quiet();
            for (int i = 0; i < 20; i++) {
                assertEquals(ll + i / 8.0, dback[i]);
            }
            sh.barrierAll();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMoveLargeTransfersAcrossManyFrames(final int pes) {
        final int len = pes > 8 ? 20_000 : 300_000;   // 2.4 MB per PE at 8 PEs
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs a = sh.mallocLongs(len);
            final long[] src = new long[len];
            for (int i = 0; i < len; i++) {
                src[i] = value(me, 0, i);
            }
            a.put((me + 1) % n, 0, src, 0, len);
            sh.barrierAll();
            final long[] want = new long[len];
            for (int i = 0; i < len; i++) {
                want[i] = value((me - 1 + n) % n, 0, i);
            }
            assertArrayEquals(want, a.local());
            final long[] got = new long[len];
            a.get((me + 1) % n, 0, got, 0, len);
            assertArrayEquals(src, got, "my own data, read back from my right neighbour");
            sh.barrierAll();
        });
    }

    @org.junit.jupiter.api.Test
    void shouldDeliverEveryPutAndGetExactlyOverALossyFabric() {
        final ShmemJob.Report r = ShmemTestSupport.lossyJob(4, 11).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs a = sh.mallocLongs(20_000);
            final long[] src = new long[20_000];
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < src.length; i++) {
                    src[i] = value(me, round, i);
                }
                a.put((me + 1) % n, 0, src, 0, src.length);
                // The puts and gets travel by RDMA and NIC messages, which FM's counters do not see; barriers are FM
                // messages, about 100 per round otherwise, and at 3% of frames faulted all of them got through
                // unharmed now and then. 100 more per round: missing every fault has a chance far below 1e-9.
                for (int k = 0; k < 100; k++) {
                    sh.barrierAll();
                }
                for (int i = 0; i < src.length; i++) {
                    assertEquals(value((me - 1 + n) % n, round, i), a.local()[i]);
                }
                final long[] got = new long[src.length];
                a.get((me + 1) % n, 0, got, 0, got.length);
                assertArrayEquals(src, got);
                sh.barrierAll();
            }
        });
        org.junit.jupiter.api.Assertions.assertTrue(r.counters().get("fm.framesRetransmitted") > 0,
            "the fabric dropped frames and FM resent them: " + r.counters());
        assertEquals(0L, r.counters().get("shmem.rejected"));
    }
}
