package org.jhpvm.apps.samples;

import java.time.Duration;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.ga.GopOp;
import org.jhpvm.ga.LocalBlock;
import org.jhpvm.shmem.ShmemJob;

/**
 * 2-D Laplace equation by Jacobi iteration on Global Arrays with ghost cells. The unknowns are the N x N interior
 * points of a grid with spacing 1; the Dirichlet boundary values come from {@code u(x, y) = x^2 - y^2 + 3xy}, which
 * the 5-point discrete Laplacian annihilates exactly, so the converged discrete solution is that function itself.
 * Each iteration: {@code updateGhosts} (not periodic) fills the ghosts between blocks, the application fills the
 * ghosts on the physical boundary (as the GA documentation says it must), and every PE updates its own block.
 */
public final class Jacobi {
    private Jacobi() {
    }

    /**
     * What a run found.
     *
     * @param n          interior points per dimension
     * @param pes        PEs
     * @param iterations Jacobi sweeps done
     * @param residual   the last max |u_new - u_old|
     * @param maxError   max |u - exact| at the end
     * @param seconds    wall time
     */
    public record Result(int n, int pes, int iterations, double residual, double maxError, double seconds) {
    }

    /** The discrete harmonic function that gives the boundary values and the answer. */
    static double exact(final int x, final int y) {
        return (double) x * x - (double) y * y + 3.0 * x * y;
    }

    /**
     * Iterates from zero interior values in a job of {@code pes} PEs until the largest change falls below the
     * tolerance or the sweeps run out, then measures the error against the exact solution.
     *
     * @param pes           PEs
     * @param n             interior points per dimension
     * @param tolerance     stop when max |u_new - u_old| falls below this
     * @param maxIterations give up after this many sweeps
     * @return the result; null in a process of a launched job that does not host PE 0
     * @throws IllegalArgumentException if {@code n} is below 2
     */
    public static Result run(final int pes, final int n, final double tolerance, final int maxIterations) {
        if (n < 2) {
            throw new IllegalArgumentException("--n " + n + ": at least 2");
        }
        final Result[] out = new Result[1];
        ShmemJob.builder().pes(pes).timeout(Duration.ofMinutes(10)).build().run(sh -> {
            final GlobalArrays ga = new GlobalArrays(sh);
            GlobalArray u = ga.createGhosts(GaType.DOUBLE, new int[] {n, n}, new int[] {1, 1}, "u");
            GlobalArray v = u.duplicate("v");
            final boolean[] notPeriodic = {false, false};
            final long t0 = System.nanoTime();
            final double[] res = {Double.MAX_VALUE};
            int it = 0;
            while (it < maxIterations && res[0] >= tolerance) {
                u.updateGhosts(notPeriodic);
                res[0] = sweep(u, v, n);
                ga.gop(res, GopOp.MAX);
                final GlobalArray t = u;
                u = v;
                v = t;
                it++;
            }
            ga.sync();
            final double[] err = {maxError(u, n)};
            ga.gop(err, GopOp.MAX);
            if (ga.nodeid() == 0) {
                out[0] = new Result(n, pes, it, res[0], err[0], (System.nanoTime() - t0) / 1e9);
            }
        });
        return out[0];
    }

    /**
     * Fills the physical-boundary ghosts of u's block (grid coordinates: interior point (i, j) sits at (i+1, j+1)),
     * then writes the Jacobi update of u's interior into v. @return the largest change on this PE
     */
    private static double sweep(final GlobalArray u, final GlobalArray v, final int n) {
        final LocalBlock bu = u.access();
        final LocalBlock bv = v.access();
        if (bu.isEmpty()) {
            return 0;
        }
        final double[] a = bu.doubles();
        final double[] b = bv.doubles();
        final int[] lo = bu.lo();
        final int[] hi = bu.hi();
        if (lo[0] == 0) {
            for (int j = lo[1] - 1; j <= hi[1] + 1; j++) {
                a[bu.index(-1, j)] = exact(0, j + 1);
            }
        }
        if (hi[0] == n - 1) {
            for (int j = lo[1] - 1; j <= hi[1] + 1; j++) {
                a[bu.index(n, j)] = exact(n + 1, j + 1);
            }
        }
        if (lo[1] == 0) {
            for (int i = lo[0] - 1; i <= hi[0] + 1; i++) {
                a[bu.index(i, -1)] = exact(i + 1, 0);
            }
        }
        if (hi[1] == n - 1) {
            for (int i = lo[0] - 1; i <= hi[0] + 1; i++) {
                a[bu.index(i, n)] = exact(i + 1, n + 1);
            }
        }
        final int row = bu.strides()[0];
        double change = 0;
        for (int i = lo[0]; i <= hi[0]; i++) {
            final int base = bu.index(i, lo[1]);
            final int end = base + (hi[1] - lo[1]);
            for (int k = base; k <= end; k++) {
                final double next = 0.25 * (a[k - row] + a[k + row] + a[k - 1] + a[k + 1]);
                change = Math.max(change, Math.abs(next - a[k]));
                b[k] = next;
            }
        }
        return change;
    }

    private static double maxError(final GlobalArray u, final int n) {
        final LocalBlock b = u.access();
        if (b.isEmpty()) {
            return 0;
        }
        final double[] a = b.doubles();
        double err = 0;
        for (int i = b.lo()[0]; i <= b.hi()[0]; i++) {
            for (int j = b.lo()[1]; j <= b.hi()[1]; j++) {
                err = Math.max(err, Math.abs(a[b.index(i, j)] - exact(i + 1, j + 1)));
            }
        }
        return err;
    }
}
