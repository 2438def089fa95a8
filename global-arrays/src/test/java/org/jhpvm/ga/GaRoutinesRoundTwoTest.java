package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The routines GA 5.9 has that the previous round lacked: the {@code "read_cache"} property, {@code GA_Mask_sync},
 * {@code NGA_Rand}, {@code NGA_Access_ghosts} / {@code NGA_Access_ghost_element} and
 * {@code GA_Set_tiled_irreg_proc_grid}.
 */
@Timeout(120)
class GaRoutinesRoundTwoTest {

    private static GlobalArray numbered(final GlobalArrays ga, final int rows, final int cols) {
        final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {rows, cols}, "numbered");
        final double[] v = new double[rows * cols];
        for (int i = 0; i < v.length; i++) {
            v[i] = i + 1;
        }
        GaTestSupport.putWhole(a, v);
        return a;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldServeGetsFromTheReadCache(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = numbered(ga, 6, 8);
            a.setProperty("read_cache");
            final double[] first = new double[12];
            a.get(new int[] {1, 2}, new int[] {3, 5}, first, new int[] {4});
            assertArrayEquals(new double[] {11, 12, 13, 14, 19, 20, 21, 22, 27, 28, 29, 30}, first, 0.0);
            ga.sync();
            // Every owner changes its block behind GA's back (direct stores are not GA writes): a cached read
            // still sees the old values, which is what a cache is; an uncached one the new.
            final LocalBlock mine = a.access();
            if (!mine.isEmpty()) {
                final double[] store = mine.doubles();
                final int[] lo = mine.lo();
                final int[] hi = mine.hi();
                for (int i = lo[0]; i <= hi[0]; i++) {
                    for (int j = lo[1]; j <= hi[1]; j++) {
                        store[mine.index(i, j)] = -1;
                    }
                }
            }
            ga.sync();
            final double[] inside = new double[4];
            a.get(new int[] {2, 3}, new int[] {3, 4}, inside, new int[] {2});
            assertArrayEquals(new double[] {20, 21, 28, 29}, inside, 0.0, "a section inside a cached one");
            final double[] strided = new double[4];
            a.stridedGet(new int[] {1, 2}, new int[] {3, 5}, new int[] {2, 3}, strided, new int[] {2});
            assertArrayEquals(new double[] {11, 14, 27, 30}, strided, 0.0, "strided, from the cache");
            final double[] other = new double[2];
            a.get(new int[] {5, 0}, new int[] {5, 1}, other, new int[] {2});
            assertArrayEquals(new double[] {-1, -1}, other, 0.0, "a section never read: from the array");
            assertThrows(IllegalStateException.class, () -> a.put(new int[] {0, 0}, new int[] {0, 0},
                new double[] {9}, new int[] {1}), "writes are refused under read_cache");
            assertThrows(IllegalStateException.class, () -> a.acc(new int[] {0, 0}, new int[] {0, 0},
                new double[] {9}, new int[] {1}, 1.0));
            a.unsetProperty();
            final double[] fresh = new double[4];
            a.get(new int[] {2, 3}, new int[] {3, 4}, fresh, new int[] {2});
            assertArrayEquals(new double[] {-1, -1, -1, -1}, fresh, 0.0, "the cache is gone with the property");
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldDropTheMaskedSyncsOfTheNextCollectiveOnly(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {10}, "a");
            final GaGroup g = ga.pgroupGetDefault();
            long before = g.syncs;
            a.fill(1);
            assertEquals(2, g.syncs - before, "fill syncs at its start and end");
            ga.maskSync(false, false);
            before = g.syncs;
            a.fill(2);
            assertEquals(0, g.syncs - before, "both masked");
            before = g.syncs;
            a.fill(3);
            assertEquals(2, g.syncs - before, "the mask held for one operation");
            ga.maskSync(true, false);
            before = g.syncs;
            a.scale(2);
            assertEquals(1, g.syncs - before, "the end masked");
            ga.sync();
            assertArrayEquals(new double[] {6, 6, 6, 6, 6, 6, 6, 6, 6, 6}, whole(a), 0.0);
            ga.maskSync(false, false);
            ga.sync(); // resets the mask
            before = g.syncs;
            a.zero();
            assertEquals(2, g.syncs - before);
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldGiveUniformPseudoRandomNumbersSeededOnce(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final double first = ga.rand(42);
            double sum = first;
            for (int i = 1; i < 10_000; i++) {
                final double x = ga.rand(7); // later seeds are ignored
                assertTrue(x >= 0 && x < 1, "in [0, 1): " + x);
                sum += x;
            }
            assertEquals(0.5, sum / 10_000, 0.02, "uniform mean");
            // Each PE has its own generator: the same seed gives every PE the same sequence.
            final double[] mine = {first};
            final double[] min = {first};
            ga.gop(mine, GopOp.MAX);
            ga.gop(min, GopOp.MIN);
            assertEquals(mine[0], min[0], 0.0, "the same first value on every PE");
            assertNotEquals(first, ga.rand(42), "the next value");
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldAccessGhostsUnderGaNames(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.createGhosts(GaType.DOUBLE, new int[] {8, 6}, new int[] {1, 2}, "g");
            final double[] v = new double[48];
            for (int i = 0; i < v.length; i++) {
                v[i] = i;
            }
            GaTestSupport.putWhole(a, v);
            a.updateGhosts();
            final LocalBlock b = a.accessGhosts();
            final int[] lo = b.lo();
            final int[] hi = b.hi();
            assertArrayEquals(new int[] {hi[0] - lo[0] + 3, hi[1] - lo[1] + 5}, b.ghostDims());
            assertEquals(b.ghostDims()[1], b.ld()[0], "ld is the stored row");
            final double[] store = b.doubles();
            // The first stored element is the lower-left ghost corner: the periodic neighbour's element.
            final int gi = Math.floorMod(lo[0] - 1, 8);
            final int gj = Math.floorMod(lo[1] - 2, 6);
            assertEquals(gi * 6 + gj, store[b.ghostOffset()], 0.0);
            assertEquals(b.ghostOffset(), a.accessGhostElement(lo[0] - 1, lo[1] - 2));
            assertEquals(lo[0] * 6 + lo[1], store[a.accessGhostElement(lo[0], lo[1])], 0.0);
            final int below = Math.floorMod(hi[0] + 1, 8);
            assertEquals(below * 6 + lo[1], store[a.accessGhostElement(hi[0] + 1, lo[1])], 0.0, "upper ghost row");
            assertThrows(IndexOutOfBoundsException.class, () -> a.accessGhostElement(hi[0] + 2, lo[1]));
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPlaceIrregularTilesOnTheProcessorGrid(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int[] grid = pes == 4 ? new int[] {2, 2} : new int[] {pes, 1};
            // Rows cut at 0, 1, 4, 6 (tiles of 1, 3, 2, 3 rows); columns at 0, 5 (5 and 2).
            final GlobalArray a = ga.builder(GaType.DOUBLE, 9, 7).name("t")
                .tiledIrregProcGrid(new int[] {0, 1, 4, 6, 0, 5}, new int[] {4, 2}, grid).create();
            assertEquals(8, a.totalBlocks());
            final int[][] rowTiles = {{0, 0}, {1, 3}, {4, 5}, {6, 8}};
            final int[][] colTiles = {{0, 4}, {5, 6}};
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 2; j++) {
                    final int blk = i * 2 + j;
                    final int[][] lh = a.blockDistribution(blk);
                    assertArrayEquals(new int[] {rowTiles[i][0], colTiles[j][0]}, lh[0], "tile " + blk);
                    assertArrayEquals(new int[] {rowTiles[i][1], colTiles[j][1]}, lh[1], "tile " + blk);
                    assertEquals((i % grid[0]) * grid[1] + j % grid[1], a.blockOwner(blk), "owner of tile " + blk);
                }
            }
            final double[] v = new double[63];
            for (int k = 0; k < v.length; k++) {
                v[k] = k * 0.5;
            }
            GaTestSupport.putWhole(a, v);
            assertArrayEquals(v, whole(a), 0.0, "every element where it belongs");
            assertThrows(IllegalArgumentException.class, () -> ga.builder(GaType.DOUBLE, 9, 7)
                .tiledIrregProcGrid(new int[] {0, 4, 1, 6, 0, 5}, new int[] {4, 2}, grid).create(), "not increasing");
            assertThrows(IllegalArgumentException.class, () -> ga.builder(GaType.DOUBLE, 9, 7)
                .tiledIrregProcGrid(new int[] {0, 1, 4, 6, 0, 5}, new int[] {4, 2}, new int[] {pes + 1, 1}).create(),
                "grid larger than the group");
            ga.sync();
        });
    }
}
