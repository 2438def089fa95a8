package org.jhpvm.ga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

@Timeout(120)
class DistributionTest {
    static final int[] PES = GaTestSupport.PES;

    @Test
    void shouldChooseNearCubicGridsThatUseThePes() {
        final int[] none = {0, 0};
        assertArrayEquals(new int[] {2, 2}, Distribution.regular(new int[] {100, 100}, none, null, none, 4).grid);
        assertArrayEquals(new int[] {8, 1}, Distribution.regular(new int[] {1000, 10}, none, null, none, 8).grid);
        assertArrayEquals(new int[] {4, 4}, Distribution.regular(new int[] {64, 64}, none, null, none, 16).grid);
        // chunk: blocks of at least 50 rows leave 2 blocks in dimension 0.
        assertArrayEquals(new int[] {2, 2}, Distribution.regular(new int[] {100, 100}, new int[] {50, 0}, null, none,
            4).grid);
        // GA's rule: every PE gets data, block sizes differ by at most one, the longer ones first.
        // 37 elements on 16 PEs: five blocks of 3, eleven of 2.
        final Distribution d = Distribution.regular(new int[] {37}, new int[] {0}, null, new int[] {0}, 16);
        assertEquals(16, d.owners);
        assertArrayEquals(new int[] {0, 3, 6, 9, 12, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37}, d.starts[0]);
        assertEquals(3, d.maxLocalLength);
        // 4 elements on 3 PEs: 2, 1, 1 (not 2, 2, 0).
        assertArrayEquals(new int[] {0, 2, 3, 4},
            Distribution.regular(new int[] {4}, new int[] {0}, null, new int[] {0}, 3).starts[0]);
        // A grid wider than the dimension is cut to one element per block.
        assertArrayEquals(new int[] {3, 1}, Distribution.regular(new int[] {3, 5}, new int[2], new int[] {5, 1},
            new int[2], 5).grid);
        assertArrayEquals(new int[] {4, 3, 2}, Distribution.regular(new int[] {8, 9, 10}, new int[3],
            new int[] {4, 3, 2}, new int[3], 24).grid);
    }

    @Test
    void shouldLayOutGhostsInTheLocalLength() {
        final Distribution d = Distribution.irregular(new int[] {10, 6}, new int[] {2, 1}, new int[] {0, 3, 0},
            new int[] {1, 2}, 2);
        assertEquals((7 + 2) * (6 + 4), d.maxLocalLength);
        final int[] s = new int[2];
        assertEquals((3 + 2) * (6 + 4), d.localStrides(0, s));
        assertArrayEquals(new int[] {10, 1}, s);
        final int[] lo = new int[2];
        final int[] hi = new int[2];
        d.block(1, lo, hi);
        assertArrayEquals(new int[] {3, 0}, lo);
        assertArrayEquals(new int[] {9, 5}, hi);
        d.block(2, lo, hi);
        assertTrue(hi[0] < lo[0], "a rank beyond the grid owns nothing");
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldLocateEveryElementInExactlyTheBlockThatHoldsIt(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GlobalArray a : new GlobalArray[] {ga.create(GaType.INT, new int[] {7, 5, 3}, "r"),
                ga.createIrregular(GaType.LONG, new int[] {11, 4}, "i", SectionOpsTest.irregular(new int[] {11, 4},
                    pes)[0], SectionOpsTest.irregular(new int[] {11, 4}, pes)[1])}) {
                final int[] dims = a.dims();
                final int[] owned = new int[(int) GaTestSupport.volume(dims)];
                for (int r = 0; r < pes; r++) {
                    final int[][] b = a.distribution(r);
                    final int rank = r;
                    SectionOpsTest.forEach(b[0], b[1], s -> {
                        owned[(int) GaTestSupport.linear(dims, s)]++;
                        assertEquals(rank, a.locate(s), "locate " + Arrays.toString(s));
                    });
                }
                assertTrue(Arrays.stream(owned).allMatch(c -> c == 1), "every element owned once");
                final int[] lo = new int[dims.length];
                final int[] hi = dims.clone();
                for (int d = 0; d < dims.length; d++) {
                    lo[d] = dims[d] / 3;
                    hi[d] = dims[d] - 1;
                }
                final List<GlobalArray.Piece> pieces = a.locateRegion(lo, hi);
                int covered = 0;
                for (final GlobalArray.Piece p : pieces) {
                    covered += (int) GaTestSupport.volume(diff(p.lo(), p.hi()));
                    assertEquals(p.owner(), a.locate(p.lo()));
                    assertEquals(p.owner(), a.locate(p.hi()));
                }
                assertEquals(GaTestSupport.volume(diff(lo, hi)), covered, "pieces cover the region once");
                a.destroy();
            }
        });
    }

    static int[] diff(final int[] lo, final int[] hi) {
        final int[] e = new int[lo.length];
        for (int d = 0; d < lo.length; d++) {
            e[d] = hi[d] - lo[d] + 1;
        }
        return e;
    }

    @Test
    void shouldKeepBlocksAtLeastAsWideAsTheChunk() {
        final Distribution d = Distribution.regular(new int[] {10, 40}, new int[] {6, 15}, null, new int[2], 8);
        for (int dim = 0; dim < 2; dim++) {
            for (int b = 0; b + 2 < d.starts[dim].length; b++) {
                assertTrue(d.starts[dim][b + 1] - d.starts[dim][b] >= (dim == 0 ? 6 : 15), "dimension " + dim
                    + " block " + b + " of " + Arrays.toString(d.starts[dim]));
            }
        }
        assertArrayEquals(new int[] {1, 2}, d.grid);
    }

}
