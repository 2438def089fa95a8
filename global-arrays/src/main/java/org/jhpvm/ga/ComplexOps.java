package org.jhpvm.ga;

import java.util.Objects;

/**
 * The forms of a {@link GlobalArray}'s operations that take or give complex values, for arrays of
 * {@link GaType#SCPL} and {@link GaType#DCPL}: fill, scale, add-constant and add with complex scalars, the complex
 * dot products ({@code GA_Zdot}, {@code GA_Cdot} and their patch forms) and accumulate with a complex alpha. One of
 * the package-private superclasses that hold its public methods (documented on its page). A complex value is a
 * {@code (re, im)} pair of arguments, a complex result a {@code double[] {re, im}}; buffers hold interleaved pairs
 * ({@link GaType}). The operations with real scalars ({@code fill(double)}, {@code scale(double)}, {@code add},
 * {@code acc} with a real alpha, and the element-wise family) work on complex arrays as they are.
 */
abstract sealed class ComplexOps extends MatrixOps permits NonBlockingAndPeriodicOps {
    ComplexOps(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist, final GlobalArray overlayOf) {
        super(ga, group, type, name, dist, overlayOf);
    }

    /**
     * {@code GA_Fill} with a complex value: sets every element to {@code re + i im}. Collective.
     *
     * @param re real part
     * @param im imaginary part
     * @throws IllegalArgumentException if {@code im} is not 0 and the array is not complex (nothing changes)
     */
    public void fill(final double re, final double im) {
        fillPatch(wholeLo(), wholeHi(), re, im);
    }

    /**
     * {@code NGA_Fill_patch} with a complex value. Collective.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @param re real part
     * @param im imaginary part
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code im} is not 0 and the array is not complex
     */
    public void fillPatch(final int[] lo, final int[] hi, final double re, final double im) {
        Algebra.zip(Algebra.FILL, self(), lo, hi, null, null, null, null, null, null, re, im, 0, 0, false);
    }

    /**
     * {@code GA_Patch_enum} with a complex start and step: {@code this[i] = start + (i - lo) * inc} for
     * {@code lo <= i <= hi} of this 1-D array. Collective.
     *
     * @param lo      first element
     * @param hi      last element
     * @param startRe real part of the first value
     * @param startIm imaginary part of the first value
     * @param incRe   real part of the step
     * @param incIm   imaginary part of the step
     * @throws IllegalArgumentException  if the array is not 1-D, or an imaginary part is not 0 on a real array
     * @throws IndexOutOfBoundsException if {@code lo..hi} is empty or leaves the array
     */
    public void patchEnum(final int lo, final int hi, final double startRe, final double startIm, final double incRe,
        final double incIm) {
        VectorMath.patchEnum(self(), lo, hi, startRe, startIm, incRe, incIm);
    }

    /**
     * {@code GA_Scale} with a complex factor. Collective.
     *
     * @param re real part of the factor
     * @param im imaginary part
     * @throws IllegalArgumentException if {@code im} is not 0 and the array is not complex
     */
    public void scale(final double re, final double im) {
        scalePatch(wholeLo(), wholeHi(), re, im);
    }

    /**
     * {@code NGA_Scale_patch} with a complex factor. Collective.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @param re real part of the factor
     * @param im imaginary part
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code im} is not 0 and the array is not complex
     */
    public void scalePatch(final int[] lo, final int[] hi, final double re, final double im) {
        Algebra.zip(Algebra.SCALE, self(), lo, hi, null, null, null, null, null, null, re, im, 0, 0, false);
    }

    /**
     * {@code GA_Add_constant} with a complex constant. Collective.
     *
     * @param re real part
     * @param im imaginary part
     * @throws IllegalArgumentException if {@code im} is not 0 and the array is not complex
     */
    public void addConstant(final double re, final double im) {
        addConstantPatch(wholeLo(), wholeHi(), re, im);
    }

    /**
     * {@code GA_Add_constant_patch} with a complex constant. Collective.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @param re real part
     * @param im imaginary part
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code im} is not 0 and the array is not complex
     */
    public void addConstantPatch(final int[] lo, final int[] hi, final double re, final double im) {
        Algebra.zip(Algebra.ADD_CONSTANT, self(), lo, hi, null, null, null, null, null, null, re, im, 0, 0, false);
    }

    /**
     * {@code GA_Add} with complex scales: {@code this = alpha*a + beta*b}. Collective.
     *
     * @param alphaRe real part of alpha
     * @param alphaIm imaginary part of alpha
     * @param a       operand
     * @param betaRe  real part of beta
     * @param betaIm  imaginary part of beta
     * @param b       operand
     * @throws IllegalArgumentException for a complex scale on a real array, or operands that do not match
     */
    public void add(final double alphaRe, final double alphaIm, final GlobalArray a, final double betaRe,
        final double betaIm, final GlobalArray b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Algebra.zip(Algebra.ADD, self(), wholeLo(), wholeHi(), a, a.wholeLo(), a.wholeHi(), b, b.wholeLo(),
            b.wholeHi(), alphaRe, alphaIm, betaRe, betaIm, false);
    }

