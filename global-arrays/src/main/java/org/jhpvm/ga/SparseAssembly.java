package org.jhpvm.ga;

import java.util.Arrays;

/**
 * {@link SparseArray#assemble()}: each added element goes to the rank that holds its row through two temporary
 * global arrays (subscripts, and values with {@code w} slots per element), laid out by destination from a count
 * exchange; each rank then sorts its elements by subscript, sums duplicates and builds its compressed rows.
 */
final class SparseAssembly {
    private SparseAssembly() {
    }

    static void assemble(final SparseArray s) {
        final GaGroup group = s.group;
        final GlobalArrays ga = s.ga;
        final int w = s.w;
        final int n = group.nnodes();
        final int me = group.nodeid();
        final int added = s.added;
        // counts[src * n + dst]: elements PE src sends to rank dst.
        final long[] counts = new long[n * n];
        final int[] dest = new int[added];
        for (int k = 0; k < added; k++) {
            dest[k] = owner(s, s.addRow[k]);
            counts[me * n + dest[k]]++;
        }
        ga.gop(group, counts, GopOp.SUM);
        long total = 0;
        final long[] dstStart = new long[n + 1];
        for (int d = 0; d < n; d++) {
            dstStart[d] = total;
            for (int src = 0; src < n; src++) {
                total += counts[src * n + d];
            }
        }
        dstStart[n] = total;
        if (total * w > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("sparse assembly of " + total + " elements exceeds a Java array");
        }
        s.rowLo = s.first(me, s.rows);
        s.rowHi = s.first(me + 1, s.rows) - 1;
        final int len = (int) Math.max(1, total);
        final GlobalArray subs = ga.builder(GaType.LONG, len).group(group).name("sparse.subscripts").create();
        final GlobalArray vals = ga.builder(GaType.LONG, len * w).group(group).name("sparse.values").create();
        try {
            // My elements for rank d go after those of the PEs before me.
            final long[] next = new long[n];
            for (int d = 0; d < n; d++) {
                long at = dstStart[d];
                for (int src = 0; src < me; src++) {
                    at += counts[src * n + d];
                }
                next[d] = at;
            }
            final Integer[] order = new Integer[added];
            for (int k = 0; k < added; k++) {
                order[k] = k;
            }
            Arrays.sort(order, (x, y) -> Integer.compare(dest[x], dest[y]));
            for (int from = 0; from < added; ) {
                final int d = dest[order[from]];
                int to = from;
                while (to < added && dest[order[to]] == d) {
                    to++;
                }
                final long[] sbuf = new long[to - from];
                final long[] vbuf = new long[(to - from) * w];
                for (int k = from; k < to; k++) {
                    sbuf[k - from] = (long) s.addRow[order[k]] * s.cols + s.addCol[order[k]];
                    System.arraycopy(s.addVal, order[k] * w, vbuf, (k - from) * w, w);
                }
                final int lo = (int) next[d];
                subs.put(new int[] {lo}, new int[] {lo + to - from - 1}, sbuf, null);
                vals.put(new int[] {lo * w}, new int[] {(lo + to - from) * w - 1}, vbuf, null);
                from = to;
            }
            group.sync();
            final int mine = (int) (dstStart[me + 1] - dstStart[me]);
            final long[] sub = new long[mine];
            final long[] val = new long[mine * w];
            if (mine > 0) {
                final int lo = (int) dstStart[me];
                subs.get(new int[] {lo}, new int[] {lo + mine - 1}, sub, null);
                vals.get(new int[] {lo * w}, new int[] {(lo + mine) * w - 1}, val, null);
            }
            build(s, sub, val);
            group.sync();
        } finally {
            subs.destroy();
            vals.destroy();
        }
        s.addRow = null;
        s.addCol = null;
        s.addVal = null;
        s.assembled = true;
    }

    /** The rank that holds {@code row}: the r with {@code first(r) <= row < first(r + 1)}. */
    static int owner(final SparseArray s, final int row) {
        final int n = s.group.nnodes();
        int r = (int) ((long) row * n / s.rows);
        while (r > 0 && s.first(r, s.rows) > row) {
            r--;
        }
        while (r + 1 < n && s.first(r + 1, s.rows) <= row) {
            r++;
        }
        return r;
    }

    /** Sorts by subscript, sums duplicates, builds the compressed rows. */
    private static void build(final SparseArray s, final long[] sub, final long[] val) {
        final int w = s.w;
        final Integer[] order = new Integer[sub.length];
        for (int k = 0; k < sub.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (x, y) -> Long.compare(sub[x], sub[y]));
        final int nrows = s.rowHi - s.rowLo + 1;
        final int[] rowStart = new int[Math.max(1, nrows + 1)];
        final int[] ci = new int[sub.length];
        final double[] vd = s.real() ? new double[sub.length * w] : null;
        final long[] vl = s.real() ? null : new long[sub.length];
        int nnz = 0;
        long last = -1;
        for (final int k : order) {
            if (sub[k] != last) {
                last = sub[k];
                ci[nnz] = (int) (sub[k] % s.cols);
                rowStart[(int) (sub[k] / s.cols) - s.rowLo + 1]++;
                nnz++;
            }
            if (vd != null) {
                for (int c = 0; c < w; c++) {
                    vd[(nnz - 1) * w + c] += Double.longBitsToDouble(val[k * w + c]);
                }
            } else {
                vl[nnz - 1] += val[k];
            }
        }
        for (int r = 0; r < nrows; r++) {
            rowStart[r + 1] += rowStart[r];
        }
        s.rowStart = rowStart;
        s.colIndex = Arrays.copyOf(ci, nnz);
        s.values = vd == null ? null : Arrays.copyOf(vd, nnz * w);
        s.lvalues = vl == null ? null : Arrays.copyOf(vl, nnz);
    }
}
