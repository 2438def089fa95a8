package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.f;
import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Whole-array and patch operations, selectElem, transpose and dgemm against plain loops, on 1..16 PEs. */
@Timeout(240)
class AlgebraTest {
    static final int[] PES = GaTestSupport.PES;
    static final int R = 9;
    static final int C = 14;

    static void fillWithF(final GlobalArray a) {
        final int[] dims = a.dims();
        if (a.group().nodeid() == 0) {
            final double[] buf = new double[R * C];
            for (int i = 0; i < buf.length; i++) {
                buf[i] = f(GaType.DOUBLE, i);
            }
            a.put(new int[] {0, 0}, new int[] {dims[0] - 1, dims[1] - 1}, buf, new int[] {dims[1]});
        }
        a.group().sync();
    }

    static double[] expect(final java.util.function.IntToDoubleFunction g) {
        final double[] e = new double[R * C];
        for (int i = 0; i < e.length; i++) {
            e[i] = g.applyAsDouble(i);
        }
        return e;
    }

    static double fv(final int i) {
        return f(GaType.DOUBLE, i);
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldComputeWholeArrayOperationsAcrossDistributions(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {R, C}, "A");
            final int[][] im = SectionOpsTest.irregular(new int[] {R, C}, pes);
            final GlobalArray b = ga.createIrregular(GaType.DOUBLE, new int[] {R, C}, "B", im[0], im[1]);
            final GlobalArray c = ga.builder(GaType.DOUBLE, R, C).ghosts(1, 2).procGrid(1, Math.min(pes, 7))
                .name("C").create();
            fillWithF(a);
            a.copy(b);
            assertArrayEquals(expect(AlgebraTest::fv), whole(b), 0.0, "copy");
            c.add(2, a, -3, b);
            assertArrayEquals(expect(i -> -fv(i)), whole(c), 0.0, "add");
            final double dot = a.dot(b);
            double want = 0;
            for (int i = 0; i < R * C; i++) {
                want += fv(i) * fv(i);
            }
            assertEquals(want, dot, 0.0, "dot");
            b.scale(2);
            assertArrayEquals(expect(i -> 2 * fv(i)), whole(b), 0.0, "scale");
            c.abs();
            c.addConstant(1);
            assertArrayEquals(expect(i -> fv(i) + 1), whole(c), 0.0, "abs, addConstant");
            c.elemMultiply(a, b);
            assertArrayEquals(expect(i -> fv(i) * 2 * fv(i)), whole(c), 0.0, "elemMultiply");
            c.elemDivide(b, a);
            assertArrayEquals(expect(i -> 2), whole(c), 0.0, "elemDivide");
            c.elemMaximum(a, c);
            assertArrayEquals(expect(i -> Math.max(fv(i), 2)), whole(c), 0.0, "elemMaximum");
            c.elemMinimum(a, c);
            assertArrayEquals(expect(AlgebraTest::fv), whole(c), 0.0, "elemMinimum");
            c.zero();
            assertArrayEquals(new double[R * C], whole(c), 0.0, "zero");
            c.fill(1.5);
            assertArrayEquals(expect(i -> 1.5), whole(c), 0.0, "fill");

            // Patches: fill, zero, scale, add and dot on a box.
            final int[] lo = {2, 3};
            final int[] hi = {6, 9};
            final java.util.function.IntPredicate in = i -> i / C >= 2 && i / C <= 6 && i % C >= 3 && i % C <= 9;
            c.fillPatch(lo, hi, 4);
            assertArrayEquals(expect(i -> in.test(i) ? 4 : 1.5), whole(c), 0.0, "fillPatch");
            c.scalePatch(lo, hi, 0.5);
            assertArrayEquals(expect(i -> in.test(i) ? 2 : 1.5), whole(c), 0.0, "scalePatch");
            c.zeroPatch(new int[] {0, 0}, new int[] {0, C - 1});
            assertArrayEquals(expect(i -> i < C ? 0 : in.test(i) ? 2 : 1.5), whole(c), 0.0, "zeroPatch");
            c.addPatch(1, a, lo, hi, 10, b, lo, hi, lo, hi);
            assertArrayEquals(expect(i -> i < C ? 0 : in.test(i) ? fv(i) + 20 * fv(i) : 1.5), whole(c), 0.0,
                "addPatch");
            double pd = 0;
            for (int i = 0; i < R * C; i++) {
                pd += in.test(i) ? fv(i) * 2 * fv(i) : 0;
            }
            assertEquals(pd, a.dotPatch(lo, hi, b, lo, hi), 0.0, "dotPatch");

            // copyPatch: reshape through unit dimensions, and a transposed 2-D patch.
            final GlobalArray row = ga.create(GaType.DOUBLE, new int[] {7}, "row");
            a.copyPatch('N', new int[] {5, 3}, new int[] {5, 9}, row, new int[] {0}, new int[] {6});
            final double[] rowWant = new double[7];
            for (int j = 0; j < 7; j++) {
                rowWant[j] = fv(5 * C + 3 + j);
            }
            assertArrayEquals(rowWant, whole(row), 0.0, "copyPatch through a unit dimension");
            final GlobalArray t = ga.create(GaType.DOUBLE, new int[] {C, R}, "T");
            a.transpose(t);
            final double[] tw = new double[R * C];
            for (int i = 0; i < R; i++) {
                for (int j = 0; j < C; j++) {
                    tw[j * R + i] = fv(i * C + j);
                }
            }
            assertArrayEquals(tw, whole(t), 0.0, "transpose");
            t.zero();
            a.copyPatch('T', new int[] {1, 2}, new int[] {3, 6}, t, new int[] {4, 5}, new int[] {8, 7});
            final double[] tp = new double[R * C];
            for (int i = 1; i <= 3; i++) {
                for (int j = 2; j <= 6; j++) {
                    tp[(4 + j - 2) * R + 5 + i - 1] = fv(i * C + j);
                }
            }
            assertArrayEquals(tp, whole(t), 0.0, "transposed copyPatch");
            assertThrows(IllegalArgumentException.class,
                () -> a.copyPatch('N', new int[] {0, 0}, new int[] {1, 1}, t, new int[] {0, 0}, new int[] {0, 2}),
                "4 elements into 3");

            // selectElem: ties go to the first subscript in row-major order.
            final GlobalArray.Selected max = a.selectElem("max");
            assertArrayEquals(new int[] {R - 1, C - 1}, max.subscript());
            assertEquals(fv(R * C - 1), max.value(), 0.0);
            if (ga.nodeid() == ga.nnodes() - 1) {
                a.put(new int[] {3, 3}, new int[] {3, 3}, new double[] {-9}, new int[] {1});
                a.put(new int[] {7, 1}, new int[] {7, 1}, new double[] {-9}, new int[] {1});
            }
            a.group().sync();
            final GlobalArray.Selected min = a.selectElem("min");
            assertArrayEquals(new int[] {3, 3}, min.subscript());
            assertEquals(-9, min.value(), 0.0);
            assertThrows(IllegalArgumentException.class, () -> a.selectElem("median"));
            for (final GlobalArray x : new GlobalArray[] {a, b, c, row, t}) {
                x.destroy();
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldComputeIntegerOperationsInIntegers(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType type : new GaType[] {GaType.INT, GaType.LONG, GaType.FLOAT}) {
                final GlobalArray a = ga.create(type, new int[] {5, 6, 7}, "i");
                final GlobalArray b = ga.builder(type, 5, 6, 7).procGrid(1, 1, Math.min(pes, 7)).create();
                a.fill(3);
                b.fill(-4);
                a.scale(5);
                b.abs();
                a.elemMultiply(a, b);
                final double[] w = new double[5 * 6 * 7];
                java.util.Arrays.fill(w, 60);
                assertArrayEquals(w, whole(a), 0.0, type + " fill, scale, abs, elemMultiply");
                assertEquals(60.0 * 4 * w.length, a.dot(b), 0.0, type + " dot");
                if (type != GaType.FLOAT) {
                    assertThrows(IllegalArgumentException.class, () -> a.scale(0.5));
                    final GlobalArray.Selected m = b.selectElem("max");
                    assertEquals(4, m.longValue());
                    assertArrayEquals(new int[] {0, 0, 0}, m.subscript());
                }
                assertArrayEquals(w, whole(a), 0.0, "a rejected scale changed nothing");
                a.destroy();
                b.destroy();
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMultiplyMatricesLikeANaiveLoop(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final int m = 17;
            final int n = 13;
            final int k = 150; // more than one panel of Gemm.KB
            for (final String trans : new String[] {"NN", "TN", "NT", "TT"}) {
                final boolean ta = trans.charAt(0) == 'T';
                final boolean tb = trans.charAt(1) == 'T';
                final GlobalArray a = ga.create(GaType.DOUBLE, ta ? new int[] {k, m} : new int[] {m, k}, "A");
                final GlobalArray b = ga.create(GaType.DOUBLE, tb ? new int[] {n, k} : new int[] {k, n}, "B");
                final int[][] im = SectionOpsTest.irregular(new int[] {m + 2, n}, pes);
                final GlobalArray c = ga.createIrregular(GaType.DOUBLE, new int[] {m + 2, n}, "C", im[0], im[1]);
                final double[] av = new double[m * k];
                final double[] bv = new double[k * n];
                for (int i = 0; i < av.length; i++) {
                    av[i] = (i * 37 % 11) - 5;
                }
                for (int i = 0; i < bv.length; i++) {
                    bv[i] = (i * 53 % 7) - 3;
                }
                if (ga.nodeid() == 0) {
                    final int[] ad = a.dims();
                    final int[] bd = b.dims();
                    a.put(new int[] {0, 0}, new int[] {ad[0] - 1, ad[1] - 1}, av, new int[] {ad[1]});
                    b.put(new int[] {0, 0}, new int[] {bd[0] - 1, bd[1] - 1}, bv, new int[] {bd[1]});
                }
                c.fill(1);
                ga.dgemm(trans.charAt(0), trans.charAt(1), m, n, k, 2, a, b, 3, c);
                final double[] want = new double[(m + 2) * n];
                for (int i = 0; i < m + 2; i++) {
                    for (int j = 0; j < n; j++) {
                        double s = 0;
                        for (int kk = 0; i < m && kk < k; kk++) {
                            final double x = ta ? av[kk * m + i] : av[i * k + kk];
                            final double y = tb ? bv[j * k + kk] : bv[kk * n + j];
                            s += x * y;
                        }
                        want[i * n + j] = i < m ? 2 * s + 3 : 1;
                    }
                }
                assertArrayEquals(want, whole(c), 0.0, "dgemm " + trans);
                assertThrows(IllegalArgumentException.class, () -> ga.dgemm('X', 'N', m, n, k, 1, a, b, 0, c));
                assertThrows(IllegalArgumentException.class, () -> ga.dgemm('N', 'N', m, n, k + 1, 1, a, b, 0, c));
                assertArrayEquals(want, whole(c), 0.0, "rejected dgemm changed nothing");
                a.destroy();
                b.destroy();
                c.destroy();
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldReadEveryOperandBeforeWritingInPlace(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = ga.create(GaType.LONG, new int[] {40}, "shift");
            if (ga.nodeid() == 0) {
                a.put(new int[] {0}, new int[] {39}, java.util.stream.LongStream.range(0, 40).toArray(), null);
            }
            ga.sync();
            // Overlapping patches of one array: the result is as if the source were read first.
            a.copyPatch('N', new int[] {0}, new int[] {29}, a, new int[] {10}, new int[] {39});
            final double[] want = new double[40];
            for (int i = 0; i < 40; i++) {
                want[i] = i < 10 ? i : i - 10;
            }
            assertArrayEquals(want, whole(a), 0.0, "shifted copy");
            final GlobalArray b = ga.create(GaType.LONG, new int[] {40}, "b");
            b.fill(15);
            a.elemMaximum(b, a);
            for (int i = 0; i < 40; i++) {
                want[i] = Math.max(15, want[i]);
            }
            assertArrayEquals(want, whole(a), 0.0, "in-place elemMaximum");
            final GlobalArray d = ga.create(GaType.DOUBLE, new int[] {3, 2}, "nan");
            d.fill(Double.NaN);
            final GlobalArray.Selected none = d.selectElem("max");
            assertArrayEquals(new int[] {-1, -1}, none.subscript(), "no element is a maximum when all are NaN");
            a.destroy();
            b.destroy();
            d.destroy();
        });
    }
}
