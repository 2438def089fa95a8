package org.jhpvm.ga;

/**
 * {@code GA_Dgemm}, {@code GA_Sgemm} and {@code NGA_Matmul_patch} by owner-computes with one-sided panel fetches
 * (GA's SRUMMA, a get-based SUMMA): each PE owns a
 * block of C, fetches the matching row panel of op(A) and column panel of op(B) in chunks of {@link #KB} along k,
 * double-buffered so that the next chunk's non-blocking gets are in flight while the current chunk is multiplied,
 * and accumulates in a private block (in double precision, rounded once to float for {@code sgemm}). Traffic per PE
 * is {@code (m_local + n_local) * k} elements. {@code GA_Zgemm} and {@code GA_Cgemm} are the same on complex arrays
 * ({@link #multiplyComplex}), with BLAS's 'C' (conjugate transpose) besides 'N' and 'T'.
 */
final class Gemm {
    static final int KB = 128;

    private Gemm() {
    }

    static void dgemm(final GlobalArrays ga, final char transA, final char transB, final int m, final int n,
        final int k, final double alpha, final GlobalArray a, final GlobalArray b, final double beta,
        final GlobalArray c) {
        gemm(ga, "dgemm", GaType.DOUBLE, transA, transB, m, n, k, alpha, a, 0, 0, b, 0, 0, beta, c, 0, 0);
    }

    static void sgemm(final GlobalArrays ga, final char transA, final char transB, final int m, final int n,
        final int k, final double alpha, final GlobalArray a, final GlobalArray b, final double beta,
        final GlobalArray c) {
        gemm(ga, "sgemm", GaType.FLOAT, transA, transB, m, n, k, alpha, a, 0, 0, b, 0, 0, beta, c, 0, 0);
    }

    /** {@code GA_Zgemm} (DCPL) and {@code GA_Cgemm} (SCPL): complex alpha and beta. */
    static void zgemm(final GlobalArrays ga, final GaType type, final char transA, final char transB, final int m,
        final int n, final int k, final double alphaRe, final double alphaIm, final GlobalArray a, final GlobalArray b,
        final double betaRe, final double betaIm, final GlobalArray c) {
        gemm(ga, type == GaType.DCPL ? "zgemm" : "cgemm", type, transA, transB, m, n, k, alphaRe, alphaIm, a, 0, 0,
            b, 0, 0, betaRe, betaIm, c, 0, 0);
    }

    /**
     * {@code NGA_Matmul_patch} ({@code alt == false}) and {@code NGA_Matmul_patch_alt}: {@code C[clo..chi] = alpha *
     * op(A[alo..ahi]) * op(B[blo..bhi]) + beta * C[clo..chi]} on patches of arrays of two or more dimensions, each
     * patch wide in at most two of them ({@link MatmulPlane}), the shapes agreeing as a product. Without {@code alt}
     * a transposed operand's bounds are those of {@code op(X)}; with it, those of X.
     */
    static void matmulPatch(final GlobalArrays ga, final char transA, final char transB, final double alpha,
        final double alphaIm, final double beta, final double betaIm, final GlobalArray a, final int[] alo,
        final int[] ahi, final GlobalArray b, final int[] blo, final int[] bhi, final GlobalArray c, final int[] clo,
        final int[] chi, final boolean alt) {
        final String what = alt ? "matmulPatchAlt" : "matmulPatch";
        c.checkLive();
        final int opA = trans(transA, "transA", c.type);
        final int opB = trans(transB, "transB", c.type);
        checkOperands(what, c.type, a, b, c, alphaIm, betaIm, false);
        MatmulPlane pa = MatmulPlane.of(a, alo, ahi, opA != 0, alt, "A");
        MatmulPlane pb = MatmulPlane.of(b, blo, bhi, opB != 0, alt, "B");
        MatmulPlane pc = MatmulPlane.of(c, clo, chi, false, alt, "C");
        if (!multiplies(pa, pb, pc)) {
            // GA's resolution of vectors in a middle dimension, which could lie along either neighbour.
            final boolean va = pa.ambiguous;
            final boolean vb = pb.ambiguous;
            final boolean vc = pc.ambiguous;
            if (va && vb && vc) {
                throw new IllegalArgumentException(what + ": A, B and C are all vectors in middle dimensions");
            } else if (va && vb) {
                pa = pa.opRows() != pc.rows ? pa.shifted() : pa;
                pb = pb.opCols() != pc.cols ? pb.shifted() : pb;
            } else if (va && vc) {
                pa = pa.opCols() != pb.opRows() ? pa.shifted() : pa;
                pc = pb.opCols() != pc.cols ? pc.shifted() : pc;
            } else if (vb && vc) {
                pb = pa.opCols() != pb.opRows() ? pb.shifted() : pb;
                pc = pa.opRows() != pc.rows ? pc.shifted() : pc;
            } else if (va) {
                pa = pa.shifted();
            } else if (vb) {
                pb = pb.shifted();
            } else if (vc) {
                pc = pc.shifted();
            }
        }
        if (!multiplies(pa, pb, pc)) {
            throw new IllegalArgumentException(what + ": op(A) is " + pa.opRows() + " x " + pa.opCols()
                + ", op(B) is " + pb.opRows() + " x " + pb.opCols() + " and C " + pc.rows + " x " + pc.cols
                + ": they do not multiply");
        }
        run(ga, opA, opB, alpha, alphaIm, pa, pb, beta, betaIm, pc);
    }

