package org.jhpvm.ga;

import java.util.Objects;

/**
 * The element-wise patch family, the diagonal family, row and column scaling, norms, median, symmetrization and
 * step lengths of a {@link GlobalArray} (GA 5's {@code GA_Elem_*_patch}, {@code GA_Recip}, {@code GA_Step_max},
 * {@code GA_Get_diag}, {@code GA_Set_diagonal}, {@code GA_Norm1}, ...): one of the package-private superclasses that
 * hold its public methods (documented on its page). Every method is collective over the array's group; the work is
 * {@link Algebra#zip}'s and {@link MatrixMath}'s.
 */
abstract sealed class MatrixOps extends AlgebraOps permits ComplexOps {
    /**
     * What {@link #stepMax} returns when no element limits the step: GA's {@code GA_INFINITY_D}.
     */
    public static final double STEP_INFINITY = MatrixMath.GA_INFINITY;

    private long randomizeCalls;

    MatrixOps(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist, final GlobalArray overlayOf) {
        super(ga, group, type, name, dist, overlayOf);
    }

    // ---------------------------------------------------------------- element-wise patches

    /**
     * {@code GA_Abs_value_patch}: every element of the section replaced by its absolute value. Collective.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @throws IndexOutOfBoundsException if the section leaves the array (nothing changes)
     */
    public void absValuePatch(final int[] lo, final int[] hi) {
        Algebra.zip(Algebra.ABS, self(), lo, hi, null, null, null, null, null, null, 0, 0, false);
    }

    /**
     * {@code GA_Add_constant_patch}: {@code c} added to every element of the section. Collective.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @param c  the constant (an integer for int/long, within the type's range)
     * @throws IllegalArgumentException if an int/long array is given a non-integer constant (nothing changes)
     */
    public void addConstantPatch(final int[] lo, final int[] hi, final double c) {
        Algebra.zip(Algebra.ADD_CONSTANT, self(), lo, hi, null, null, null, null, null, null, c, 0, false);
    }

    /**
     * {@code GA_Recip}: every element replaced by its reciprocal (int/long: Java's integer {@code 1 / x}). Collective.
     *
     * @throws ArithmeticException on every PE, with nothing written, if an int/long element is 0
     */
    public void recip() {
        recipPatch(wholeLo(), wholeHi());
    }

    /**
     * {@code GA_Recip_patch}: as {@link #recip()}, on the section {@code lo..hi}. Collective.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @throws ArithmeticException on every PE, with nothing written, if an int/long element is 0
     */
    public void recipPatch(final int[] lo, final int[] hi) {
        Algebra.zip(Algebra.RECIP, self(), lo, hi, null, null, null, null, null, null, 0, 0, false);
    }

    /**
     * {@code GA_Elem_multiply_patch}: {@code this[lo..hi] = a[alo..ahi] * b[blo..bhi]} element by element (patches
     * matched as {@link #copyPatch} matches them). Collective.
     *
     * @param a   operand
     * @param alo its first subscript
     * @param ahi its last
     * @param b   operand
     * @param blo its first subscript
     * @param bhi its last
     * @param lo  first subscript here
     * @param hi  last here
     */
    public void elemMultiplyPatch(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi, final int[] lo, final int[] hi) {
        elem(Algebra.MUL, a, alo, ahi, b, blo, bhi, lo, hi);
    }

    /**
     * {@code GA_Elem_divide_patch}: {@code this[lo..hi] = a / b} element by element. Collective.
     *
     * @param a   dividend
     * @param alo its first subscript
     * @param ahi its last
     * @param b   divisor
     * @param blo its first subscript
     * @param bhi its last
     * @param lo  first subscript here
     * @param hi  last here
     * @throws ArithmeticException on every PE, with nothing written, for an int/long zero divisor
     */
    public void elemDividePatch(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi, final int[] lo, final int[] hi) {
        elem(Algebra.DIV, a, alo, ahi, b, blo, bhi, lo, hi);
    }

    /**
     * {@code GA_Elem_maximum_patch}: {@code this[lo..hi] = max(a, b)} element by element. Collective.
     *
     * @param a   operand
     * @param alo its first subscript
     * @param ahi its last
     * @param b   operand
     * @param blo its first subscript
     * @param bhi its last
     * @param lo  first subscript here
     * @param hi  last here
     */
    public void elemMaximumPatch(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi, final int[] lo, final int[] hi) {
        elem(Algebra.MAX, a, alo, ahi, b, blo, bhi, lo, hi);
    }

