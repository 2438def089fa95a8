package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code NGA_Matmul_patch} as GA defines it beyond 2-D arrays and square corners: patches of arrays of any number of
 * dimensions (two dimensions span the plane, the others have extent 1; vectors placed as GA places them), and a
 * transposed operand's bounds in {@code op(A)}'s coordinates, so that an offset square block is read where the
 * caller meant, not mirrored.
 */
@Timeout(120)
class MatmulPatchNdTest {

    private static GlobalArray filled(final GlobalArrays ga, final int[] dims, final int seed) {
        final GlobalArray a = ga.create(GaType.DOUBLE, dims, "m" + seed);
        int n = 1;
        for (final int d : dims) {
            n *= d;
        }
        final double[] buf = new double[n];
        for (int i = 0; i < n; i++) {
            buf[i] = ((i * 7 + seed * 13) % 11) - 5;
        }
        GaTestSupport.putWhole(a, buf);
        return a;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldReadATransposedOperandsBlockFromOpABounds(final int pes) {
        GaTestSupport.run(pes, ga -> {
            // A is 6 x 6; op(A) = A^T restricted to rows 3..5 and columns 0..2 of op(A), that is A's block rows 0..2,
            // columns 3..5. The _alt convention would read A's rows 3..5, columns 0..2 (the mirrored block).
            final GlobalArray a = filled(ga, new int[] {6, 6}, 1);
            final GlobalArray b = filled(ga, new int[] {3, 3}, 2);
            final GlobalArray c = ga.create(GaType.DOUBLE, new int[] {3, 3}, "c");
            final double[] av = whole(a);
            final double[] bv = whole(b);
            ga.matmulPatch('T', 'N', 1, 0, a, new int[] {3, 0}, new int[] {5, 2}, b, new int[] {0, 0},
                new int[] {2, 2}, c, new int[] {0, 0}, new int[] {2, 2});
            final double[] got = whole(c);
            final double[] alt = new double[9];
            final GlobalArray c2 = ga.create(GaType.DOUBLE, new int[] {3, 3}, "c2");
            ga.matmulPatchAlt('T', 'N', 1, 0, a, new int[] {3, 0}, new int[] {5, 2}, b, new int[] {0, 0},
                new int[] {2, 2}, c2, new int[] {0, 0}, new int[] {2, 2});
            final double[] gotAlt = whole(c2);
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    double s = 0;
                    double sAlt = 0;
                    for (int k = 0; k < 3; k++) {
                        s += av[k * 6 + 3 + i] * bv[k * 3 + j]; // op(A)[i][k] = A[k][3 + i]
                        sAlt += av[(3 + k) * 6 + i] * bv[k * 3 + j]; // A's block rows 3..5, columns 0..2
                    }
                    assertEquals(s, got[i * 3 + j], 0.0, "matmulPatch " + i + "," + j);
                    alt[i * 3 + j] = sAlt;
                }
            }
            assertArrayEquals(alt, gotAlt, 0.0, "matmulPatchAlt reads the operand's own bounds");
            ga.sync();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldMultiplyPlanesOfArraysOfMoreDimensions(final int pes) {
        GaTestSupport.run(pes, ga -> {
            // A: 3-D (2, 5, 4), the plane [1][0..4][0..3]; B: 4-D (3, 4, 2, 6), the plane [2][0..3][1][0..5];
            // C: 3-D (5, 2, 6), the plane [0..4][1][0..5]. C = A * B, 5 x 4 times 4 x 6.
            final GlobalArray a = filled(ga, new int[] {2, 5, 4}, 1);
            final GlobalArray b = filled(ga, new int[] {3, 4, 2, 6}, 2);
            final GlobalArray c = filled(ga, new int[] {5, 2, 6}, 3);
            final double[] av = whole(a);
            final double[] bv = whole(b);
            final double[] before = whole(c);
            ga.matmulPatch('N', 'N', 1, 1, a, new int[] {1, 0, 0}, new int[] {1, 4, 3}, b, new int[] {2, 0, 1, 0},
                new int[] {2, 3, 1, 5}, c, new int[] {0, 1, 0}, new int[] {4, 1, 5});
            final double[] cv = whole(c);
            for (int i = 0; i < 5; i++) {
                for (int l = 0; l < 2; l++) {
                    for (int j = 0; j < 6; j++) {
                        final int at = (i * 2 + l) * 6 + j;
                        double expect = before[at];
                        if (l == 1) {
                            for (int k = 0; k < 4; k++) {
                                expect += av[(1 * 5 + i) * 4 + k] * bv[((2 * 4 + k) * 2 + 1) * 6 + j];
                            }
                        }
                        assertEquals(expect, cv[at], 0.0, "C[" + i + "][" + l + "][" + j + "]");
                    }
                }
            }
            // Transposed on a 3-D A: op(A) = A[1]^T, 4 x 5, bounds in op(A)'s coordinates (A's plane dims swapped).
            final GlobalArray d = ga.create(GaType.DOUBLE, new int[] {4, 4}, "d");
            final GlobalArray e = filled(ga, new int[] {5, 4}, 4);
            final double[] ev = whole(e);
            ga.matmulPatch('T', 'N', 1, 0, a, new int[] {1, 0, 0}, new int[] {1, 3, 4}, e, new int[] {0, 0},
                new int[] {4, 3}, d, new int[] {0, 0}, new int[] {3, 3});
            final double[] dv = whole(d);
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    double s = 0;
                    for (int k = 0; k < 5; k++) {
                        s += av[(1 * 5 + k) * 4 + i] * ev[k * 4 + j];
                    }
                    assertEquals(s, dv[i * 4 + j], 0.0, "D[" + i + "][" + j + "]");
                }
            }
            // A vector in a middle dimension is ambiguous: here it must be a column (5 x 1) to multiply a 1 x 1 B
            // into a 5 x 1 C, and GA moves its plane to make it one.
            final GlobalArray v = filled(ga, new int[] {2, 5, 1}, 5);
            final GlobalArray s = filled(ga, new int[] {3, 3}, 6);
            final GlobalArray col = ga.create(GaType.DOUBLE, new int[] {5, 2}, "col");
            final double[] vv = whole(v);
            final double scalar = whole(s)[4];
            ga.matmulPatch('N', 'N', 1, 0, v, new int[] {0, 0, 0}, new int[] {0, 4, 0}, s, new int[] {1, 1},
                new int[] {1, 1}, col, new int[] {0, 0}, new int[] {4, 0});
            final double[] colv = whole(col);
            for (int i = 0; i < 5; i++) {
                assertEquals(vv[i] * scalar, colv[i * 2], 0.0, "column " + i);
                assertEquals(0, colv[i * 2 + 1], 0.0, "the other column untouched");
            }
            // A patch wide in three dimensions is refused, and so are shapes that do not multiply.
            final GlobalArray cube = filled(ga, new int[] {2, 2, 2}, 7);
            assertThrows(IllegalArgumentException.class, () -> ga.matmulPatch('N', 'N', 1, 0, cube,
                new int[] {0, 0, 0}, new int[] {1, 1, 1}, e, new int[] {0, 0}, new int[] {1, 1}, d, new int[] {0, 0},
                new int[] {1, 1}));
            assertThrows(IllegalArgumentException.class, () -> ga.matmulPatch('N', 'N', 1, 0, a,
                new int[] {1, 0, 0}, new int[] {1, 4, 3}, e, new int[] {0, 0}, new int[] {4, 3}, d, new int[] {0, 0},
                new int[] {3, 3}), "5 x 4 times 5 x 4");
            ga.sync();
        });
    }
}
