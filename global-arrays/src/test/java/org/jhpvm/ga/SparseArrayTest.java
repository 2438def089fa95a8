package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Sparse arrays: elements added by PEs that do not own their rows, duplicates summed, a rectangular matrix times a
 * vector against a dense loop, the diagonal, the distributions, and the refusals.
 */
@Timeout(120)
class SparseArrayTest {
    static final int[] PES = GaTestSupport.PES;
    private static final int ROWS = 37;
    private static final int COLS = 23;

    /** The dense model: a few elements per row, one of them added in two halves by two PEs. */
    private static double element(final int i, final int j) {
        if (j == i % COLS) {
            return 2 + i;
        }
        if (j == (i * 7 + 3) % COLS) {
            return -1 - 0.5 * (i % 3);
        }
        return j == (i * 5 + 11) % COLS ? 0.25 * j : 0;
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldAssembleAndMultiplyAsTheDenseMatrix(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int me = ga.nodeid();
            final SparseArray s = ga.createSparse(GaType.DOUBLE, ROWS, COLS);
            // Element (i, j) is added by PE (i + j) % pes, the diagonal-ish one in two halves by two PEs.
            for (int i = 0; i < ROWS; i++) {
                for (int j = 0; j < COLS; j++) {
                    final double v = element(i, j);
                    if (v == 0) {
                        continue;
                    }
                    if (j == i % COLS) {
                        if (me == i % pes) {
                            s.addElement(i, j, v / 2);
                        }
                        if (me == (i + 1) % pes) {
                            s.addElement(i, j, v / 2);
                        }
                    } else if (me == (i + j) % pes) {
                        s.addElement(i, j, v);
                    }
                }
            }
            s.assemble();
            final double[] nnz = {s.localNonZeros()};
            ga.gop(nnz, GopOp.SUM);
            int expectNnz = 0;
            for (int i = 0; i < ROWS; i++) {
                for (int j = 0; j < COLS; j++) {
                    expectNnz += element(i, j) != 0 ? 1 : 0;
                }
            }
            assertEquals(expectNnz, nnz[0], 0.0, "duplicates summed into one element");
            final GlobalArray x = ga.create(GaType.DOUBLE, new int[] {COLS}, "x");
            final GlobalArray y = ga.create(GaType.DOUBLE, new int[] {ROWS}, "y");
            x.patchEnum(0, COLS - 1, 1, 0.5);
            s.matvec(x, y);
            final double[] yv = whole(y);
            for (int i = 0; i < ROWS; i++) {
                double sum = 0;
                for (int j = 0; j < COLS; j++) {
                    sum += element(i, j) * (1 + 0.5 * j);
                }
                assertEquals(sum, yv[i], 1e-12, "row " + i);
            }
            final GlobalArray d = ga.create(GaType.DOUBLE, new int[] {COLS}, "d");
            s.getDiag(d);
            final double[] dv = whole(d);
            for (int i = 0; i < COLS; i++) {
                assertEquals(element(i, i), dv[i], 0.0);
            }
            // Rows split as GA does: rank p holds the rows i with floor(i * nproc / rows) == p.
            int covered = 0;
            for (int r = 0; r < pes; r++) {
                final int[] lh = s.rowDistribution(r);
                for (int i = lh[0]; i <= lh[1]; i++) {
                    assertEquals(r, (int) ((long) i * pes / ROWS), "row " + i + " is rank " + r + "'s");
                }
                covered += lh[1] - lh[0] + 1;
            }
            assertEquals(ROWS, covered);
            final int[] c0 = s.columnDistribution(0);
            assertEquals(0, c0[0]);
            assertEquals((COLS + pes - 1) / pes - 1, c0[1]);
            // GA's own example: 67 rows on 2 ranks are 0..33 and 34..66 (not 0..32 and 33..66).
            if (pes == 2) {
                final SparseArray odd = ga.createSparse(GaType.DOUBLE, 67, 67);
                assertArrayEquals(new int[] {0, 33}, odd.rowDistribution(0));
                assertArrayEquals(new int[] {34, 66}, odd.rowDistribution(1));
                assertArrayEquals(new int[] {34, 66}, odd.columnDistribution(1));
                odd.destroy();
            }
            // Refusals before anything moves.
            assertThrows(IllegalStateException.class, () -> s.addElement(0, 0, 1), "after assembly");
            assertThrows(IllegalArgumentException.class, () -> s.matvec(y, x), "lengths swapped");
            assertThrows(IllegalArgumentException.class, () -> ga.createSparse(GaType.INT, 0, 2), "no rows");
            final GlobalArray xf = ga.create(GaType.FLOAT, new int[] {COLS}, "xf");
            assertThrows(IllegalArgumentException.class, () -> s.matvec(xf, y), "x of another type");
            xf.destroy();
            final SparseArray t = ga.createSparse(GaType.DOUBLE, 3, 3);
            assertThrows(IndexOutOfBoundsException.class, () -> t.addElement(3, 0, 1));
            assertThrows(IllegalStateException.class, () -> t.matvec(x, y), "before assembly");
            t.assemble();
            t.destroy();
            s.destroy();
            assertThrows(IllegalStateException.class, () -> s.matvec(x, y), "after destroy");
            ga.sync();
        });
    }

    /**
     * LONG, INT and FLOAT sparse arrays: integer sums in long arithmetic (values past the int range stay exact),
     * float results rounded once, and the values an integer array cannot hold refused with nothing added.
     */
    @ParameterizedTest
    @FieldSource("PES")
    void shouldMultiplyInEveryType(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int me = ga.nodeid();
            final long scale = 1L << 33;
            final SparseArray sl = ga.createSparse(GaType.LONG, ROWS, COLS);
            final SparseArray si = ga.createSparse(GaType.INT, ROWS, COLS);
            final SparseArray sf = ga.createSparse(GaType.FLOAT, ROWS, COLS);
            for (int i = 0; i < ROWS; i++) {
                for (int j = 0; j < COLS; j++) {
                    final long v = Math.round(4 * element(i, j));
                    if (v != 0 && me == (i * 3 + j) % pes) {
                        sl.addElement(i, j, v * scale);
                        si.addElement(i, j, v);
                        sf.addElement(i, j, element(i, j));
                    }
                }
            }
            assertThrows(IllegalArgumentException.class, () -> si.addElement(0, 0, 0.5), "not an integer");
            assertThrows(IllegalArgumentException.class, () -> si.addElement(0, 0, 1L << 40), "past int");
            assertThrows(IllegalArgumentException.class, () -> sl.addElement(0, 0, Double.NaN), "NaN");
            sl.assemble();
            si.assemble();
            sf.assemble();
            final GlobalArray xl = ga.create(GaType.LONG, new int[] {COLS}, "xl");
            final GlobalArray yl = ga.create(GaType.LONG, new int[] {ROWS}, "yl");
            final GlobalArray xi = ga.create(GaType.INT, new int[] {COLS}, "xi");
            final GlobalArray yi = ga.create(GaType.INT, new int[] {ROWS}, "yi");
            final GlobalArray xf = ga.create(GaType.FLOAT, new int[] {COLS}, "xf");
            final GlobalArray yf = ga.create(GaType.FLOAT, new int[] {ROWS}, "yf");
            xl.patchEnum(0, COLS - 1, 1, 2);
            xi.patchEnum(0, COLS - 1, 1, 2);
            xf.patchEnum(0, COLS - 1, 1, 0.5);
            sl.matvec(xl, yl);
            si.matvec(xi, yi);
            sf.matvec(xf, yf);
            final long[] yls = new long[ROWS];
            final int[] yis = new int[ROWS];
            final float[] yfs = new float[ROWS];
            yl.get(new int[] {0}, new int[] {ROWS - 1}, yls, null);
            yi.get(new int[] {0}, new int[] {ROWS - 1}, yis, null);
            yf.get(new int[] {0}, new int[] {ROWS - 1}, yfs, null);
            for (int i = 0; i < ROWS; i++) {
                long sum = 0;
                double dsum = 0;
                for (int j = 0; j < COLS; j++) {
                    sum += Math.round(4 * element(i, j)) * (1 + 2L * j);
                    dsum += element(i, j) * (1 + 0.5 * j);
                }
                assertEquals(sum * scale, yls[i], "long row " + i);
                assertEquals(sum, yis[i], "int row " + i);
                assertEquals((float) dsum, yfs[i], "float row " + i + ", rounded once");
            }
            final GlobalArray dl = ga.create(GaType.LONG, new int[] {COLS}, "dl");
            sl.getDiag(dl);
            final long[] dls = new long[COLS];
            dl.get(new int[] {0}, new int[] {COLS - 1}, dls, null);
            for (int i = 0; i < COLS; i++) {
                assertEquals(Math.round(4 * element(i, i)) * scale, dls[i], "diagonal " + i);
            }
            sl.destroy();
            si.destroy();
            sf.destroy();
            ga.sync();
        });
    }
}
