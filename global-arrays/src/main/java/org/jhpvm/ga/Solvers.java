package org.jhpvm.ga;

import java.util.Arrays;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.decomposition.lu.LUDecompositionAlt_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.dense.row.linsol.lu.LinearSolverLu_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * GA's linear solvers as GA does them without ScaLAPACK: rank 0 of the arrays' group gets the whole matrices
 * (one-sided gets), factors them with EJML's dense decompositions, and puts the results back; the status (and the
 * eigenvalues) reach every member by broadcast. Collective over the group, a sync at each end. A failure leaves
 * every array unchanged and is reported on every member. Double arrays only, as GA's solvers.
 */
final class Solvers {
    private Solvers() {
    }

    static void checkSquare(final GlobalArray a, final String what) {
        a.checkLive();
        if (a.type != GaType.DOUBLE || a.ndim != 2) {
            throw new IllegalArgumentException(what + " needs 2-D double arrays; " + a + " is not one");
        }
        final int[] d = a.dims();
        if (d[0] != d[1]) {
            throw new IllegalArgumentException(what + ": " + a + " is " + d[0] + " x " + d[1] + ", not square");
        }
    }

    private static void checkSecond(final GlobalArray a, final GlobalArray b, final String what,
        final boolean square) {
        b.checkLive();
        a.checks.checkSameGroup(b);
        if (b.type != GaType.DOUBLE || b.ndim != 2 || b.dims()[0] != a.dims()[0]
            || square && b.dims()[1] != a.dims()[0]) {
            throw new IllegalArgumentException(what + ": " + b + " must be a 2-D double array of " + a.dims()[0]
                + " rows" + (square ? " and columns" : ""));
        }
        if (a == b) {
            throw new IllegalArgumentException(what + ": the two arrays must be different");
        }
    }

    private static DMatrixRMaj read(final GlobalArray a) {
        final int[] d = a.dims();
        final double[] buf = new double[d[0] * d[1]];
        a.sections.packed(Mover.GET, new int[] {0, 0}, new int[] {d[0] - 1, d[1] - 1}, buf);
        return DMatrixRMaj.wrap(d[0], d[1], buf);
    }

    private static void write(final GlobalArray a, final DMatrixRMaj m) {
        final int[] d = a.dims();
        a.sections.packed(Mover.PUT, new int[] {0, 0}, new int[] {d[0] - 1, d[1] - 1}, m.data);
    }

    /** A Cholesky solver set to {@code m}, or null if {@code m} is not symmetric positive definite. */
    private static LinearSolverDense<DMatrixRMaj> chol(final DMatrixRMaj m) {
        final LinearSolverDense<DMatrixRMaj> s = LinearSolverFactory_DDRM.chol(m.numRows);
        return s.setA(m.copy()) && symmetric(m) ? s : null;
    }

