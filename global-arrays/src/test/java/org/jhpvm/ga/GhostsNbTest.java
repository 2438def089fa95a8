package org.jhpvm.ga;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Non-blocking ghost updates ({@code NGA_Update_ghosts_nb}, {@code NGA_NbGet_ghost_dir}) and the corner flag, on a
 * 2-D array with ghost widths 2 and 1, checked cell by cell against the periodic neighbours' values.
 */
@Timeout(120)
class GhostsNbTest {
    static final int[] PES = {1, 2, 3, 4, 8};
    private static final double SENTINEL = -77;
    private static final int R = 12;
    private static final int C = 9;

    private static double f(final int i, final int j) {
        return i * 100 + j + 0.5;
    }

    /** Interior from f, every ghost cell the sentinel. */
    private static void reset(final GlobalArray a) {
        final LocalBlock b = a.access();
        if (!b.isEmpty()) {
            final double[] x = b.doubles();
            for (int i = b.lo()[0] - 2; i <= b.hi()[0] + 2; i++) {
                for (int j = b.lo()[1] - 1; j <= b.hi()[1] + 1; j++) {
                    final boolean in = i >= b.lo()[0] && i <= b.hi()[0] && j >= b.lo()[1] && j <= b.hi()[1];
                    x[b.index(i, j)] = in ? f(i, j) : SENTINEL;
                }
            }
        }
        a.releaseUpdate();
        a.group().sync();
    }

    /** Checks each ghost cell: the neighbour's value where {@code filled} says so, else the sentinel. */
    private static void check(final GlobalArray a, final String what, final Filled filled) {
        final LocalBlock b = a.access();
        if (b.isEmpty()) {
            return;
        }
        final double[] x = b.doubles();
        for (int i = b.lo()[0] - 2; i <= b.hi()[0] + 2; i++) {
            for (int j = b.lo()[1] - 1; j <= b.hi()[1] + 1; j++) {
                final int di = i < b.lo()[0] ? -1 : i > b.hi()[0] ? 1 : 0;
                final int dj = j < b.lo()[1] ? -1 : j > b.hi()[1] ? 1 : 0;
                final double expect = di == 0 && dj == 0 || filled.at(di, dj)
                    ? f(Math.floorMod(i, R), Math.floorMod(j, C)) : SENTINEL;
                assertEquals(expect, x[b.index(i, j)], 0.0, what + " at " + i + "," + j);
            }
        }
    }

    private interface Filled {
        boolean at(int di, int dj);
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldFillGhostsWithNonBlockingGets(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.builder(GaType.DOUBLE, R, C).ghosts(2, 1).create();
            reset(a);
            ga.nbWait(a.updateGhostsNb());
            ga.sync();
            check(a, "updateGhostsNb", (di, dj) -> true);
            // Without corners: faces only, by the push and by the gets alike.
            a.setGhostCornerFlag(false);
            reset(a);
            a.updateGhosts();
            check(a, "updateGhosts without corners", (di, dj) -> di == 0 || dj == 0);
            reset(a);
            ga.nbWait(a.updateGhostsNb());
            ga.sync();
            check(a, "updateGhostsNb without corners", (di, dj) -> di == 0 || dj == 0);
            a.setGhostCornerFlag(true);
            // One direction: the upper face of dimension 0, then the lower-left corner.
            reset(a);
            ga.nbWait(a.nbGetGhostDir(new int[] {1, 0}));
            ga.nbWait(a.nbGetGhostDir(new int[] {-1, -1}));
            ga.sync();
            check(a, "nbGetGhostDir", (di, dj) -> di == 1 && dj == 0 || di == -1 && dj == -1);
            assertThrows(IllegalArgumentException.class, () -> a.nbGetGhostDir(new int[] {0, 0}));
            assertThrows(IllegalArgumentException.class, () -> a.nbGetGhostDir(new int[] {2, 0}));
            assertThrows(IllegalArgumentException.class, () -> a.nbGetGhostDir(new int[] {1}));
            ga.sync();
        });
    }
}
