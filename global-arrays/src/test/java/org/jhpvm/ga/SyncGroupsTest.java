package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** readInc, mutexes, fence, gop, brdcst, processor groups, print and summarize on 1..16 PEs. */
@Timeout(240)
class SyncGroupsTest {
    static final int[] PES = GaTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldHandOutEveryCounterValueExactlyOnce(final int pes) {
        final int perPe = 40;
        final long[][] taken = new long[pes][];
        GaTestSupport.run(pes, ga -> {
            for (final GaType type : new GaType[] {GaType.INT, GaType.LONG}) {
                final GlobalArray counter = ga.create(type, new int[] {3}, "counter");
                final long[] mine = new long[perPe];
                for (int i = 0; i < perPe; i++) {
                    mine[i] = counter.readInc(new int[] {2}, 1);
                }
                taken[ga.nodeid()] = mine;
                ga.sync();
                assertArrayEquals(new double[] {0, 0, (double) pes * perPe}, whole(counter), 0.0);
                counter.destroy();
            }
        });
        final long[] all = Arrays.stream(taken).flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 0; i < all.length; i++) {
            assertEquals(i, all[i], "every value once");
        }
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldExcludeUnderAMutex(final int pes) {
        GaTestSupport.run(pes, ga -> {
            ga.createMutexes(2);
            final GlobalArray x = ga.create(GaType.DOUBLE, new int[] {1}, "x");
            final double[] v = new double[1];
            for (int i = 0; i < 10; i++) {
                ga.lock(1);
                x.get(new int[] {0}, new int[] {0}, v, null);
                v[0] += 1;
                x.put(new int[] {0}, new int[] {0}, v, null);
                ga.unlock(1);
            }
            ga.sync();
            assertEquals(10.0 * pes, whole(x)[0], 0.0, "read-modify-write under the mutex lost nothing");
            assertThrows(IndexOutOfBoundsException.class, () -> ga.lock(2));
            assertThrows(IllegalStateException.class, () -> ga.createMutexes(1));
            ga.destroyMutexes();
            assertThrows(IllegalStateException.class, () -> ga.lock(0));
            x.destroy();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldReduceAndBroadcast(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int me = ga.nodeid();
            final double[] d = {me + 0.5, -me, me % 2 == 0 ? -3 * me : me};
            ga.gop(d, GopOp.SUM);
            assertEquals(pes * (pes - 1) / 2.0 + pes * 0.5, d[0], 0.0);
            final long[] l = {me, -me};
            ga.gop(l, GopOp.MAX);
            assertArrayEquals(new long[] {pes - 1, 0}, l);
            final int[] i = {me + 1, -(me + 1)};
            ga.gop(i, GopOp.ABSMAX);
            assertArrayEquals(new int[] {pes, pes}, i);
            final float[] fl = {me - 0.5f};
            ga.gop(fl, GopOp.ABSMIN);
            assertEquals(0.5f, fl[0]);
            final long[] p = {2};
            ga.gop(p, GopOp.PROD);
            assertEquals(1L << pes, p[0]);

            final int root = pes - 1;
            final double[] bd = me == root ? new double[] {Double.longBitsToDouble(0x7ff8dead0000beefL), -0.0, 42}
                : new double[] {1, 2, 3};
            ga.brdcst(bd, 3, root);
            assertEquals(0x7ff8dead0000beefL, Double.doubleToRawLongBits(bd[0]), "NaN payload arrives exactly");
            assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(bd[1]));
            assertEquals(42, bd[2], 0.0);
            final byte[] bytes = me == 0 ? "hello".getBytes(StandardCharsets.US_ASCII) : new byte[5];
            ga.brdcst(bytes, 5, 0);
            assertEquals("hello", new String(bytes, StandardCharsets.US_ASCII));
            final long[] bl = {me == root ? -7 : 0, 9};
            ga.brdcst(bl, 1, root);
            assertArrayEquals(new long[] {-7, 9}, bl, "only len elements are broadcast");
            assertThrows(IndexOutOfBoundsException.class, () -> ga.brdcst(new int[1], 2, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> ga.brdcst(new int[1], 1, pes));
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldCreateArraysAndCollectivesOnAProcessorGroup(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int me = ga.nodeid();
            // The odd PEs in reverse order (PE 0 alone when there is only one).
            final int[] list = pes == 1 ? new int[] {0}
                : java.util.stream.IntStream.iterate(pes % 2 == 0 ? pes - 1 : pes - 2, x -> x >= 1, x -> x - 2)
                    .toArray();
            final GaGroup g = ga.pgroupCreate(list);
            final boolean member = Arrays.stream(list).anyMatch(x -> x == me);
            assertEquals(member, g.isMember());
            assertEquals(list.length, g.nnodes());
            assertEquals(list[0], g.absoluteId(0));
            if (member) {
                final GlobalArray a = ga.builder(GaType.LONG, 3 * list.length + 1).group(g).name("onGroup").create();
                assertEquals(g, a.group());
                final int rank = g.nodeid();
                assertEquals(me, list[rank]);
                final long[] mine = {rank * 100L, rank * 100L + 1, rank * 100L + 2};
                a.put(new int[] {3 * rank}, new int[] {3 * rank + 2}, mine, null);
                g.sync();
                final double[] all = whole(a);
                for (int r = 0; r < list.length; r++) {
                    assertEquals(r * 100.0 + 1, all[3 * r + 1], 0.0);
                }
                final long[] sum = {1};
                ga.gop(g, sum, GopOp.SUM);
                assertEquals(list.length, sum[0]);
                // Owners are group ranks: the last element's owner is the last block's rank.
                assertTrue(a.locate(3 * list.length) < list.length);
                a.destroy();
            } else {
                assertEquals(-1, g.nodeid());
                assertThrows(IllegalStateException.class, () -> ga.builder(GaType.INT, 4).group(g).create());
                assertThrows(IllegalStateException.class, g::sync);
            }
            ga.sync();
            if (pes > 1) {
                assertThrows(IllegalArgumentException.class, () -> ga.pgroupCreate(new int[] {0, 0}));
            }
            assertThrows(IllegalArgumentException.class, () -> ga.worldGroup().destroy());
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldPrintAndSummarize(final int pes) {
        final String[] printed = new String[1];
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.INT, new int[] {2, 3}, "small");
            if (ga.nodeid() == 0) {
                a.put(new int[] {0, 0}, new int[] {1, 2}, new int[] {1, 2, 3, 4, 5, 6}, new int[] {3});
            }
            ga.sync();
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
            a.print(ps);
            if (ga.nodeid() == 0) {
                printed[0] = out.toString(StandardCharsets.UTF_8);
            } else {
                assertEquals(0, out.size(), "only rank 0 prints");
            }
            final String s = ga.summarize();
            assertTrue(s.contains("'small' INT[2, 3]"), s);
            assertTrue(s.contains("1 array(s)"), s);
            a.destroy();
            assertTrue(ga.summarize().contains("0 array(s)"));
            assertFalse(a.toString().isEmpty());
        });
        assertTrue(printed[0].contains("[0][0..]: 1 2 3"), printed[0]);
        assertTrue(printed[0].contains("[1][0..]: 4 5 6"), printed[0]);
    }
}
