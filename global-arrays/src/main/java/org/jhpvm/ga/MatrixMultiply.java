package org.jhpvm.ga;

import java.util.Objects;

import org.jhpvm.shmem.Shmem;

/**
 * The matrix multiplications of {@link GlobalArrays} ({@code GA_Dgemm}, {@code GA_Sgemm}, {@code NGA_Matmul_patch}),
 * in their own file so that {@code GlobalArrays} stays readable; {@link GlobalArrays} is the only subclass, and the
 * methods are documented on its page. The work is {@link Gemm}'s.
 * <p>
 * Thread-safety: as {@link GlobalArrays}.
 */
abstract sealed class MatrixMultiply extends GlobalOperations permits GlobalArrays {
    MatrixMultiply(final Shmem shmem) {
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
     * {@code NGA_Matmul_patch}: {@code C[clo..chi] = alpha * op(A[alo..ahi]) * op(B[blo..bhi]) + beta *
     * C[clo..chi]} on 2-D float or double arrays of one type and group, {@code op} the patch or its transpose; the
     * patches' shapes must agree as a product ({@code op(A)} m x k, {@code op(B)} k x n, C's patch m x n). Collective.
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
        Gemm.matmulPatch((GlobalArrays) this, transA, transB, alpha, beta, a, alo, ahi, b, blo, bhi, c, clo, chi);
    }
}
