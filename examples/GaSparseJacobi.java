import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GopOp;
import org.jhpvm.ga.SparseArray;
import org.jhpvm.runtime.Jhpvm;

/**
 * Jacobi iteration with a Global Arrays sparse matrix: the five-point Laplacian of an N x N grid, shifted to be
 * strictly diagonally dominant (diagonal 4 + s, neighbours -1), is assembled from elements that every PE adds for
 * its share of the grid rows (NGA_Sprs_array_add_element, NGA_Sprs_array_assemble). The right-hand side is A times a
 * known solution, and x(k+1) = x(k) + D^-1 (b - A x(k)) runs on NGA_Sprs_array_matvec_multiply and element-wise
 * operations until the residual's largest element is below 1e-12; the program then checks every unknown against the
 * known solution.
 *
 * <pre>bin/jhpvm run --pes 4 examples/GaSparseJacobi.java [N] [shift]</pre>
 */
public class GaSparseJacobi {
    public static void main(String[] args) {
        Jhpvm.ga(args, ga -> {
            final int n = Jhpvm.args().size() > 0 ? Integer.parseInt(Jhpvm.args().get(0)) : 32;
            final double shift = Jhpvm.args().size() > 1 ? Double.parseDouble(Jhpvm.args().get(1)) : 1.0;
            final int unknowns = n * n;
            final SparseArray a = ga.createSparse(GaType.DOUBLE, unknowns, unknowns);
            // Each PE adds the rows of its share of the grid (any split works: assembly routes them).
            final int me = ga.nodeid();
            final int pes = ga.nnodes();
            for (int row = me * unknowns / pes; row < (me + 1) * unknowns / pes; row++) {
                final int i = row / n;
                final int j = row % n;
                a.addElement(row, row, 4 + shift);
                if (i > 0) {
                    a.addElement(row, row - n, -1);
                }
                if (i < n - 1) {
                    a.addElement(row, row + n, -1);
                }
                if (j > 0) {
                    a.addElement(row, row - 1, -1);
                }
                if (j < n - 1) {
                    a.addElement(row, row + 1, -1);
                }
            }
            a.assemble();
            final GlobalArray exact = ga.create(GaType.DOUBLE, new int[] {unknowns}, "exact");
            exact.randomize(1.0);
            final GlobalArray b = ga.create(GaType.DOUBLE, new int[] {unknowns}, "b");
            a.matvec(exact, b);
            final GlobalArray d = ga.create(GaType.DOUBLE, new int[] {unknowns}, "diagonal");
            a.getDiag(d);
            final GlobalArray x = ga.create(GaType.DOUBLE, new int[] {unknowns}, "x");
            final GlobalArray ax = ga.create(GaType.DOUBLE, new int[] {unknowns}, "ax");
            final GlobalArray r = ga.create(GaType.DOUBLE, new int[] {unknowns}, "r");
            int iterations = 0;
            double residual = Double.MAX_VALUE;
            while (residual > 1e-12 && iterations < 10_000) {
                a.matvec(x, ax);
                r.add(1.0, b, -1.0, ax);          // r = b - A x
                residual = r.normInfinity();
                r.elemDivide(r, d);                // r = D^-1 r
                x.add(1.0, x, 1.0, r);             // x = x + r
                iterations++;
            }
            final GlobalArray err = ga.create(GaType.DOUBLE, new int[] {unknowns}, "err");
            err.add(1.0, x, -1.0, exact);
            final double maxError = err.normInfinity();
            if (!(maxError < 1e-10)) {
                throw new IllegalStateException("max error " + maxError + " after " + iterations + " iterations");
            }
            final double[] nnz = {a.localNonZeros()};
            ga.gop(nnz, GopOp.SUM);
            if (nnz[0] != 5.0 * unknowns - 4 * n) {
                throw new IllegalStateException(nnz[0] + " stored elements, expected " + (5 * unknowns - 4 * n));
            }
            if (ga.nodeid() == 0) {
                System.out.printf("sparse Jacobi on %d x %d (%d unknowns, %.0f stored elements), %d PEs: converged, "
                    + "max error below 1e-10%n", n, n, unknowns, nnz[0], ga.nnodes());
                System.out.printf("  %d iterations, max error %.2e%n", iterations, maxError);
            }
            a.destroy();
        });
    }
}
