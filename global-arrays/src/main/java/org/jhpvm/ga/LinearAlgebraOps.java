package org.jhpvm.ga;

import java.util.Objects;

import org.jhpvm.shmem.Shmem;

/**
 * The linear algebra of {@link GlobalArrays}: matrix multiplications ({@code GA_Dgemm}, {@code GA_Sgemm},
 * {@code NGA_Matmul_patch}, by {@link Gemm}) and the solvers ({@code GA_Lu_solve}, {@code GA_Llt_solve},
 * {@code GA_Solve}, {@code GA_Spd_invert}, {@code GA_Diag[_std]}, by {@link Solvers}), in their own file so that
 * {@code GlobalArrays} stays readable; {@link GlobalArrays} is the only subclass, and the methods are documented on
 * its page.
 * <p>
 * Thread-safety: as {@link GlobalArrays}.
 */
abstract sealed class LinearAlgebraOps extends ClusterQueries permits GlobalArrays {
    LinearAlgebraOps(final Shmem shmem) {
        super(shmem);
    }

    // ---------------------------------------------------------------- matrix multiply

    /**
     * {@code GA_Dgemm}: {@code C = alpha * op(A) * op(B) + beta * C} on the leading {@code m x n} patch of C, with
     * {@code op(X)} X or its transpose ({@code 'N'} or {@code 'T'}, either case). Collective over the arrays' group;
     * A, B, C are 2-D double arrays of one group and C is distinct from A and B. Each PE computes its own block of C
     * from row panels of op(A) and column panels of op(B) fetched one-sidedly in k-chunks, the next chunk's gets in
     * flight while the current one is multiplied (the get-based SUMMA of GA's SRUMMA): per PE
     * {@code (m_local + n_local) * k} elements move, which scales with a 2-D block distribution.
     *
     * @param transA 'N' or 'T'
     * @param transB 'N' or 'T'
     * @param m      rows of op(A) and C
     * @param n      columns of op(B) and C
     * @param k      columns of op(A), rows of op(B)
     * @param alpha  scale of the product
     * @param a      A
     * @param b      B
     * @param beta   scale of C
     * @param c      C (updated)
     */
    public void dgemm(final char transA, final char transB, final int m, final int n, final int k, final double alpha,
        final GlobalArray a, final GlobalArray b, final double beta, final GlobalArray c) {
        Gemm.dgemm((GlobalArrays) this, transA, transB, m, n, k, alpha, a, b, beta, c);
    }

    /**
     * {@code GA_Sgemm}: {@link #dgemm} on 2-D float arrays; products are summed in double precision and rounded once
     * to float (so the result is at least as accurate as single-precision BLAS, and may differ from it in the last
     * bit). Collective over the arrays' group.
     *
     * @param transA 'N' or 'T'
     * @param transB 'N' or 'T'
     * @param m      rows of op(A) and C
     * @param n      columns of op(B) and C
     * @param k      columns of op(A), rows of op(B)
     * @param alpha  scale of the product
     * @param a      A
     * @param b      B
     * @param beta   scale of C
     * @param c      C (updated)
     * @throws IllegalArgumentException for arrays that are not 2-D float arrays of one group, a C that is A or B,
     *                                  sizes below 1, or arrays smaller than the sizes (nothing changes)
     */
    public void sgemm(final char transA, final char transB, final int m, final int n, final int k, final float alpha,
        final GlobalArray a, final GlobalArray b, final float beta, final GlobalArray c) {
        Gemm.sgemm((GlobalArrays) this, transA, transB, m, n, k, alpha, a, b, beta, c);
    }