    private static boolean symmetric(final DMatrixRMaj m) {
        for (int i = 0; i < m.numRows; i++) {
            for (int j = 0; j < i; j++) {
                final double x = m.get(i, j);
                final double y = m.get(j, i);
                if (Math.abs(x - y) > 1e-12 * Math.max(1, Math.max(Math.abs(x), Math.abs(y)))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The order of the first leading minor of {@code m} that is not positive definite (1-based; LAPACK's
     * {@code dpotrf} info), or 0 when {@code m} is symmetric positive definite. A matrix that is not symmetric
     * reports its order.
     */
    private static int failingMinor(final DMatrixRMaj m) {
        final int n = m.numRows;
        if (chol(m) != null) {
            return 0;
        }
        if (!symmetric(m)) {
            return n;
        }
        int lo = 1;
        int hi = n;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (chol(CommonOps_DDRM.extract(m, 0, mid, 0, mid)) == null) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    private static void share(final GlobalArray a, final double[] v) {
        a.ga.brdcst(a.group, v, v.length, 0);
    }

    private static boolean finite(final DMatrixRMaj m) {
        for (int i = 0; i < m.getNumElements(); i++) {
            if (!Double.isFinite(m.data[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * LU with partial pivoting: {@code x = m^-1 rhs}, or null if {@code m} is singular. Singular means what it means
     * to GA (LAPACK's {@code dgetrf} returning {@code info > 0}): a pivot of U that is exactly zero. EJML's
     * {@code quality()} (the product of the scaled pivots) is no test of that: it underflows for well-conditioned
     * matrices (1e-203 for a 100 x 100 matrix of condition 1e4). A solution that overflows is refused too.
     */
    private static DMatrixRMaj luSolve(final DMatrixRMaj m, final DMatrixRMaj rhs) {
        final LUDecompositionAlt_DDRM decomposition = new LUDecompositionAlt_DDRM();
        final LinearSolverLu_DDRM lu = new LinearSolverLu_DDRM(decomposition);
        if (!lu.setA(m.copy())) {
            return null;
        }
        final DMatrixRMaj packed = decomposition.getLU();
        for (int i = 0; i < m.numRows; i++) {
            if (packed.unsafe_get(i, i) == 0.0) {
                return null;
            }
        }
        final DMatrixRMaj x = new DMatrixRMaj(rhs.numRows, rhs.numCols);
        lu.solve(rhs.copy(), x);
        return finite(x) ? x : null;
    }

    /** {@code GA_Lu_solve}: {@code B = op(A)^-1 B}. */
    static void luSolve(final char trans, final GlobalArray a, final GlobalArray b) {
        final boolean t = switch (trans) {
            case 'N', 'n' -> false;
            case 'T', 't' -> true;
            default -> throw new IllegalArgumentException("trans='" + trans + "': 'N' or 'T'");
        };
        checkSquare(a, "luSolve");
        checkSecond(a, b, "luSolve", false);
        a.group.sync();
        final double[] status = {0};
        if (a.myRank == 0) {
            final DMatrixRMaj m = t ? CommonOps_DDRM.transpose(read(a), null) : read(a);
            final DMatrixRMaj x = luSolve(m, read(b));
            if (x == null) {
                status[0] = 1;
            } else {
                write(b, x);
            }
        }
        share(a, status);
        a.group.sync();
        if (status[0] != 0) {
            throw new ArithmeticException("luSolve: " + a + " is singular; " + b + " was not changed");
        }
    }

    /** {@code GA_Llt_solve}: {@code B = A^-1 B} by Cholesky; 0, or the order of A's first non-SPD leading minor. */
    static int lltSolve(final GlobalArray a, final GlobalArray b) {
        checkSquare(a, "lltSolve");
        checkSecond(a, b, "lltSolve", false);
        a.group.sync();
        final double[] status = {0};
        if (a.myRank == 0) {
            final DMatrixRMaj m = read(a);
            final LinearSolverDense<DMatrixRMaj> c = chol(m);
            if (c == null) {
                status[0] = failingMinor(m);
            } else {
                final DMatrixRMaj rhs = read(b);
                final DMatrixRMaj x = new DMatrixRMaj(rhs.numRows, rhs.numCols);
                c.solve(rhs, x);
                write(b, x);
            }
        }
        share(a, status);
        a.group.sync();
        return (int) status[0];
    }

    /**
     * {@code GA_Solve}: Cholesky if A is symmetric positive definite (returns 0), else LU (returns the order of the
     * first non-SPD leading minor, as GA does).
     */
    static int solve(final GlobalArray a, final GlobalArray b) {
        checkSquare(a, "solve");
        checkSecond(a, b, "solve", false);
        a.group.sync();
        final double[] status = {0};
        if (a.myRank == 0) {
            final DMatrixRMaj m = read(a);
            final DMatrixRMaj rhs = read(b);
            final LinearSolverDense<DMatrixRMaj> c = chol(m);
            if (c != null) {
                final DMatrixRMaj x = new DMatrixRMaj(rhs.numRows, rhs.numCols);
                c.solve(rhs, x);
                write(b, x);
            } else {
                final DMatrixRMaj x = luSolve(m, rhs);
                status[0] = x == null ? -1 : failingMinor(m);
                if (x != null) {
                    write(b, x);
                }
            }
        }
        share(a, status);
        a.group.sync();
        if (status[0] < 0) {
            throw new ArithmeticException("solve: " + a + " is singular; " + b + " was not changed");
        }
        return (int) status[0];
    }

    /** {@code GA_Spd_invert}: {@code A = A^-1} for symmetric positive definite A; 0, or the failing minor's order. */
    static int spdInvert(final GlobalArray a) {
        checkSquare(a, "spdInvert");
        a.group.sync();
        final double[] status = {0};
        if (a.myRank == 0) {
            final DMatrixRMaj m = read(a);
            final LinearSolverDense<DMatrixRMaj> c = chol(m);
            if (c == null) {
                status[0] = failingMinor(m);
            } else {
                final DMatrixRMaj inv = new DMatrixRMaj(m.numRows, m.numCols);
                c.invert(inv);
                write(a, inv);
            }
        }
        share(a, status);
        a.group.sync();
        return (int) status[0];
    }

    /**
     * {@code GA_Diag} ({@code s != null}: {@code A v = lambda S v}, S symmetric positive definite, eigenvectors
     * S-orthonormal) and {@code GA_Diag_std} ({@code s == null}: {@code A v = lambda v}, orthonormal): eigenvalues
     * ascending, eigenvector {@code k} in column {@code k} of {@code v}.
     */
    static double[] diag(final GlobalArray a, final GlobalArray s, final GlobalArray v) {
        final String what = s == null ? "diagStd" : "diag";
        checkSquare(a, what);
        checkSecond(a, v, what, true);
        if (s != null) {
            checkSecond(a, s, what, true);
            if (s == v) {
                throw new IllegalArgumentException(what + ": S and V must be different arrays");
            }
        }
        final int n = a.dims()[0];
        a.group.sync();
        final double[] out = new double[n + 1]; // eigenvalues, then a status: 0, 1 A not symmetric, 2 S not SPD
        if (a.myRank == 0) {
            final DMatrixRMaj m = read(a);
            if (!symmetric(m)) {
                out[n] = 1;
            } else {
                DMatrixRMaj c = m;
                DMatrixRMaj linvT = null;
                if (s != null) {
                    // S = L L^T; C = L^-1 A L^-T is symmetric with the same eigenvalues; v = L^-T y.
                    final DMatrixRMaj sm = read(s);
                    final org.ejml.interfaces.decomposition.CholeskyDecomposition_F64<DMatrixRMaj> ch =
                        DecompositionFactory_DDRM.chol(n, true);
                    if (!symmetric(sm) || !ch.decompose(sm.copy())) {
                        out[n] = 2;
                    } else {
                        final DMatrixRMaj l = ch.getT(null);
                        final DMatrixRMaj linv = new DMatrixRMaj(n, n);
                        if (!CommonOps_DDRM.invert(l, linv)) {
                            out[n] = 2;
                        } else {
                            linvT = CommonOps_DDRM.transpose(linv, null);
                            final DMatrixRMaj tmp = new DMatrixRMaj(n, n);
                            CommonOps_DDRM.mult(linv, m, tmp);
                            c = new DMatrixRMaj(n, n);
                            CommonOps_DDRM.mult(tmp, linvT, c);
                            symmetrize(c);
                        }
                    }
                }
                if (out[n] == 0) {
                    final EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, true, true);
                    if (!eig.decompose(c.copy())) {
                        out[n] = 1;
                    } else {
                        final Integer[] order = new Integer[n];
                        for (int k = 0; k < n; k++) {
                            order[k] = k;
                        }
                        Arrays.sort(order, (x, y) -> Double.compare(eig.getEigenvalue(x).real,
                            eig.getEigenvalue(y).real));
                        final DMatrixRMaj vecs = new DMatrixRMaj(n, n);
                        for (int k = 0; k < n; k++) {
                            out[k] = eig.getEigenvalue(order[k]).real;
                            DMatrixRMaj y = eig.getEigenVector(order[k]);
                            if (linvT != null) {
                                final DMatrixRMaj x = new DMatrixRMaj(n, 1);
                                CommonOps_DDRM.mult(linvT, y, x);
                                y = x;
                            }
                            for (int i = 0; i < n; i++) {
                                vecs.set(i, k, y.get(i, 0));
                            }
                        }
                        write(v, vecs);
                    }
                }
            }
        }
        share(a, out);
        a.group.sync();
        if (out[n] == 1) {
            throw new IllegalArgumentException(what + ": " + a + " is not symmetric; nothing was changed");
        }
        if (out[n] == 2) {
            throw new IllegalArgumentException(what + ": " + s + " is not symmetric positive definite; nothing was "
                + "changed");
        }
        return Arrays.copyOf(out, n);
    }

    /** Averages {@code c} with its transpose (rounding can leave {@code L^-1 A L^-T} a hair asymmetric). */
    private static DMatrixRMaj symmetrize(final DMatrixRMaj c) {
        for (int i = 0; i < c.numRows; i++) {
            for (int j = 0; j < i; j++) {
                final double x = 0.5 * (c.get(i, j) + c.get(j, i));
                c.set(i, j, x);
                c.set(j, i, x);
            }
        }
        return c;
    }
}
