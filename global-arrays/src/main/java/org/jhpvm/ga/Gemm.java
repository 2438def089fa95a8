package org.jhpvm.ga;

/**
 * {@code GA_Dgemm} by owner-computes with one-sided panel fetches (GA's SRUMMA, a get-based SUMMA): each PE owns a
 * block of C, fetches the matching row panel of op(A) and column panel of op(B) in chunks of {@link #KB} along k,
 * double-buffered so that the next chunk's non-blocking gets are in flight while the current chunk is multiplied,
 * and accumulates in a private block. Traffic per PE is {@code (m_local + n_local) * k} elements.
 */
final class Gemm {
    static final int KB = 128;

    private Gemm() {
    }

    static void dgemm(final GlobalArrays ga, final char transA, final char transB, final int m, final int n,
        final int k, final double alpha, final GlobalArray a, final GlobalArray b, final double beta,
        final GlobalArray c) {
        final boolean ta = trans(transA, "transA");
        final boolean tb = trans(transB, "transB");
        c.checkLive();
        c.checks.checkSameGroup(a);
        c.checks.checkSameGroup(b);
        for (final GlobalArray x : new GlobalArray[] {a, b, c}) {
            if (x.type != GaType.DOUBLE || x.ndim != 2) {
                throw new IllegalArgumentException("dgemm needs 2-D double arrays; " + x + " is not one");
            }
        }
        if (c == a || c == b) {
            throw new IllegalArgumentException("dgemm: C must differ from A and B");
        }
        if (m < 1 || n < 1 || k < 1) {
            throw new IllegalArgumentException("dgemm: m=" + m + ", n=" + n + ", k=" + k + " must be at least 1");
        }
        fits(a, ta ? k : m, ta ? m : k, "A");
        fits(b, tb ? n : k, tb ? k : n, "B");
        fits(c, m, n, "C");
        c.group.sync();
        final int[] plo = new int[2];
        final int[] phi = new int[2];
        if (Algebra.myPart(c, new int[] {0, 0}, new int[] {m - 1, n - 1}, plo, phi)) {
            multiply(ga, ta, tb, k, alpha, a, b, beta, c, plo, phi);
        }
        c.group.sync();
    }

    private static void multiply(final GlobalArrays ga, final boolean ta, final boolean tb, final int k,
        final double alpha, final GlobalArray a, final GlobalArray b, final double beta, final GlobalArray c,
        final int[] plo, final int[] phi) {
        final int i0 = plo[0];
        final int j0 = plo[1];
        final int mi = phi[0] - i0 + 1;
        final int nj = phi[1] - j0 + 1;
        final int kb = Math.min(KB, k);
        final double[][] aRaw = {new double[mi * kb], new double[mi * kb]};
        final double[][] bRaw = {new double[kb * nj], new double[kb * nj]};
        final double[] aPanel = new double[mi * kb];
        final double[] bPanel = new double[kb * nj];
        final double[] sum = new double[mi * nj];
        final int panels = (k + kb - 1) / kb;
        long pending = fetch(ta, tb, a, b, i0, j0, mi, nj, 0, Math.min(k, kb), aRaw[0], bRaw[0]);
        for (int p = 0; p < panels; p++) {
            final int k0 = p * kb;
            final int kw = Math.min(k, k0 + kb) - k0;
            ga.nbWait(pending);
            if (p + 1 < panels) {
                final int nk0 = k0 + kb;
                pending = fetch(ta, tb, a, b, i0, j0, mi, nj, nk0, Math.min(k, nk0 + kb) - nk0, aRaw[(p + 1) % 2],
                    bRaw[(p + 1) % 2]);
            }
            final double[] ar = aRaw[p % 2];
            final double[] br = bRaw[p % 2];
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
        final double[] cBuf = new double[mi * nj];
        if (beta != 0) {
            c.sections.packed(Mover.GET, plo, phi, cBuf);
        }
        for (int i = 0; i < cBuf.length; i++) {
            cBuf[i] = beta == 0 ? alpha * sum[i] : beta * cBuf[i] + alpha * sum[i];
        }
        c.sections.packed(Mover.PUT, plo, phi, cBuf);
    }

    /** Issues the non-blocking gets of one k-chunk; returns the later handle. */
    private static long fetch(final boolean ta, final boolean tb, final GlobalArray a, final GlobalArray b,
        final int i0, final int j0, final int mi, final int nj, final int k0, final int kw, final double[] aBuf,
        final double[] bBuf) {
        if (ta) {
            a.nbGet(new int[] {k0, i0}, new int[] {k0 + kw - 1, i0 + mi - 1}, aBuf, new int[] {mi});
        } else {
            a.nbGet(new int[] {i0, k0}, new int[] {i0 + mi - 1, k0 + kw - 1}, aBuf, new int[] {kw});
        }
        if (tb) {
            return b.nbGet(new int[] {j0, k0}, new int[] {j0 + nj - 1, k0 + kw - 1}, bBuf, new int[] {kw});
        }
        return b.nbGet(new int[] {k0, j0}, new int[] {k0 + kw - 1, j0 + nj - 1}, bBuf, new int[] {nj});
    }

    private static boolean trans(final char t, final String what) {
        return switch (t) {
            case 'N', 'n' -> false;
            case 'T', 't' -> true;
            default -> throw new IllegalArgumentException(what + "='" + t + "': 'N' or 'T'");
        };
    }

    private static void fits(final GlobalArray x, final int rows, final int cols, final String what) {
        final int[] d = x.dist.dims;
        if (d[0] < rows || d[1] < cols) {
            throw new IllegalArgumentException("dgemm: " + what + " " + x + " is smaller than the " + rows + " x "
                + cols + " it must hold");
        }
    }
}