    /**
     * {@code GA_Elem_minimum_patch}: {@code this[lo..hi] = min(a, b)} element by element. Collective.
     *
     * @param a   operand
     * @param alo its first subscript
     * @param ahi its last
     * @param b   operand
     * @param blo its first subscript
     * @param bhi its last
     * @param lo  first subscript here
     * @param hi  last here
     */
    public void elemMinimumPatch(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi, final int[] lo, final int[] hi) {
        elem(Algebra.MIN, a, alo, ahi, b, blo, bhi, lo, hi);
    }

    private void elem(final int op, final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi, final int[] lo, final int[] hi) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Algebra.zip(op, self(), lo, hi, a, alo, ahi, b, blo, bhi, 0, 0, false);
    }

    /**
     * {@code GA_Median}: {@code this = median(a, b, c)} element by element (whole arrays of this array's group, type
     * and element count). Collective.
     *
     * @param a operand
     * @param b operand
     * @param c operand
     */
    public void median(final GlobalArray a, final GlobalArray b, final GlobalArray c) {
        checks.checkReal("median");
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(c, "c");
        MatrixMath.median(self(), wholeLo(), wholeHi(), a, a.wholeLo(), a.wholeHi(), b, b.wholeLo(), b.wholeHi(), c,
            c.wholeLo(), c.wholeHi());
    }

    /**
     * {@code GA_Median_patch}: {@code this[lo..hi] = median(a[alo..ahi], b[blo..bhi], c[clo..chi])}. Collective.
     *
     * @param a   operand
     * @param alo its first subscript
     * @param ahi its last
     * @param b   operand
     * @param blo its first subscript
     * @param bhi its last
     * @param c   operand
     * @param clo its first subscript
     * @param chi its last
     * @param lo  first subscript here
     * @param hi  last here
     */
    public void medianPatch(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi, final GlobalArray c, final int[] clo, final int[] chi, final int[] lo,
        final int[] hi) {
        checks.checkReal("medianPatch");
        MatrixMath.median(self(), lo, hi, Objects.requireNonNull(a, "a"), alo, ahi, Objects.requireNonNull(b, "b"),
            blo, bhi, Objects.requireNonNull(c, "c"), clo, chi);
    }

    /**
     * {@code GA_Step_max}: the largest {@code t >= 0} such that {@code this + t*b} has no negative element: the least
     * {@code -this[i]/b[i]} where {@code b[i] < 0}, or {@link #STEP_INFINITY} where no element of {@code b} is
     * negative. Collective; the same on every PE.
     *
     * @param b the direction (this array's group, type and element count)
     * @return the step
     * @throws IllegalArgumentException on every PE if this array has a negative element (GA requires none)
     */
    public double stepMax(final GlobalArray b) {
        checks.checkReal("stepMax");
        Objects.requireNonNull(b, "b");
        return MatrixMath.stepMax(self(), wholeLo(), wholeHi(), b, b.wholeLo(), b.wholeHi());
    }

    /**
     * {@code GA_Step_max_patch}: {@link #stepMax} on patches. Collective.
     *
     * @param lo  first subscript here
     * @param hi  last here
     * @param b   the direction
     * @param blo its first subscript
     * @param bhi its last
     * @return the step
     * @throws IllegalArgumentException on every PE if this patch has a negative element
     */
    public double stepMaxPatch(final int[] lo, final int[] hi, final GlobalArray b, final int[] blo,
        final int[] bhi) {
        checks.checkReal("stepMaxPatch");
        return MatrixMath.stepMax(self(), lo, hi, Objects.requireNonNull(b, "b"), blo, bhi);
    }

    /**
     * {@code GA_Randomize}: every element set to a pseudo-random value in {@code [0, max)} (int/long: an integer in
     * {@code 0 .. ceil(max)-1}). Each value depends only on the array's creation order, the call's order and the
     * element's subscript, so the result is the same on any number of PEs and in every run. Collective.
     *
     * @param max the bound, positive
     * @throws IllegalArgumentException if {@code max} is not positive (nothing changes)
     */
    public void randomize(final double max) {
        checks.checkReal("randomize");
        if (!(max > 0)) {
            throw new IllegalArgumentException("randomize bound " + max + " must be positive");
        }
        MatrixMath.randomize(self(), max, ++randomizeCalls);
    }

    // ---------------------------------------------------------------- mirrored arrays

    /**
     * {@code GA_Is_mirrored}: whether the array was created on {@link GlobalArrays#pgroupGetMirror()}.
     *
     * @return true for a mirrored array
     */
    public boolean isMirrored() {
        return group.mirror;
    }

    /**
     * {@code GA_Merge_mirrored}: adds the copies of this mirrored array on every node together, so that every copy
     * holds the sum (ghost cells excepted). Collective over all PEs of the job.
     *
     * @throws IllegalStateException if the array is not mirrored or was destroyed
     */
    public void mergeMirrored() {
        checks.checkReal("mergeMirrored");
        Mirrors.merge(self());
    }

    /**
     * {@code NGA_Merge_distr_patch}: {@code b[blo..bhi] = } the sum over every node's copy of this mirrored array's
     * patch {@code lo..hi}; {@code b} is an ordinary (distributed) array of the same type, its patch of the same
     * shape. Collective over all PEs of the job.
     *
     * @param lo  this patch's first subscript
     * @param hi  its last
     * @param b   the distributed array
     * @param blo its patch's first subscript
     * @param bhi its last
     * @throws IllegalStateException    if this array is not mirrored, or {@code b} is
     * @throws IllegalArgumentException for another type, or patches of different shapes
     */
    public void mergeDistrPatch(final int[] lo, final int[] hi, final GlobalArray b, final int[] blo,
        final int[] bhi) {
        Mirrors.mergeDistrPatch(self(), lo, hi, Objects.requireNonNull(b, "b"), blo, bhi);
    }

    // ---------------------------------------------------------------- vectors (1-D)

    /**
     * {@code GA_Scan_add}: a segmented prefix sum of this 1-D array into {@code dst} over {@code lo..hi}. A segment
     * starts at every element whose {@code mask} is not 0; inclusive, {@code dst[i]} is the sum of this array from
     * its segment's start to {@code i}; exclusive, to {@code i - 1} (0 at the start). Elements of {@code lo..hi}
     * before the first start keep their value. Collective over the arrays' group.
     *
     * @param dst       the result (1-D, this array's type and group; may be this array)
     * @param mask      segment starts (1-D, any type, this array's group)
     * @param lo        first element
     * @param hi        last element
     * @param exclusive whether each element's own value is left out
     * @throws IllegalArgumentException  if an array is not 1-D or on another group, or {@code dst} has another type
     * @throws IndexOutOfBoundsException if {@code lo..hi} is empty or leaves this array or the mask
     */
    public void scanAdd(final GlobalArray dst, final GlobalArray mask, final int lo, final int hi,
        final boolean exclusive) {
        VectorMath.scan(self(), Objects.requireNonNull(dst, "dst"), Objects.requireNonNull(mask, "mask"), lo, hi,
            exclusive ? VectorMath.ADD_EXCLUSIVE : VectorMath.ADD_INCLUSIVE);
    }

    /**
     * {@code GA_Scan_copy}: a segmented copy: {@code dst[i]} is this array's element at the start of {@code i}'s
     * segment (segments as in {@link #scanAdd}). Collective over the arrays' group.
     *
     * @param dst  the result (1-D, this array's type and group)
     * @param mask segment starts
     * @param lo   first element
     * @param hi   last element
     */
    public void scanCopy(final GlobalArray dst, final GlobalArray mask, final int lo, final int hi) {
        VectorMath.scan(self(), Objects.requireNonNull(dst, "dst"), Objects.requireNonNull(mask, "mask"), lo, hi,
            VectorMath.COPY);
    }

    /**
     * {@code GA_Pack}: the elements of this 1-D array in {@code lo..hi} whose {@code mask} is not 0, in order, into
     * {@code dst} from index 0. Collective over the arrays' group.
     *
     * @param dst  the packed result (1-D, this array's type and group)
     * @param mask the selection (1-D, any type)
     * @param lo   first element
     * @param hi   last element
     * @return how many elements were selected ({@code icount}), the same on every PE
     * @throws IllegalArgumentException if {@code dst} is too short for them (nothing moves), or as {@link #scanAdd}
     */
    public long pack(final GlobalArray dst, final GlobalArray mask, final int lo, final int hi) {
        return VectorMath.pack(self(), Objects.requireNonNull(dst, "dst"), Objects.requireNonNull(mask, "mask"), lo,
            hi, true);
    }

    /**
     * {@code GA_Unpack}: the first elements of this 1-D array, in order, into the positions of {@code dst}'s
     * {@code lo..hi} whose {@code mask} is not 0; {@code dst}'s other elements keep their value. Collective.
     *
     * @param dst  the destination (1-D, this array's type and group)
     * @param mask the positions (1-D, any type)
     * @param lo   first element of {@code dst}
     * @param hi   last element of {@code dst}
     * @return how many positions were filled ({@code icount})
     * @throws IllegalArgumentException if this array holds fewer elements than positions (nothing moves)
     */
    public long unpack(final GlobalArray dst, final GlobalArray mask, final int lo, final int hi) {
        return VectorMath.pack(self(), Objects.requireNonNull(dst, "dst"), Objects.requireNonNull(mask, "mask"), lo,
            hi, false);
    }

    /**
     * {@code GA_Patch_enum}: {@code this[i] = start + (i - lo) * inc} for {@code lo <= i <= hi} of this 1-D array.
     * Collective.
     *
     * @param lo    first element
     * @param hi    last element
     * @param start the first value (an integer for int/long)
     * @param inc   the step (an integer for int/long)
     * @throws IllegalArgumentException  if the array is not 1-D, or an int/long array gets a fraction
     * @throws IndexOutOfBoundsException if {@code lo..hi} is empty or leaves the array
     */
    public void patchEnum(final int lo, final int hi, final double start, final double inc) {
        VectorMath.patchEnum(self(), lo, hi, start, inc);
    }

    /**
     * {@code GA_Step_bound_info}: how far this array {@code x} may move along {@code v} within the bounds
     * {@code lower <= x + t*v <= upper} (all four of this array's group, type and element count): with
     * {@code t_i = (upper_i - x_i) / v_i} where {@code v_i > 0} and {@code (lower_i - x_i) / v_i} where
     * {@code v_i < 0}, returns {@code {boundmin, wolfemin, boundmax}} = {@code {min t_i, min positive t_i,
     * max t_i}}; the minima are {@link #STEP_INFINITY} and the maximum 0 when no {@code v_i} is non-zero.
     * Collective; the same on every PE.
     *
     * @param v     the direction
     * @param lower the lower bounds
     * @param upper the upper bounds
     * @return {@code {boundmin, wolfemin, boundmax}}
     * @throws IllegalArgumentException for arrays of another type, group or element count
     */
    public double[] stepBoundInfo(final GlobalArray v, final GlobalArray lower, final GlobalArray upper) {
        checks.checkReal("stepBoundInfo");
        return MatrixMath.stepBoundInfo(self(), Objects.requireNonNull(v, "v"), Objects.requireNonNull(lower,
            "lower"), Objects.requireNonNull(upper, "upper"));
    }

    // ---------------------------------------------------------------- matrices

    /**
     * {@code GA_Get_diag}: copies the diagonal of this 2-D array into the vector {@code v} of {@code min(rows, cols)}
     * elements, of this array's type and group. Collective.
     *
     * @param v the vector
     * @throws IllegalArgumentException if this array is not 2-D, or {@code v} has another type, group or length
     */
    public void getDiag(final GlobalArray v) {
        checks.checkReal("getDiag");
        MatrixMath.check2d(self(), "getDiag");
        MatrixMath.checkVector(self(), Objects.requireNonNull(v, "v"), Math.min(dims()[0], dims()[1]), "getDiag");
        MatrixMath.getDiag(self(), v);
    }

    /**
     * {@code GA_Set_diagonal}: the diagonal of this 2-D array set to the vector {@code v} ({@code min(rows, cols)}
     * elements). Collective.
     *
     * @param v the vector
     * @throws IllegalArgumentException if this array is not 2-D, or {@code v} has another type, group or length
     */
    public void setDiagonal(final GlobalArray v) {
        checks.checkReal("setDiagonal");
        diagonal(MatrixMath.SET_DIAGONAL, v, "setDiagonal");
    }

    /**
     * {@code GA_Add_diagonal}: the vector {@code v} added to the diagonal of this 2-D array. Collective.
     *
     * @param v the vector ({@code min(rows, cols)} elements)
     * @throws IllegalArgumentException if this array is not 2-D, or {@code v} has another type, group or length
     */
    public void addDiagonal(final GlobalArray v) {
        checks.checkReal("addDiagonal");
        diagonal(MatrixMath.ADD_DIAGONAL, v, "addDiagonal");
    }

    private void diagonal(final int op, final GlobalArray v, final String what) {
        MatrixMath.check2d(self(), what);
        MatrixMath.checkVector(self(), Objects.requireNonNull(v, "v"), Math.min(dims()[0], dims()[1]), what);
        MatrixMath.update(self(), op, v, 0);
    }

    /**
     * {@code GA_Shift_diagonal}: {@code c} added to every diagonal element of this 2-D array. Collective.
     *
     * @param c the constant (an integer for int/long)
     * @throws IllegalArgumentException if this array is not 2-D, or an int/long array gets a non-integer
     */
    public void shiftDiagonal(final double c) {
        checks.checkReal("shiftDiagonal");
        MatrixMath.check2d(self(), "shiftDiagonal");
        if (!type.isFloating() && c != Math.rint(c)) {
            throw new IllegalArgumentException("shiftDiagonal(" + c + ") on " + self() + ": an integer is needed");
        }
        MatrixMath.update(self(), MatrixMath.SHIFT_DIAGONAL, null, c);
    }

    /**
     * {@code GA_Zero_diagonal}: every diagonal element of this 2-D array set to 0. Collective.
     *
     * @throws IllegalArgumentException if this array is not 2-D
     */
    public void zeroDiagonal() {
        checks.checkReal("zeroDiagonal");
        MatrixMath.check2d(self(), "zeroDiagonal");
        MatrixMath.update(self(), MatrixMath.ZERO_DIAGONAL, null, 0);
    }

    /**
     * {@code GA_Scale_rows}: row {@code i} of this 2-D array multiplied by {@code v[i]} ({@code rows} elements).
     * Collective.
     *
     * @param v the vector
     * @throws IllegalArgumentException if this array is not 2-D, or {@code v} has another type, group or length
     */
    public void scaleRows(final GlobalArray v) {
        checks.checkReal("scaleRows");
        MatrixMath.check2d(self(), "scaleRows");
        MatrixMath.checkVector(self(), Objects.requireNonNull(v, "v"), dims()[0], "scaleRows");
        MatrixMath.update(self(), MatrixMath.SCALE_ROWS, v, 0);
    }

    /**
     * {@code GA_Scale_cols}: column {@code j} of this 2-D array multiplied by {@code v[j]} ({@code cols} elements).
     * Collective.
     *
     * @param v the vector
     * @throws IllegalArgumentException if this array is not 2-D, or {@code v} has another type, group or length
     */
    public void scaleCols(final GlobalArray v) {
        checks.checkReal("scaleCols");
        MatrixMath.check2d(self(), "scaleCols");
        MatrixMath.checkVector(self(), Objects.requireNonNull(v, "v"), dims()[1], "scaleCols");
        MatrixMath.update(self(), MatrixMath.SCALE_COLS, v, 0);
    }

    /**
     * {@code GA_Norm1}: the sum of the absolute values of every element, of a matrix as of a vector (GA 5.9 computes
     * it element-wise, not as the largest column sum); of a complex array, of moduli. Collective; the same on every
     * PE.
     *
     * @return the 1-norm
     * @throws IllegalArgumentException for an array of more than 2 dimensions
     */
    public double norm1() {
        return MatrixMath.norm(self(), false);
    }

    /**
     * {@code GA_Norm_infinity}: the largest absolute value of any element, of a matrix as of a vector (GA 5.9
     * computes it element-wise, not as the largest row sum); of a complex array, of moduli. Collective; the same on
     * every PE.
     *
     * @return the infinity norm
     * @throws IllegalArgumentException for an array of more than 2 dimensions
     */
    public double normInfinity() {
        return MatrixMath.norm(self(), true);
    }

    /**
     * {@code GA_Symmetrize}: {@code this = (this + this^T) / 2} for a square float or double matrix. Collective.
     *
     * @throws IllegalArgumentException if this array is not a square 2-D float or double array
     */
    public void symmetrize() {
        checks.checkReal("symmetrize");
        MatrixMath.symmetrize(self());
    }
}