    private static boolean multiplies(final MatmulPlane pa, final MatmulPlane pb, final MatmulPlane pc) {
        return pa.opRows() == pc.rows && pb.opCols() == pc.cols && pa.opCols() == pb.opRows();
    }

    private static void gemm(final GlobalArrays ga, final String what, final GaType type, final char transA,
        final char transB, final int m, final int n, final int k, final double alpha, final GlobalArray a,
        final int ar0, final int ac0, final GlobalArray b, final int br0, final int bc0, final double beta,
        final GlobalArray c, final int cr0, final int cc0) {
        gemm(ga, what, type, transA, transB, m, n, k, alpha, 0, a, ar0, ac0, b, br0, bc0, beta, 0, c, cr0, cc0);
    }

    /** {@code C[c0..] = alpha * op(A[a0..]) * op(B[b0..]) + beta * C[c0..]}: the leading patches at those corners. */
    private static void gemm(final GlobalArrays ga, final String what, final GaType type, final char transA,
        final char transB, final int m, final int n, final int k, final double alpha, final double alphaIm,
        final GlobalArray a, final int ar0, final int ac0, final GlobalArray b, final int br0, final int bc0,
        final double beta, final double betaIm, final GlobalArray c, final int cr0, final int cc0) {
        final int opA = trans(transA, "transA", type);
        final int opB = trans(transB, "transB", type);
        final boolean ta = opA != 0;
        final boolean tb = opB != 0;
        c.checkLive();
        checkOperands(what, type, a, b, c, alphaIm, betaIm, true);
        if (m < 1 || n < 1 || k < 1) {
            throw new IllegalArgumentException(what + ": m=" + m + ", n=" + n + ", k=" + k + " must be at least 1");
        }
        fits(a, ar0 + (ta ? k : m), ac0 + (ta ? m : k), "A");
        fits(b, br0 + (tb ? n : k), bc0 + (tb ? k : n), "B");
        fits(c, cr0 + m, cc0 + n, "C");
        final MatmulPlane pa = MatmulPlane.of(a, new int[] {ar0, ac0},
            new int[] {ar0 + (ta ? k : m) - 1, ac0 + (ta ? m : k) - 1}, ta, true, "A");
        final MatmulPlane pb = MatmulPlane.of(b, new int[] {br0, bc0},
            new int[] {br0 + (tb ? n : k) - 1, bc0 + (tb ? k : n) - 1}, tb, true, "B");
        final MatmulPlane pc = MatmulPlane.of(c, new int[] {cr0, cc0}, new int[] {cr0 + m - 1, cc0 + n - 1}, false,
            true, "C");
        run(ga, opA, opB, alpha, alphaIm, pa, pb, beta, betaIm, pc);
    }

