package org.jhpvm.ga;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * The collective routines of {@link SparseArray} beyond assembly and the matrix products ({@link SparseProducts}):
 * the product with a vector, the diagonal, scaling and shifting, transposition, column extraction, the local column blocks and the
 * Matrix Market export. Values are read through {@link #re}/{@link #im} (float, double and complex arrays keep
 * doubles, {@code w} per element) or the longs of int and long arrays.
 */
final class SparseAlgebra {
    static final int SCALE = 0;
    static final int SHIFT_DIAG = 1;

    private SparseAlgebra() {
    }

    // ---------------------------------------------------------------- element access

    static double re(final SparseArray s, final int k) {
        return s.values[k * s.w];
    }

    static double im(final SparseArray s, final int k) {
        return s.w == 2 ? s.values[k * s.w + 1] : 0;
    }

    /** A dense operand's element {@code i} (of doubles, {@code w} per element): real part. */
    static double re(final double[] x, final int i, final int w) {
        return x[i * w];
    }

    static double im(final double[] x, final int i, final int w) {
        return w == 2 ? x[i * w + 1] : 0;
    }

    private static void checkVector(final SparseArray s, final GlobalArray v, final int length, final String what) {
        Objects.requireNonNull(v, what).checkLive();
        if (v.type != s.type || v.ndim != 1 || v.dims()[0] != length || v.group.team != s.group.team) {
            throw new IllegalArgumentException(what + " " + v + " must be a 1-D " + s.type + " array of " + length
                + " elements on the sparse array's group");
        }
    }

    static void checkMatrix(final SparseArray s, final GlobalArray m, final String what) {
        Objects.requireNonNull(m, what).checkLive();
        if (m.type != s.type || m.ndim != 2 || m.group.team != s.group.team) {
            throw new IllegalArgumentException(what + " " + m + " must be a 2-D " + s.type
                + " array on the sparse array's group");
        }
    }

    /** The first and last column this rank's elements use, or null if it has none. */
    static int[] columnSpan(final SparseArray s) {
        if (s.colIndex.length == 0) {
            return null;
        }
        int cmin = Integer.MAX_VALUE;
        int cmax = -1;
        for (final int c : s.colIndex) {
            cmin = Math.min(cmin, c);
            cmax = Math.max(cmax, c);
        }
        return new int[] {cmin, cmax};
    }

    static int nrows(final SparseArray s) {
        return s.rowHi - s.rowLo + 1;
    }

    // ---------------------------------------------------------------- products with vectors, the diagonal

