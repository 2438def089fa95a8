package org.jhpvm.ga;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * A distributed sparse matrix (GA's {@code NGA_Sprs_array_*}) of any element type, complex ones included: created
 * collectively over the default group, filled by {@link #addElement} from any PE with global subscripts, then
 * {@link #assemble}d, after which it multiplies vectors ({@link #matvec}), dense matrices and other sparse matrices,
 * and is scaled, shifted, transposed and exported. Rows are split among the group's ranks as GA does (rank {@code p}
 * holds the rows i with {@code floor(i * n / rows) == p}, n ranks), each rank's rows in compressed-row form; the
 * elements for a row are summed when several PEs add the same subscript.
 * <p>
 * Assembly moves each element to the owner of its row through temporary global arrays ({@link SparseAssembly});
 * the products and the other collective routines are in {@link SparseAlgebra}. Floating types sum in double
 * precision (float results rounded once), integer types in long arithmetic (int results wrap as Java's do), complex
 * types as pairs of doubles.
 * <p>
 * Thread-safety: one PE's handle, used from that PE's thread.
 */
public final class SparseArray {
    final GlobalArrays ga;
    final GaGroup group;
    final GaType type;
    final int rows;
    final int cols;
    /** Slots per element: 2 for complex types (real, imaginary), else 1. */
    final int w;
    // Elements added before assembly: global row, column, value bits ({@link #w} per element: a double's bits, or
    // the integer).
    int[] addRow = new int[64];
    int[] addCol = new int[64];
    long[] addVal;
    int added;
    // After assembly: this rank's rows rowLo..rowHi in compressed-row form.
    boolean assembled;
    private boolean destroyed;
    int rowLo;
    int rowHi;
    int[] rowStart;
    int[] colIndex;
    /** The values: for floating and complex types as doubles ({@link #w} per element), else as longs. */
    double[] values;
    long[] lvalues;

    SparseArray(final GlobalArrays ga, final GaGroup group, final GaType type, final int rows, final int cols) {
        this.ga = ga;
        this.group = group;
        this.type = type;
        this.rows = rows;
        this.cols = cols;
        this.w = type.width();
        this.addVal = new long[64 * w];
    }

    /** Whether the values are doubles ({@link #values}) rather than longs. */
    boolean real() {
        return type.isFloating() || type.isComplex();
    }

    /**
     * {@code NGA_Sprs_array_add_element}: adds {@code value} at row {@code i}, column {@code j} (global, 0-based).
     * Local until {@link #assemble}; elements added at one subscript are summed. On an int or long array the value
     * must be an integer the type holds; on a complex array it is the real part (imaginary 0).
     *
     * @param i     row
     * @param j     column
     * @param value the value
     * @throws IndexOutOfBoundsException outside the matrix (nothing added)
     * @throws IllegalArgumentException  for a value an int or long array cannot hold
     * @throws IllegalStateException     after assembly or destruction
     */
    public void addElement(final int i, final int j, final double value) {
        if (real()) {
            add(i, j, value, 0);
            return;
        }
        if (value != Math.rint(value) || Math.abs(value) > 0x1p62) {
            throw new IllegalArgumentException("addElement(" + value + ") on a " + type + " sparse array: an "
                + "integer is needed");
        }
        addElement(i, j, (long) value);
    }

    /**
     * {@code NGA_Sprs_array_add_element} of a complex value on an SCPL or DCPL array.
     *
     * @param i  row
     * @param j  column
     * @param re real part
     * @param im imaginary part
     * @throws IllegalArgumentException  if {@code im} is not 0 and the array is not complex (nothing added)
     * @throws IndexOutOfBoundsException outside the matrix
     * @throws IllegalStateException     after assembly or destruction
     */
    public void addElement(final int i, final int j, final double re, final double im) {
        if (!type.isComplex()) {
            if (im != 0) {
                throw new IllegalArgumentException("addElement(" + re + ", " + im + "): " + type
                    + " elements have no imaginary part");
            }
            addElement(i, j, re);
            return;
        }
        add(i, j, re, im);
    }

    /**
     * {@code NGA_Sprs_array_add_element} with an integer value (exact on int and long arrays; converted on float,
     * double and complex ones).
     *
     * @param i     row
     * @param j     column
     * @param value the value
     * @throws IndexOutOfBoundsException outside the matrix (nothing added)
     * @throws IllegalArgumentException  for a value an int array cannot hold
     * @throws IllegalStateException     after assembly or destruction
     */
    public void addElement(final int i, final int j, final long value) {
        if (real()) {
            add(i, j, value, 0);
            return;
        }
        if (type == GaType.INT && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("addElement(" + value + ") on an INT sparse array: out of range");
        }
        addBits(i, j, value, 0);
    }

    private void add(final int i, final int j, final double re, final double im) {
        addBits(i, j, Double.doubleToRawLongBits(re), Double.doubleToRawLongBits(im));
    }

    void addBits(final int i, final int j, final long bits, final long imBits) {
        check();
        if (assembled) {
            throw new IllegalStateException("elements cannot be added to an assembled sparse array");
        }
        Objects.checkIndex(i, rows);
        Objects.checkIndex(j, cols);
        if (added == addRow.length) {
            addRow = Arrays.copyOf(addRow, 2 * added);
            addCol = Arrays.copyOf(addCol, 2 * added);
            addVal = Arrays.copyOf(addVal, 2 * added * w);
        }
        addRow[added] = i;
        addCol[added] = j;
        addVal[added * w] = bits;
        if (w == 2) {
            addVal[added * w + 1] = imBits;
        }
        added++;
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
     * split of the columns).
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
    int first(final int rank, final int extent) {
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
     * The element type.
     *
     * @return the type
     */
    public GaType type() {
        return type;
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
        SparseAssembly.assemble(this);
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
        checkAssembled();
        SparseAlgebra.matvec(this, x, y);
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
        checkAssembled();
        SparseAlgebra.getDiag(this, d);
    }

    /**
     * {@code NGA_Sprs_array_scale}: every stored element times {@code s} (on an int or long array an integer).
     * Collective.
     *
     * @param s the factor
     * @throws IllegalArgumentException for a fraction on an integer array (nothing changes)
     * @throws IllegalStateException    before assembly
     */
    public void scale(final double s) {
        scale(s, 0);
    }

    /**
     * {@code NGA_Sprs_array_scale} with a complex factor.
     *
     * @param re real part
     * @param im imaginary part (0 on a real array)
     * @throws IllegalArgumentException for a complex factor on a real array or a fraction on an integer one
     * @throws IllegalStateException    before assembly
     */
    public void scale(final double re, final double im) {
        checkAssembled();
        SparseAlgebra.update(this, SparseAlgebra.SCALE, re, im);
    }

    /**
     * {@code NGA_Sprs_array_shift_diag}: adds {@code s} to every <em>stored</em> diagonal element, as GA does (a
     * diagonal position with no element stays 0). Collective.
     *
     * @param s the shift
     * @throws IllegalArgumentException for a fraction on an integer array
     * @throws IllegalStateException    before assembly
     */
    public void shiftDiag(final double s) {
        shiftDiag(s, 0);
    }

    /**
     * {@code NGA_Sprs_array_shift_diag} with a complex shift.
     *
     * @param re real part
     * @param im imaginary part (0 on a real array)
     * @throws IllegalArgumentException for a complex shift on a real array or a fraction on an integer one
     * @throws IllegalStateException    before assembly
     */
    public void shiftDiag(final double re, final double im) {
        checkAssembled();
        SparseAlgebra.update(this, SparseAlgebra.SHIFT_DIAG, re, im);
    }

    /**
     * {@code NGA_Sprs_array_diag_left_multiply}: {@code A = D A}, row {@code i} times {@code d[i]}; {@code d} 1-D of
     * the array's type and {@code rows} elements. Collective.
     *
     * @param d the diagonal
     * @throws IllegalArgumentException for a vector of another type, length or group
     * @throws IllegalStateException    before assembly
     */
    public void diagLeftMultiply(final GlobalArray d) {
        checkAssembled();
        SparseAlgebra.diagMultiply(this, d, true);
    }

    /**
     * {@code NGA_Sprs_array_diag_right_multiply}: {@code A = A D}, column {@code j} times {@code d[j]}; {@code d} of
     * {@code cols} elements. Collective.
     *
     * @param d the diagonal
     * @throws IllegalArgumentException for a vector of another type, length or group
     * @throws IllegalStateException    before assembly
     */
    public void diagRightMultiply(final GlobalArray d) {
        checkAssembled();
        SparseAlgebra.diagMultiply(this, d, false);
    }

    /**
     * {@code NGA_Sprs_array_duplicate}: an assembled copy. Collective.
     *
     * @return the copy
     * @throws IllegalStateException before assembly
     */
    public SparseArray duplicate() {
        checkAssembled();
        return SparseAlgebra.duplicate(this);
    }

    /**
     * The transpose, {@code cols x rows}, assembled (each element moved to the owner of its new row). Collective.
     *
     * @return {@code A^T}
     * @throws IllegalStateException before assembly
     */
    public SparseArray transpose() {
        checkAssembled();
        return SparseAlgebra.transpose(this);
    }

    /**
     * {@code NGA_Sprs_array_get_column}: column {@code icol} as a new 1-D global array of {@code rows} elements of the
     * array's type (on the array's group, zero where nothing is stored). Collective.
     *
     * @param icol the column
     * @return the column
     * @throws IndexOutOfBoundsException outside the columns
     * @throws IllegalStateException     before assembly
     */
    public GlobalArray getColumn(final int icol) {
        checkAssembled();
        Objects.checkIndex(icol, cols);
        return SparseAlgebra.getColumn(this, icol);
    }

    /**
     * {@code NGA_Sprs_array_matmat_multiply}: {@code C = A B} for sparse {@code B} of the same type and group with
     * {@code cols} rows: a new assembled sparse array. Every rank reads the whole of B (gathered once), then forms
     * the products for its own rows. Collective.
     *
     * @param b the right factor
     * @return the product
     * @throws IllegalArgumentException for shapes that do not multiply, or another type or group
     * @throws IllegalStateException    before assembly of either
     */
    public SparseArray matmat(final SparseArray b) {
        checkAssembled();
        Objects.requireNonNull(b, "b").checkAssembled();
        return SparseProducts.matmat(this, b);
    }

    /**
     * {@code NGA_Sprs_array_sprsdns_multiply}: {@code C = A B} for a dense 2-D {@code B} of the array's type and
     * group with {@code cols} rows: a new dense global array of {@code rows x B's columns}. Each rank gets the rows of
     * B its elements' columns span. Collective.
     *
     * @param b the dense right factor
     * @return the product
     * @throws IllegalArgumentException for shapes that do not multiply, or another type or group
     * @throws IllegalStateException    before assembly
     */
    public GlobalArray sprsdnsMultiply(final GlobalArray b) {
        checkAssembled();
        return SparseProducts.sparseTimesDense(this, b);
    }

    /**
     * {@code NGA_Sprs_array_dnssprs_multiply}: {@code C = A S} for a dense 2-D {@code A} of the array's type and
     * group with {@code rows} columns, this array {@code S}: a new dense global array of {@code A's rows x cols}.
     * Each rank multiplies the columns of A that match its rows and accumulates its share into C. Collective.
     *
     * @param a the dense left factor
     * @return the product
     * @throws IllegalArgumentException for shapes that do not multiply, or another type or group
     * @throws IllegalStateException    before assembly
     */
    public GlobalArray dnssprsMultiply(final GlobalArray a) {
        checkAssembled();
        return SparseProducts.denseTimesSparse(a, this);
    }

    /**
     * This rank's rows restricted to a column block: GA's {@code NGA_Sprs_array_access_col_block}.
     *
     * @param rowLo    the first row (global)
     * @param rowHi    the last row
     * @param colLo    the block's first column
     * @param colHi    its last column
     * @param rowStart {@code rowStart[r] .. rowStart[r+1]-1} are the elements of row {@code rowLo + r}
     * @param colIndex each element's column (global)
     * @param values   each element's value: a {@code double[]} (float and double arrays; complex ones as pairs,
     *                 two slots per element), or a {@code long[]} (int and long)
     */
    public record ColumnBlock(int rowLo, int rowHi, int colLo, int colHi, int[] rowStart, int[] colIndex,
                              Object values) {
    }

    /**
     * {@code NGA_Sprs_array_col_block_list}: the column blocks ({@link #columnDistribution} numbering) in which this
     * rank's rows hold elements. Local.
     *
     * @return the block numbers, ascending
     * @throws IllegalStateException before assembly
     */
    public int[] colBlockList() {
        checkAssembled();
        return SparseAlgebra.colBlockList(this);
    }

    /**
     * {@code NGA_Sprs_array_access_col_block}: this rank's rows restricted to column block {@code icol}, in
     * compressed-row form (copies), or null if it holds no element there. Local.
     *
     * @param icol a column block, {@code 0 .. nnodes-1}
     * @return the block, or null
     * @throws IndexOutOfBoundsException outside the blocks
     * @throws IllegalStateException     before assembly
     */
    public ColumnBlock accessColBlock(final int icol) {
        checkAssembled();
        Objects.checkIndex(icol, group.nnodes());
        return SparseAlgebra.columnBlock(this, icol);
    }

    /**
     * {@code NGA_Sprs_array_export}: writes the matrix to {@code file} in the Matrix Market coordinate format,
     * 1-based, sorted by row then column ({@code real}, {@code integer} or {@code complex} as the type is; GA writes
     * {@code real} whatever the type). Rank 0 of the group gathers every element and writes; collective; an I/O
     * failure is raised on every rank.
     *
     * @param file the file to write (replaced)
     * @throws java.io.UncheckedIOException on every rank if rank 0 cannot write
     * @throws IllegalStateException        before assembly
     */
    public void export(final Path file) {
        checkAssembled();
        Objects.requireNonNull(file, "file");
        SparseAlgebra.export(this, file);
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

    void check() {
        if (destroyed) {
            throw new IllegalStateException("the sparse array was destroyed");
        }
    }

    void checkAssembled() {
        check();
        if (!assembled) {
            throw new IllegalStateException("assemble the sparse array first");
        }
    }

    @Override
    public String toString() {
        return "SparseArray[" + rows + " x " + cols + " " + type + "]" + (assembled ? " assembled" : "")
            + (destroyed ? " (destroyed)" : "");
    }
}
