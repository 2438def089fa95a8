package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The LU solvers refuse a matrix only when it is singular as GA means it (an exactly zero pivot, LAPACK's
 * {@code dgetrf} info > 0), and solve ordinary ill-conditioned and badly scaled systems to a backward-stable residual:
 * {@code ||b - A x|| <= c n eps ||A|| ||x||}. Before, a pivot-product "quality" below 1e-14 refused Hilbert matrices,
 * {@code diag(1, 1e-8, 1e-8)} and random 100 x 100 matrices of condition 1e4 as singular.
 */
@Timeout(120)
class SolverConditioningTest {
    private static final double EPS = Math.ulp(1.0);

    private static GlobalArray matrix(final GlobalArrays ga, final int rows, final int cols, final double[] v) {
        final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {rows, cols}, "m");
        GaTestSupport.putWhole(a, v);
        return a;
    }

    static double[] hilbert(final int n) {
        final double[] h = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                h[i * n + j] = 1.0 / (i + j + 1);
            }
        }
        return h;
    }

    /** A random n x n matrix with rows scaled from 1 down to {@code 1 / condition} (condition about that much). */
    static double[] scaledRandom(final int n, final double condition, final long seed) {
        final Random rnd = new Random(seed);
        final double[] m = new double[n * n];
        for (int i = 0; i < n; i++) {
            final double scale = Math.pow(condition, -(double) i / Math.max(1, n - 1));
            for (int j = 0; j < n; j++) {
                m[i * n + j] = (rnd.nextDouble() * 2 - 1 + (i == j ? 2 : 0)) * scale;
            }
        }
        return m;
    }

    /** {@code ||b - A x||_inf / (||A||_inf ||x||_inf n eps)}, column by column, the largest. */
    static double scaledResidual(final double[] a, final int n, final double[] x, final double[] b, final int cols) {
        double normA = 0;
        for (int i = 0; i < n; i++) {
            double row = 0;
            for (int k = 0; k < n; k++) {
                row += Math.abs(a[i * n + k]);
            }
            normA = Math.max(normA, row);
        }
        double worst = 0;
        for (int j = 0; j < cols; j++) {
            double r = 0;
            double nx = 0;
            for (int i = 0; i < n; i++) {
                double s = b[i * cols + j];
                for (int k = 0; k < n; k++) {
                    s -= a[i * n + k] * x[k * cols + j];
                }
                r = Math.max(r, Math.abs(s));
                nx = Math.max(nx, Math.abs(x[i * cols + j]));
            }
            worst = Math.max(worst, r / (normA * nx * n * EPS));
        }
        return worst;
    }

    private static double[] ones(final int n, final int cols) {
        final double[] b = new double[n * cols];
        for (int i = 0; i < b.length; i++) {
            b[i] = 1 + i % 3;
        }
        return b;
    }

    private static void assertSolvedByLu(final GlobalArrays ga, final double[] a, final int n, final String what) {
        final GlobalArray ma = matrix(ga, n, n, a);
        final GlobalArray mb = matrix(ga, n, 2, ones(n, 2));
        ga.luSolve('N', ma, mb);
        final double residual = scaledResidual(a, n, whole(mb), ones(n, 2), 2);
        assertTrue(residual < 16, what + ": scaled residual " + residual);
        ma.destroy();
        mb.destroy();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldSolveIllConditionedAndBadlyScaledSystems(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final int n : new int[] {6, 8, 10, 12}) {
                assertSolvedByLu(ga, hilbert(n), n, "Hilbert " + n); // condition 1e7 .. 1e16
            }
            assertSolvedByLu(ga, scaledRandom(100, 1e4, 7), 100, "random 100 x 100, condition 1e4");
            assertSolvedByLu(ga, scaledRandom(60, 1e12, 8), 60, "random 60 x 60, condition 1e12");
            // diag(1, 1e-8, 1e-8): exact, and solve() (not SPD for the negative entry: LU) gives the same.
            final double[] d = {1, 0, 0, 0, 1e-8, 0, 0, 0, -1e-8};
            final GlobalArray a = matrix(ga, 3, 3, d);
            final GlobalArray b = matrix(ga, 3, 1, new double[] {2, 3e-8, 5e-8});
            ga.luSolve('N', a, b);
            assertArrayEquals(new double[] {2, 3, -5}, whole(b), 1e-12);
            final GlobalArray b2 = matrix(ga, 3, 1, new double[] {2, 3e-8, 5e-8});
            assertEquals(3, ga.solve(a, b2), "not positive definite from the order-3 minor: LU, reporting 3");
            assertArrayEquals(new double[] {2, 3, -5}, whole(b2), 1e-12);
            // A tiny but non-zero pivot is not singular either: diag(1, 1e-300).
            final GlobalArray tiny = matrix(ga, 2, 2, new double[] {1, 0, 0, 1e-300});
            final GlobalArray b3 = matrix(ga, 2, 1, new double[] {1, 1e-300});
            ga.luSolve('N', tiny, b3);
            assertArrayEquals(new double[] {1, 1}, whole(b3), 1e-12);
            // An exactly zero pivot is singular: refused on every PE, B unchanged.
            final GlobalArray zero = matrix(ga, 3, 3, new double[] {1, 2, 3, 2, 4, 6, 0, 0, 1});
            final GlobalArray b4 = matrix(ga, 3, 1, new double[] {1, 2, 3});
            assertThrows(ArithmeticException.class, () -> ga.luSolve('N', zero, b4));
            assertArrayEquals(new double[] {1, 2, 3}, whole(b4), 0.0);
            ga.sync();
        });
    }
}
