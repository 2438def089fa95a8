package org.jhpvm.ga;

import java.util.Arrays;
import java.util.Objects;

/**
 * A distributed sparse matrix (GA's {@code NGA_Sprs_array_*}) of doubles, floats, longs or ints: created
 * collectively over the default group, filled by {@link #addElement} from any PE with global subscripts, then
 * {@link #assemble}d, after which it multiplies vectors ({@link #matvec}). Rows are split among the group's ranks
 * as GA does (rank {@code p} holds the rows i with {@code floor(i * n / rows) == p}, n ranks), each rank's rows in compressed-row
 * form; the elements for a row are summed when several PEs add the same subscript.
 * <p>
 * Assembly moves each element to the owner of its row through two temporary global arrays (subscripts and values),
 * laid out by destination from a count exchange; a product gets, from the vector's owners, the ranges of the vector
 * that its rows' columns span, multiplies locally, and puts its rows of the result. Floating types sum in double
 * precision (float results rounded once), integer types in long arithmetic (int results wrap as Java's do).
 * <p>
 * Thread-safety: one PE's handle, used from that PE's thread.
 */
public final class SparseArray {
    private final GlobalArrays ga;
    private final GaGroup group;
    private final GaType type;
    private final int rows;
    private final int cols;
    // Elements added before assembly: global row, column, value (a double's bits, or the integer).
    private int[] addRow = new int[64];
    private int[] addCol = new int[64];
    private long[] addVal = new long[64];
    private int added;
    // After assembly: this rank's rows rowLo..rowHi in compressed-row form.
    private boolean assembled;
    private boolean destroyed;
    private int rowLo;
    private int rowHi;
    private int[] rowStart;
    private int[] colIndex;
    /** The values: for floating types as doubles, for integer types as longs (the other array null). */
    private double[] values;
    private long[] lvalues;

    SparseArray(final GlobalArrays ga, final GaGroup group, final GaType type, final int rows, final int cols) {
        this.ga = ga;
        this.group = group;
        this.type = type;
        this.rows = rows;
        this.cols = cols;
    }

    /**
     * {@code NGA_Sprs_array_add_element}: adds {@code value} at row {@code i}, column {@code j} (global, 0-based).
     * Local until {@link #assemble}; elements added at one subscript are summed. On an int or long array the value
     * must be an integer the type holds.
     *
     * @param i     row
     * @param j     column
     * @param value the value
     * @throws IndexOutOfBoundsException outside the matrix (nothing added)
     * @throws IllegalArgumentException  for a value an int or long array cannot hold
     * @throws IllegalStateException     after assembly or destruction
     */
    public void addElement(final int i, final int j, final double value) {
        if (type.isFloating()) {
            add(i, j, Double.doubleToRawLongBits(value));
            return;
        }
        if (value != Math.rint(value) || Math.abs(value) > 0x1p62) {
            throw new IllegalArgumentException("addElement(" + value + ") on a " + type + " sparse array: an "
                + "integer is needed");
        }
        addElement(i, j, (long) value);
    }

    /**
     * {@code NGA_Sprs_array_add_element} with an integer value (exact on int and long arrays; converted on float
     * and double ones).
     *
     * @param i     row
     * @param j     column
     * @param value the value
     * @throws IndexOutOfBoundsException outside the matrix (nothing added)
     * @throws IllegalArgumentException  for a value an int array cannot hold
     * @throws IllegalStateException     after assembly or destruction
     */
    public void addElement(final int i, final int j, final long value) {
        if (type.isFloating()) {
            add(i, j, Double.doubleToRawLongBits(value));
            return;
        }
        if (type == GaType.INT && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("addElement(" + value + ") on an INT sparse array: out of range");
        }
        add(i, j, value);
    }

