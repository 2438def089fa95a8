package org.jhpvm.ga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Complex arrays (SCPL, DCPL): sections, accumulates with real and complex alpha, scatter/gather, ghosts, local
 * access and printing move (re, im) pairs; the algebra with complex scalars and zdot/cdot against a sequential model;
 * the routines not provided for complex elements are refused with memory unchanged.
 */
@Timeout(120)
class ComplexArraysTest {
    static final int[] PES = GaTestSupport.PES;
    private static final int ROWS = 7;
    private static final int COLS = 5;
    private static final int N = ROWS * COLS;

    /** Element k's value: exact in float. */
    private static double re(final int k) {
        return 0.5 * k - 3;
    }

    private static double im(final int k) {
        return 0.25 * (k % 9) + 1;
    }

    private static double[] model() {
        final double[] m = new double[2 * N];
        for (int k = 0; k < N; k++) {
            m[2 * k] = re(k);
            m[2 * k + 1] = im(k);
        }
        return m;
    }

    private static double[] wholeOf(final GlobalArray a) {
        final double[] out = new double[2 * N];
        if (a.type() == GaType.DCPL) {
            a.get(new int[] {0, 0}, new int[] {ROWS - 1, COLS - 1}, out, new int[] {COLS});
        } else {
            final float[] f = new float[2 * N];
            a.get(new int[] {0, 0}, new int[] {ROWS - 1, COLS - 1}, f, new int[] {COLS});
            for (int i = 0; i < f.length; i++) {
                out[i] = f[i];
            }
        }
        return out;
    }

    private static void putWhole(final GlobalArray a, final double[] v) {
        if (a.type() == GaType.DCPL) {
            a.put(new int[] {0, 0}, new int[] {ROWS - 1, COLS - 1}, v, new int[] {COLS});
        } else {
            final float[] f = new float[v.length];
            for (int i = 0; i < f.length; i++) {
                f[i] = (float) v[i];
            }
            a.put(new int[] {0, 0}, new int[] {ROWS - 1, COLS - 1}, f, new int[] {COLS});
        }
    }