    /**
     * {@code NGA_Matmul_patch}: {@code C[clo..chi] = alpha * op(A)[alo..ahi] * op(B)[blo..bhi] + beta *
     * C[clo..chi]} on float or double arrays of one type and group, {@code op} the operand or its transpose; the
     * patches' shapes must agree as a product ({@code op(A)} m x k, {@code op(B)} k x n, C's patch m x n). As GA's:
     * the arrays may have any number of dimensions (2 or more), each patch wide in at most two of them (the others
     * of extent 1; a vector's plane is chosen as GA chooses it); and a transposed operand's bounds are those of
     * {@code op(A)}, not of A: the transpose of A's block {@code [1..4][2..5]} is asked for as {@code [2..5][1..4]}
     * ({@link #matmulPatchAlt} takes A's own bounds). Collective.
     *
     * @param transA 'N' or 'T'
     * @param transB 'N' or 'T'
     * @param alpha  scale of the product
     * @param beta   scale of C's patch
     * @param a      A
     * @param alo    A's patch, first subscript
     * @param ahi    A's patch, last subscript
     * @param b      B
     * @param blo    B's patch, first subscript
     * @param bhi    B's patch, last subscript
     * @param c      C (its patch updated)
     * @param clo    C's patch, first subscript
     * @param chi    C's patch, last subscript
     * @throws IllegalArgumentException if the shapes do not multiply, or as {@link #dgemm} (nothing changes)
     */
    public void matmulPatch(final char transA, final char transB, final double alpha, final double beta,
        final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b, final int[] blo, final int[] bhi,
        final GlobalArray c, final int[] clo, final int[] chi) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(c, "c");
        Gemm.matmulPatch((GlobalArrays) this, transA, transB, alpha, 0, beta, 0, a, alo, ahi, b, blo, bhi, c, clo,
            chi, false);
    }

    /**
     * {@code NGA_Matmul_patch_alt}: {@link #matmulPatch(char, char, double, double, GlobalArray, int[], int[],
     * GlobalArray, int[], int[], GlobalArray, int[], int[])} with a transposed operand's bounds given as those of the
     * operand itself (its block before {@code op}), not of {@code op(A)}. Collective.
     *
     * @param transA 'N' or 'T'
     * @param transB 'N' or 'T'
     * @param alpha  scale of the product
     * @param beta   scale of C's patch
     * @param a      A
     * @param alo    A's block, first subscript
     * @param ahi    A's block, last subscript
     * @param b      B
     * @param blo    B's block, first subscript
     * @param bhi    B's block, last subscript
     * @param c      C (its patch updated)
     * @param clo    C's patch, first subscript
     * @param chi    C's patch, last subscript
     * @throws IllegalArgumentException as {@code matmulPatch} (nothing changes)
     */
    public void matmulPatchAlt(final char transA, final char transB, final double alpha, final double beta,
        final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b, final int[] blo, final int[] bhi,
        final GlobalArray c, final int[] clo, final int[] chi) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(c, "c");
        Gemm.matmulPatch((GlobalArrays) this, transA, transB, alpha, 0, beta, 0, a, alo, ahi, b, blo, bhi, c, clo,
            chi, true);
    }

    /**
     * {@code NGA_Matmul_patch} with complex scales, on SCPL or DCPL arrays ({@code op} also 'C', the conjugate
     * transpose, whose bounds are those of {@code op(A)} as for 'T'). Collective.
     *
     * @param transA  'N', 'T' or 'C'
     * @param transB  'N', 'T' or 'C'
     * @param alphaRe real part of alpha
     * @param alphaIm imaginary part of alpha
     * @param betaRe  real part of beta
     * @param betaIm  imaginary part of beta
     * @param a       A
     * @param alo     A's patch, first subscript
     * @param ahi     A's patch, last subscript
     * @param b       B
     * @param blo     B's patch, first subscript
     * @param bhi     B's patch, last subscript
     * @param c       C (its patch updated)
     * @param clo     C's patch, first subscript
     * @param chi     C's patch, last subscript
     * @throws IllegalArgumentException for complex scales on real arrays, or as the real form (nothing changes)
     */
    public void matmulPatch(final char transA, final char transB, final double alphaRe, final double alphaIm,
        final double betaRe, final double betaIm, final GlobalArray a, final int[] alo, final int[] ahi,
        final GlobalArray b, final int[] blo, final int[] bhi, final GlobalArray c, final int[] clo,
        final int[] chi) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(c, "c");
        Gemm.matmulPatch((GlobalArrays) this, transA, transB, alphaRe, alphaIm, betaRe, betaIm, a, alo, ahi, b, blo,
            bhi, c, clo, chi, false);
    }

    /**
     * {@code GA_Zgemm}: {@link #dgemm} on 2-D DCPL arrays with complex alpha and beta, {@code op} 'N', 'T' or 'C'
     * (the conjugate transpose, as BLAS's zgemm). Collective over the arrays' group.
     *
     * @param transA  'N', 'T' or 'C'
     * @param transB  'N', 'T' or 'C'
     * @param m       rows of op(A) and C
     * @param n       columns of op(B) and C
     * @param k       columns of op(A), rows of op(B)
     * @param alphaRe real part of alpha
     * @param alphaIm imaginary part of alpha
     * @param a       A
     * @param b       B
     * @param betaRe  real part of beta
     * @param betaIm  imaginary part of beta
     * @param c       C (updated)
     * @throws IllegalArgumentException for arrays that are not 2-D DCPL arrays of one group, a C that is A or B,
     *                                  sizes below 1, or arrays smaller than the sizes (nothing changes)
     */
    public void zgemm(final char transA, final char transB, final int m, final int n, final int k,
        final double alphaRe, final double alphaIm, final GlobalArray a, final GlobalArray b, final double betaRe,
        final double betaIm, final GlobalArray c) {
        Gemm.zgemm((GlobalArrays) this, GaType.DCPL, transA, transB, m, n, k, alphaRe, alphaIm, a, b, betaRe, betaIm,
            c);
    }

    /**
     * {@code GA_Cgemm}: {@link #zgemm} on SCPL arrays, products summed in double precision and rounded once to
     * float. Collective over the arrays' group.
     *
     * @param transA  'N', 'T' or 'C'
     * @param transB  'N', 'T' or 'C'
     * @param m       rows of op(A) and C
     * @param n       columns of op(B) and C
     * @param k       columns of op(A), rows of op(B)
     * @param alphaRe real part of alpha
     * @param alphaIm imaginary part of alpha
     * @param a       A
     * @param b       B
     * @param betaRe  real part of beta
     * @param betaIm  imaginary part of beta
     * @param c       C (updated)
     * @throws IllegalArgumentException for arrays that are not 2-D SCPL arrays of one group, or as {@link #zgemm}
     */
    public void cgemm(final char transA, final char transB, final int m, final int n, final int k,
        final double alphaRe, final double alphaIm, final GlobalArray a, final GlobalArray b, final double betaRe,
        final double betaIm, final GlobalArray c) {
        Gemm.zgemm((GlobalArrays) this, GaType.SCPL, transA, transB, m, n, k, alphaRe, alphaIm, a, b, betaRe, betaIm,
            c);
    }

    // ---------------------------------------------------------------- solvers (gathered to one PE)

    /**
     * {@code GA_Lu_solve}: {@code B = op(A)^-1 B} (op: 'N' A, 'T' its transpose) for a square double matrix A and a
     * double B of as many rows, by LU with partial pivoting on rank 0 of the group (GA without ScaLAPACK gathers to
     * one process too). Collective over the arrays' group.
     *
     * @param trans 'N' or 'T'
     * @param a     A (unchanged)
     * @param b     B, overwritten by the solution
     * @throws IllegalArgumentException for arrays of another type, shape or group, or a bad flag (nothing sent)
     * @throws ArithmeticException      on every member if A is singular (B unchanged)
     */
    public void luSolve(final char trans, final GlobalArray a, final GlobalArray b) {
        Solvers.luSolve(trans, Objects.requireNonNull(a, "a"), Objects.requireNonNull(b, "b"));
    }

    /**
     * {@code GA_Llt_solve}: {@code B = A^-1 B} by Cholesky for a symmetric positive definite A. Collective.
     *
     * @param a A (unchanged)
     * @param b B, overwritten by the solution when the factorization succeeds
     * @return 0 on success, else the order of A's first leading minor that is not positive definite (LAPACK's
     *         {@code info}); B is then unchanged
     * @throws IllegalArgumentException for arrays of another type, shape or group
     */
    public int lltSolve(final GlobalArray a, final GlobalArray b) {
        return Solvers.lltSolve(Objects.requireNonNull(a, "a"), Objects.requireNonNull(b, "b"));
    }

    /**
     * {@code GA_Solve}: {@code B = A^-1 B}, by Cholesky when A is symmetric positive definite, else by LU. Collective.
     *
     * @param a A (unchanged)
     * @param b B, overwritten by the solution
     * @return 0 if Cholesky solved it, else the order of A's first leading minor that is not positive definite (LU
     *         solved it)
     * @throws IllegalArgumentException for arrays of another type, shape or group
     * @throws ArithmeticException      on every member if A is singular (B unchanged)
     */
    public int solve(final GlobalArray a, final GlobalArray b) {
        return Solvers.solve(Objects.requireNonNull(a, "a"), Objects.requireNonNull(b, "b"));
    }

    /**
     * {@code GA_Spd_invert}: {@code A = A^-1} for a symmetric positive definite A. Collective.
     *
     * @param a A, overwritten by its inverse on success
     * @return 0 on success, else the order of the first leading minor that is not positive definite (A unchanged)
     * @throws IllegalArgumentException for a non-square or non-double array
     */
    public int spdInvert(final GlobalArray a) {
        return Solvers.spdInvert(Objects.requireNonNull(a, "a"));
    }

    /**
     * {@code GA_Diag}: the generalized symmetric-definite eigenproblem {@code A v = lambda S v} (A symmetric, S
     * symmetric positive definite): eigenvalues ascending, eigenvector {@code k} in column {@code k} of {@code v},
     * normalized so that {@code V^T S V = I}. Collective; the same eigenvalues on every member.
     *
     * @param a A (unchanged)
     * @param s S (unchanged)
     * @param v receives the eigenvectors (n x n)
     * @return the eigenvalues, ascending
     * @throws IllegalArgumentException for arrays of another type, shape or group, an A that is not symmetric or an
     *                                  S that is not symmetric positive definite (on every member; nothing changed)
     */
    public double[] diag(final GlobalArray a, final GlobalArray s, final GlobalArray v) {
        return Solvers.diag(Objects.requireNonNull(a, "a"), Objects.requireNonNull(s, "s"),
            Objects.requireNonNull(v, "v"));
    }

    /**
     * {@code GA_Diag_std}: the standard symmetric eigenproblem {@code A v = lambda v}: eigenvalues ascending,
     * orthonormal eigenvectors in the columns of {@code v}. Collective.
     *
     * @param a A, symmetric (unchanged)
     * @param v receives the eigenvectors (n x n)
     * @return the eigenvalues, ascending
     * @throws IllegalArgumentException for arrays of another type, shape or group, or an A that is not symmetric
     */
    public double[] diagStd(final GlobalArray a, final GlobalArray v) {
        return Solvers.diag(Objects.requireNonNull(a, "a"), null, Objects.requireNonNull(v, "v"));
    }
}