    static void matvec(final SparseArray s, final GlobalArray x, final GlobalArray y) {
        checkVector(s, x, s.cols, "matvec: x");
        checkVector(s, y, s.rows, "matvec: y");
        if (x == y) {
            throw new IllegalArgumentException("matvec: x and y must be different arrays");
        }
        s.group.sync();
        final int nrows = nrows(s);
        final int w = s.w;
        Object out = null;
        if (nrows > 0) {
            final int[] span = columnSpan(s);
            final int cmin = span == null ? 0 : span[0];
            final Object xs = s.type.newArray(span == null ? 0 : span[1] - cmin + 1);
            if (span != null) {
                s.ga.nbWait(x.nbGet(new int[] {cmin}, new int[] {span[1]}, xs, null));
            }
            if (s.real()) {
                final double[] xd = Algebra.doubles(xs);
                final double[] o = new double[nrows * w];
                for (int r = 0; r < nrows; r++) {
                    double sr = 0;
                    double si = 0;
                    for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                        final int j = s.colIndex[k] - cmin;
                        sr += re(s, k) * re(xd, j, w) - im(s, k) * im(xd, j, w);
                        si += re(s, k) * im(xd, j, w) + im(s, k) * re(xd, j, w);
                    }
                    o[r * w] = sr;
                    if (w == 2) {
                        o[r * w + 1] = si;
                    }
                }
                out = Algebra.fromDoubles(o, s.type);
            } else {
                final long[] xl = Algebra.longs(xs);
                final long[] o = new long[nrows];
                for (int r = 0; r < nrows; r++) {
                    long sum = 0;
                    for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                        sum += s.lvalues[k] * xl[s.colIndex[k] - cmin];
                    }
                    o[r] = sum;
                }
                out = Algebra.fromLongs(o, s.type);
            }
        }
        s.group.sync(); // every rank has read x before y is written
        if (nrows > 0) {
            s.ga.nbWait(y.nbPut(new int[] {s.rowLo}, new int[] {s.rowHi}, out, null));
        }
        s.group.sync();
    }

    static void getDiag(final SparseArray s, final GlobalArray d) {
        final int n = Math.min(s.rows, s.cols);
        checkVector(s, d, n, "getDiag: d");
        s.group.sync();
        final int hi = Math.min(s.rowHi, n - 1);
        if (hi >= s.rowLo) {
            final int len = hi - s.rowLo + 1;
            final double[] dd = new double[len * s.w];
            final long[] dl = new long[len];
            for (int r = s.rowLo; r <= hi; r++) {
                for (int k = s.rowStart[r - s.rowLo]; k < s.rowStart[r - s.rowLo + 1]; k++) {
                    if (s.colIndex[k] == r) {
                        if (s.real()) {
                            System.arraycopy(s.values, k * s.w, dd, (r - s.rowLo) * s.w, s.w);
                        } else {
                            dl[r - s.rowLo] = s.lvalues[k];
                        }
                    }
                }
            }
            final Object diag = s.real() ? Algebra.fromDoubles(dd, s.type) : Algebra.fromLongs(dl, s.type);
            s.ga.nbWait(d.nbPut(new int[] {s.rowLo}, new int[] {hi}, diag, null));
        }
        s.group.sync();
    }

    // ---------------------------------------------------------------- in-place updates

    private static void checkScalar(final SparseArray s, final double re, final double im, final String what) {
        if (im != 0 && !s.type.isComplex()) {
            throw new IllegalArgumentException(what + ": a complex value for a " + s.type + " sparse array");
        }
        if (!s.real() && re != Math.rint(re)) {
            throw new IllegalArgumentException(what + "(" + re + ") on a " + s.type + " sparse array: an integer "
                + "is needed");
        }
    }

    /** {@link #SCALE} (every element times {@code re + i im}) or {@link #SHIFT_DIAG} (stored diagonal plus it). */
    static void update(final SparseArray s, final int op, final double re, final double im) {
        checkScalar(s, re, im, op == SCALE ? "scale" : "shiftDiag");
        s.group.sync();
        final int w = s.w;
        for (int r = 0; r < nrows(s); r++) {
            final int row = s.rowLo + r;
            for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                if (op == SHIFT_DIAG && s.colIndex[k] != row) {
                    continue;
                }
                if (!s.real()) {
                    s.lvalues[k] = op == SCALE ? s.lvalues[k] * (long) re : s.lvalues[k] + (long) re;
                } else if (op == SCALE) {
                    final double a = re(s, k);
                    final double b = im(s, k);
                    s.values[k * w] = a * re - b * im;
                    if (w == 2) {
                        s.values[k * w + 1] = a * im + b * re;
                    }
                } else {
                    s.values[k * w] += re;
                    if (w == 2) {
                        s.values[k * w + 1] += im;
                    }
                }
            }
        }
        roundFloats(s);
        s.group.sync();
    }

    /** Float and SCPL arrays keep float values: round what an update computed in double. */
    private static void roundFloats(final SparseArray s) {
        if (s.type == GaType.FLOAT || s.type == GaType.SCPL) {
            for (int k = 0; k < s.values.length; k++) {
                s.values[k] = (float) s.values[k];
            }
        }
    }

    /** {@code A = D A} ({@code left}) or {@code A = A D}. */
    static void diagMultiply(final SparseArray s, final GlobalArray d, final boolean left) {
        checkVector(s, d, left ? s.rows : s.cols, left ? "diagLeftMultiply: d" : "diagRightMultiply: d");
        s.group.sync();
        final int w = s.w;
        final int[] span = left ? (nrows(s) > 0 ? new int[] {s.rowLo, s.rowHi} : null) : columnSpan(s);
        if (span != null) {
            final Object buf = s.type.newArray(span[1] - span[0] + 1);
            s.ga.nbWait(d.nbGet(new int[] {span[0]}, new int[] {span[1]}, buf, null));
            final double[] dd = s.real() ? Algebra.doubles(buf) : null;
            final long[] dl = s.real() ? null : Algebra.longs(buf);
            for (int r = 0; r < nrows(s); r++) {
                for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                    final int i = (left ? s.rowLo + r : s.colIndex[k]) - span[0];
                    if (dl != null) {
                        s.lvalues[k] *= dl[i];
                    } else {
                        final double a = re(s, k);
                        final double b = im(s, k);
                        s.values[k * w] = a * re(dd, i, w) - b * im(dd, i, w);
                        if (w == 2) {
                            s.values[k * w + 1] = a * im(dd, i, w) + b * re(dd, i, w);
                        }
                    }
                }
            }
            roundFloats(s);
        }
        s.group.sync();
    }

    // ---------------------------------------------------------------- new sparse arrays

    static SparseArray duplicate(final SparseArray s) {
        s.group.sync();
        final SparseArray c = new SparseArray(s.ga, s.group, s.type, s.rows, s.cols);
        c.rowLo = s.rowLo;
        c.rowHi = s.rowHi;
        c.rowStart = s.rowStart.clone();
        c.colIndex = s.colIndex.clone();
        c.values = s.values == null ? null : s.values.clone();
        c.lvalues = s.lvalues == null ? null : s.lvalues.clone();
        c.addRow = null;
        c.addCol = null;
        c.addVal = null;
        c.assembled = true;
        s.group.sync();
        return c;
    }

    /** Adds this rank's element {@code k} of {@code s} to {@code t} at {@code (i, j)}, its value's bits unchanged. */
    private static void addElementOf(final SparseArray s, final int k, final SparseArray t, final int i,
        final int j) {
        if (s.real()) {
            t.addBits(i, j, Double.doubleToRawLongBits(re(s, k)), Double.doubleToRawLongBits(im(s, k)));
        } else {
            t.addBits(i, j, s.lvalues[k], 0);
        }
    }

    static SparseArray transpose(final SparseArray s) {
        final SparseArray t = new SparseArray(s.ga, s.group, s.type, s.cols, s.rows);
        for (int r = 0; r < nrows(s); r++) {
            for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                addElementOf(s, k, t, s.colIndex[k], s.rowLo + r);
            }
        }
        t.assemble();
        return t;
    }

    static GlobalArray getColumn(final SparseArray s, final int icol) {
        final GlobalArray v = s.ga.builder(s.type, s.rows).group(s.group).name("sparse column " + icol).create();
        final int nrows = nrows(s);
        if (nrows > 0) {
            final double[] dd = new double[nrows * s.w];
            final long[] dl = new long[nrows];
            boolean any = false;
            for (int r = 0; r < nrows; r++) {
                for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                    if (s.colIndex[k] == icol) {
                        any = true;
                        if (s.real()) {
                            System.arraycopy(s.values, k * s.w, dd, r * s.w, s.w);
                        } else {
                            dl[r] = s.lvalues[k];
                        }
                    }
                }
            }
            if (any) {
                final Object buf = s.real() ? Algebra.fromDoubles(dd, s.type) : Algebra.fromLongs(dl, s.type);
                s.ga.nbWait(v.nbPut(new int[] {s.rowLo}, new int[] {s.rowHi}, buf, null));
            }
        }
        s.group.sync();
        return v;
    }

    static double round(final SparseArray s, final double v) {
        return s.type == GaType.FLOAT || s.type == GaType.SCPL ? (float) v : v;
    }

    // ---------------------------------------------------------------- local column blocks

    static int[] colBlockList(final SparseArray s) {
        final int n = s.group.nnodes();
        final boolean[] used = new boolean[n];
        for (final int c : s.colIndex) {
            used[columnBlockOf(s, c)] = true;
        }
        int count = 0;
        for (final boolean u : used) {
            count += u ? 1 : 0;
        }
        final int[] list = new int[count];
        for (int b = 0, i = 0; b < n; b++) {
            if (used[b]) {
                list[i++] = b;
            }
        }
        return list;
    }

    /** The column block (GA's column split) that holds column {@code c}. */
    private static int columnBlockOf(final SparseArray s, final int c) {
        final int n = s.group.nnodes();
        int b = (int) ((long) c * n / s.cols);
        while (b > 0 && s.first(b, s.cols) > c) {
            b--;
        }
        while (b + 1 < n && s.first(b + 1, s.cols) <= c) {
            b++;
        }
        return b;
    }

    static SparseArray.ColumnBlock columnBlock(final SparseArray s, final int icol) {
        final int lo = s.first(icol, s.cols);
        final int hi = s.first(icol + 1, s.cols) - 1;
        final int nrows = nrows(s);
        final int[] start = new int[nrows + 1];
        int count = 0;
        for (int r = 0; r < nrows; r++) {
            for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                if (s.colIndex[k] >= lo && s.colIndex[k] <= hi) {
                    count++;
                }
            }
            start[r + 1] = count;
        }
        if (count == 0) {
            return null;
        }
        final int w = s.real() ? s.w : 1;
        final int[] ci = new int[count];
        final double[] vd = s.real() ? new double[count * w] : null;
        final long[] vl = s.real() ? null : new long[count];
        int at = 0;
        for (int k = 0; k < s.colIndex.length; k++) {
            if (s.colIndex[k] >= lo && s.colIndex[k] <= hi) {
                ci[at] = s.colIndex[k];
                if (vd != null) {
                    System.arraycopy(s.values, k * w, vd, at * w, w);
                } else {
                    vl[at] = s.lvalues[k];
                }
                at++;
            }
        }
        return new SparseArray.ColumnBlock(s.rowLo, s.rowHi, lo, hi, start, ci, vd != null ? vd : vl);
    }

    // ---------------------------------------------------------------- export

    static void export(final SparseArray s, final Path file) {
        final SparseProducts.Elements e = SparseProducts.gather(s, false);
        final long[] failed = {0};
        String why = null;
        if (s.group.nodeid() == 0) {
            final String field = s.type.isComplex() ? "complex" : s.real() ? "real" : "integer";
            final int w = s.real() ? s.w : 1;
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                out.write("%%MatrixMarket matrix coordinate " + field + " general\n");
                out.write(s.rows + " " + s.cols + " " + e.row().length + "\n");
                final StringBuilder line = new StringBuilder();
                for (int k = 0; k < e.row().length; k++) {
                    line.setLength(0);
                    line.append(e.row()[k] + 1).append(' ').append(e.col()[k] + 1);
                    for (int c = 0; c < w; c++) {
                        line.append(' ');
                        if (!s.real()) {
                            line.append(e.bits()[k]);
                        } else {
                            final double v = Double.longBitsToDouble(e.bits()[k * w + c]);
                            line.append(s.type == GaType.FLOAT || s.type == GaType.SCPL ? Float.toString((float) v)
                                : Double.toString(v));
                        }
                    }
                    out.write(line.append('\n').toString());
                }
            } catch (IOException ex) {
                failed[0] = 1;
                why = ex.toString();
            }
        }
        s.ga.gop(s.group, failed, GopOp.MAX);
        if (failed[0] != 0) {
            throw new UncheckedIOException(new IOException("export of " + s + " to " + file + " failed on rank 0"
                + (why == null ? "" : ": " + why)));
        }
    }
}
