package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * {@code NGA_Matmul_patch} with every transpose pair on double and float patches, and {@code GA_Sgemm}, against
 * loops.
 */
@Timeout(120)
class MatmulPatchTest {
    static final int[] PES = {1, 2, 3, 4, 8};

    private static GlobalArray filled(final GlobalArrays ga, final GaType t, final int r, final int c,
        final int seed) {
        final GlobalArray a = ga.create(t, new int[] {r, c}, "m" + seed);
        final Object buf = GaTestSupport.buffer(t, r * c);
        for (int i = 0; i < r * c; i++) {
            GaTestSupport.set(buf, i, ((i * 7 + seed * 13) % 11) - 5);
        }
        GaTestSupport.putWhole(a, buf);
        return a;
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMultiplyPatchesWithEveryTransposePair(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : new GaType[] {GaType.DOUBLE, GaType.FLOAT}) {
                // op(A) = 4 x 6 taken from a 9 x 10 array at (2, 3); op(B) = 6 x 5 from an 8 x 9 array at (1, 2);
                // C's patch 4 x 5 at (3, 1) of a 7 x 8 array.
                final GlobalArray a = filled(ga, t, 9, 10, 1);
                final GlobalArray b = filled(ga, t, 8, 9, 2);
                final double[] av = whole(a);
                final double[] bv = whole(b);
                for (final boolean alt : new boolean[] {false, true}) {
                    for (final char ta : new char[] {'N', 'T'}) {
                        for (final char tb : new char[] {'N', 'T'}) {
                            final GlobalArray c = filled(ga, t, 7, 8, 3);
                            final double[] before = whole(c);
                            // NGA_Matmul_patch gives a transposed operand's bounds in op()'s coordinates; _alt in the
                            // operand's own. A's block is rows 2..5, columns 3..8 (N) or rows 2..7, columns 3..6 (T).
                            final boolean opA = ta == 'T' && !alt;
                            final boolean opB = tb == 'T' && !alt;
                            final int[] alo = opA ? new int[] {3, 2} : new int[] {2, 3};
                            final int[] ahi = ta == 'N' ? new int[] {5, 8} : opA ? new int[] {6, 7} : new int[] {7, 6};
                            final int[] blo = opB ? new int[] {2, 1} : new int[] {1, 2};
                            final int[] bhi = tb == 'N' ? new int[] {6, 6} : opB ? new int[] {7, 5} : new int[] {5, 7};
                            if (alt) {
                                ga.matmulPatchAlt(ta, tb, 2.0, -1.0, a, alo, ahi, b, blo, bhi, c, new int[] {3, 1},
                                    new int[] {6, 5});
                            } else {
                                ga.matmulPatch(ta, tb, 2.0, -1.0, a, alo, ahi, b, blo, bhi, c, new int[] {3, 1},
                                    new int[] {6, 5});
                            }
                            final double[] cv = whole(c);
                            for (int i = 0; i < 7; i++) {
                                for (int j = 0; j < 8; j++) {
                                    double expect = before[i * 8 + j];
                                    if (i >= 3 && i <= 6 && j >= 1 && j <= 5) {
                                        double s = 0;
                                        for (int k = 0; k < 6; k++) {
                                            final double x = ta == 'N' ? av[(2 + i - 3) * 10 + 3 + k]
                                                : av[(2 + k) * 10 + 3 + i - 3];
                                            final double y = tb == 'N' ? bv[(1 + k) * 9 + 2 + j - 1]
                                                : bv[(1 + j - 1) * 9 + 2 + k];
                                            s += x * y;
                                        }
                                        expect = 2 * s - before[i * 8 + j];
                                    }
                                    assertEquals(expect, cv[i * 8 + j], 0.0,
                                        t + " " + ta + tb + (alt ? " alt " : " ") + i + "," + j);
                                }
                            }
                            c.destroy();
                        }
                    }
                }
                final GlobalArray c = ga.create(t, new int[] {4, 4}, "c");
                final double[] cv = whole(c);
                assertThrows(IllegalArgumentException.class, () -> ga.matmulPatch('N', 'N', 1, 0, a,
                    new int[] {0, 0}, new int[] {3, 2}, b, new int[] {0, 0}, new int[] {3, 3}, c, new int[] {0, 0},
                    new int[] {3, 3}), "3 columns against 4 rows");
                assertArrayEquals(cv, whole(c), 0.0, "nothing changed");
                c.destroy();
                a.destroy();
                b.destroy();
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldSgemmFloatArraysAndRefuseDoubles(final int pes) {
        GaTestSupport.run(pes, ga -> {
            final GlobalArray a = filled(ga, GaType.FLOAT, 5, 3, 4);
            final GlobalArray b = filled(ga, GaType.FLOAT, 3, 6, 5);
            final GlobalArray c = ga.create(GaType.FLOAT, new int[] {5, 6}, "c");
            ga.sgemm('N', 'N', 5, 6, 3, 0.5f, a, b, 0f, c);
            final double[] av = whole(a);
            final double[] bv = whole(b);
            final double[] cv = whole(c);
            for (int i = 0; i < 5; i++) {
                for (int j = 0; j < 6; j++) {
                    double s = 0;
                    for (int k = 0; k < 3; k++) {
                        s += av[i * 3 + k] * bv[k * 6 + j];
                    }
                    assertEquals((float) (0.5 * s), cv[i * 6 + j], 0.0);
                }
            }
            final GlobalArray d = ga.create(GaType.DOUBLE, new int[] {5, 6}, "d");
            assertThrows(IllegalArgumentException.class, () -> ga.sgemm('N', 'N', 5, 6, 3, 1f, a, b, 0f, d));
            ga.sync();
        });
    }
}
