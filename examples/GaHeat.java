import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GopOp;
import org.jhpvm.ga.LocalBlock;
import org.jhpvm.runtime.Jhpvm;

/**
 * The 2-D heat equation u_t = u_xx + u_yy on a periodic N x N grid, explicit five-point stencil, on a Global Array
 * with one ghost cell per side: each step updates the ghosts (GA_Update_ghosts) and computes the new values from
 * the local block alone. The start is a Fourier mode, sin(2 pi kx x / N) sin(2 pi ky y / N), an eigenvector of the
 * discrete Laplacian, so after T steps the exact discrete answer is g^T times the start, with
 * g = 1 - 4 r (sin^2(pi kx / N) + sin^2(pi ky / N)): the program checks every point against it.
 *
 * <pre>bin/jhpvm run --pes 4 examples/GaHeat.java [N] [steps]</pre>
 */
public class GaHeat {
    public static void main(String[] args) {
        Jhpvm.ga(args, ga -> {
            final int n = Jhpvm.args().size() > 0 ? Integer.parseInt(Jhpvm.args().get(0)) : 64;
            final int steps = Jhpvm.args().size() > 1 ? Integer.parseInt(Jhpvm.args().get(1)) : 100;
            final int kx = 1;
            final int ky = 2;
            final double r = 0.2; // dt / h^2, stable below 0.25
            GlobalArray u = ga.createGhosts(GaType.DOUBLE, new int[] {n, n}, new int[] {1, 1}, "u");
            GlobalArray next = u.duplicate("next");
            forEachOwned(u, (a, k, i, j) -> a[k] = mode(n, kx, ky, i, j));
            for (int s = 0; s < steps; s++) {
                u.updateGhosts(); // periodic in both dimensions
                final LocalBlock b = u.access();
                final LocalBlock c = next.access();
                if (!b.isEmpty()) {
                    final double[] a = b.doubles();
                    final double[] out = c.doubles();
                    final int row = b.strides()[0];
                    for (int i = b.lo()[0]; i <= b.hi()[0]; i++) {
                        for (int j = b.lo()[1]; j <= b.hi()[1]; j++) {
                            final int k = b.index(i, j);
                            out[c.index(i, j)] = a[k] + r * (a[k - row] + a[k + row] + a[k - 1] + a[k + 1] - 4 * a[k]);
                        }
                    }
                }
                ga.sync();
                final GlobalArray t = u;
                u = next;
                next = t;
            }
            final double sx = Math.sin(Math.PI * kx / n);
            final double sy = Math.sin(Math.PI * ky / n);
            final double decay = Math.pow(1 - 4 * r * (sx * sx + sy * sy), steps);
            final double[] err = {0};
            forEachOwned(u, (a, k, i, j) -> err[0] = Math.max(err[0], Math.abs(a[k] - decay * mode(n, kx, ky, i, j))));
            ga.gop(err, GopOp.MAX);
            if (!(err[0] < 1e-12)) {
                throw new IllegalStateException("max error " + err[0] + " against the exact discrete solution");
            }
            if (ga.nodeid() == 0) {
                System.out.printf("heat on %d x %d, %d steps, %d PEs: amplitude %.6f, max error %.2e%n", n, n,
                    steps, ga.nnodes(), decay, err[0]);
            }
        });
    }

    interface Visit {
        void at(double[] a, int k, int i, int j);
    }

    static void forEachOwned(GlobalArray g, Visit v) {
        final LocalBlock b = g.access();
        if (b.isEmpty()) {
            return;
        }
        for (int i = b.lo()[0]; i <= b.hi()[0]; i++) {
            for (int j = b.lo()[1]; j <= b.hi()[1]; j++) {
                v.at(b.doubles(), b.index(i, j), i, j);
            }
        }
    }

    static double mode(int n, int kx, int ky, int i, int j) {
        return Math.sin(2 * Math.PI * kx * i / n) * Math.sin(2 * Math.PI * ky * j / n);
    }
}
