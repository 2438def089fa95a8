package org.jhpvm.ga;

import java.io.PrintStream;
import java.util.Objects;

/**
 * The whole-array and patch operations of a {@link GlobalArray}, one of the package-private superclasses that
 * hold its public methods: zero, fill, scale, abs, add, the element-wise operations, copy, transpose and dot,
 * collective; and the printing ({@code format} one-sided, {@code print} collective). The bodies are in
 * {@link Algebra}, which owner-computes between two group syncs.
 */
abstract sealed class AlgebraOps extends ElementAndGhostOps permits MatrixOps {
    AlgebraOps(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist, final GlobalArray overlayOf) {
        super(ga, group, type, name, dist, overlayOf);
    }

    // ---------------------------------------------------------------- printing (collective)

    /**
     * The section as a table, one row per last-dimension line ({@code NGA_Print_patch}'s text). One-sided.
     *
     * @param lo first subscript
     * @param hi last
     * @return the text
     */
    public String format(final int[] lo, final int[] hi) {
        return Algebra.format(self(), lo, hi);
    }

    /**
     * {@code GA_Print}: rank 0 of the group prints the whole array. Collective. The text is what {@link #format}
     * returns for the whole array; the group syncs before and after, so it shows every operation completed before
     * the call.
     *
     * @param out where rank 0 prints (flushed after); the other ranks do not use it
     * @throws IllegalStateException if the array was destroyed
     */
    public void print(final PrintStream out) {
        printPatch(out, wholeLo(), wholeHi());
    }

    /**
     * {@code NGA_Print_patch}: rank 0 of the group prints the section {@code lo..hi} as {@link #format} lays it out.
     * Collective, between two group syncs like {@link #print}; the section is checked on each PE before the first.
     *
     * @param out where rank 0 prints (flushed after); the other ranks do not use it
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]} or {@code lo}/{@code hi} have the wrong length
     */
    public void printPatch(final PrintStream out, final int[] lo, final int[] hi) {
        Algebra.printPatch(self(), out, lo, hi);
    }

    // ---------------------------------------------------------------- whole-array and patch algebra (collective)

    final int[] wholeLo() {
        return new int[ndim];
    }

    final int[] wholeHi() {
        final int[] hi = dims();
        for (int d = 0; d < ndim; d++) {
            hi[d]--;
        }
        return hi;
    }

    /** {@code GA_Zero}. Collective. */
    public void zero() {
        fill(0);
    }

    /**
     * {@code GA_Fill}: sets every element (ghost cells excepted) to {@code value}; for int/long arrays the value must
     * be an integer. Collective.
     *
     * @param value the value: for int/long arrays an integer within the type's range, for float arrays rounded to float
     * @throws IllegalArgumentException if an int/long array is given a non-integer or out-of-range value (checked
     *                                  before anything is sent)
     */
    public void fill(final double value) {
        fillPatch(wholeLo(), wholeHi(), value);
    }

    /**
     * {@code NGA_Zero_patch}: sets the elements of the section {@code lo..hi} to 0. Collective.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]} or {@code lo}/{@code hi} have the wrong length
     */
    public void zeroPatch(final int[] lo, final int[] hi) {
        fillPatch(lo, hi, 0);
    }

    /**
     * {@code NGA_Fill_patch}: sets the elements of the section {@code lo..hi} to {@code value}. Collective.
     *
     * @param lo    first subscript
     * @param hi    last subscript (inclusive)
     * @param value value: for int/long arrays an integer within the type's range
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]} or {@code lo}/{@code hi} have the wrong length,
     *                                   or for a value an int/long array cannot hold
     */
    public void fillPatch(final int[] lo, final int[] hi, final double value) {
        Algebra.zip(Algebra.FILL, self(), lo, hi, null, null, null, null, null, null, value, 0, false);
    }

