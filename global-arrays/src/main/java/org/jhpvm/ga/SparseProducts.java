package org.jhpvm.ga;

import java.util.Arrays;

/**
 * The matrix products of {@link SparseArray}: sparse times sparse ({@link #matmat}), sparse times dense and dense
 * times sparse, the creation of a sparse array from a dense one, and the gathering of every element that the
 * sparse product and the export use.
 */
final class SparseProducts {
    private SparseProducts() {
    }

    /** {@link GlobalArrays#createSparseFromDense}: each rank adds the non-zero elements of the blocks it owns. */
    static SparseArray fromDense(final GlobalArrays ga, final GlobalArray a) {
        final int[] d = a.dims();
        final SparseArray s = new SparseArray(ga, a.group, a.type, d[0], d[1]);
        a.group.sync();
        final int w = a.type.width();
        for (final int[][] part : Algebra.parts(a, new int[] {0, 0}, new int[] {d[0] - 1, d[1] - 1})) {
            final int[] lo = part[0];
            final int[] hi = part[1];
            final int nc = hi[1] - lo[1] + 1;
            final Object buf = a.type.newArray(Algebra.volume(lo, hi));
            a.sections.packed(Mover.GET, lo, hi, buf);
            final boolean real = a.type.isFloating() || a.type.isComplex();
            final double[] dv = real ? Algebra.doubles(buf) : null;
            final long[] lv = real ? null : Algebra.longs(buf);
            for (int e = 0; e < Algebra.volume(lo, hi); e++) {
                final int i = lo[0] + e / nc;
                final int j = lo[1] + e % nc;
                if (real) {
                    final double re = dv[e * w];
                    final double im = w == 2 ? dv[e * w + 1] : 0;
                    if (re != 0 || im != 0) {
                        s.addBits(i, j, Double.doubleToRawLongBits(re), Double.doubleToRawLongBits(im));
                    }
                } else if (lv[e] != 0) {
                    s.addBits(i, j, lv[e], 0);
                }
            }
        }
        s.assemble();
        return s;
    }

    /** Every element of {@code s} on every rank, in row-major order: rows, columns and value bits. */
    record Elements(int[] row, int[] col, long[] bits) {
    }

