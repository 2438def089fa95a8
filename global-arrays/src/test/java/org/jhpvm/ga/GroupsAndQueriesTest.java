package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Processor-group splits and the default group, memory limits, cluster queries, nbTest, compareDistr,
 * printDistribution and randomize.
 */
@Timeout(120)
class GroupsAndQueriesTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 4, 5})
    void shouldSplitGroupsAsGaDoes(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int me = ga.nodeid();
            // ceil(5 / 4) = 2 per group: {0,1}, {2,3}, {4}.
            final GaGroup g = ga.pgroupSplit(ga.worldGroup(), 4);
            final int size = (pes + 3) / 4;
            final int first = me / size * size;
            assertEquals(Math.min(size, pes - first), g.nnodes());
            assertEquals(first, g.absoluteId(0));
            assertEquals(me - first, g.nodeid());
            final long[] sum = {me};
            ga.gop(g, sum, GopOp.SUM);
            long expect = 0;
            for (int p = first; p < first + g.nnodes(); p++) {
                expect += p;
            }
            assertEquals(expect, sum[0]);
            assertSame(ga.worldGroup(), ga.pgroupSplit(ga.worldGroup(), 0));
            // By color, in parent order: odd and even PEs.
            final GaGroup parity = ga.pgroupSplitIrreg(ga.worldGroup(), me % 2);
            assertEquals((pes - me % 2 + 1) / 2, parity.nnodes());
            assertEquals(me % 2, parity.absoluteId(0));
            assertEquals(me / 2, parity.nodeid());
            // A negative color anywhere refuses on every member.
            assertThrows(IllegalArgumentException.class,
                () -> ga.pgroupSplitIrreg(ga.worldGroup(), me == pes - 1 ? -1 : 0));
            assertThrows(IllegalArgumentException.class, () -> ga.pgroupSplit(ga.worldGroup(), -1));
            ga.sync();
        });
    }

    @Test
    void shouldActOnTheDefaultGroup() {
        GaTestSupport.run(4, ga -> {
            final int world = ga.nodeid();
            final GaGroup half = ga.pgroupSplit(ga.worldGroup(), 2); // {0,1}, {2,3}
            ga.pgroupSetDefault(half);
            assertSame(half, ga.pgroupGetDefault());
            assertEquals(world % 2, ga.nodeid());
            assertEquals(2, ga.nnodes());
            final GlobalArray a = ga.create(GaType.LONG, new int[] {4}, "onHalf");
            assertSame(half, a.group());
            if (ga.nodeid() == 0) {
                ga.nbWait(a.nbPut(new int[] {0}, new int[] {3}, new long[] {world, world, world, world}, null));
            }
            ga.sync();
            assertEquals(world / 2 * 2, (long) whole(a)[3], "each half sees its own rank 0's data");
            final long[] x = {world};
            ga.gop(x, GopOp.SUM);
            assertEquals(world < 2 ? 1 : 5, x[0]);
            final long[] b = {world};
            ga.brdcst(b, 1, 1);
            assertEquals(world / 2 * 2 + 1, b[0], "root is rank 1 of the default group");
            final GaGroup single = ga.pgroupCreate(new int[] {1}); // rank 1 of my half
            assertEquals(world / 2 * 2 + 1, single.absoluteId(0));
            assertThrows(IllegalStateException.class, half::destroy, "the default group");
            a.destroy();
            ga.pgroupSetDefault(ga.worldGroup());
            assertEquals(world, ga.nodeid());
            ga.sync();
        });
    }

    @Test
    void shouldEnforceTheMemoryLimitOnEveryPe() {
        GaTestSupport.run(3, ga -> {
            assertFalse(ga.memoryLimited());
            assertEquals(0, ga.inquireMemory());
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {30}, "a"); // 10 doubles per PE
            assertEquals(80, ga.inquireMemory());
            ga.setMemoryLimit(ga.nodeid() == 2 ? 100 : 1_000_000); // PE 2 has room for 20 bytes more
            assertTrue(ga.memoryLimited());
            assertEquals(ga.nodeid() == 2 ? 20 : 1_000_000 - 80, ga.memoryAvail());
            assertThrows(IllegalStateException.class, () -> ga.create(GaType.DOUBLE, new int[] {9}, "b"),
                "24 bytes on PE 2: refused on every PE");
            assertEquals(80, ga.inquireMemory(), "nothing allocated");
            final GlobalArray c = ga.create(GaType.INT, new int[] {12}, "c"); // 16 bytes per PE fits
            assertEquals(96, ga.inquireMemory());
            assertThrows(IllegalArgumentException.class, () -> ga.setMemoryLimit(-1));
            c.destroy();
            a.destroy();
            assertEquals(0, ga.inquireMemory());
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldAnswerClusterQueriesForOneJvm(final int pes) {
        GaTestSupport.run(pes, ga -> {
            assertEquals(1, ga.clusterNnodes());
            assertEquals(0, ga.clusterNodeid());
            assertEquals(pes, ga.clusterNprocs(0));
            assertEquals(pes - 1, ga.clusterProcid(0, pes - 1));
            assertEquals(0, ga.clusterProcNodeid(pes - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> ga.clusterNprocs(1));
            assertThrows(IndexOutOfBoundsException.class, () -> ga.clusterProcid(0, pes));
        });
    }

    @Test
    void shouldCompareAndPrintDistributionsAndTestNonBlockingHandles() {
        final AtomicReference<String> printed = new AtomicReference<>();
        GaTestSupport.run(3, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {7, 4}, "a");
            final GlobalArray b = a.duplicate("b");
            final GlobalArray c = ga.builder(GaType.DOUBLE, 7, 4).procGrid(1, 3).create();
            assertTrue(a.compareDistr(b));
            assertFalse(a.compareDistr(c));
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            a.printDistribution(new PrintStream(out, true, StandardCharsets.UTF_8));
            if (ga.nodeid() == 0) {
                printed.set(out.toString(StandardCharsets.UTF_8));
            } else {
                assertEquals(0, out.size(), "only rank 0 prints");
            }
            final long h = a.nbPut(new int[] {0, 0}, new int[] {0, 0}, new double[] {1}, new int[] {1});
            assertTrue(ga.nbTest(h));
            assertThrows(IllegalArgumentException.class, () -> ga.nbTest(h + 100));
            ga.sync();
        });
        final String text = printed.get();
        assertTrue(text.contains("rank 0 (PE 0): [0, 0] .. [2, 3]"), text);
        assertTrue(text.contains("rank 2 (PE 2): [5, 0] .. [6, 3]"), text);
    }

    @Test
    void shouldRandomizeTheSameWayOnAnyNumberOfPes() {
        final AtomicReference<double[]> one = new AtomicReference<>();
        final AtomicReference<double[]> three = new AtomicReference<>();
        for (final int pes : new int[] {1, 3}) {
            GaTestSupport.run(pes, ga -> {
                final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {6, 5}, "a");
                final GlobalArray n = ga.create(GaType.INT, new int[] {40}, "n");
                a.randomize(2.5);
                n.randomize(3);
                final double[] v = whole(a);
                for (final double x : v) {
                    assertTrue(x >= 0 && x < 2.5, "value " + x);
                }
                final double[] iv = whole(n);
                boolean sawTwo = false;
                for (final double x : iv) {
                    assertTrue(x == 0 || x == 1 || x == 2, "value " + x);
                    sawTwo |= x == 2;
                }
                assertTrue(sawTwo);
                a.randomize(2.5);
                assertNotEquals(v[0], whole(a)[0], "a second call gives other values");
                assertThrows(IllegalArgumentException.class, () -> a.randomize(0));
                if (ga.nodeid() == 0) {
                    (pes == 1 ? one : three).set(v);
                }
                ga.sync();
            });
        }
        assertArrayEquals(one.get(), three.get(), 0.0);
    }

    @Test
    void shouldCountOneSidedCallsForPrintStats() {
        GaTestSupport.run(2, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {6, 4}, "a");
            final GlobalArray n = ga.create(GaType.LONG, new int[] {4}, "n");
            final GaStatistics before = ga.statistics();
            final double[] buf = new double[6];
            a.put(new int[] {0, 0}, new int[] {1, 2}, buf, new int[] {3});             // 48 bytes
            ga.nbWait(a.nbPut(new int[] {2, 0}, new int[] {2, 3}, buf, new int[] {4})); // 32 bytes
            a.get(new int[] {0, 0}, new int[] {5, 0}, buf, new int[] {1});             // 48 bytes
            a.acc(new int[] {0, 0}, new int[] {0, 1}, buf, new int[] {2}, 1.0);         // 16 bytes
            a.periodicGet(new int[] {-1, 0}, new int[] {0, 0}, buf, new int[] {1});     // 16 bytes
            a.scatter(new double[] {1, 2, 3}, new int[][] {{0, 0}, {1, 1}, {2, 2}}, 3); // 24 bytes
            a.gather(new double[2], new int[][] {{0, 0}, {1, 1}}, 2);                   // 16 bytes
            n.readInc(new int[] {0}, 1);
            final GaStatistics s = ga.statistics();
            assertEquals(before.putCalls() + 2, s.putCalls());
            assertEquals(before.putBytes() + 80, s.putBytes());
            assertEquals(before.getCalls() + 2, s.getCalls());
            assertEquals(before.getBytes() + 64, s.getBytes());
            assertEquals(before.accCalls() + 1, s.accCalls());
            assertEquals(before.accBytes() + 16, s.accBytes());
            assertEquals(before.scatterCalls() + 1, s.scatterCalls());
            assertEquals(before.scatterBytes() + 24, s.scatterBytes());
            assertEquals(before.gatherCalls() + 1, s.gatherCalls());
            assertEquals(before.gatherBytes() + 16, s.gatherBytes());
            assertEquals(before.readIncCalls() + 1, s.readIncCalls());
            // A refused call counts nothing.
            assertThrows(IndexOutOfBoundsException.class,
                () -> a.put(new int[] {0, 0}, new int[] {6, 0}, buf, new int[] {1}));
            assertEquals(s, ga.statistics());
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            ga.printStats(new PrintStream(out, true, StandardCharsets.UTF_8));
            final String text = out.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains("GA statistics for PE " + ga.nodeid()), text);
            assertTrue(text.matches("(?s).*put\\s+" + s.putCalls() + "\\s+" + s.putBytes() + ".*"), text);
            ga.sync();
        });
    }
}
