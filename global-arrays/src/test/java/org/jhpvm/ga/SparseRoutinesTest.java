package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sparse routines beyond create/add/assemble/matvec/getDiag, on double, long and double-complex arrays, against
 * a dense model: transpose, scale, shiftDiag (stored diagonal only, as GA), diagonal left/right products, duplicate,
 * getColumn, sparse times sparse, sparse times dense and dense times sparse, the local column blocks, creation from a
 * dense array and the Matrix Market export.
 */
@Timeout(120)
class SparseRoutinesTest {
    private static final int R = 13;
    private static final int C = 9;
    private static final GaType[] TYPES = {GaType.DOUBLE, GaType.LONG, GaType.DCPL};

    /** The model A (integers, exact in every type): real parts; the imaginary parts are {@link #aIm}. */
    private static double aRe(final int i, final int j) {
        if (j == i % C) {
            return 2 + i;
        }
        return j == (i * 4 + 3) % C ? -1 - i % 3 : 0;
    }

    private static double aIm(final GaType t, final int i, final int j) {
        return t.isComplex() && aRe(i, j) != 0 ? i - j : 0;
    }

    private static SparseArray build(final GlobalArrays ga, final GaType t, final int rows, final int cols,
        final java.util.function.BiFunction<Integer, Integer, double[]> value) {
        final SparseArray s = ga.createSparse(t, rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                final double[] v = value.apply(i, j);
                if ((v[0] != 0 || v[1] != 0) && (i * cols + j) % ga.nnodes() == ga.nodeid()) {
                    s.addElement(i, j, v[0], v[1]);
                }
            }
        }
        s.assemble();
        return s;
    }

    private static SparseArray a(final GlobalArrays ga, final GaType t) {
        return build(ga, t, R, C, (i, j) -> new double[] {aRe(i, j), aIm(t, i, j)});
    }

    /** A dense array as a model: {@code w} doubles per element. */
    private static double[] dense(final GaType t, final int rows, final int cols,
        final java.util.function.BiFunction<Integer, Integer, double[]> value) {
        final int w = t.width();
        final double[] d = new double[rows * cols * w];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                final double[] v = value.apply(i, j);
                d[(i * cols + j) * w] = v[0];
                if (w == 2) {
                    d[(i * cols + j) * w + 1] = v[1];
                }
            }
        }
        return d;
    }

    /** {@code x * y} of models ({@code n x k} times {@code k x m}). */
    private static double[] product(final double[] x, final double[] y, final int n, final int k, final int m,
        final int w) {
        final double[] p = new double[n * m * w];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                for (int q = 0; q < k; q++) {
                    final int a = (i * k + q) * w;
                    final int b = (q * m + j) * w;
                    final int c = (i * m + j) * w;
                    if (w == 1) {
                        p[c] += x[a] * y[b];
                    } else {
                        p[c] += x[a] * y[b] - x[a + 1] * y[b + 1];
                        p[c + 1] += x[a] * y[b + 1] + x[a + 1] * y[b];
                    }
                }
            }
        }
        return p;
    }

    /** The sparse array as a dense model, read through getColumn. */
    private static double[] toDense(final GlobalArrays ga, final SparseArray s) {
        final int rows = s.dims()[0];
        final int cols = s.dims()[1];
        final int w = s.type().width();
        final double[] d = new double[rows * cols * w];
        for (int j = 0; j < cols; j++) {
            final GlobalArray col = s.getColumn(j);
            final double[] v = whole(col);
            for (int i = 0; i < rows; i++) {
                System.arraycopy(v, i * w, d, (i * cols + j) * w, w);
            }
            col.destroy();
        }
        return d;
    }

    private static GlobalArray denseArray(final GlobalArrays ga, final GaType t, final int rows, final int cols,
        final double[] model) {
        final GlobalArray g = ga.create(t, new int[] {rows, cols}, "dense");
        final Object buf = GaTestSupport.buffer(t, rows * cols);
        for (int k = 0; k < model.length; k++) {
            GaTestSupport.set(buf, k, model[k]);
        }
        GaTestSupport.putWhole(g, buf);
        return g;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldTransposeScaleShiftAndExtractColumns(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : TYPES) {
                final SparseArray s = a(ga, t);
                final double[] model = dense(t, R, C, (i, j) -> new double[] {aRe(i, j), aIm(t, i, j)});
                assertArrayEquals(model, toDense(ga, s), 0.0, t + " getColumn");
                final SparseArray tr = s.transpose();
                assertArrayEquals(new int[] {C, R}, tr.dims());
                assertArrayEquals(dense(t, C, R, (i, j) -> new double[] {aRe(j, i), aIm(t, j, i)}), toDense(ga, tr),
                    0.0, t + " transpose");
                final SparseArray dup = s.duplicate();
                dup.scale(3);
                if (t.isComplex()) {
                    dup.scale(0, 1); // times i: (a + bi) i = -b + ai
                }
                dup.shiftDiag(5); // stored diagonal elements only
                final double[] scaled = dense(t, R, C, (i, j) -> {
                    double re = 3 * aRe(i, j);
                    double im = 3 * aIm(t, i, j);
                    if (t.isComplex()) {
                        final double r0 = re;
                        re = -im;
                        im = r0;
                    }
                    if (i == j && aRe(i, j) != 0) {
                        re += 5;
                    }
                    return new double[] {re, im};
                });
                assertArrayEquals(scaled, toDense(ga, dup), 0.0, t + " scale and shiftDiag");
                assertArrayEquals(model, toDense(ga, s), 0.0, t + " the original unchanged");
                // D A and A D with d_i = i + 1.
                final GlobalArray dl = ga.create(t, new int[] {R}, "dl");
                dl.patchEnum(0, R - 1, 1, 1);
                final GlobalArray dr = ga.create(t, new int[] {C}, "dr");
                dr.patchEnum(0, C - 1, 1, 1);
                final SparseArray left = s.duplicate();
                left.diagLeftMultiply(dl);
                left.diagRightMultiply(dr);
                assertArrayEquals(dense(t, R, C, (i, j) -> new double[] {(i + 1) * (j + 1) * aRe(i, j),
                    (i + 1) * (j + 1) * aIm(t, i, j)}), toDense(ga, left), 0.0, t + " D A D");
                assertThrows(IllegalArgumentException.class, () -> s.diagLeftMultiply(dr), "length " + C);
                if (!t.isComplex()) {
                    assertThrows(IllegalArgumentException.class, () -> s.scale(1, 1), "complex factor");
                }
                if (t == GaType.LONG) {
                    assertThrows(IllegalArgumentException.class, () -> s.scale(0.5), "a fraction");
                }
                assertArrayEquals(model, toDense(ga, s), 0.0, t + " refusals changed nothing");
                for (final SparseArray x : List.of(s, tr, dup, left)) {
                    x.destroy();
                }
                ga.sync();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldMultiplySparseBySparseAndDense(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : TYPES) {
                final int w = t.width();
                final SparseArray s = a(ga, t);
                final double[] am = dense(t, R, C, (i, j) -> new double[] {aRe(i, j), aIm(t, i, j)});
                // B: C x 7 sparse.
                final java.util.function.BiFunction<Integer, Integer, double[]> bv =
                    (i, j) -> (i + 2 * j) % 3 == 0 ? new double[] {i - j, t.isComplex() ? 1 : 0} : new double[2];
                final SparseArray b = build(ga, t, C, 7, bv);
                final double[] bm = dense(t, C, 7, bv);
                final SparseArray ab = s.matmat(b);
                assertArrayEquals(product(am, bm, R, C, 7, w), toDense(ga, ab), 0.0, t + " sparse times sparse");
                // Dense B (C x 4) and dense D (5 x R).
                final double[] db = dense(t, C, 4, (i, j) -> new double[] {i * 4 + j - 7, t.isComplex() ? j : 0});
                final GlobalArray gb = denseArray(ga, t, C, 4, db);
                final GlobalArray sd = s.sprsdnsMultiply(gb);
                assertArrayEquals(product(am, db, R, C, 4, w), whole(sd), 0.0, t + " sparse times dense");
                final double[] dd = dense(t, 5, R, (i, j) -> new double[] {(i + j) % 4 - 1, t.isComplex() ? -i : 0});
                final GlobalArray gd = denseArray(ga, t, 5, R, dd);
                final GlobalArray ds = s.dnssprsMultiply(gd);
                assertArrayEquals(product(dd, am, 5, R, C, w), whole(ds), 0.0, t + " dense times sparse");
                assertThrows(IllegalArgumentException.class, () -> s.matmat(s), "13 x 9 times 13 x 9");
                assertThrows(IllegalArgumentException.class, () -> s.sprsdnsMultiply(gd), "9 columns, 5 rows");
                // Back from dense: the same matrix.
                final GlobalArray full = denseArray(ga, t, R, C, am);
                final SparseArray again = ga.createSparseFromDense(full);
                assertArrayEquals(am, toDense(ga, again), 0.0, t + " from dense");
                final double[] nnz = {again.localNonZeros(), s.localNonZeros()};
                ga.gop(nnz, GopOp.SUM);
                assertEquals(nnz[1], nnz[0], "only the non-zero elements");
                for (final SparseArray x : List.of(s, b, ab, again)) {
                    x.destroy();
                }
                for (final GlobalArray x : List.of(gb, sd, gd, ds, full)) {
                    x.destroy();
                }
                ga.sync();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldGiveLocalColumnBlocksAndExportMatrixMarket(final int pes, @TempDir final Path dir) {
        final Path file = dir.resolve("a.mtx");
        GaTestSupport.run(pes, ga -> {
            final GaType t = GaType.DCPL;
            final SparseArray s = a(ga, t);
            // The column blocks of every rank together are the matrix.
            final double[] seen = new double[R * C * 2];
            for (final int blk : s.colBlockList()) {
                final SparseArray.ColumnBlock b = s.accessColBlock(blk);
                final int[] cd = s.columnDistribution(blk);
                assertEquals(cd[0], b.colLo());
                final double[] v = (double[]) b.values();
                for (int r = 0; r <= b.rowHi() - b.rowLo(); r++) {
                    for (int k = b.rowStart()[r]; k < b.rowStart()[r + 1]; k++) {
                        final int j = b.colIndex()[k];
                        assertTrue(j >= b.colLo() && j <= b.colHi(), "column " + j + " inside the block");
                        seen[((b.rowLo() + r) * C + j) * 2] += v[2 * k];
                        seen[((b.rowLo() + r) * C + j) * 2 + 1] += v[2 * k + 1];
                    }
                }
            }
            for (int blk = 0; blk < ga.nnodes(); blk++) {
                final int fb = blk;
                if (java.util.Arrays.stream(s.colBlockList()).noneMatch(x -> x == fb)) {
                    assertNull(s.accessColBlock(blk), "no elements in block " + blk);
                }
            }
            ga.gop(seen, GopOp.SUM);
            assertArrayEquals(dense(t, R, C, (i, j) -> new double[] {aRe(i, j), aIm(t, i, j)}), seen, 0.0);
            s.export(file);
            ga.sync();
            s.destroy();
        });
        final List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertEquals("%%MatrixMarket matrix coordinate complex general", lines.get(0));
        int nnz = 0;
        for (int i = 0; i < R; i++) {
            for (int j = 0; j < C; j++) {
                nnz += aRe(i, j) != 0 ? 1 : 0;
            }
        }
        assertEquals(R + " " + C + " " + nnz, lines.get(1));
        assertEquals(nnz + 2, lines.size());
        int prev = -1;
        for (final String line : lines.subList(2, lines.size())) {
            final String[] f = line.split(" ");
            final int i = Integer.parseInt(f[0]) - 1;
            final int j = Integer.parseInt(f[1]) - 1;
            assertTrue(i * C + j > prev, "sorted by row, then column: " + line);
            prev = i * C + j;
            assertEquals(aRe(i, j), Double.parseDouble(f[2]), 0.0, line);
            assertEquals(aIm(GaType.DCPL, i, j), Double.parseDouble(f[3]), 0.0, line);
        }
    }
}
