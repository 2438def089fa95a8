package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Block-cyclic and tiled distributions: the block layout, every kind of operation on such arrays against the same
 * operation on a regularly distributed copy, block access, and the refusals.
 */
@Timeout(120)
class BlockCyclicTest {
    private static final int R = 11;
    private static final int C = 9;

    private static GlobalArray filled(final GlobalArrays ga, final GlobalArray.Builder b) {
        final GlobalArray a = b.create();
        final int[] d = a.dims();
        final int n = (int) GaTestSupport.volume(d);
        final Object buf = GaTestSupport.buffer(a.type(), n);
        for (int i = 0; i < n; i++) {
            GaTestSupport.set(buf, i, (i * 37 % 101) - 50);
        }
        GaTestSupport.putWhole(a, buf);
        return a;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void shouldLayBlocksRoundRobinAndWorkLikeAnyArray(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int me = ga.nodeid();
            final GlobalArray a = filled(ga, ga.builder(GaType.DOUBLE, R, C).blockCyclic(3, 2));
            final GlobalArray r = filled(ga, ga.builder(GaType.DOUBLE, R, C)); // the same values, regular
            assertEquals(4 * 5, a.totalBlocks());
            for (int b = 0; b < a.totalBlocks(); b++) {
                assertEquals(b % pes, a.blockOwner(b));
                assertArrayEquals(new int[] {b / 5 * 3, b % 5 * 2}, a.blockDistribution(b)[0]);
            }
            assertArrayEquals(whole(r), whole(a), 0.0, "sections through the blocks");
            assertEquals(a.blockOwner(3 * 5 + 4), a.locate(10, 8));
            // Every block this PE owns holds the right values in its storage.
            final double[] all = whole(r);
            for (int b = 0; b < a.totalBlocks(); b++) {
                if (a.blockOwner(b) != me) {
                    final int blk = b;
                    assertThrows(IllegalArgumentException.class, () -> a.accessBlock(blk));
                    continue;
                }
                final LocalBlock lb = a.accessBlock(b);
                for (int i = lb.lo()[0]; i <= lb.hi()[0]; i++) {
                    for (int j = lb.lo()[1]; j <= lb.hi()[1]; j++) {
                        assertEquals(all[i * C + j], lb.doubles()[lb.index(i, j)], 0.0);
                    }
                }
            }
            // One element at a time: scatter, gather, and the layouts compared.
            ga.sync(); // every PE has read the array above
            a.scatter(new double[] {7, 8}, new int[][] {{10, 8}, {0, 1}}, me == 0 ? 2 : 0);
            ga.sync();
            final double[] got = new double[2];
            a.gather(got, new int[][] {{10, 8}, {0, 1}}, 2);
            assertArrayEquals(new double[] {7, 8}, got, 0.0);
            r.scatter(new double[] {7, 8}, new int[][] {{10, 8}, {0, 1}}, me == 0 ? 2 : 0);
            ga.sync();
            assertTrue(!a.compareDistr(r) && a.compareDistr(a.duplicate("twin")));
            // Collective operations against the regular copy.
            assertEquals(r.dot(r), a.dot(a), 1e-9);
            assertEquals(r.norm1(), a.norm1(), 0.0);
            assertEquals(r.normInfinity(), a.normInfinity(), 0.0);
            assertArrayEquals(r.selectElem("max").subscript(), a.selectElem("max").subscript());
            assertArrayEquals(r.selectElem("min").subscript(), a.selectElem("min").subscript());
            a.scale(2);
            r.scale(2);
            a.add(1, a, -3, r); // a = 2x - 6x
            r.scale(-2);
            assertArrayEquals(whole(r), whole(a), 0.0, "zip on both layouts");
            final GlobalArray t = ga.builder(GaType.DOUBLE, C, R).blockCyclic(2, 4).create();
            a.copyPatch('T', new int[] {0, 0}, new int[] {R - 1, C - 1}, t, new int[] {0, 0}, new int[] {C - 1, R - 1});
            final double[] tv = whole(t);
            final double[] av = whole(a);
            for (int i = 0; i < R; i++) {
                for (int j = 0; j < C; j++) {
                    assertEquals(av[i * C + j], tv[j * R + i], 0.0);
                }
            }
            // dgemm with a block-cyclic A and C.
            final GlobalArray c = ga.builder(GaType.DOUBLE, R, R).blockCyclic(4, 3).create();
            ga.dgemm('N', 'T', R, R, C, 1, a, a, 0, c);
            final double[] cv = whole(c);
            for (int i = 0; i < R; i++) {
                for (int j = 0; j < R; j++) {
                    double s = 0;
                    for (int k = 0; k < C; k++) {
                        s += av[i * C + k] * av[j * C + k];
                    }
                    assertEquals(s, cv[i * R + j], 1e-9);
                }
            }
            // Refusals.
            assertThrows(IllegalStateException.class, () -> a.distribution(0));
            assertThrows(IllegalStateException.class, a::access);
            assertThrows(IllegalArgumentException.class,
                () -> ga.builder(GaType.DOUBLE, 8).blockCyclic(2).ghosts(1).create());
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldScanAndPackAcrossInterleavedBlocks(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray src = ga.builder(GaType.LONG, 23).blockCyclic(2).create();
            final GlobalArray mask = ga.builder(GaType.INT, 23).blockCyclic(3).create();
            final GlobalArray dst = ga.builder(GaType.LONG, 23).blockCyclic(4).create();
            src.patchEnum(0, 22, 1, 1);
            final int[] mv = new int[23];
            for (int i = 0; i < 23; i++) {
                mv[i] = i % 5 == 2 || i == 11 ? 1 : 0;
            }
            GaTestSupport.putWhole(mask, mv);
            dst.fill(-1);
            src.scanAdd(dst, mask, 1, 20, false);
            final double[] out = whole(dst);
            long sum = 0;
            boolean active = false;
            for (int i = 1; i <= 20; i++) {
                if (mv[i] != 0) {
                    active = true;
                    sum = 0;
                }
                if (active) {
                    sum += i + 1;
                    assertEquals(sum, out[i], 0.0, "element " + i);
                } else {
                    assertEquals(-1, out[i], 0.0);
                }
            }
            dst.fill(0);
            assertEquals(5, src.pack(dst, mask, 1, 20));
            assertArrayEquals(new double[] {3, 8, 12, 13, 18, 0}, java.util.Arrays.copyOf(whole(dst), 6), 0.0);
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {4})
    void shouldPlaceScaLapackBlocksOnTheProcessorGrid(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = filled(ga, ga.builder(GaType.DOUBLE, 8, 8).blockCyclicProcGrid(new int[] {2, 2},
                new int[] {2, 2}));
            final GlobalArray t = filled(ga, ga.builder(GaType.DOUBLE, 8, 8).tiledProcGrid(new int[] {2, 2},
                new int[] {2, 2}));
            final GlobalArray r = filled(ga, ga.builder(GaType.DOUBLE, 8, 8));
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    assertEquals((i % 2) * 2 + j % 2, a.blockOwner(i * 4 + j));
                    assertEquals(a.blockOwner(i * 4 + j), t.blockOwner(i * 4 + j));
                }
            }
            assertArrayEquals(whole(r), whole(a), 0.0);
            assertArrayEquals(whole(r), whole(t), 0.0);
            assertTrue(a.locate(3, 5) == 1 * 2 + 0, "block (1, 2) on processor (1, 0)");
            assertThrows(IllegalArgumentException.class, () -> ga.builder(GaType.DOUBLE, 8, 8)
                .blockCyclicProcGrid(new int[] {2, 2}, new int[] {3, 1}).create(), "3 ranks, not 4");
            ga.sync();
        });
    }
}
