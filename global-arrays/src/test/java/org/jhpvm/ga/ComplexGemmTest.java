package org.jhpvm.ga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * {@code GA_Zgemm}, {@code GA_Cgemm} and complex {@code matmulPatch} against a sequential complex product, for every
 * pair of 'N', 'T' and 'C' (conjugate transpose), with complex alpha and beta, k spanning several panels.
 */
@Timeout(120)
class ComplexGemmTest {
    static final int[] PES = {1, 2, 3, 4};
    private static final int M = 9;
    private static final int N = 7;
    private static final int K = Gemm.KB + 5;

    /** A deterministic complex matrix of rows x cols, interleaved, exact in float. */
    private static double[] matrix(final int rows, final int cols, final int seed) {
        final double[] x = new double[2 * rows * cols];
        for (int i = 0; i < rows * cols; i++) {
            x[2 * i] = ((i * 7 + seed) % 11) * 0.25 - 1;
            x[2 * i + 1] = ((i * 5 + 3 * seed) % 9) * 0.125 - 0.5;
        }
        return x;
    }

    /** op(X)(r, q) of the rows x cols matrix x: the element and, for 'C', its conjugate. */
    private static double[] op(final double[] x, final int cols, final char t, final int r, final int q) {
        final int at = t == 'N' ? r * cols + q : q * cols + r;
        return new double[] {x[2 * at], t == 'C' ? -x[2 * at + 1] : x[2 * at + 1]};
    }

    private static GlobalArray create(final GlobalArrays ga, final GaType t, final int rows, final int cols,
        final double[] v, final String name) {
        final GlobalArray g = ga.builder(t, rows, cols).name(name).create();
        if (ga.nodeid() == 0) {
            if (t == GaType.DCPL) {
                g.put(new int[] {0, 0}, new int[] {rows - 1, cols - 1}, v, new int[] {cols});
            } else {
                final float[] f = new float[v.length];
                for (int i = 0; i < f.length; i++) {
                    f[i] = (float) v[i];
                }
                g.put(new int[] {0, 0}, new int[] {rows - 1, cols - 1}, f, new int[] {cols});
            }
        }
        return g;
    }

