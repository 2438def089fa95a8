package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The solvers against residuals: LU, Cholesky, solve, SPD inversion, standard and generalized eigenproblems. */
@Timeout(120)
class SolversTest {
    private static final int N = 7;

    private static GlobalArray matrix(final GlobalArrays ga, final int rows, final int cols, final double[] v) {
        final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {rows, cols}, "m");
        GaTestSupport.putWhole(a, v);
        return a;
    }

    /** A general well-conditioned matrix, and an SPD one (M M^T + n I). */
    private static double[] general() {
        final double[] m = new double[N * N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                m[i * N + j] = ((i * 5 + j * 3) % 7) - 3 + (i == j ? 10 : 0);
            }
        }
        return m;
    }

    private static double[] spd() {
        final double[] g = general();
        final double[] s = new double[N * N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                double x = 0;
                for (int k = 0; k < N; k++) {
                    x += g[i * N + k] * g[j * N + k];
                }
                s[i * N + j] = x + (i == j ? N : 0);
            }
        }
        return s;
    }

    private static double[] mul(final double[] a, final boolean ta, final double[] x, final int cols) {
        final double[] r = new double[N * cols];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < cols; j++) {
                double s = 0;
                for (int k = 0; k < N; k++) {
                    s += (ta ? a[k * N + i] : a[i * N + k]) * x[k * cols + j];
                }
                r[i * cols + j] = s;
            }
        }
        return r;
    }

    private static double[] rhs() {
        final double[] b = new double[N * 3];
        for (int i = 0; i < b.length; i++) {
            b[i] = (i % 5) - 2.5;
        }
        return b;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldSolveLinearSystems(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final double[] g = general();
            final double[] s = spd();
            for (final char t : new char[] {'N', 'T'}) {
                final GlobalArray a = matrix(ga, N, N, g);
                final GlobalArray b = matrix(ga, N, 3, rhs());
                ga.luSolve(t, a, b);
                assertArrayEquals(rhs(), mul(g, t == 'T', whole(b), 3), 1e-10, "LU " + t);
                assertArrayEquals(g, whole(a), 0.0, "A unchanged");
            }
            final GlobalArray sa = matrix(ga, N, N, s);
            final GlobalArray b = matrix(ga, N, 3, rhs());
            assertEquals(0, ga.lltSolve(sa, b));
            assertArrayEquals(rhs(), mul(s, false, whole(b), 3), 1e-9, "Cholesky");
            final GlobalArray b2 = matrix(ga, N, 3, rhs());
            assertEquals(0, ga.solve(sa, b2), "SPD: Cholesky");
            final GlobalArray ga1 = matrix(ga, N, N, g);
            final GlobalArray b3 = matrix(ga, N, 3, rhs());
            final int minor = ga.solve(ga1, b3);
            assertTrue(minor > 0, "not symmetric: LU, reporting a minor");
            assertArrayEquals(rhs(), mul(g, false, whole(b3), 3), 1e-10);
            // A leading 3 x 3 minor that is not positive definite: Cholesky refuses with 3, B unchanged.
            final double[] bad = new double[N * N];
            for (int i = 0; i < N; i++) {
                bad[i * N + i] = i == 2 ? -1 : 2;
            }
            final GlobalArray ba = matrix(ga, N, N, bad);
            final GlobalArray b4 = matrix(ga, N, 3, rhs());
            assertEquals(3, ga.lltSolve(ba, b4));
            assertArrayEquals(rhs(), whole(b4), 0.0);
            assertEquals(3, ga.spdInvert(ba));
            assertArrayEquals(bad, whole(ba), 0.0);
            // Singular: two equal rows.
            final double[] sing = g.clone();
            System.arraycopy(sing, 0, sing, N, N);
            final GlobalArray sg = matrix(ga, N, N, sing);
            final GlobalArray b5 = matrix(ga, N, 3, rhs());
            assertThrows(ArithmeticException.class, () -> ga.luSolve('N', sg, b5));
            assertArrayEquals(rhs(), whole(b5), 0.0);
            assertThrows(IllegalArgumentException.class, () -> ga.luSolve('X', sg, b5));
            assertThrows(IllegalArgumentException.class, () -> ga.luSolve('N', b5, sg), "not square");
            // SPD inverse
            final GlobalArray inv = matrix(ga, N, N, s);
            assertEquals(0, ga.spdInvert(inv));
            final double[] prod = mul(s, false, whole(inv), N);
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    assertEquals(i == j ? 1 : 0, prod[i * N + j], 1e-10);
                }
            }
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldSolveEigenproblems(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final double[] s = spd();
            final double[] a = new double[N * N];
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    a[i * N + j] = 1.0 / (1 + i + j) + (i == j ? i : 0); // symmetric
                }
            }
            final GlobalArray ga1 = matrix(ga, N, N, a);
            final GlobalArray v = ga.create(GaType.DOUBLE, new int[] {N, N}, "v");
            final double[] lambda = ga.diagStd(ga1, v);
            final double[] vv = whole(v);
            for (int k = 0; k < N; k++) {
                if (k > 0) {
                    assertTrue(lambda[k] >= lambda[k - 1], "ascending");
                }
                for (int i = 0; i < N; i++) {
                    double av = 0;
                    for (int j = 0; j < N; j++) {
                        av += a[i * N + j] * vv[j * N + k];
                    }
                    assertEquals(lambda[k] * vv[i * N + k], av, 1e-10, "A v = lambda v");
                }
                double norm = 0;
                for (int i = 0; i < N; i++) {
                    norm += vv[i * N + k] * vv[i * N + k];
                }
                assertEquals(1, norm, 1e-10);
            }
            final GlobalArray sm = matrix(ga, N, N, s);
            final double[] mu = ga.diag(ga1, sm, v);
            final double[] w = whole(v);
            for (int k = 0; k < N; k++) {
                for (int i = 0; i < N; i++) {
                    double av = 0;
                    double sv = 0;
                    for (int j = 0; j < N; j++) {
                        av += a[i * N + j] * w[j * N + k];
                        sv += s[i * N + j] * w[j * N + k];
                    }
                    assertEquals(mu[k] * sv, av, 1e-9, "A v = mu S v");
                }
                double vsv = 0;
                for (int i = 0; i < N; i++) {
                    for (int j = 0; j < N; j++) {
                        vsv += w[i * N + k] * s[i * N + j] * w[j * N + k];
                    }
                }
                assertEquals(1, vsv, 1e-9, "v^T S v = 1");
            }
            final GlobalArray nonsym = matrix(ga, N, N, general());
            assertThrows(IllegalArgumentException.class, () -> ga.diagStd(nonsym, v));
            ga.sync();
        });
    }
}