    /**
     * {@code GA_Scale}: multiplies every element. Collective.
     *
     * @param alpha factor (an integer for int/long, within the type's range)
     * @throws IllegalArgumentException if an int/long array is given a non-integer or out-of-range factor
     */
    public void scale(final double alpha) {
        scalePatch(wholeLo(), wholeHi(), alpha);
    }

    /**
     * {@code NGA_Scale_patch}: multiplies every element of the section {@code lo..hi} by {@code alpha}. Collective.
     *
     * @param lo    first subscript
     * @param hi    last subscript (inclusive)
     * @param alpha factor (an integer for int/long, within the type's range)
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]} or {@code lo}/{@code hi} have the wrong length,
     *                                   or for a factor an int/long array cannot hold
     */
    public void scalePatch(final int[] lo, final int[] hi, final double alpha) {
        Algebra.zip(Algebra.SCALE, self(), lo, hi, null, null, null, null, null, null, alpha, 0, false);
    }

    /** {@code GA_Abs_value}. Collective. */
    public void abs() {
        Algebra.zip(Algebra.ABS, self(), wholeLo(), wholeHi(), null, null, null, null, null, null, 0, 0, false);
    }

    /**
     * {@code GA_Add_constant}: adds {@code c} to every element. Collective.
     *
     * @param c the constant (an integer for int/long, within the type's range)
     * @throws IllegalArgumentException if an int/long array is given a non-integer or out-of-range constant
     */
    public void addConstant(final double c) {
        Algebra.zip(Algebra.ADD_CONSTANT, self(), wholeLo(), wholeHi(), null, null, null, null, null, null, c, 0,
            false);
    }

    /**
     * {@code GA_Elem_multiply}: this = a * b element-wise (integer products wrap as Java's do). Collective. {@code a}
     * and {@code b} are whole arrays of this array's group and type, with its shape (unit dimensions aside) and any
     * distribution; either may be this array itself, as every operand is read before anything is written.
     *
     * @param a operand
     * @param b operand
     * @throws IllegalArgumentException if an operand is on another group, holds another type or has another shape
     */
    public void elemMultiply(final GlobalArray a, final GlobalArray b) {
        elementWise(Algebra.MUL, a, b);
    }

    /**
     * {@code GA_Elem_divide}: this = a / b. Float and double quotients follow IEEE 754 (a zero divisor gives an
     * infinity or NaN); int and long quotients truncate toward zero, and a zero divisor anywhere fails the whole call.
     * Collective. {@code a} and {@code b} are whole arrays of this array's group and type, with its shape (unit
     * dimensions aside) and any distribution; either may be this array itself, as every operand is read before anything
     * is written.
     *
     * @param a operand, the dividend
     * @param b operand, the divisor
     * @throws IllegalArgumentException if an operand is on another group, holds another type or has another shape
     * @throws ArithmeticException      for an int/long array with a zero in {@code b}: thrown on every PE of the group,
     *                                  and nothing is written
     */
    public void elemDivide(final GlobalArray a, final GlobalArray b) {
        elementWise(Algebra.DIV, a, b);
    }

    /**
     * {@code GA_Elem_maximum}: this = max(a, b) element-wise (as {@code Math.max}: a NaN operand gives NaN).
     * Collective. {@code a} and {@code b} are whole arrays of this array's group and type, with its shape (unit
     * dimensions aside) and any distribution; either may be this array itself, as every operand is read before anything
     * is written.
     *
     * @param a operand
     * @param b operand
     * @throws IllegalArgumentException if an operand is on another group, holds another type or has another shape
     */
    public void elemMaximum(final GlobalArray a, final GlobalArray b) {
        elementWise(Algebra.MAX, a, b);
    }

    /**
     * {@code GA_Elem_minimum}: this = min(a, b) element-wise (as {@code Math.min}: a NaN operand gives NaN).
     * Collective. {@code a} and {@code b} are whole arrays of this array's group and type, with its shape (unit
     * dimensions aside) and any distribution; either may be this array itself, as every operand is read before anything
     * is written.
     *
     * @param a operand
     * @param b operand
     * @throws IllegalArgumentException if an operand is on another group, holds another type or has another shape
     */
    public void elemMinimum(final GlobalArray a, final GlobalArray b) {
        elementWise(Algebra.MIN, a, b);
    }