    private void add(final int i, final int j, final long bits) {
        check();
        if (assembled) {
            throw new IllegalStateException("elements cannot be added to an assembled sparse array");
        }
        Objects.checkIndex(i, rows);
        Objects.checkIndex(j, cols);
        if (added == addRow.length) {
            addRow = Arrays.copyOf(addRow, 2 * added);
            addCol = Arrays.copyOf(addCol, 2 * added);
            addVal = Arrays.copyOf(addVal, 2 * added);
        }
        addRow[added] = i;
        addCol[added] = j;
        addVal[added++] = bits;
    }

    /**
     * {@code NGA_Sprs_array_row_distribution}: the rows rank {@code rank} holds.
     *
     * @param rank a rank of the group
     * @return {@code {lo, hi}}, inclusive ({@code hi < lo} for none)
     * @throws IndexOutOfBoundsException outside the group
     */
    public int[] rowDistribution(final int rank) {
        Objects.checkIndex(rank, group.nnodes());
        return new int[] {first(rank, rows), first(rank + 1, rows) - 1};
    }

    /**
     * {@code NGA_Sprs_array_column_distribution}: the column block GA associates with rank {@code rank} (the same
     * even split of the columns).
     *
     * @param rank a rank of the group
     * @return {@code {lo, hi}}, inclusive
     * @throws IndexOutOfBoundsException outside the group
     */
    public int[] columnDistribution(final int rank) {
        Objects.checkIndex(rank, group.nnodes());
        return new int[] {first(rank, cols), first(rank + 1, cols) - 1};
    }

    /**
     * The first row (or column) of rank {@code rank}'s block, GA's split: rank p holds the indices i with
     * {@code floor(i * nproc / extent) == p}, so its block starts at {@code ceil(p * extent / nproc)} (67 rows on 2
     * ranks: 0..33 and 34..66). Ranks past the extent hold none.
     */
    private int first(final int rank, final int extent) {
        final long n = group.nnodes();
        return (int) ((rank * (long) extent + n - 1) / n);
    }

    /**
     * The matrix's shape.
     *
     * @return {@code {rows, cols}}
     */
    public int[] dims() {
        return new int[] {rows, cols};
    }

    /**
     * The stored elements of this rank's rows after assembly (distinct subscripts).
     *
     * @return the local count of non-zero entries (0 before assembly)
     */
    public int localNonZeros() {
        return assembled ? rowStart[rowHi - rowLo + 1] : 0;
    }

    /**
     * {@code NGA_Sprs_array_assemble}: moves every added element to the rank that holds its row and builds the
     * compressed rows (duplicates summed). Collective over the array's group.
     *
     * @throws IllegalStateException if already assembled or destroyed
     */
    public void assemble() {
        check();
        if (assembled) {
            throw new IllegalStateException("the sparse array is already assembled");
        }
        final int n = group.nnodes();
        final int me = group.nodeid();
        // counts[src * n + dst]: elements PE src sends to rank dst.
        final long[] counts = new long[n * n];
        final int[] dest = new int[added];
        for (int k = 0; k < added; k++) {
            dest[k] = owner(addRow[k]);
            counts[me * n + dest[k]]++;
        }
        ga.gop(group, counts, GopOp.SUM);
        long total = 0;
        final long[] dstStart = new long[n + 1];
        for (int d = 0; d < n; d++) {
            dstStart[d] = total;
            for (int s = 0; s < n; s++) {
                total += counts[s * n + d];
            }
        }
        dstStart[n] = total;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("sparse assembly of " + total + " elements exceeds a Java array");
        }
        rowLo = first(me, rows);
        rowHi = first(me + 1, rows) - 1;
        final int len = (int) Math.max(1, total);
        final GlobalArray subs = ga.builder(GaType.LONG, len).group(group).name("sparse.subscripts").create();
        final GlobalArray vals = ga.builder(GaType.LONG, len).group(group).name("sparse.values").create();
        try {
            // My elements for rank d go after those of the PEs before me.
            final long[] next = new long[n];
            for (int d = 0; d < n; d++) {
                long at = dstStart[d];
                for (int s = 0; s < me; s++) {
                    at += counts[s * n + d];
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
                final long[] vbuf = new long[to - from];
                for (int k = from; k < to; k++) {
                    sbuf[k - from] = (long) addRow[order[k]] * cols + addCol[order[k]];
                    vbuf[k - from] = addVal[order[k]];
                }
                final int lo = (int) next[d];
                subs.put(new int[] {lo}, new int[] {lo + to - from - 1}, sbuf, null);
                vals.put(new int[] {lo}, new int[] {lo + to - from - 1}, vbuf, null);
                from = to;
            }
            group.sync();
            final int mine = (int) (dstStart[me + 1] - dstStart[me]);
            final long[] s = new long[mine];
            final long[] v = new long[mine];
            if (mine > 0) {
                subs.get(new int[] {(int) dstStart[me]}, new int[] {(int) dstStart[me + 1] - 1}, s, null);
                vals.get(new int[] {(int) dstStart[me]}, new int[] {(int) dstStart[me + 1] - 1}, v, null);
            }
            build(s, v);
            group.sync();
        } finally {
            subs.destroy();
            vals.destroy();
        }
        addRow = null;
        addCol = null;
        addVal = null;
        assembled = true;
    }

