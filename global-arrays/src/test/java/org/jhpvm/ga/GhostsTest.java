package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.at;
import static org.jhpvm.ga.GaTestSupport.f;
import static org.jhpvm.ga.GaTestSupport.linear;
import static org.jhpvm.ga.SectionOpsTest.forEach;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Ghost updates: after {@code updateGhosts} every ghost cell (corners included) holds its neighbour's value,
 * wrapped in periodic dimensions; across a non-periodic physical boundary the ghosts keep what the application put
 * there. 1-D to 4-D, every type, widths 1 and 2, regular and irregular, 1..16 PEs; both ways an update goes (loading
 * the neighbours' blocks directly, as every PE of these jobs shares the JVM, and pushing faces through SHMEM, as
 * across JVMs), with and without corners.
 */
@Timeout(240)
class GhostsTest {
    static final int[] PES = GaTestSupport.PES;
    static final double SENTINEL = -77;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldFillEveryGhostCellFromItsNeighbourCornersIncluded(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int[][] shapes = {{40}, {12, 9}, {6, 7, 5}, {4, 5, 4, 3}};
            int k = 0;
            for (final int[] dims : shapes) {
                for (final int width : new int[] {1, 2}) {
                    for (final boolean irregular : new boolean[] {false, true}) {
                        final GaType t = GaType.values()[k++ % 4];
                        final int[] w = new int[dims.length];
                        Arrays.fill(w, width);
                        w[dims.length - 1] = dims.length > 1 ? 1 : width; // mixed widths
                        final GlobalArray.Builder b = ga.builder(t, dims).ghosts(w);
                        if (irregular) {
                            final int[][] im = SectionOpsTest.irregular(dims, pes);
                            if (!fits(dims, im, w)) {
                                continue;
                            }
                            b.irregular(im[0], im[1]);
                        }
                        final GlobalArray a;
                        try {
                            a = b.create();
                        } catch (final IllegalArgumentException tooThin) {
                            // Blocks thinner than the ghosts on this many PEs: the same decision on every PE.
                            continue;
                        }
                        boolean[] periodic = new boolean[dims.length];
                        Arrays.fill(periodic, true);
                        check(a, null);
                        for (int d = 0; d < dims.length; d++) {
                            periodic[d] = d % 2 == 1;
                        }
                        check(a, periodic);
                        a.setGhostCornerFlag(false);
                        check(a, periodic, false);
                        a.ghostsDirect(false);
                        check(a, periodic, false);
                        a.setGhostCornerFlag(true);
                        check(a, null);
                        check(a, periodic);
                        a.destroy();
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldFillOnlyTheLayersAskedForNextToTheBlock(final int pes) {
        GaTestSupport.run(pes, ga -> {
            // Widths 3 (and 2 in the last dimension); updates of every kind of cut, both ways, corners or not.
            final int[][] shapes = {{30}, {12, 10}, {8, 7, 6}};
            int k = 0;
            for (final int[] dims : shapes) {
                final int nd = dims.length;
                final int[] w = new int[nd];
                Arrays.fill(w, 3);
                w[nd - 1] = nd > 1 ? 2 : 3;
                final GlobalArray a;
                try {
                    a = ga.builder(GaType.values()[k++ % 4], dims).ghosts(w).create();
                } catch (final IllegalArgumentException tooThin) {
                    continue;
                }
                final boolean[] periodic = new boolean[nd];
                for (int d = 0; d < nd; d++) {
                    periodic[d] = d % 2 == 0;
                }
                final int[][][] cuts = {
                    {full(w, 1), full(w, 1)},              // one layer all round
                    {sweep(w, 0), lowOnly(w, 0)},          // ZEUS's sweep along 0: 3 below, 2 above; 1 below else
                    {sweep(w, nd - 1), lowOnly(w, nd - 1)},
                    {new int[nd], full(w, 1)},             // one layer above only
                    {w.clone(), w.clone()}};               // all of them: a full update
                for (final boolean direct : new boolean[] {true, false}) {
                    a.ghostsDirect(direct);
                    for (final boolean corners : new boolean[] {true, false}) {
                        a.setGhostCornerFlag(corners);
                        for (final int[][] cut : cuts) {
                            check(a, periodic, corners, cut[0], cut[1]);
                        }
                    }
                }
                a.destroy();
            }
        });
    }

    /** {@code n} layers (at most the width) in every dimension. */
    private static int[] full(final int[] w, final int n) {
        final int[] out = new int[w.length];
        for (int d = 0; d < w.length; d++) {
            out[d] = Math.min(n, w[d]);
        }
        return out;
    }

    /** The lower widths of a sweep along {@code s}: every layer there, one in the other dimensions. */
    private static int[] sweep(final int[] w, final int s) {
        final int[] out = full(w, 1);
        out[s] = w[s];
        return out;
    }

    /** The upper widths of a sweep along {@code s}: all but one layer there, none in the other dimensions. */
    private static int[] lowOnly(final int[] w, final int s) {
        final int[] out = new int[w.length];
        out[s] = w[s] - 1;
        return out;
    }

    @org.junit.jupiter.api.Test
    void badWidthsShouldBeRefusedOnEveryPeAndChangeNothing() {
        GaTestSupport.run(2, ga -> {
            final int[] dims = {10, 8};
            final GlobalArray a = ga.builder(GaType.DOUBLE, dims).ghosts(2, 1).create();
            final LocalBlock block = a.access();
            Arrays.fill(block.doubles(), SENTINEL);
            a.releaseUpdate();
            final boolean[] periodic = {true, true};
            for (final int[][] bad : new int[][][] {{{3, 1}, {2, 1}}, {{2, 1}, {2, 2}}, {{-1, 0}, {0, 0}},
                {{1}, {1, 1}}, {{1, 1}, {1, 1, 1}}}) {
                final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> a.updateGhosts(periodic, bad[0], bad[1]));
                org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("Widths"), e.getMessage());
            }
            for (final double v : block.doubles()) {
                assertEquals(SENTINEL, v, 0.0, "a refused update changed a cell");
            }
            a.group().sync();
        });
    }

    static boolean fits(final int[] dims, final int[][] im, final int[] w) {
        int k = 0;
        for (int d = 0; d < dims.length; d++) {
            for (int b = 0; b < im[0][d]; b++) {
                final int end = b + 1 < im[0][d] ? im[1][k + 1] : dims[d];
                if (end - im[1][k] < w[d]) {
                    return false;
                }
                k++;
            }
        }
        return true;
    }

    /** Interior = f, ghosts = sentinel; update; check every stored cell. */
    static void check(final GlobalArray a, final boolean[] periodic) {
        check(a, periodic, true);
    }

    /**
     * As {@link #check(GlobalArray, boolean[])}; without {@code corners} a ghost cell outside the block in two
     * dimensions or more keeps the sentinel.
     */
    static void check(final GlobalArray a, final boolean[] periodic, final boolean corners) {
        check(a, periodic, corners, null, null);
    }

    /**
     * As {@link #check(GlobalArray, boolean[], boolean)}, updating only {@code low[d]} layers below and
     * {@code high[d]} above the block in each dimension when they are given: every other ghost cell keeps the
     * sentinel.
     */
    static void check(final GlobalArray a, final boolean[] periodic, final boolean corners, final int[] low,
        final int[] high) {
        final int[] dims = a.dims();
        final int nd = dims.length;
        final LocalBlock block = a.access();
        final Object arr = array(a, block);
        final int[] w = block.ghostWidths();
        if (!block.isEmpty()) {
            final int[] glo = block.lo();
            final int[] ghi = block.hi();
            for (int d = 0; d < nd; d++) {
                glo[d] -= w[d];
                ghi[d] += w[d];
            }
            forEach(glo, ghi, s -> {
                boolean interior = true;
                for (int d = 0; d < nd; d++) {
                    interior &= s[d] >= block.lo()[d] && s[d] <= block.hi()[d];
                }
                GaTestSupport.set(arr, block.index(s), interior ? f(a.type(), linear(dims, s)) : SENTINEL);
            });
        }
        a.releaseUpdate();
        if (low != null) {
            a.updateGhosts(periodic, low, high);
        } else if (periodic == null) {
            a.updateGhosts();
        } else {
            a.updateGhosts(periodic);
        }
        if (!block.isEmpty()) {
            final int[] glo = block.lo();
            final int[] ghi = block.hi();
            for (int d = 0; d < nd; d++) {
                glo[d] -= w[d];
                ghi[d] += w[d];
            }
            forEach(glo, ghi, s -> {
                final int[] wrapped = new int[nd];
                boolean outside = false;
                int ghostDims = 0;
                for (int d = 0; d < nd; d++) {
                    wrapped[d] = Math.floorMod(s[d], dims[d]);
                    outside |= (s[d] < 0 || s[d] >= dims[d]) && periodic != null && !periodic[d];
                    ghostDims += s[d] < block.lo()[d] || s[d] > block.hi()[d] ? 1 : 0;
                    if (low != null) {
                        outside |= block.lo()[d] - s[d] > low[d] || s[d] - block.hi()[d] > high[d];
                    }
                }
                outside |= !corners && ghostDims > 1;
                final double want = outside ? SENTINEL : f(a.type(), linear(dims, wrapped));
                assertEquals(want, at(arr, block.index(s)), 0.0, a + " " + Arrays.toString(a.procGrid())
                    + " periodic " + Arrays.toString(periodic) + " widths " + Arrays.toString(low) + "/"
                    + Arrays.toString(high) + " cell " + Arrays.toString(s) + " of block "
                    + Arrays.toString(block.lo()) + ".." + Arrays.toString(block.hi()));
            });
        }
        a.group().sync();
    }

    static Object array(final GlobalArray a, final LocalBlock b) {
        return switch (a.type()) {
            case INT -> b.ints();
            case LONG -> b.longs();
            case FLOAT, SCPL -> b.floats();
            case DOUBLE, DCPL -> b.doubles();
        };
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldUpdateOneSideOfOneDimension(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int[] dims = {16, 10};
            final GlobalArray a = ga.builder(GaType.DOUBLE, dims).ghosts(1, 1).create();
            final LocalBlock block = a.access();
            final double[] arr = block.doubles();
            final int[] lo = block.lo();
            final int[] hi = block.hi();
            Arrays.fill(arr, SENTINEL);
            if (!block.isEmpty()) {
                forEach(lo, hi, s -> arr[block.index(s)] = f(GaType.DOUBLE, linear(dims, s)));
            }
            // Upper side of dimension 0, no corners: only row hi+1, columns lo..hi, changes.
            a.updateGhostDir(0, +1, false);
            if (!block.isEmpty()) {
                forEach(new int[] {lo[0] - 1, lo[1] - 1}, new int[] {hi[0] + 1, hi[1] + 1}, s -> {
                    final boolean interior = s[0] >= lo[0] && s[0] <= hi[0] && s[1] >= lo[1] && s[1] <= hi[1];
                    final boolean filled = s[0] == hi[0] + 1 && s[1] >= lo[1] && s[1] <= hi[1];
                    final double want = interior || filled
                        ? f(GaType.DOUBLE, linear(dims, new int[] {Math.floorMod(s[0], 16), s[1]})) : SENTINEL;
                    assertEquals(want, arr[block.index(s)], 0.0, "dir +1 cell " + Arrays.toString(s));
                });
            }
            // Lower side of dimension 1 with corners, not periodic: the corners come from the diagonal owners'
            // interiors (GA's NGA_Update_ghost_dir), not from ghosts; nothing beyond the array's edges is touched.
            a.updateGhostDir(1, -1, true, false);
            if (!block.isEmpty()) {
                for (int r = lo[0] - 1; r <= hi[0] + 1; r++) {
                    final int[] s = {r, lo[1] - 1};
                    final boolean inside = lo[1] > 0 && r >= 0 && r < 16;
                    final double want = inside ? f(GaType.DOUBLE, linear(dims, new int[] {r, lo[1] - 1})) : SENTINEL;
                    assertEquals(want, arr[block.index(s)], 0.0, "dir -1 cell " + Arrays.toString(s));
                }
            }
            a.group().sync();
        });
    }

    @org.junit.jupiter.api.Test
    void shouldTakeOneSidedCornersFromTheDiagonalOwners() {
        GaTestSupport.run(4, ga -> {
            final int[] dims = {4, 4};
            final GlobalArray a = ga.builder(GaType.DOUBLE, dims).procGrid(2, 2).ghosts(1, 1).create();
            if (ga.nodeid() == 0) {
                final double[] v = new double[16];
                for (int i = 0; i < 16; i++) {
                    v[i] = i + 1;
                }
                a.put(new int[] {0, 0}, new int[] {3, 3}, v, new int[] {4});
            }
            ga.sync();
            a.updateGhostDir(0, +1, true);
            final LocalBlock b = a.access();
            final int[] lo = b.lo();
            final int[] hi = b.hi();
            for (int c = lo[1] - 1; c <= hi[1] + 1; c++) {
                final int row = Math.floorMod(hi[0] + 1, 4);
                final int col = Math.floorMod(c, 4);
                assertEquals(row * 4 + col + 1, b.doubles()[b.index(hi[0] + 1, c)], 0.0, "cell [" + (hi[0] + 1) + "]["
                    + c + "] of the block at " + Arrays.toString(lo));
            }
            ga.sync();
        });
    }
}