    /** Refuses operands of mixed or non-numeric types or groups, a C that is A or B, complex scales on reals. */
    private static void checkOperands(final String what, final GaType type, final GlobalArray a, final GlobalArray b,
        final GlobalArray c, final double alphaIm, final double betaIm, final boolean twoD) {
        c.checks.checkSameGroup(a);
        c.checks.checkSameGroup(b);
        final boolean numeric = type.isFloating() || type.isComplex();
        for (final GlobalArray x : new GlobalArray[] {a, b, c}) {
            x.checkLive();
            if (x.type != type || !numeric || (twoD ? x.ndim != 2 : x.ndim < 2)) {
                throw new IllegalArgumentException(what + " needs " + (twoD ? "2-D " : "") + (numeric
                    ? type.name().toLowerCase(java.util.Locale.ROOT) : "float, double or complex")
                    + " arrays of one type" + (twoD ? "" : ", of 2 or more dimensions") + "; " + x + " is not one");
            }
        }
        if ((alphaIm != 0 || betaIm != 0) && !type.isComplex()) {
            throw new IllegalArgumentException(what + ": a complex alpha or beta for " + type + " arrays");
        }
        if (c == a || c == b) {
            throw new IllegalArgumentException(what + ": C must differ from A and B");
        }
    }

    /** Each PE computes the parts of C's block it owns. */
    private static void run(final GlobalArrays ga, final int opA, final int opB, final double alpha,
        final double alphaIm, final MatmulPlane pa, final MatmulPlane pb, final double beta, final double betaIm,
        final MatmulPlane pc) {
        final GlobalArray c = pc.x;
        final int k = pa.opCols();
        c.group.sync();
        for (final int[][] part : Algebra.parts(c, pc.blockLo(), pc.blockHi())) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final int mi = phi[pc.rowDim] - plo[pc.rowDim] + 1;
            final int nj = phi[pc.colDim] - plo[pc.colDim] + 1;
            final int i0 = plo[pc.rowDim] - pc.corner[pc.rowDim];
            final int j0 = plo[pc.colDim] - pc.corner[pc.colDim];
            if (c.type.isComplex()) {
                multiplyComplex(ga, opA, opB, k, alpha, alphaIm, pa, pb, beta, betaIm, c, plo, phi, mi, nj, i0, j0);
            } else {
                multiply(ga, opA != 0, opB != 0, k, alpha, pa, pb, beta, c, plo, phi, mi, nj, i0, j0);
            }
        }
        c.group.sync();
    }

    private static void multiply(final GlobalArrays ga, final boolean ta, final boolean tb, final int k,
        final double alpha, final MatmulPlane pa, final MatmulPlane pb, final double beta, final GlobalArray c,
        final int[] plo, final int[] phi, final int mi, final int nj, final int i0, final int j0) {
        final int kb = Math.min(KB, k);
        final GaType type = c.type;
        final Object[] aRaw = {type.newArray(mi * kb), type.newArray(mi * kb)};
        final Object[] bRaw = {type.newArray(kb * nj), type.newArray(kb * nj)};
        final double[] aPanel = new double[mi * kb];
        final double[] bPanel = new double[kb * nj];
        final double[] sum = new double[mi * nj];
        final int panels = (k + kb - 1) / kb;
        long pending = fetch(ta, tb, pa, pb, i0, j0, mi, nj, 0, Math.min(k, kb), aRaw[0],
            bRaw[0]);
        for (int p = 0; p < panels; p++) {
            final int k0 = p * kb;
            final int kw = Math.min(k, k0 + kb) - k0;
            ga.nbWait(pending);
            if (p + 1 < panels) {
                final int nk0 = k0 + kb;
                pending = fetch(ta, tb, pa, pb, i0, j0, mi, nj, nk0, Math.min(k, nk0 + kb) - nk0,
                    aRaw[(p + 1) % 2], bRaw[(p + 1) % 2]);
            }
            final double[] ar = asDoubles(aRaw[p % 2]);
            final double[] br = asDoubles(bRaw[p % 2]);
            // Canonical layouts: aPanel[i][kk], bPanel[kk][j].
            if (ta) {
                for (int kk = 0; kk < kw; kk++) {
                    for (int i = 0; i < mi; i++) {
                        aPanel[i * kw + kk] = ar[kk * mi + i];
                    }
                }
            } else {
                System.arraycopy(ar, 0, aPanel, 0, mi * kw);
            }
            if (tb) {
                for (int j = 0; j < nj; j++) {
                    for (int kk = 0; kk < kw; kk++) {
                        bPanel[kk * nj + j] = br[j * kw + kk];
                    }
                }
            } else {
                System.arraycopy(br, 0, bPanel, 0, kw * nj);
            }
            for (int i = 0; i < mi; i++) {
                final int row = i * nj;
                for (int kk = 0; kk < kw; kk++) {
                    final double aik = aPanel[i * kw + kk];
                    final int brow = kk * nj;
                    for (int j = 0; j < nj; j++) {
                        sum[row + j] += aik * bPanel[brow + j];
                    }
                }
            }
        }
        final Object cRaw = type.newArray(mi * nj);
        if (beta != 0) {
            c.sections.packed(Mover.GET, plo, phi, cRaw);
        }
        final double[] cBuf = asDoubles(cRaw);
        for (int i = 0; i < cBuf.length; i++) {
            cBuf[i] = beta == 0 ? alpha * sum[i] : beta * cBuf[i] + alpha * sum[i];
        }
        c.sections.packed(Mover.PUT, plo, phi, Algebra.fromDoubles(cBuf, type));
    }

    /**
     * {@link #multiply} on complex elements: panels of interleaved pairs, op 1 a transpose and 2 a conjugate
     * transpose, complex products summed in double precision, {@code C = alpha * sum + beta * C} with complex scales.
     */
    private static void multiplyComplex(final GlobalArrays ga, final int opA, final int opB, final int k,
        final double alphaRe, final double alphaIm, final MatmulPlane pa, final MatmulPlane pb, final double betaRe,
        final double betaIm, final GlobalArray c, final int[] plo, final int[] phi, final int mi, final int nj,
        final int i0, final int j0) {
        final int kb = Math.min(KB, k);
        final GaType type = c.type;
        final boolean ta = opA != 0;
        final boolean tb = opB != 0;
        final double conjA = opA == 2 ? -1 : 1;
        final double conjB = opB == 2 ? -1 : 1;
        final Object[] aRaw = {type.newArray(mi * kb), type.newArray(mi * kb)};
        final Object[] bRaw = {type.newArray(kb * nj), type.newArray(kb * nj)};
        final double[] aPanel = new double[2 * mi * kb];
        final double[] bPanel = new double[2 * kb * nj];
        final double[] sum = new double[2 * mi * nj];
        final int panels = (k + kb - 1) / kb;
        long pending = fetch(ta, tb, pa, pb, i0, j0, mi, nj, 0, Math.min(k, kb), aRaw[0],
            bRaw[0]);
        for (int p = 0; p < panels; p++) {
            final int k0 = p * kb;
            final int kw = Math.min(k, k0 + kb) - k0;
            ga.nbWait(pending);
            if (p + 1 < panels) {
                final int nk0 = k0 + kb;
                pending = fetch(ta, tb, pa, pb, i0, j0, mi, nj, nk0, Math.min(k, nk0 + kb) - nk0,
                    aRaw[(p + 1) % 2], bRaw[(p + 1) % 2]);
            }
            final double[] ar = asDoubles(aRaw[p % 2]);
            final double[] br = asDoubles(bRaw[p % 2]);
            // Canonical layouts, conjugated where asked: aPanel[i][kk], bPanel[kk][j], pairs.
            for (int i = 0; i < mi; i++) {
                for (int kk = 0; kk < kw; kk++) {
                    final int from = 2 * (ta ? kk * mi + i : i * kw + kk);
                    aPanel[2 * (i * kw + kk)] = ar[from];
                    aPanel[2 * (i * kw + kk) + 1] = conjA * ar[from + 1];
                }
            }
            for (int kk = 0; kk < kw; kk++) {
                for (int j = 0; j < nj; j++) {
                    final int from = 2 * (tb ? j * kw + kk : kk * nj + j);
                    bPanel[2 * (kk * nj + j)] = br[from];
                    bPanel[2 * (kk * nj + j) + 1] = conjB * br[from + 1];
                }
            }
            for (int i = 0; i < mi; i++) {
                final int row = 2 * i * nj;
                for (int kk = 0; kk < kw; kk++) {
                    final double xr = aPanel[2 * (i * kw + kk)];
                    final double xi = aPanel[2 * (i * kw + kk) + 1];
                    final int brow = 2 * kk * nj;
                    for (int j = 0; j < 2 * nj; j += 2) {
                        final double yr = bPanel[brow + j];
                        final double yi = bPanel[brow + j + 1];
                        sum[row + j] += xr * yr - xi * yi;
                        sum[row + j + 1] += xr * yi + xi * yr;
                    }
                }
            }
        }
        final Object cRaw = type.newArray(mi * nj);
        final boolean readC = betaRe != 0 || betaIm != 0;
        if (readC) {
            c.sections.packed(Mover.GET, plo, phi, cRaw);
        }
        final double[] cBuf = asDoubles(cRaw);
        for (int e = 0; e < cBuf.length; e += 2) {
            final double sr = sum[e];
            final double si = sum[e + 1];
            double re = alphaRe * sr - alphaIm * si;
            double im = alphaRe * si + alphaIm * sr;
            if (readC) {
                re += betaRe * cBuf[e] - betaIm * cBuf[e + 1];
                im += betaRe * cBuf[e + 1] + betaIm * cBuf[e];
            }
            cBuf[e] = re;
            cBuf[e + 1] = im;
        }
        c.sections.packed(Mover.PUT, plo, phi, Algebra.fromDoubles(cBuf, type));
    }

    private static double[] asDoubles(final Object raw) {
        return Algebra.doubles(raw);
    }

    /**
     * Issues the non-blocking gets of one k-chunk of the panels (op(A) rows {@code i0..}, op(B) columns {@code j0..},
     * relative to the patches' corners); returns the later handle.
     */
    private static long fetch(final boolean ta, final boolean tb, final MatmulPlane pa, final MatmulPlane pb,
        final int i0, final int j0, final int mi, final int nj, final int k0, final int kw, final Object aBuf,
        final Object bBuf) {
        if (ta) {
            pa.nbGet(k0, i0, kw, mi, aBuf);
        } else {
            pa.nbGet(i0, k0, mi, kw, aBuf);
        }
        return tb ? pb.nbGet(j0, k0, nj, kw, bBuf) : pb.nbGet(k0, j0, kw, nj, bBuf);
    }

    /** @return 0 for 'N', 1 for 'T', 2 for 'C' (complex types only: the conjugate transpose) */
    private static int trans(final char t, final String what, final GaType type) {
        return switch (t) {
            case 'N', 'n' -> 0;
            case 'T', 't' -> 1;
            case 'C', 'c' -> {
                if (!type.isComplex()) {
                    throw new IllegalArgumentException(what + "='" + t + "': 'N' or 'T' (the conjugate transpose "
                        + "'C' is for complex arrays)");
                }
                yield 2;
            }
            default -> throw new IllegalArgumentException(what + "='" + t + "': 'N', 'T'"
                + (type.isComplex() ? " or 'C'" : ""));
        };
    }

    private static void fits(final GlobalArray x, final int rows, final int cols, final String what) {
        final int[] d = x.dist.dims;
        if (d[0] < rows || d[1] < cols) {
            throw new IllegalArgumentException("gemm: " + what + " " + x + " is smaller than the " + rows + " x "
                + cols + " it must reach");
        }
    }
}