    private int owner(final int row) {
        final int n = group.nnodes();
        // The rank r with first(r) <= row < first(r + 1).
        int r = (int) (((long) row * n + n - 1) / rows);
        while (r > 0 && first(r, rows) > row) {
            r--;
        }
        while (r + 1 < n && first(r + 1, rows) <= row) {
            r++;
        }
        return r;
    }

    /** Sorts by subscript, sums duplicates, builds the compressed rows. */
    private void build(final long[] s, final long[] v) {
        final Integer[] order = new Integer[s.length];
        for (int k = 0; k < s.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (x, y) -> Long.compare(s[x], s[y]));
        final int nrows = rowHi - rowLo + 1;
        rowStart = new int[Math.max(1, nrows + 1)];
        final int[] ci = new int[s.length];
        final double[] vd = type.isFloating() ? new double[s.length] : null;
        final long[] vl = type.isFloating() ? null : new long[s.length];
        int nnz = 0;
        long last = -1;
        for (final int k : order) {
            if (s[k] != last) {
                last = s[k];
                ci[nnz] = (int) (s[k] % cols);
                rowStart[(int) (s[k] / cols) - rowLo + 1]++;
                nnz++;
            }
            if (vd != null) {
                vd[nnz - 1] += Double.longBitsToDouble(v[k]);
            } else {
                vl[nnz - 1] += v[k];
            }
        }
        for (int r = 0; r < nrows; r++) {
            rowStart[r + 1] += rowStart[r];
        }
        colIndex = Arrays.copyOf(ci, nnz);
        values = vd == null ? null : Arrays.copyOf(vd, nnz);
        lvalues = vl == null ? null : Arrays.copyOf(vl, nnz);
    }