    private void elementWise(final int op, final GlobalArray a, final GlobalArray b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Algebra.zip(op, self(), wholeLo(), wholeHi(), a, a.wholeLo(), a.wholeHi(), b, b.wholeLo(), b.wholeHi(), 0, 0,
            false);
    }

    /**
     * {@code GA_Copy}: copies every element of this array into {@code dest} (same type and element count, any
     * distribution; different shapes are matched in storage order). Collective over the arrays' group; between an
     * array on a processor group and one on the world group, collective over the smaller group (GA's rule).
     *
     * @param dest the destination
     */
    public void copy(final GlobalArray dest) {
        Objects.requireNonNull(dest, "dest");
        Algebra.copy(dest, dest.wholeLo(), dest.wholeHi(), self(), wholeLo(), wholeHi(), false);
    }

    /**
     * {@code NGA_Copy_patch}: this array's patch into {@code dest}'s patch. The patches match after dropping unit
     * dimensions; patches of different shapes with the same element count are matched in storage order (a reshaping
     * copy); with {@code trans} 'T' every subscript is reversed (a transpose in any number of dimensions, the
     * extents matching in reverse order). Collective over the arrays' group; between an array on a processor group
     * and one on the world group, collective over the smaller group, whose members do the copy (GA's rule).
     *
     * @param trans 'N' or 'T'
     * @param lo    first subscript here
     * @param hi    last here
     * @param dest  destination array
     * @param dlo   first subscript there
     * @param dhi   last there
     */
    public void copyPatch(final char trans, final int[] lo, final int[] hi, final GlobalArray dest, final int[] dlo,
        final int[] dhi) {
        Objects.requireNonNull(dest, "dest");
        Algebra.copy(dest, dlo, dhi, self(), lo, hi, transFlag(trans));
    }

    /**
     * {@code GA_Transpose}: {@code dest = this^T} for 2-D arrays. Collective. {@code dest} is on this array's group,
     * holds the same type and may have any distribution.
     *
     * @param dest the n x m destination of this m x n array
     * @throws IllegalArgumentException if either array is not 2-D, or {@code dest} has another shape, type or group
     */
    public void transpose(final GlobalArray dest) {
        Objects.requireNonNull(dest, "dest");
        if (ndim != 2 || dest.ndim != 2) {
            throw new IllegalArgumentException("transpose needs 2-D arrays");
        }
        Algebra.zip(Algebra.COPY, dest, dest.wholeLo(), dest.wholeHi(), self(), wholeLo(), wholeHi(), null, null,
            null, 0, 0, true);
    }

    /**
     * {@code GA_Add}: {@code this = alpha*a + beta*b} (same shapes, any distributions). Collective.
     *
     * @param alpha scale of a (an integer for int/long)
     * @param a     operand
     * @param beta  scale of b (an integer for int/long)
     * @param b     operand
     */
    public void add(final double alpha, final GlobalArray a, final double beta, final GlobalArray b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Algebra.zip(Algebra.ADD, self(), wholeLo(), wholeHi(), a, a.wholeLo(), a.wholeHi(), b, b.wholeLo(),
            b.wholeHi(), alpha, beta, false);
    }