    /**
     * {@code NGA_Add_patch} with complex scales: {@code this[lo..hi] = alpha*a[alo..ahi] + beta*b[blo..bhi]}.
     * Collective.
     *
     * @param alphaRe real part of alpha
     * @param alphaIm imaginary part of alpha
     * @param a       operand
     * @param alo     its first subscript
     * @param ahi     its last
     * @param betaRe  real part of beta
     * @param betaIm  imaginary part of beta
     * @param b       operand
     * @param blo     its first subscript
     * @param bhi     its last
     * @param lo      first subscript here
     * @param hi      last here
     * @throws IllegalArgumentException for a complex scale on a real array, or patches that do not match
     */
    public void addPatch(final double alphaRe, final double alphaIm, final GlobalArray a, final int[] alo,
        final int[] ahi, final double betaRe, final double betaIm, final GlobalArray b, final int[] blo,
        final int[] bhi, final int[] lo, final int[] hi) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Algebra.zip(Algebra.ADD, self(), lo, hi, a, alo, ahi, b, blo, bhi, alphaRe, alphaIm, betaRe, betaIm, false);
    }

    /**
     * {@code GA_Zdot}: the complex sum of element-wise products of two DCPL arrays (not conjugated, as GA), the same
     * on every PE. Collective.
     *
     * @param b the other array (DCPL; the same element count, matched in storage order when the shapes differ)
     * @return {@code {re, im}}
     * @throws IllegalArgumentException if the arrays are not both DCPL, or do not match (before anything is sent)
     */
    public double[] zdot(final GlobalArray b) {
        Objects.requireNonNull(b, "b");
        return Algebra.zdot(GaType.DCPL, self(), wholeLo(), wholeHi(), b, b.wholeLo(), b.wholeHi(), false);
    }

    /**
     * {@code NGA_Zdot_patch}, with GA's transpose flags. Collective.
     *
     * @param ta  'N', or 'T' to use this patch transposed
     * @param lo  first subscript here
     * @param hi  last here
     * @param b   the other array (DCPL)
     * @param tb  'N' or 'T' for b's patch
     * @param blo its first subscript
     * @param bhi its last
     * @return {@code {re, im}}
     * @throws IllegalArgumentException for arrays not both DCPL, a bad flag, or patches that do not match
     */
    public double[] zdotPatch(final char ta, final int[] lo, final int[] hi, final GlobalArray b, final char tb,
        final int[] blo, final int[] bhi) {
        Objects.requireNonNull(b, "b");
        return Algebra.zdot(GaType.DCPL, self(), lo, hi, b, blo, bhi, transFlag(ta) != transFlag(tb));
    }

    /**
     * {@code GA_Cdot}: {@link #zdot} for SCPL arrays, summed in double precision and rounded once to float.
     * Collective.
     *
     * @param b the other array (SCPL)
     * @return {@code {re, im}}, each a float's value
     * @throws IllegalArgumentException if the arrays are not both SCPL, or do not match
     */
    public double[] cdot(final GlobalArray b) {
        Objects.requireNonNull(b, "b");
        return Algebra.zdot(GaType.SCPL, self(), wholeLo(), wholeHi(), b, b.wholeLo(), b.wholeHi(), false);
    }

    /**
     * {@code NGA_Cdot_patch}, with GA's transpose flags. Collective.
     *
     * @param ta  'N' or 'T' for this patch
     * @param lo  first subscript here
     * @param hi  last here
     * @param b   the other array (SCPL)
     * @param tb  'N' or 'T' for b's patch
     * @param blo its first subscript
     * @param bhi its last
     * @return {@code {re, im}}
     * @throws IllegalArgumentException for arrays not both SCPL, a bad flag, or patches that do not match
     */
    public double[] cdotPatch(final char ta, final int[] lo, final int[] hi, final GlobalArray b, final char tb,
        final int[] blo, final int[] bhi) {
        Objects.requireNonNull(b, "b");
        return Algebra.zdot(GaType.SCPL, self(), lo, hi, b, blo, bhi, transFlag(ta) != transFlag(tb));
    }

    /**
     * {@code NGA_Acc} with a complex alpha on a DCPL array: {@code this[lo..hi] += alpha * buf}, each element
     * atomically (its two parts). One-sided. The products are formed first, in a buffer of this call (the
     * accumulate below scales by real numbers only), so this form allocates; a real alpha does not.
     *
     * @param lo      first subscript
     * @param hi      last
     * @param buf     interleaved (re, im) pairs
     * @param ld      leading dimensions, in elements
     * @param alphaRe real part of alpha
     * @param alphaIm imaginary part of alpha
     * @throws IllegalArgumentException if the array is not DCPL, or as {@code acc}
     */
    public void acc(final int[] lo, final int[] hi, final double[] buf, final int[] ld, final double alphaRe,
        final double alphaIm) {
        checkComplexAcc(GaType.DCPL);
        self().acc(lo, hi, (double[]) ComplexAlgebra.scaled(Objects.requireNonNull(buf, "buffer"), alphaRe,
            alphaIm), ld, 1.0);
    }

    /**
     * {@code NGA_Acc} with a complex alpha on an SCPL array (the products rounded to float). One-sided.
     *
     * @param lo      first subscript
     * @param hi      last
     * @param buf     interleaved (re, im) pairs
     * @param ld      leading dimensions, in elements
     * @param alphaRe real part of alpha
     * @param alphaIm imaginary part of alpha
     * @throws IllegalArgumentException if the array is not SCPL, or as {@code acc}
     */
    public void acc(final int[] lo, final int[] hi, final float[] buf, final int[] ld, final double alphaRe,
        final double alphaIm) {
        checkComplexAcc(GaType.SCPL);
        self().acc(lo, hi, (float[]) ComplexAlgebra.scaled(Objects.requireNonNull(buf, "buffer"), alphaRe,
            alphaIm), ld, 1f);
    }

    private void checkComplexAcc(final GaType want) {
        checkLive();
        if (type != want) {
            throw new IllegalArgumentException("acc with a complex alpha and a " + want.javaName() + "[] needs a "
                + want + " array; " + self() + " holds " + type);
        }
    }
}