    /**
     * {@code NGA_Sprs_array_matvec_multiply}: {@code y = A x} for 1-D arrays of the sparse array's type, {@code x}
     * of {@code cols} elements and {@code y} of {@code rows}, on the array's group, any distributions. Collective
     * over the group.
     *
     * @param x the vector multiplied (unchanged)
     * @param y receives the product (a different array)
     * @throws IllegalStateException    before assembly or after destruction
     * @throws IllegalArgumentException for vectors of another type, length or group, or {@code x == y}
     */
    public void matvec(final GlobalArray x, final GlobalArray y) {
        check();
        if (!assembled) {
            throw new IllegalStateException("assemble the sparse array before multiplying");
        }
        checkVector(x, cols, "x");
        checkVector(y, rows, "y");
        if (x == y) {
            throw new IllegalArgumentException("matvec: x and y must be different arrays");
        }
        group.sync();
        final int nrows = rowHi - rowLo + 1;
        Object out = null;
        if (nrows > 0) {
            // The span of columns this rank's rows touch, fetched in one get (the vector's owners serve it).
            int cmin = Integer.MAX_VALUE;
            int cmax = -1;
            for (int k = 0; k < colIndex.length; k++) {
                cmin = Math.min(cmin, colIndex[k]);
                cmax = Math.max(cmax, colIndex[k]);
            }
            final Object xs = type.newArray(cmax < 0 ? 0 : cmax - cmin + 1);
            if (cmax >= 0) {
                ga.nbWait(x.nbGet(new int[] {cmin}, new int[] {cmax}, xs, null));
            }
            if (values != null) {
                final double[] xd = Algebra.doubles(xs);
                final double[] o = new double[nrows];
                for (int r = 0; r < nrows; r++) {
                    double sum = 0;
                    for (int k = rowStart[r]; k < rowStart[r + 1]; k++) {
                        sum += values[k] * xd[colIndex[k] - cmin];
                    }
                    o[r] = sum;
                }
                out = Algebra.fromDoubles(o, type);
            } else {
                final long[] xl = Algebra.longs(xs);
                final long[] o = new long[nrows];
                for (int r = 0; r < nrows; r++) {
                    long sum = 0;
                    for (int k = rowStart[r]; k < rowStart[r + 1]; k++) {
                        sum += lvalues[k] * xl[colIndex[k] - cmin];
                    }
                    o[r] = sum;
                }
                out = Algebra.fromLongs(o, type);
            }
        }
        group.sync(); // every rank has read x (y may share nothing with x, but its old values may still be read)
        if (nrows > 0) {
            ga.nbWait(y.nbPut(new int[] {rowLo}, new int[] {rowHi}, out, null));
        }
        group.sync();
    }

    private void checkVector(final GlobalArray v, final int length, final String what) {
        Objects.requireNonNull(v, what).checkLive();
        if (v.type != type || v.ndim != 1 || v.dims()[0] != length || v.group.team != group.team) {
            throw new IllegalArgumentException("matvec: " + what + " " + v + " must be a 1-D " + type + " array of "
                + length + " elements on the sparse array's group");
        }
    }

    /**
     * {@code NGA_Sprs_array_get_diag}: the diagonal into the 1-D array {@code d} of the sparse array's type and of
     * {@code min(rows, cols)} elements (0 where no element is stored). Collective.
     *
     * @param d the diagonal
     * @throws IllegalStateException    before assembly
     * @throws IllegalArgumentException for a vector of another type, length or group
     */
    public void getDiag(final GlobalArray d) {
        check();
        if (!assembled) {
            throw new IllegalStateException("assemble the sparse array first");
        }
        final int n = Math.min(rows, cols);
        checkVector(d, n, "d");
        group.sync();
        final int hi = Math.min(rowHi, n - 1);
        if (hi >= rowLo) {
            final double[] dd = new double[hi - rowLo + 1];
            final long[] dl = new long[hi - rowLo + 1];
            for (int r = rowLo; r <= hi; r++) {
                for (int k = rowStart[r - rowLo]; k < rowStart[r - rowLo + 1]; k++) {
                    if (colIndex[k] == r) {
                        if (values != null) {
                            dd[r - rowLo] = values[k];
                        } else {
                            dl[r - rowLo] = lvalues[k];
                        }
                    }
                }
            }
            final Object diag = values != null ? Algebra.fromDoubles(dd, type) : Algebra.fromLongs(dl, type);
            ga.nbWait(d.nbPut(new int[] {rowLo}, new int[] {hi}, diag, null));
        }
        group.sync();
    }

    /**
     * {@code NGA_Sprs_array_destroy}: releases the array. Collective over the group (a sync).
     *
     * @throws IllegalStateException if already destroyed
     */
    public void destroy() {
        check();
        group.sync();
        destroyed = true;
        rowStart = null;
        colIndex = null;
        values = null;
        lvalues = null;
    }

    private void check() {
        if (destroyed) {
            throw new IllegalStateException("the sparse array was destroyed");
        }
    }

    @Override
    public String toString() {
        return "SparseArray[" + rows + " x " + cols + "]" + (assembled ? " assembled" : "")
            + (destroyed ? " (destroyed)" : "");
    }
}