    /**
     * {@code NGA_Add_patch}: {@code this[lo..hi] = alpha*a[alo..ahi] + beta*b[blo..bhi]}. Collective.
     *
     * @param alpha scale of a
     * @param a     operand
     * @param alo   its first subscript
     * @param ahi   its last
     * @param beta  scale of b
     * @param b     operand
     * @param blo   its first subscript
     * @param bhi   its last
     * @param lo    first subscript here
     * @param hi    last here
     */
    public void addPatch(final double alpha, final GlobalArray a, final int[] alo, final int[] ahi, final double beta,
        final GlobalArray b, final int[] blo, final int[] bhi, final int[] lo, final int[] hi) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Algebra.zip(Algebra.ADD, self(), lo, hi, a, alo, ahi, b, blo, bhi, alpha, beta, false);
    }

    /**
     * {@code GA_Ddot} (and Fdot): the sum of element-wise products, the same on every PE. Collective. On int and long
     * arrays the sum is computed exactly in long arithmetic and returned as a double, rounded above 2^53: use
     * {@link #ldot} for the exact value.
     *
     * @param b the other array (same type; the same element count, matched in storage order when the shapes differ)
     * @return the dot product
     */
    public double dot(final GlobalArray b) {
        Objects.requireNonNull(b, "b");
        return Algebra.dot(self(), wholeLo(), wholeHi(), b, b.wholeLo(), b.wholeHi(), false);
    }

    /**
     * {@code GA_Ldot} (and {@code GA_Idot}): the exact dot product of int or long arrays, in long arithmetic
     * (wrapping on overflow as Java's long does), the same on every PE. Collective.
     *
     * @param b the other array (same type; the same element count)
     * @return the dot product
     * @throws IllegalArgumentException if the arrays hold float or double (use {@link #dot}), or differ in type or
     *                                  element count (before anything is sent)
     */
    public long ldot(final GlobalArray b) {
        Objects.requireNonNull(b, "b");
        return Algebra.ldot(self(), wholeLo(), wholeHi(), b, b.wholeLo(), b.wholeHi(), false);
    }

    /**
     * {@code NGA_Ldot_patch}: the exact dot product of two int or long patches, with GA's transpose flags.
     * Collective.
     *
     * @param ta  'N', or 'T' to use this patch transposed
     * @param lo  first subscript here
     * @param hi  last here
     * @param b   the other array
     * @param tb  'N' or 'T' for b's patch
     * @param blo its first subscript
     * @param bhi its last
     * @return the dot product of the patches
     * @throws IllegalArgumentException for float or double arrays, a bad flag, or patches that do not match
     */
    public long ldotPatch(final char ta, final int[] lo, final int[] hi, final GlobalArray b, final char tb,
        final int[] blo, final int[] bhi) {
        Objects.requireNonNull(b, "b");
        return Algebra.ldot(self(), lo, hi, b, blo, bhi, transFlag(ta) != transFlag(tb));
    }

    /**
     * {@code NGA_Ddot_patch} with GA's transpose flags: {@code ta}/{@code tb} 'T' use that patch transposed (its
     * subscripts reversed, in any number of dimensions); two transposes cancel. Collective.
     *
     * @param ta  'N' or 'T' for this patch
     * @param lo  first subscript here
     * @param hi  last here
     * @param b   the other array
     * @param tb  'N' or 'T' for b's patch
     * @param blo its first subscript
     * @param bhi its last
     * @return the dot product of the patches
     * @throws IllegalArgumentException for a bad flag, or patches that do not match
     */
    public double dotPatch(final char ta, final int[] lo, final int[] hi, final GlobalArray b, final char tb,
        final int[] blo, final int[] bhi) {
        Objects.requireNonNull(b, "b");
        return Algebra.dot(self(), lo, hi, b, blo, bhi, transFlag(ta) != transFlag(tb));
    }

    static boolean transFlag(final char t) {
        return switch (t) {
            case 'N', 'n' -> false;
            case 'T', 't' -> true;
            default -> throw new IllegalArgumentException("trans='" + t + "': 'N' or 'T'");
        };
    }

    /**
     * {@code NGA_Ddot_patch}. Collective.
     *
     * @param lo  first subscript here
     * @param hi  last here
     * @param b   the other array
     * @param blo its first subscript
     * @param bhi its last
     * @return the dot product of the patches
     */
    public double dotPatch(final int[] lo, final int[] hi, final GlobalArray b, final int[] blo, final int[] bhi) {
        Objects.requireNonNull(b, "b");
        return Algebra.dot(self(), lo, hi, b, blo, bhi, false);
    }
}
