package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The element-wise patch family, recip, stepMax, the diagonal family, row/column scaling, norms, median and
 * symmetrize, against sequential results on 1..16 PEs (every distribution of a 5 x 7 matrix GA picks).
 */
@Timeout(120)
class MatrixOpsTest {
    static final int[] PES = GaTestSupport.PES;
    private static final int R = 5;
    private static final int C = 7;

    /** a[i][j] = i * 10 + j - 20 (negative and positive), written by rank 0. */
    private static GlobalArray matrix(final GlobalArrays ga, final GaType t, final String name) {
        final GlobalArray a = ga.create(t, new int[] {R, C}, name);
        final Object buf = GaTestSupport.buffer(t, R * C);
        for (int i = 0; i < R; i++) {
            for (int j = 0; j < C; j++) {
                GaTestSupport.set(buf, i * C + j, i * 10 + j - 20);
            }
        }
        GaTestSupport.putWhole(a, buf);
        return a;
    }

    private static double m(final int i, final int j) {
        return i * 10 + j - 20;
    }

    private static GlobalArray vector(final GlobalArrays ga, final GaType t, final int n, final double base) {
        final GlobalArray v = ga.create(t, new int[] {n}, "v" + n);
        final Object buf = GaTestSupport.buffer(t, n);
        for (int i = 0; i < n; i++) {
            GaTestSupport.set(buf, i, base + i);
        }
        GaTestSupport.putWhole(v, buf);
        return v;
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldApplyTheElementwisePatchFamily(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = matrix(ga, GaType.DOUBLE, "a");
            final GlobalArray b = matrix(ga, GaType.DOUBLE, "b");
            final GlobalArray c = ga.create(GaType.DOUBLE, new int[] {R, C}, "c");
            final int[] lo = {1, 2};
            final int[] hi = {3, 5};
            a.absValuePatch(lo, hi);
            b.addConstantPatch(lo, hi, 0.5);
            c.elemMultiplyPatch(a, lo, hi, b, lo, hi, lo, hi);
            final double[] av = whole(a);
            final double[] bv = whole(b);
            final double[] cv = whole(c);
            for (int i = 0; i < R; i++) {
                for (int j = 0; j < C; j++) {
                    final boolean in = i >= 1 && i <= 3 && j >= 2 && j <= 5;
                    assertEquals(in ? Math.abs(m(i, j)) : m(i, j), av[i * C + j], 0.0);
                    assertEquals(in ? m(i, j) + 0.5 : m(i, j), bv[i * C + j], 0.0);
                    assertEquals(in ? Math.abs(m(i, j)) * (m(i, j) + 0.5) : 0, cv[i * C + j], 0.0);
                }
            }
            c.elemMaximumPatch(a, lo, hi, b, lo, hi, lo, hi);
            c.elemDividePatch(c, lo, hi, a, lo, hi, lo, hi); // max(|x|, x + .5) / |x|
            final double[] dv = whole(c);
            for (int i = 1; i <= 3; i++) {
                for (int j = 2; j <= 5; j++) {
                    final double x = m(i, j);
                    assertEquals(Math.max(Math.abs(x), x + 0.5) / Math.abs(x), dv[i * C + j], 1e-15);
                }
            }
            c.elemMinimumPatch(a, lo, hi, b, lo, hi, lo, hi);
            c.recipPatch(lo, hi);
            final double[] rv = whole(c);
            assertEquals(1.0 / Math.min(Math.abs(m(2, 3)), m(2, 3) + 0.5), rv[2 * C + 3], 1e-15);
            // Integer recip: 1 / x in Java's integer arithmetic; a zero anywhere refuses and writes nothing.
            final GlobalArray n = matrix(ga, GaType.LONG, "n");
            final double[] before = whole(n);
            assertThrows(ArithmeticException.class, n::recip, "m(2, 0) is 0");
            assertArrayEquals(before, whole(n), 0.0);
            n.recipPatch(new int[] {0, 0}, new int[] {0, 3});
            assertEquals(1 / -20L, (long) whole(n)[0]);
            assertEquals(0, (long) whole(n)[1], "1 / -19 is 0");
            ga.sync();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldWorkOnDiagonalsRowsAndColumns(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : new GaType[] {GaType.DOUBLE, GaType.INT}) {
                final GlobalArray a = matrix(ga, t, "a");
                final GlobalArray d = vector(ga, t, R, 0);
                a.getDiag(d);
                final double[] dv = whole(d);
                for (int i = 0; i < R; i++) {
                    assertEquals(m(i, i), dv[i], 0.0);
                }
                final GlobalArray v = vector(ga, t, R, 100);
                a.setDiagonal(v);
                a.addDiagonal(v);
                a.shiftDiagonal(3);
                double[] x = whole(a);
                for (int i = 0; i < R; i++) {
                    for (int j = 0; j < C; j++) {
                        assertEquals(i == j ? 2 * (100 + i) + 3 : m(i, j), x[i * C + j], 0.0, t + " " + i + "," + j);
                    }
                }
                a.zeroDiagonal();
                final GlobalArray rows = vector(ga, t, R, 1);
                final GlobalArray cols = vector(ga, t, C, -3);
                a.scaleRows(rows);
                a.scaleCols(cols);
                x = whole(a);
                for (int i = 0; i < R; i++) {
                    for (int j = 0; j < C; j++) {
                        assertEquals(i == j ? 0 : m(i, j) * (1 + i) * (j - 3), x[i * C + j], 0.0);
                    }
                }
                // Wrong lengths, types and shapes are refused before anything moves.
                assertThrows(IllegalArgumentException.class, () -> a.scaleRows(cols));
                assertThrows(IllegalArgumentException.class, () -> d.getDiag(d), "a vector has no diagonal");
                assertThrows(IllegalArgumentException.class,
                    () -> a.setDiagonal(vector(ga, t == GaType.INT ? GaType.DOUBLE : GaType.INT, R, 0)));
                assertArrayEquals(x, whole(a), 0.0);
                ga.sync();
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldComputeNormsMedianSymmetrizeAndStepMax(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = matrix(ga, GaType.DOUBLE, "a");
            // GA 5.9 computes both element-wise for a matrix too: every |a_ij| summed, and the largest |a_ij|
            // (the column-sum and row-sum operator norms differ from these for this matrix).
            double sum = 0;
            double max = 0;
            double col = 0;
            for (int i = 0; i < R; i++) {
                for (int j = 0; j < C; j++) {
                    sum += Math.abs(m(i, j));
                    max = Math.max(max, Math.abs(m(i, j)));
                }
            }
            for (int j = 0; j < C; j++) {
                double s = 0;
                for (int i = 0; i < R; i++) {
                    s += Math.abs(m(i, j));
                }
                col = Math.max(col, s);
            }
            assertNotEquals(col, sum, "the matrix tells the two norms apart");
            assertEquals(sum, a.norm1(), 1e-12 * sum);
            assertEquals(max, a.normInfinity(), 0.0);
            final GlobalArray v = vector(ga, GaType.LONG, 9, -4);
            assertEquals(4 + 3 + 2 + 1 + 0 + 1 + 2 + 3 + 4, v.norm1(), 0.0);
            assertEquals(4, v.normInfinity(), 0.0);
            // median(a, 2a, -a) = a where a >= 0, else... element-wise middle value
            final GlobalArray b = matrix(ga, GaType.DOUBLE, "b");
            b.scale(2);
            final GlobalArray c = matrix(ga, GaType.DOUBLE, "c");
            c.scale(-1);
            final GlobalArray med = ga.create(GaType.DOUBLE, new int[] {R, C}, "med");
            med.median(a, b, c);
            final double[] mv = whole(med);
            for (int i = 0; i < R; i++) {
                for (int j = 0; j < C; j++) {
                    final double[] three = {m(i, j), 2 * m(i, j), -m(i, j)};
                    java.util.Arrays.sort(three);
                    assertEquals(three[1], mv[i * C + j], 0.0);
                }
            }
            // symmetrize a square matrix
            final GlobalArray s = ga.create(GaType.DOUBLE, new int[] {C, C}, "s");
            if (ga.nodeid() == 0) {
                final double[] sq = new double[C * C];
                for (int k = 0; k < sq.length; k++) {
                    sq[k] = k;
                }
                ga.nbWait(s.nbPut(new int[] {0, 0}, new int[] {C - 1, C - 1}, sq, new int[] {C}));
            }
            ga.sync();
            s.symmetrize();
            final double[] sv = whole(s);
            for (int i = 0; i < C; i++) {
                for (int j = 0; j < C; j++) {
                    assertEquals(0.5 * ((i * C + j) + (j * C + i)), sv[i * C + j], 0.0);
                }
            }
            assertThrows(IllegalArgumentException.class, a::symmetrize, "not square");
            // stepMax: x = |a| >= 0, direction a: limited by the negative elements of a.
            final GlobalArray x = matrix(ga, GaType.DOUBLE, "x");
            x.abs();
            x.addConstant(1);
            double step = MatrixOps.STEP_INFINITY;
            for (int i = 0; i < R; i++) {
                for (int j = 0; j < C; j++) {
                    if (m(i, j) < 0) {
                        step = Math.min(step, -(Math.abs(m(i, j)) + 1) / m(i, j));
                    }
                }
            }
            assertEquals(step, x.stepMax(a), 0.0);
            assertEquals(MatrixOps.STEP_INFINITY, x.stepMax(x), 0.0, "no negative direction");
            assertThrows(IllegalArgumentException.class, () -> a.stepMax(x), "a negative element in this array");
            ga.sync();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldComputeStepBoundInfoAsTheSequentialLoop(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int n = 17;
            final double[] x = new double[n];
            final double[] v = new double[n];
            final double[] l = new double[n];
            final double[] u = new double[n];
            double min = MatrixOps.STEP_INFINITY;
            double wolfe = MatrixOps.STEP_INFINITY;
            double max = 0;
            for (int i = 0; i < n; i++) {
                x[i] = i % 4;
                v[i] = i % 3 - 1; // -1, 0, 1
                l[i] = i % 4 == 3 ? 4 : -2; // element 3 starts below its lower bound
                u[i] = 5;
                if (v[i] != 0) {
                    final double t = ((v[i] > 0 ? u[i] : l[i]) - x[i]) / v[i];
                    min = Math.min(min, t);
                    if (t > 0) {
                        wolfe = Math.min(wolfe, t);
                    }
                    max = Math.max(max, t);
                }
            }
            final GlobalArray[] g = new GlobalArray[4];
            final double[][] vals = {x, v, l, u};
            for (int k = 0; k < 4; k++) {
                g[k] = ga.create(GaType.DOUBLE, new int[] {n}, "s" + k);
                GaTestSupport.putWhole(g[k], vals[k]);
            }
            assertTrue(min < 0, "the model has an element outside its bounds");
            assertArrayEquals(new double[] {min, wolfe, max}, g[0].stepBoundInfo(g[1], g[2], g[3]), 0.0);
            final GlobalArray zero = ga.create(GaType.DOUBLE, new int[] {n}, "zero");
            assertArrayEquals(new double[] {MatrixOps.STEP_INFINITY, MatrixOps.STEP_INFINITY, 0},
                g[0].stepBoundInfo(zero, g[2], g[3]), 0.0, "no direction");
            assertThrows(IllegalArgumentException.class, () -> g[0].stepBoundInfo(
                ga.create(GaType.DOUBLE, new int[] {n + 1}, "long"), g[2], g[3]));
            ga.sync();
        });
    }
}