    private static double[] read(final GlobalArray g, final int rows, final int cols) {
        final double[] out = new double[2 * rows * cols];
        if (g.type() == GaType.DCPL) {
            g.get(new int[] {0, 0}, new int[] {rows - 1, cols - 1}, out, new int[] {cols});
        } else {
            final float[] f = new float[out.length];
            g.get(new int[] {0, 0}, new int[] {rows - 1, cols - 1}, f, new int[] {cols});
            for (int i = 0; i < f.length; i++) {
                out[i] = f[i];
            }
        }
        return out;
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMultiplyAsTheSequentialComplexProduct(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : new GaType[] {GaType.DCPL, GaType.SCPL}) {
                final double tol = t == GaType.DCPL ? 1e-10 : 2e-3;
                for (final char ta : new char[] {'N', 'T', 'C'}) {
                    for (final char tb : new char[] {'N', 'T', 'C'}) {
                        final int ar = ta == 'N' ? M : K;
                        final int ac = ta == 'N' ? K : M;
                        final int br = tb == 'N' ? K : N;
                        final int bc = tb == 'N' ? N : K;
                        final double[] av = matrix(ar, ac, 1);
                        final double[] bv = matrix(br, bc, 2);
                        final double[] cv = matrix(M, N, 3);
                        final GlobalArray a = create(ga, t, ar, ac, av, "a");
                        final GlobalArray b = create(ga, t, br, bc, bv, "b");
                        final GlobalArray c = create(ga, t, M, N, cv, "c");
                        ga.sync();
                        // C = (0.5 - i) op(A) op(B) + (2 + 0.5i) C
                        if (t == GaType.DCPL) {
                            ga.zgemm(ta, tb, M, N, K, 0.5, -1, a, b, 2, 0.5, c);
                        } else {
                            ga.cgemm(ta, tb, M, N, K, 0.5, -1, a, b, 2, 0.5, c);
                        }
                        final double[] got = read(c, M, N);
                        for (int i = 0; i < M; i++) {
                            for (int j = 0; j < N; j++) {
                                double sr = 0;
                                double si = 0;
                                for (int q = 0; q < K; q++) {
                                    final double[] x = op(av, ac, ta, i, q);
                                    final double[] y = op(bv, bc, tb, q, j);
                                    sr += x[0] * y[0] - x[1] * y[1];
                                    si += x[0] * y[1] + x[1] * y[0];
                                }
                                final int e = 2 * (i * N + j);
                                final double er = 0.5 * sr + si + 2 * cv[e] - 0.5 * cv[e + 1];
                                final double ei = 0.5 * si - sr + 2 * cv[e + 1] + 0.5 * cv[e];
                                assertEquals(er, got[e], tol, t + " " + ta + tb + " (" + i + ", " + j + ") re");
                                assertEquals(ei, got[e + 1], tol, t + " " + ta + tb + " (" + i + ", " + j + ") im");
                            }
                        }
                        a.destroy();
                        b.destroy();
                        c.destroy();
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMultiplyComplexPatchesAndRefuseWhatDoesNotFit(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final double[] av = matrix(6, 6, 4);
            final GlobalArray a = create(ga, GaType.DCPL, 6, 6, av, "a");
            final GlobalArray c = ga.builder(GaType.DCPL, 4, 4).name("c").create();
            c.zero();
            ga.sync();
            // c[1..2][1..3] = i * (the 2 x 3 patch a[0..1][2..4] times the 3 x 3 patch a[3..5][0..2]).
            ga.matmulPatch('N', 'N', 0, 1, 0, 0, a, new int[] {0, 2}, new int[] {1, 4}, a, new int[] {3, 0},
                new int[] {5, 2}, c, new int[] {1, 1}, new int[] {2, 3});
            final double[] got = read(c, 4, 4);
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    double sr = 0;
                    double si = 0;
                    if (i >= 1 && i <= 2 && j >= 1) {
                        for (int q = 0; q < 3; q++) {
                            final int x = (i - 1) * 6 + 2 + q;
                            final int y = (3 + q) * 6 + (j - 1);
                            sr += av[2 * x] * av[2 * y] - av[2 * x + 1] * av[2 * y + 1];
                            si += av[2 * x] * av[2 * y + 1] + av[2 * x + 1] * av[2 * y];
                        }
                    }
                    // times i: (sr + i si) i = -si + i sr
                    assertEquals(-si, got[2 * (i * 4 + j)], 1e-12, "(" + i + ", " + j + ")");
                    assertEquals(sr, got[2 * (i * 4 + j) + 1], 1e-12);
                }
            }
            final GlobalArray d = ga.builder(GaType.DOUBLE, 4, 4).name("d").create();
            final GlobalArray s = ga.builder(GaType.SCPL, 4, 4).name("s").create();
            assertThrows(IllegalArgumentException.class, () -> ga.zgemm('N', 'N', 4, 4, 4, 1, 0, d, d, 0, 0, c),
                "zgemm of double arrays");
            assertThrows(IllegalArgumentException.class, () -> ga.zgemm('N', 'N', 4, 4, 4, 1, 0, s, s, 0, 0, c),
                "mixed SCPL and DCPL");
            assertThrows(IllegalArgumentException.class, () -> ga.dgemm('C', 'N', 4, 4, 4, 1, d, d, 0, d),
                "'C' on real arrays");
            assertThrows(IllegalArgumentException.class, () -> ga.matmulPatch('N', 'N', 1, 1, 0, 0, d,
                new int[] {0, 0}, new int[] {1, 1}, d, new int[] {0, 0}, new int[] {1, 1}, d, new int[] {2, 2},
                new int[] {3, 3}), "a complex alpha on real arrays");
            assertThrows(IllegalArgumentException.class, () -> ga.zgemm('X', 'N', 4, 4, 4, 1, 0, c, c, 0, 0, c));
            ga.sync();
            assertArrayEquals(got, read(c, 4, 4), 0.0, "c unchanged by the refusals");
            a.destroy();
            c.destroy();
            d.destroy();
            s.destroy();
        });
    }
}
