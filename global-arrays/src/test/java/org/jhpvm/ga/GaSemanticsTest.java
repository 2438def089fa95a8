package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GA 5.x behaviour a ported program relies on: reshaping patch operations (same element count, storage order),
 * transposes in any number of dimensions, dot products with transpose flags and exact long dots, copies between a
 * processor group and the world group, periodic sections up to twice an extent, and the default distribution that
 * gives every PE data.
 */
@Timeout(120)
class GaSemanticsTest {
    static final int[] PES = GaTestSupport.PES;

    private static void fill(final GlobalArray a) {
        final int n = (int) GaTestSupport.volume(a.dims());
        final Object v = GaTestSupport.buffer(a.type(), n);
        for (int i = 0; i < n; i++) {
            GaTestSupport.set(v, i, i + 1);
        }
        GaTestSupport.putWhole(a, v);
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMatchPatchesOfDifferentShapesInStorageOrder(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {4, 6}, "a");
            final GlobalArray b = ga.create(GaType.DOUBLE, new int[] {3, 4}, "b");
            final GlobalArray c = ga.create(GaType.DOUBLE, new int[] {12}, "c");
            fill(a);
            // a's rows 1..2 (2 x 6, elements 7..18) into the whole 3 x 4 b, in storage order.
            a.copyPatch('N', new int[] {1, 0}, new int[] {2, 5}, b, new int[] {0, 0}, new int[] {2, 3});
            final double[] expect = IntStream.rangeClosed(7, 18).asDoubleStream().toArray();
            assertArrayEquals(expect, whole(b), 0.0);
            // ... and into a 1-D array, then added back reshaped: c = 1*b + 2*c.
            b.copy(c);
            assertArrayEquals(expect, whole(c), 0.0);
            c.addPatch(1, b, new int[] {0, 0}, new int[] {2, 3}, 2, c, new int[] {0}, new int[] {11}, new int[] {0},
                new int[] {11});
            for (int i = 0; i < 12; i++) {
                assertEquals(3 * expect[i], whole(c)[i], 0.0);
            }
            // dotPatch of the 2 x 6 patch and the 12-element c: sum of x * 3x.
            double dot = 0;
            for (final double x : expect) {
                dot += x * 3 * x;
            }
            assertEquals(dot, a.dotPatch(new int[] {1, 0}, new int[] {2, 5}, c, new int[] {0}, new int[] {11}), 0.0);
            // Different element counts are still refused, before anything moves.
            final double[] before = whole(b);
            assertThrows(IllegalArgumentException.class,
                () -> a.copyPatch('N', new int[] {0, 0}, new int[] {1, 5}, b, new int[] {0, 0}, new int[] {2, 2}));
            assertArrayEquals(before, whole(b), 0.0);
            ga.sync();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldTransposeEverySubscriptInThreeDimensions(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray x = ga.create(GaType.LONG, new int[] {2, 3, 4}, "x");
            final GlobalArray y = ga.create(GaType.LONG, new int[] {4, 3, 2}, "y");
            fill(x);
            x.copyPatch('T', new int[] {0, 0, 0}, new int[] {1, 2, 3}, y, new int[] {0, 0, 0}, new int[] {3, 2, 1});
            final double[] xs = whole(x);
            final double[] ys = whole(y);
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 3; j++) {
                    for (int k = 0; k < 4; k++) {
                        assertEquals(xs[(i * 3 + j) * 4 + k], ys[(k * 3 + j) * 2 + i], 0.0, i + "," + j + "," + k);
                    }
                }
            }
            // A transpose needs the extents in reverse order: 2x3x4 onto 2x3x4 is refused.
            final GlobalArray z = ga.create(GaType.LONG, new int[] {2, 3, 4}, "z");
            assertThrows(IllegalArgumentException.class, () -> x.copyPatch('T', new int[] {0, 0, 0},
                new int[] {1, 2, 3}, z, new int[] {0, 0, 0}, new int[] {1, 2, 3}));
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void shouldDotWithTransposeFlagsAndExactLongs(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {3, 5}, "a");
            final GlobalArray b = ga.create(GaType.DOUBLE, new int[] {5, 3}, "b");
            fill(a);
            fill(b);
            final double[] as = whole(a);
            final double[] bs = whole(b);
            double nt = 0;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 5; j++) {
                    nt += as[i * 5 + j] * bs[j * 3 + i];
                }
            }
            final int[] alo = {0, 0};
            final int[] ahi = {2, 4};
            final int[] blo = {0, 0};
            final int[] bhi = {4, 2};
            assertEquals(nt, a.dotPatch('N', alo, ahi, b, 'T', blo, bhi), 0.0);
            assertEquals(nt, a.dotPatch('T', alo, ahi, b, 'N', blo, bhi), 0.0);
            // Both transposed is the plain (storage-order) match of the two 15-element patches.
            assertEquals(a.dotPatch(alo, ahi, b, blo, bhi), a.dotPatch('T', alo, ahi, b, 'T', blo, bhi), 0.0);
            assertThrows(IllegalArgumentException.class, () -> a.dotPatch('X', alo, ahi, b, 'N', blo, bhi));
            assertThrows(IllegalArgumentException.class, () -> a.ldot(a), "ldot of doubles");
            // Exact long dot: four products of (2^27 + 1)^2 = 2^54 + 2^28 + 1 sum to more than 2^53.
            final GlobalArray l = ga.create(GaType.LONG, new int[] {4}, "l");
            l.fill((1L << 27) + 1);
            final long exact = 4 * ((1L << 54) + (1L << 28) + 1);
            assertEquals(exact, l.ldot(l));
            assertEquals(exact, l.ldotPatch('N', new int[] {0}, new int[] {3}, l, 'N', new int[] {0}, new int[] {3}));
            assertNotEquals(exact, (long) l.dot(l), "the double form rounds above 2^53");
            final GlobalArray i = ga.create(GaType.INT, new int[] {4}, "i");
            i.fill(1 << 20);
            assertEquals(4L << 40, i.ldot(i), "int elements multiply in long arithmetic");
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldCopyBetweenAProcessorGroupAndTheWorld(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int me = ga.nodeid();
            // The odd-numbered PEs (PE 1 alone on 2 PEs) in reverse order.
            final int[] list = IntStream.iterate(pes % 2 == 0 ? pes - 1 : pes - 2, x -> x >= 1, x -> x - 2)
                .toArray();
            final GaGroup g = ga.pgroupCreate(list);
            final GlobalArray w = ga.create(GaType.INT, new int[] {3, 7}, "w");
            fill(w);
            final double[] worldValues = whole(w);
            ga.sync();
            if (g.isMember()) {
                final GlobalArray s = ga.builder(GaType.INT, 3, 7).group(g).name("s").create();
                w.copy(s); // world to group: the group's members do it
                assertArrayEquals(worldValues, whole(s), 0.0);
                s.scale(2);
                s.copyPatch('N', new int[] {1, 0}, new int[] {1, 6}, w, new int[] {0, 0}, new int[] {0, 6});
                s.destroy();
            }
            ga.sync();
            final double[] after = whole(w);
            for (int k = 0; k < 21; k++) {
                assertEquals(k < 7 ? 2 * worldValues[7 + k] : worldValues[k], after[k], 0.0, "element " + k);
            }
            // Two different groups, neither the world: refused on a PE of both, before anything moves.
            if (list.length > 1) {
                final GaGroup other = ga.pgroupCreate(new int[] {list[0]});
                if (g.isMember()) {
                    final GlobalArray s1 = ga.builder(GaType.INT, 2).group(g).create();
                    if (other.isMember()) {
                        final GlobalArray s2 = ga.builder(GaType.INT, 2).group(other).create();
                        assertThrows(IllegalArgumentException.class, () -> s1.copy(s2));
                        s2.destroy();
                    }
                    s1.destroy();
                }
            }
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldWrapPeriodicSectionsUpToTwiceAnExtent(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {5, 3}, "a");
            fill(a);
            final double[] all = whole(a);
            // 9 rows from -3 (almost twice the 5 rows), 5 columns from -1 (more than the 3 columns).
            final double[] buf = new double[9 * 5];
            a.periodicGet(new int[] {-3, -1}, new int[] {5, 3}, buf, new int[] {5});
            for (int i = 0; i < 9; i++) {
                for (int j = 0; j < 5; j++) {
                    final int r = Math.floorMod(i - 3, 5);
                    final int c = Math.floorMod(j - 1, 3);
                    assertEquals(all[r * 3 + c], buf[i * 5 + j], 0.0, i + "," + j);
                }
            }
            // An accumulate over a section of two full extents adds twice.
            ga.sync();
            if (ga.nodeid() == 0) {
                final double[] ones = new double[10];
                java.util.Arrays.fill(ones, 1);
                a.periodicAcc(new int[] {0, 0}, new int[] {9, 0}, ones, new int[] {1}, 1.0);
            }
            ga.sync();
            final double[] acc = whole(a);
            for (int r = 0; r < 5; r++) {
                assertEquals(all[r * 3] + 2, acc[r * 3], 0.0);
            }
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 16})
    void shouldGiveEveryPeDataByDefault(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int n = pes == 3 ? 4 : 37;
            final GlobalArray a = ga.create(GaType.INT, new int[] {n}, "a");
            int total = 0;
            int min = Integer.MAX_VALUE;
            int max = 0;
            for (int r = 0; r < pes; r++) {
                final int[][] b = a.distribution(r);
                final int size = b[1][0] - b[0][0] + 1;
                total += size;
                min = Math.min(min, size);
                max = Math.max(max, size);
            }
            assertEquals(n, total);
            assertTrue(min >= 1 && max - min <= 1, "sizes from " + min + " to " + max);
            if (pes == 3) {
                assertArrayEquals(new int[] {1, 1}, new int[] {a.distribution(1)[0][0] == 2 ? 1 : 0,
                    a.distribution(2)[0][0] == 3 ? 1 : 0}, "2, 1, 1");
            }
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void shouldOverlayAnArrayOnAnotherOnesMemory(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray parent = ga.create(GaType.DOUBLE, new int[] {40}, "parent");
            final long used = ga.inquireMemory();
            final GlobalArray child = ga.builder(GaType.DOUBLE, 20).name("child").overlay(parent).create();
            assertEquals(used, ga.inquireMemory(), "an overlay takes no memory of its own");
            child.fill(3);
            // The child's block lies at the start of the parent's local memory on every PE.
            final LocalBlock cb = child.access();
            final double[] pm = parent.access().doubles();
            if (!cb.isEmpty()) {
                final int n = cb.hi()[0] - cb.lo()[0] + 1;
                for (int k = 0; k < n; k++) {
                    assertEquals(3.0, pm[k], 0.0);
                }
            }
            ga.sync();
            assertThrows(IllegalArgumentException.class,
                () -> ga.builder(GaType.LONG, 20).overlay(parent).create(), "another type");
            assertThrows(IllegalArgumentException.class,
                () -> ga.builder(GaType.DOUBLE, 400).overlay(parent).create(), "larger blocks");
            assertThrows(IllegalStateException.class, parent::destroy, "an overlay lives on it");
            child.destroy();
            parent.destroy();
            assertEquals(0, ga.inquireMemory());
        });
    }

    @org.junit.jupiter.api.Test
    void shouldGiveBlocksOnlyToTheRestrictedRanks() {
        GaTestSupport.run(5, ga -> {
            final int me = ga.nodeid();
            final GlobalArray a = ga.builder(GaType.DOUBLE, 20).restricted(4, 1).name("r").create();
            assertArrayEquals(new int[] {0, 9}, new int[] {a.distribution(4)[0][0], a.distribution(4)[1][0]});
            assertArrayEquals(new int[] {10, 19}, new int[] {a.distribution(1)[0][0], a.distribution(1)[1][0]});
            for (final int r : new int[] {0, 2, 3}) {
                assertTrue(a.distribution(r)[1][0] < a.distribution(r)[0][0], "rank " + r + " owns nothing");
            }
            assertEquals(4, a.locate(0));
            assertEquals(1, a.locate(15));
            assertEquals(me == 1 || me == 4, !a.access().isEmpty());
            fill(a);
            final double[] v = whole(a);
            for (int i = 0; i < 20; i++) {
                assertEquals(i + 1, v[i], 0.0);
            }
            assertEquals(2870, a.dot(a), 0.0, "sum of squares 1..20");
            // A 2-D array with ghosts on ranks 1..3 only: ghost updates come from the right owners.
            final GlobalArray g = ga.builder(GaType.DOUBLE, 6, 6).ghosts(1, 1).restrictedRange(1, 3).create();
            fill(g);
            g.updateGhosts();
            final LocalBlock b = g.access();
            if (!b.isEmpty()) {
                final double[] x = b.doubles();
                for (int i = b.lo()[0] - 1; i <= b.hi()[0] + 1; i++) {
                    for (int j = b.lo()[1] - 1; j <= b.hi()[1] + 1; j++) {
                        assertEquals(Math.floorMod(i, 6) * 6 + Math.floorMod(j, 6) + 1, x[b.index(i, j)], 0.0);
                    }
                }
            }
            assertEquals(me >= 1 && me <= 3, !b.isEmpty());
            assertThrows(IllegalArgumentException.class,
                () -> ga.builder(GaType.DOUBLE, 4).restricted(1, 1).create());
            assertThrows(IllegalArgumentException.class, () -> ga.builder(GaType.DOUBLE, 4).restricted(5).create());
            assertThrows(IllegalArgumentException.class, () -> ga.builder(GaType.DOUBLE, 4).restrictedRange(3, 1));
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldServeGetsFromTheReadOnlyReplicaAndRefuseWrites(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.LONG, new int[] {5, 7}, "ro");
            fill(a);
            a.setProperty("read_only");
            final double[] v = whole(a);
            for (int i = 0; i < 35; i++) {
                assertEquals(i + 1, v[i], 0.0);
            }
            final long[] strided = new long[9];
            a.stridedGet(new int[] {0, 1}, new int[] {4, 5}, new int[] {2, 2}, strided, new int[] {3});
            assertArrayEquals(new long[] {2, 4, 6, 16, 18, 20, 30, 32, 34}, strided);
            final long[] wrap = new long[3];
            a.periodicGet(new int[] {4, 6}, new int[] {4, 8}, wrap, new int[] {3});
            assertArrayEquals(new long[] {35, 29, 30}, wrap);
            assertEquals(35L * 36 * 71 / 6, a.ldot(a), "collective operations read the replica too");
            assertThrows(IllegalStateException.class, () -> a.put(new int[] {0, 0}, new int[] {0, 0},
                new long[] {9}, new int[] {1}));
            assertThrows(IllegalStateException.class, () -> a.readInc(new int[] {0, 0}, 1));
            assertThrows(IllegalStateException.class, () -> a.setProperty("read_only"));
            assertThrows(IllegalStateException.class, () -> a.setProperty("read_cache"), "one property at a time");
            assertThrows(IllegalArgumentException.class, () -> a.setProperty("read_write"));
            a.unsetProperty();
            ga.sync();
            if (ga.nodeid() == 0) {
                a.put(new int[] {0, 0}, new int[] {0, 0}, new long[] {9}, new int[] {1});
            }
            ga.sync();
            assertEquals(9, whole(a)[0], 0.0, "writable again");
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldKeepOneCopyOfAMirroredArrayPerNode(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GaGroup mirror = ga.pgroupGetMirror();
            assertEquals(pes, mirror.nnodes(), "one JVM: one node of every PE");
            final GlobalArray m = ga.builder(GaType.DOUBLE, 4, 5).group(mirror).name("m").create();
            assertTrue(m.isMirrored());
            fill(m);
            m.mergeMirrored(); // one node: the sum of one copy
            final double[] v = whole(m);
            for (int i = 0; i < 20; i++) {
                assertEquals(i + 1, v[i], 0.0);
            }
            final GlobalArray b = ga.create(GaType.DOUBLE, new int[] {3, 3}, "b");
            b.fill(-1);
            m.mergeDistrPatch(new int[] {1, 2}, new int[] {2, 3}, b, new int[] {0, 1}, new int[] {1, 2});
            assertArrayEquals(new double[] {-1, 8, 9, -1, 13, 14, -1, -1, -1}, whole(b), 0.0);
            assertThrows(IllegalStateException.class, b::mergeMirrored, "not mirrored");
            assertThrows(IllegalArgumentException.class, () -> m.mergeDistrPatch(new int[] {0, 0},
                new int[] {1, 1}, b, new int[] {0, 0}, new int[] {2, 2}), "shapes differ");
            assertThrows(IllegalArgumentException.class, mirror::destroy);
            ga.sync();
        });
    }
}
