package org.jhpvm.ga;

import java.util.Arrays;
import java.util.Objects;

/**
 * The 2-D plane of an N-D patch that a matrix product works on ({@code NGA_Matmul_patch}): the operand's own block
 * (its N-D corner, and the dimensions that hold its rows and its columns; every other dimension has extent 1), read
 * through {@link #nbGet} in row-major order.
 * <p>
 * Which two dimensions span the plane follows GA 5.9's {@code gai_setup_2d_patch}, seen through the C interface
 * (which reverses GA's Fortran index order): the two dimensions of extent above 1, in order; for a patch with one
 * such dimension {@code d} (a vector), the row dimension is {@code d} and the columns the next one when {@code op}
 * is a transpose and {@code d} is not the last dimension, else {@code d} is the column dimension and the row the
 * one before it (a first-dimension vector without transpose is a column, rows in dimension 0); a single element
 * takes the last two dimensions. A vector in a middle dimension is ambiguous: when the shapes do not multiply,
 * GA moves its plane one dimension on ({@link #shifted}).
 * <p>
 * {@code NGA_Matmul_patch} gives a transposed operand's bounds in {@code op(X)}'s coordinates: the bounds of its row
 * dimension are the rows of {@code op(X)}, that is the columns of X's block ({@link #of} with {@code alt == false});
 * its {@code _alt} form gives the bounds of X's own block.
 */
final class MatmulPlane {
    final GlobalArray x;
    /** X's block: its first subscript in every dimension. */
    final int[] corner;
    final int rowDim;
    final int colDim;
    /** X's block's rows and columns (before {@code op}). */
    final int rows;
    final int cols;
    /** A vector patch in a middle dimension, whose plane GA may move when the shapes disagree. */
    final boolean ambiguous;
    private final int[] lo;
    private final int[] hi;
    private final boolean transposed;
    private final boolean alt;
    private final String name;

    private MatmulPlane(final GlobalArray x, final int[] lo, final int[] hi, final boolean transposed,
        final boolean alt, final String name, final int shift) {
        this.x = x;
        this.lo = lo;
        this.hi = hi;
        this.transposed = transposed;
        this.alt = alt;
        this.name = name;
        final int rank = x.ndim;
        int first = -1;
        int second = -1;
        int wide = 0;
        for (int d = 0; d < rank; d++) {
            if (hi[d] > lo[d]) {
                if (++wide > 2) {
                    throw new IllegalArgumentException("matmulPatch: the patch of " + name + " " + x + " spans more "
                        + "than two dimensions: " + Arrays.toString(lo) + ".." + Arrays.toString(hi));
                }
                if (first < 0) {
                    first = d;
                } else {
                    second = d;
                }
            }
        }
        final int r;
        final int c;
        if (wide == 0) {
            r = rank - 2;
            c = rank - 1;
        } else if (wide == 2) {
            r = first;
            c = second;
        } else if (transposed && !alt) {
            r = first == rank - 1 ? rank - 2 : first;
            c = r + 1;
        } else {
            r = first == 0 ? 0 : first - 1;
            c = r + 1;
        }
        this.ambiguous = wide == 1 && first != 0 && first != rank - 1;
        if (shift != 0 && (r + shift < 0 || c + shift >= rank)) {
            throw new IllegalArgumentException("matmulPatch: the patches of A, B and C do not multiply");
        }
        this.rowDim = r + shift;
        this.colDim = c + shift;
        // X's own block: the given bounds, or for a transposed operand (NGA_Matmul_patch) those of op(X), whose
        // rows are X's columns: the bounds of the two plane dimensions swap.
        final int[] blo = lo.clone();
        final int[] bhi = hi.clone();
        if (transposed && !alt) {
            blo[rowDim] = lo[colDim];
            bhi[rowDim] = hi[colDim];
            blo[colDim] = lo[rowDim];
            bhi[colDim] = hi[rowDim];
        }
        x.checks.checkSection(blo, bhi, Algebra.ones(rank));
        this.corner = blo;
        this.rows = bhi[rowDim] - blo[rowDim] + 1;
        this.cols = bhi[colDim] - blo[colDim] + 1;
    }

    /**
     * The plane of operand {@code x} (named {@code name} in messages) for patch {@code lo..hi}.
     *
     * @param transposed whether {@code op} transposes it
     * @param alt        whether the bounds are X's own ({@code _alt}) rather than {@code op(X)}'s
     * @throws IllegalArgumentException for an array of fewer than 2 dimensions or a patch wider in more than 2
     * @throws IndexOutOfBoundsException for a block outside the array
     */
    static MatmulPlane of(final GlobalArray x, final int[] lo, final int[] hi, final boolean transposed,
        final boolean alt, final String name) {
        x.checkLive();
        if (x.ndim < 2) {
            throw new IllegalArgumentException("matmulPatch: " + name + " " + x + " must have at least 2 dimensions");
        }
        Objects.requireNonNull(lo, "lo");
        Objects.requireNonNull(hi, "hi");
        if (lo.length != x.ndim || hi.length != x.ndim) {
            throw new IllegalArgumentException("matmulPatch: the bounds of " + name + " need " + x.ndim
                + " subscripts each, as " + x + " has dimensions");
        }
        for (int d = 0; d < x.ndim; d++) {
            if (lo[d] > hi[d]) {
                throw new IllegalArgumentException("matmulPatch: " + name + "'s lo[" + d + "]=" + lo[d] + " > hi["
                    + d + "]=" + hi[d]);
            }
        }
        // The block itself is checked against the array once the plane is known (a transposed operand's bounds
        // are op(X)'s, which need not fit X as given).
        return new MatmulPlane(x, lo.clone(), hi.clone(), transposed, alt, name, 0);
    }

    /** This plane moved one dimension on (GA's resolution of an ambiguous vector). */
    MatmulPlane shifted() {
        return new MatmulPlane(x, lo, hi, transposed, alt, name, 1);
    }

    /** Rows of {@code op(X)}. */
    int opRows() {
        return transposed ? cols : rows;
    }

    /** Columns of {@code op(X)}. */
    int opCols() {
        return transposed ? rows : cols;
    }

    /** Starts a non-blocking get of rows {@code r0..} and columns {@code c0..} of X's block, row-major. */
    long nbGet(final int r0, final int c0, final int nr, final int nc, final Object buf) {
        final int[] l = corner.clone();
        l[rowDim] += r0;
        l[colDim] += c0;
        final int[] h = l.clone();
        h[rowDim] += nr - 1;
        h[colDim] += nc - 1;
        final int[] ld = new int[x.ndim - 1];
        for (int d = 0; d < ld.length; d++) {
            ld[d] = h[d + 1] - l[d + 1] + 1;
        }
        return x.nbGet(l, h, buf, ld);
    }

    /** X's block, first subscripts. */
    int[] blockLo() {
        return corner.clone();
    }

    /** X's block, last subscripts. */
    int[] blockHi() {
        final int[] h = corner.clone();
        h[rowDim] += rows - 1;
        h[colDim] += cols - 1;
        return h;
    }
}