    /**
     * Gathers the elements of every rank (each rank's rows in order, ranks in row order) through two temporary
     * global arrays; on every rank if {@code everyone}, else on rank 0 only (the others get empty arrays).
     */
    static Elements gather(final SparseArray s, final boolean everyone) {
        final GaGroup g = s.group;
        final int n = g.nnodes();
        final int me = g.nodeid();
        final int w = s.real() ? s.w : 1;
        final long[] counts = new long[n];
        counts[me] = s.colIndex.length;
        s.ga.gop(g, counts, GopOp.SUM);
        long total = 0;
        long before = 0;
        for (int r = 0; r < n; r++) {
            if (r == me) {
                before = total;
            }
            total += counts[r];
        }
        if (total * w > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(total + " elements are too many to gather in a Java array");
        }
        final int len = (int) Math.max(1, total);
        final GlobalArray subs = s.ga.builder(GaType.LONG, len).group(g).name("sparse.gather.subscripts").create();
        final GlobalArray vals = s.ga.builder(GaType.LONG, len * w).group(g).name("sparse.gather.values").create();
        try {
            final int mine = s.colIndex.length;
            if (mine > 0) {
                final long[] sb = new long[mine];
                final long[] vb = new long[mine * w];
                for (int r = 0; r < SparseAlgebra.nrows(s); r++) {
                    for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                        sb[k] = (long) (s.rowLo + r) * s.cols + s.colIndex[k];
                        for (int c = 0; c < w; c++) {
                            vb[k * w + c] = s.real() ? Double.doubleToRawLongBits(s.values[k * w + c]) : s.lvalues[k];
                        }
                    }
                }
                final int lo = (int) before;
                subs.put(new int[] {lo}, new int[] {lo + mine - 1}, sb, null);
                vals.put(new int[] {lo * w}, new int[] {(lo + mine) * w - 1}, vb, null);
            }
            g.sync();
            final int got = everyone || me == 0 ? (int) total : 0;
            final long[] sb = new long[got];
            final long[] vb = new long[got * w];
            if (got > 0) {
                subs.get(new int[] {0}, new int[] {got - 1}, sb, null);
                vals.get(new int[] {0}, new int[] {got * w - 1}, vb, null);
            }
            g.sync();
            final int[] row = new int[got];
            final int[] col = new int[got];
            for (int k = 0; k < got; k++) {
                row[k] = (int) (sb[k] / s.cols);
                col[k] = (int) (sb[k] % s.cols);
            }
            return new Elements(row, col, vb);
        } finally {
            subs.destroy();
            vals.destroy();
        }
    }

    static SparseArray matmat(final SparseArray a, final SparseArray b) {
        if (a.type != b.type || a.group.team != b.group.team || a.cols != b.rows) {
            throw new IllegalArgumentException("matmat: " + a + " times " + b + ": the types, groups or shapes ("
                + a.cols + " columns against " + b.rows + " rows) do not agree");
        }
        final Elements e = gather(b, true);
        final int w = a.real() ? a.w : 1;
        // B in compressed rows (the gathered elements are in row order).
        final int[] bStart = new int[b.rows + 1];
        for (final int r : e.row()) {
            bStart[r + 1]++;
        }
        for (int r = 0; r < b.rows; r++) {
            bStart[r + 1] += bStart[r];
        }
        final SparseArray c = new SparseArray(a.ga, a.group, a.type, a.rows, b.cols);
        final double[] accD = new double[b.cols * w];
        final long[] accL = new long[b.cols];
        final boolean[] touched = new boolean[b.cols];
        final int[] list = new int[b.cols];
        for (int r = 0; r < SparseAlgebra.nrows(a); r++) {
            int used = 0;
            for (int k = a.rowStart[r]; k < a.rowStart[r + 1]; k++) {
                final int kk = a.colIndex[k];
                for (int q = bStart[kk]; q < bStart[kk + 1]; q++) {
                    final int j = e.col()[q];
                    if (!touched[j]) {
                        touched[j] = true;
                        list[used++] = j;
                    }
                    if (!a.real()) {
                        accL[j] += a.lvalues[k] * e.bits()[q];
                        continue;
                    }
                    final double xr = Double.longBitsToDouble(e.bits()[q * w]);
                    final double xi = w == 2 ? Double.longBitsToDouble(e.bits()[q * w + 1]) : 0;
                    accD[j * w] += SparseAlgebra.re(a, k) * xr - SparseAlgebra.im(a, k) * xi;
                    if (w == 2) {
                        accD[j * w + 1] += SparseAlgebra.re(a, k) * xi + SparseAlgebra.im(a, k) * xr;
                    }
                }
            }
            Arrays.sort(list, 0, used);
            for (int u = 0; u < used; u++) {
                final int j = list[u];
                if (a.real()) {
                    c.addBits(a.rowLo + r, j, Double.doubleToRawLongBits(SparseAlgebra.round(a, accD[j * w])),
                        Double.doubleToRawLongBits(w == 2 ? SparseAlgebra.round(a, accD[j * w + 1]) : 0));
                    accD[j * w] = 0;
                    if (w == 2) {
                        accD[j * w + 1] = 0;
                    }
                } else {
                    c.addBits(a.rowLo + r, j, a.type == GaType.INT ? (int) accL[j] : accL[j], 0);
                    accL[j] = 0;
                }
                touched[j] = false;
            }
        }
        c.assemble();
        return c;
    }

    // ---------------------------------------------------------------- products with dense matrices

    static GlobalArray sparseTimesDense(final SparseArray s, final GlobalArray b) {
        SparseAlgebra.checkMatrix(s, b, "sprsdnsMultiply: B");
        final int[] bd = b.dims();
        if (bd[0] != s.cols) {
            throw new IllegalArgumentException("sprsdnsMultiply: " + s + " times " + b + ": " + s.cols
                + " columns against " + bd[0] + " rows");
        }
        final int n = bd[1];
        final GlobalArray c = s.ga.builder(s.type, s.rows, n).group(s.group).name("sparse times dense").create();
        final int nrows = SparseAlgebra.nrows(s);
        final int[] span = SparseAlgebra.columnSpan(s);
        if (nrows > 0 && span != null) {
            final int w = s.w;
            final int kr = span[1] - span[0] + 1;
            final Object rowsOfB = s.type.newArray(kr * n);
            s.ga.nbWait(b.nbGet(new int[] {span[0], 0}, new int[] {span[1], n - 1}, rowsOfB, new int[] {n}));
            final Object out;
            if (s.real()) {
                final double[] bv = Algebra.doubles(rowsOfB);
                final double[] o = new double[nrows * n * w];
                for (int r = 0; r < nrows; r++) {
                    for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                        final int base = (s.colIndex[k] - span[0]) * n;
                        for (int j = 0; j < n; j++) {
                            final int at = (r * n + j) * w;
                            o[at] += SparseAlgebra.re(s, k) * SparseAlgebra.re(bv, base + j, w) - SparseAlgebra.im(s, k) * SparseAlgebra.im(bv, base + j, w);
                            if (w == 2) {
                                o[at + 1] += SparseAlgebra.re(s, k) * SparseAlgebra.im(bv, base + j, w) + SparseAlgebra.im(s, k) * SparseAlgebra.re(bv, base + j, w);
                            }
                        }
                    }
                }
                out = Algebra.fromDoubles(o, s.type);
            } else {
                final long[] bv = Algebra.longs(rowsOfB);
                final long[] o = new long[nrows * n];
                for (int r = 0; r < nrows; r++) {
                    for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                        final int base = (s.colIndex[k] - span[0]) * n;
                        for (int j = 0; j < n; j++) {
                            o[r * n + j] += s.lvalues[k] * bv[base + j];
                        }
                    }
                }
                out = Algebra.fromLongs(o, s.type);
            }
            s.ga.nbWait(c.nbPut(new int[] {s.rowLo, 0}, new int[] {s.rowHi, n - 1}, out, new int[] {n}));
        }
        s.group.sync();
        return c;
    }

    static GlobalArray denseTimesSparse(final GlobalArray a, final SparseArray s) {
        SparseAlgebra.checkMatrix(s, a, "dnssprsMultiply: A");
        final int[] ad = a.dims();
        if (ad[1] != s.rows) {
            throw new IllegalArgumentException("dnssprsMultiply: " + a + " times " + s + ": " + ad[1]
                + " columns against " + s.rows + " rows");
        }
        final int m = ad[0];
        final GlobalArray c = s.ga.builder(s.type, m, s.cols).group(s.group).name("dense times sparse").create();
        final int nrows = SparseAlgebra.nrows(s);
        final int[] span = SparseAlgebra.columnSpan(s);
        if (nrows > 0 && span != null) {
            // C[:, span] += A[:, my rows] * S[my rows, span]: this rank's share, accumulated into C.
            final int w = s.w;
            final int nc = span[1] - span[0] + 1;
            final Object colsOfA = s.type.newArray(m * nrows);
            s.ga.nbWait(a.nbGet(new int[] {0, s.rowLo}, new int[] {m - 1, s.rowHi}, colsOfA, new int[] {nrows}));
            final Object part;
            if (s.real()) {
                final double[] av = Algebra.doubles(colsOfA);
                final double[] o = new double[m * nc * w];
                for (int r = 0; r < nrows; r++) {
                    for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                        final int j = s.colIndex[k] - span[0];
                        for (int i = 0; i < m; i++) {
                            final int at = (i * nc + j) * w;
                            final int x = i * nrows + r;
                            o[at] += SparseAlgebra.re(av, x, w) * SparseAlgebra.re(s, k) - SparseAlgebra.im(av, x, w) * SparseAlgebra.im(s, k);
                            if (w == 2) {
                                o[at + 1] += SparseAlgebra.re(av, x, w) * SparseAlgebra.im(s, k) + SparseAlgebra.im(av, x, w) * SparseAlgebra.re(s, k);
                            }
                        }
                    }
                }
                part = Algebra.fromDoubles(o, s.type);
            } else {
                final long[] av = Algebra.longs(colsOfA);
                final long[] o = new long[m * nc];
                for (int r = 0; r < nrows; r++) {
                    for (int k = s.rowStart[r]; k < s.rowStart[r + 1]; k++) {
                        final int j = s.colIndex[k] - span[0];
                        for (int i = 0; i < m; i++) {
                            o[i * nc + j] += av[i * nrows + r] * s.lvalues[k];
                        }
                    }
                }
                part = Algebra.fromLongs(o, s.type);
            }
            s.ga.nbWait(c.nbAcc(new int[] {0, span[0]}, new int[] {m - 1, span[1]}, part, new int[] {nc}, 1.0));
        }
        s.group.sync();
        return c;
    }
}