    private static double tolerance(final GaType t) {
        return t == GaType.DCPL ? 1e-12 : 1e-4;
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMoveComplexElementsAsPairs(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : new GaType[] {GaType.DCPL, GaType.SCPL}) {
                final GlobalArray a = ga.builder(t, ROWS, COLS).name("z").ghosts(1, 1).create();
                assertEquals(2, t.width());
                a.zero();
                if (ga.nodeid() == 0) {
                    putWhole(a, model());
                }
                ga.sync();
                assertArrayEquals(model(), wholeOf(a), 0.0, t + ": whole array back");
                // A 2 x 3 patch into a buffer with a leading dimension of 4 elements (8 slots).
                final double[] patch = new double[2 * 4 * 2];
                if (t == GaType.DCPL) {
                    a.get(new int[] {2, 1}, new int[] {3, 3}, patch, new int[] {4});
                    for (int r = 0; r < 2; r++) {
                        for (int c = 0; c < 3; c++) {
                            final int k = (2 + r) * COLS + 1 + c;
                            assertEquals(re(k), patch[2 * (4 * r + c)]);
                            assertEquals(im(k), patch[2 * (4 * r + c) + 1]);
                        }
                    }
                    // Strided: every other column of row 4.
                    final double[] strided = new double[6];
                    a.stridedGet(new int[] {4, 0}, new int[] {4, 4}, new int[] {1, 2}, strided, new int[] {3});
                    for (int c = 0; c < 3; c++) {
                        assertEquals(re(4 * COLS + 2 * c), strided[2 * c]);
                        assertEquals(im(4 * COLS + 2 * c), strided[2 * c + 1]);
                    }
                }
                // Gather two elements, scatter one.
                final int[][] subs = {{6, 4}, {0, 1}};
                final Object vals = t.newArray(2);
                a.gather(vals, subs, 2);
                assertEquals(re(34), GaTestSupport.at(vals, 0));
                assertEquals(im(34), GaTestSupport.at(vals, 1));
                assertEquals(re(1), GaTestSupport.at(vals, 2));
                assertEquals(im(1), GaTestSupport.at(vals, 3));
                ga.sync();
                // Accumulate: every PE adds alpha * (1 + 2i) at (3, 2); alpha real (2) then complex (i).
                final Object one = t.newArray(1);
                GaTestSupport.set(one, 0, 1);
                GaTestSupport.set(one, 1, 2);
                if (t == GaType.DCPL) {
                    a.acc(new int[] {3, 2}, new int[] {3, 2}, (double[]) one, new int[] {1}, 2.0);
                    a.acc(new int[] {3, 2}, new int[] {3, 2}, (double[]) one, new int[] {1}, 0.0, 1.0);
                } else {
                    a.acc(new int[] {3, 2}, new int[] {3, 2}, (float[]) one, new int[] {1}, 2f);
                    a.acc(new int[] {3, 2}, new int[] {3, 2}, (float[]) one, new int[] {1}, 0.0, 1.0);
                }
                ga.sync();
                final double[] expect = model();
                final int k = 3 * COLS + 2;
                // 2*(1+2i) + i*(1+2i) = (2 + 4i) + (i - 2) = 0 + 5i per PE.
                expect[2 * k + 1] += 5.0 * pes;
                assertArrayEquals(expect, wholeOf(a), tolerance(t), t + ": accumulates");
                // Ghosts hold the neighbours' pairs; the local block is the interleaved array.
                a.updateGhosts();
                final LocalBlock b = a.access();
                if (!b.isEmpty()) {
                    final Object arr = t == GaType.DCPL ? b.doubles() : b.floats();
                    final int[] lo = b.lo();
                    final int[] hi = b.hi();
                    for (int r = Math.max(0, lo[0] - 1); r <= Math.min(ROWS - 1, hi[0] + 1); r++) {
                        for (int c = Math.max(0, lo[1] - 1); c <= Math.min(COLS - 1, hi[1] + 1); c++) {
                            final boolean corner = (r < lo[0] || r > hi[0]) && (c < lo[1] || c > hi[1]);
                            if (corner) {
                                continue;
                            }
                            final int at = b.index(r, c);
                            assertEquals(expect[2 * (r * COLS + c)], GaTestSupport.at(arr, 2 * at), tolerance(t));
                            assertEquals(expect[2 * (r * COLS + c) + 1], GaTestSupport.at(arr, 2 * at + 1),
                                tolerance(t), "(" + r + ", " + c + ")");
                        }
                    }
                }
                a.release();
                // Printing shows pairs.
                final ByteArrayOutputStream out = new ByteArrayOutputStream();
                final String text = a.format(new int[] {0, 0}, new int[] {0, 1});
                assertTrue(text.contains("(" + fmt(t, re(0)) + "," + fmt(t, im(0)) + ")"), text);
                a.print(new PrintStream(out, true, StandardCharsets.UTF_8));
                a.destroy();
            }
        });
    }

    private static String fmt(final GaType t, final double v) {
        return t == GaType.DCPL ? Double.toString(v) : Float.toString((float) v);
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldComputeWithComplexScalarsAsTheModel(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : new GaType[] {GaType.DCPL, GaType.SCPL}) {
                final GlobalArray a = ga.builder(t, ROWS, COLS).name("a").create();
                final GlobalArray b = ga.builder(t, ROWS, COLS).name("b").create();
                final GlobalArray c = ga.builder(t, ROWS, COLS).name("c").create();
                if (ga.nodeid() == 0) {
                    putWhole(a, model());
                    final double[] mb = new double[2 * N];
                    for (int k = 0; k < N; k++) {
                        mb[2 * k] = 1 + k % 4;
                        mb[2 * k + 1] = -0.5 * (k % 3);
                    }
                    putWhole(b, mb);
                }
                ga.sync();
                final double[] ma = wholeOf(a);
                final double[] mb = wholeOf(b);
                final double tol = tolerance(t);
                // c = (1 + i) a + (2 - i) b
                c.add(1, 1, a, 2, -1, b);
                final double[] mc = wholeOf(c);
                for (int k = 0; k < N; k++) {
                    final double[] e = plus(times(1, 1, ma[2 * k], ma[2 * k + 1]), times(2, -1, mb[2 * k],
                        mb[2 * k + 1]));
                    assertEquals(e[0], mc[2 * k], tol);
                    assertEquals(e[1], mc[2 * k + 1], tol);
                }
                // c = a * b, then c = c / b gives a back; elemMaximum picks the larger modulus.
                c.elemMultiply(a, b);
                final double[] prod = wholeOf(c);
                for (int k = 0; k < N; k++) {
                    final double[] e = times(ma[2 * k], ma[2 * k + 1], mb[2 * k], mb[2 * k + 1]);
                    assertEquals(e[0], prod[2 * k], tol);
                    assertEquals(e[1], prod[2 * k + 1], tol);
                }
                c.elemDivide(c, b);
                assertArrayEquals(ma, wholeOf(c), tol * 10, "(a * b) / b == a");
                c.elemMaximum(a, b);
                final double[] mx = wholeOf(c);
                for (int k = 0; k < N; k++) {
                    final boolean first = Math.hypot(ma[2 * k], ma[2 * k + 1]) > Math.hypot(mb[2 * k], mb[2 * k + 1]);
                    assertEquals(first ? ma[2 * k] : mb[2 * k], mx[2 * k], 0.0);
                    assertEquals(first ? ma[2 * k + 1] : mb[2 * k + 1], mx[2 * k + 1], 0.0);
                }
                // fill, scale, add-constant with complex values; abs gives the modulus; recip the inverse.
                c.fill(2, -3);
                c.scale(0, 1);
                c.addConstant(1, 1);
                final double[] f = wholeOf(c);
                for (int k = 0; k < N; k++) {
                    assertEquals(4, f[2 * k], tol, "i (2 - 3i) + (1 + i) = 4 + 3i");
                    assertEquals(3, f[2 * k + 1], tol);
                }
                c.abs();
                assertEquals(5, wholeOf(c)[0], tol);
                assertEquals(0, wholeOf(c)[1], 0.0);
                b.copy(c);
                c.recip();
                final double[] rc = wholeOf(c);
                for (int k = 0; k < N; k++) {
                    final double[] e = times(rc[2 * k], rc[2 * k + 1], mb[2 * k], mb[2 * k + 1]);
                    assertEquals(1, e[0], tol * 10);
                    assertEquals(0, e[1], tol * 10);
                }
                // zdot / cdot: sum a*b, not conjugated.
                double sr = 0;
                double si = 0;
                for (int k = 0; k < N; k++) {
                    final double[] e = times(ma[2 * k], ma[2 * k + 1], mb[2 * k], mb[2 * k + 1]);
                    sr += e[0];
                    si += e[1];
                }
                final double[] dot = t == GaType.DCPL ? a.zdot(b) : a.cdot(b);
                assertEquals(sr, dot[0], tol * N);
                assertEquals(si, dot[1], tol * N);
                // A transposed patch: a[0..1][0..2] against b[0..2][0..1] transposed.
                double pr = 0;
                double pi = 0;
                for (int r = 0; r < 2; r++) {
                    for (int q = 0; q < 3; q++) {
                        final int ka = r * COLS + q;
                        final int kb = q * COLS + r;
                        final double[] e = times(ma[2 * ka], ma[2 * ka + 1], mb[2 * kb], mb[2 * kb + 1]);
                        pr += e[0];
                        pi += e[1];
                    }
                }
                final double[] pd = t == GaType.DCPL
                    ? a.zdotPatch('N', new int[] {0, 0}, new int[] {1, 2}, b, 'T', new int[] {0, 0}, new int[] {2, 1})
                    : a.cdotPatch('N', new int[] {0, 0}, new int[] {1, 2}, b, 'T', new int[] {0, 0}, new int[] {2, 1});
                assertEquals(pr, pd[0], tol * 10);
                assertEquals(pi, pd[1], tol * 10);
                // The norms take moduli: the largest column sum (1-norm) and row sum (infinity norm) of |a|.
                double norm1 = 0;
                double normInf = 0;
                for (int k = 0; k < ROWS * COLS; k++) {
                    final double modulus = Math.hypot(ma[2 * k], ma[2 * k + 1]);
                    norm1 += modulus;
                    normInf = Math.max(normInf, modulus);
                }
                assertEquals(norm1, a.norm1(), tol * N);
                assertEquals(normInf, a.normInfinity(), tol * N);
                // A transposed copy moves pairs.
                final GlobalArray tr = ga.builder(t, COLS, ROWS).name("t").create();
                a.transpose(tr);
                final Object row = t.newArray(ROWS);
                if (t == GaType.DCPL) {
                    tr.get(new int[] {1, 0}, new int[] {1, ROWS - 1}, (double[]) row, new int[] {ROWS});
                } else {
                    tr.get(new int[] {1, 0}, new int[] {1, ROWS - 1}, (float[]) row, new int[] {ROWS});
                }
                for (int r = 0; r < ROWS; r++) {
                    assertEquals(ma[2 * (r * COLS + 1)], GaTestSupport.at(row, 2 * r), 0.0);
                    assertEquals(ma[2 * (r * COLS + 1) + 1], GaTestSupport.at(row, 2 * r + 1), 0.0);
                }
                tr.destroy();
                a.destroy();
                b.destroy();
                c.destroy();
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldRefuseWhatIsNotProvidedForComplexAndChangeNothing(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray z = ga.builder(GaType.DCPL, ROWS, COLS).name("z").create();
            final GlobalArray d = ga.builder(GaType.DOUBLE, ROWS, COLS).name("d").create();
            z.fill(1, 2);
            d.fill(3);
            assertThrows(IllegalArgumentException.class, () -> z.dot(z), "dot: use zdot");
            assertThrows(IllegalArgumentException.class, () -> z.cdot(z), "cdot of DCPL");
            assertThrows(IllegalArgumentException.class, () -> d.zdot(d), "zdot of real arrays");
            assertThrows(IllegalArgumentException.class, () -> z.ldot(z));
            assertThrows(IllegalArgumentException.class, () -> z.selectElem("max"));
            assertThrows(IllegalArgumentException.class, z::symmetrize);
            assertThrows(IllegalArgumentException.class, () -> z.median(z, z, z));
            assertThrows(IllegalArgumentException.class, () -> z.readInc(new int[] {0, 0}, 1));
            assertThrows(IllegalArgumentException.class, () -> d.fill(1, 1), "a complex value for a real array");
            assertThrows(IllegalArgumentException.class, () -> d.acc(new int[] {0, 0}, new int[] {0, 0},
                new double[2], null, 0.0, 1.0), "complex alpha on a real array");
            assertThrows(IllegalArgumentException.class, () -> z.copy(d), "type mismatch");
            // A buffer of N slots holds N/2 complex elements: too small for N elements.
            assertThrows(IllegalArgumentException.class, () -> z.put(new int[] {0, 0},
                new int[] {ROWS - 1, COLS - 1}, new double[N], new int[] {COLS}));
            assertThrows(IllegalArgumentException.class, () -> z.put(new int[] {0, 0}, new int[] {0, 0},
                new float[2], null), "float[] for DCPL");
            ga.sync();
            final double[] all = wholeOf(z);
            for (int k = 0; k < N; k++) {
                assertEquals(1, all[2 * k]);
                assertEquals(2, all[2 * k + 1]);
            }
            final double[] dv = GaTestSupport.whole(d);
            for (final double v : dv) {
                assertEquals(3, v);
            }
            z.destroy();
            d.destroy();
        });
    }

    static double[] times(final double ar, final double ai, final double br, final double bi) {
        return new double[] {ar * br - ai * bi, ar * bi + ai * br};
    }

    static double[] plus(final double[] x, final double[] y) {
        return new double[] {x[0] + y[0], x[1] + y[1]};
    }
}
