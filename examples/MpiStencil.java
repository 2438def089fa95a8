import mpi.CartComm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * Jacobi relaxation of Laplace's equation on an N x N grid, written as an Open MPI Java user writes it: the ranks
 * on a 2-D Cartesian grid (createDims, createCart), a halo exchange with sendRecv along each dimension (rows
 * contiguous, columns as a vector datatype; PROC_NULL at the edges), and a global residual by allReduce. At the end
 * rank 0 gathers the blocks and compares every point, bit for bit, with the same sweeps done on one array.
 * <p>
 * Arguments: N (48), sweeps (60).
 */
public class MpiStencil {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        final int n = args.length > 0 ? Integer.parseInt(args[0]) : 48;
        final int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        final int size = MPI.COMM_WORLD.getSize();
        final int[] dims = new int[2];
        CartComm.createDims(size, dims);
        final CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {false, false}, false);
        final int[] at = grid.getCoords(grid.getRank());
        final int r0 = start(n, dims[0], at[0]);
        final int rows = start(n, dims[0], at[0] + 1) - r0;
        final int c0 = start(n, dims[1], at[1]);
        final int cols = start(n, dims[1], at[1] + 1) - c0;
        final int w = cols + 2;
        double[] u = new double[(rows + 2) * w];
        double[] next = new double[(rows + 2) * w];
        for (int i = 0; i < rows + 2; i++) {
            for (int j = 0; j < w; j++) {
                u[i * w + j] = boundary(n, r0 + i - 1, c0 + j - 1);
            }
        }
        System.arraycopy(u, 0, next, 0, u.length);
        final Datatype column = Datatype.createVector(rows, 1, w, MPI.DOUBLE);
        column.commit();
        final ShiftParms vertical = grid.shift(0, 1);
        final ShiftParms horizontal = grid.shift(1, 1);
        double residual = 0;
        for (int s = 0; s < sweeps; s++) {
            // Rows: send the last interior row down, receive the top ghost row from above; and back.
            grid.sendRecv(MPI.slice(u, rows * w + 1), cols, MPI.DOUBLE, vertical.getRankDest(), 0,
                MPI.slice(u, 1), cols, MPI.DOUBLE, vertical.getRankSource(), 0);
            grid.sendRecv(MPI.slice(u, w + 1), cols, MPI.DOUBLE, vertical.getRankSource(), 1,
                MPI.slice(u, (rows + 1) * w + 1), cols, MPI.DOUBLE, vertical.getRankDest(), 1);
            // Columns, as one vector item each.
            grid.sendRecv(MPI.slice(u, w + cols), 1, column, horizontal.getRankDest(), 2,
                MPI.slice(u, w), 1, column, horizontal.getRankSource(), 2);
            grid.sendRecv(MPI.slice(u, w + 1), 1, column, horizontal.getRankSource(), 3,
                MPI.slice(u, w + cols + 1), 1, column, horizontal.getRankDest(), 3);
            double local = 0;
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    if (interior(n, r0 + i - 1, c0 + j - 1)) {
                        next[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1]
                            + u[i * w + j + 1]);
                        local = Math.max(local, Math.abs(next[i * w + j] - u[i * w + j]));
                    }
                }
            }
            final double[] max = {local};
            grid.allReduce(max, 1, MPI.DOUBLE, MPI.MAX);
            residual = max[0];
            final double[] t = u;
            u = next;
            next = t;
        }
        // Gather every block to rank 0 (rows one by one) and check it against one array swept the same way.
        final double[] mine = new double[rows * cols];
        for (int i = 0; i < rows; i++) {
            System.arraycopy(u, (i + 1) * w + 1, mine, i * cols, cols);
        }
        final int[] counts = new int[size];
        final int[] shape = {r0, rows, c0, cols};
        final int[] shapes = new int[4 * size];
        grid.allGather(shape, 4, MPI.INT, shapes, 4, MPI.INT);
        final int[] displs = new int[size];
        int total = 0;
        for (int p = 0; p < size; p++) {
            counts[p] = shapes[4 * p + 1] * shapes[4 * p + 3];
            displs[p] = total;
            total += counts[p];
        }
        final double[] all = new double[total];
        grid.gatherv(mine, mine.length, MPI.DOUBLE, all, counts, displs, MPI.DOUBLE, 0);
        if (grid.getRank() == 0) {
            final double[] ref = sequential(n, sweeps);
            for (int p = 0; p < size; p++) {
                for (int i = 0; i < shapes[4 * p + 1]; i++) {
                    for (int j = 0; j < shapes[4 * p + 3]; j++) {
                        final double got = all[displs[p] + i * shapes[4 * p + 3] + j];
                        final double want = ref[(shapes[4 * p] + i) * n + shapes[4 * p + 2] + j];
                        if (Double.doubleToLongBits(got) != Double.doubleToLongBits(want)) {
                            throw new AssertionError("point (" + (shapes[4 * p] + i) + ", " + (shapes[4 * p + 2] + j)
                                + ") is " + got + ", the single array has " + want);
                        }
                    }
                }
            }
            System.out.printf("MPI stencil %d x %d, %d sweeps on a %d x %d grid of ranks: residual %.6e, every point "
                + "equal to one array's%n", n, n, sweeps, dims[0], dims[1], residual);
        }
        column.free();
        MPI.Finalize();
    }

    static int start(int n, int parts, int k) {
        return (int) ((long) n * k / parts);
    }

    static boolean interior(int n, int i, int j) {
        return i > 0 && j > 0 && i < n - 1 && j < n - 1;
    }

    /** Fixed values on the edges (a hot top edge), zero inside and outside. */
    static double boundary(int n, int i, int j) {
        return i == 0 && j >= 0 && j < n ? 1.0 : 0.0;
    }

    static double[] sequential(int n, int sweeps) {
        double[] u = new double[n * n];
        double[] next = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                u[i * n + j] = boundary(n, i, j);
            }
        }
        System.arraycopy(u, 0, next, 0, u.length);
        for (int s = 0; s < sweeps; s++) {
            for (int i = 1; i < n - 1; i++) {
                for (int j = 1; j < n - 1; j++) {
                    next[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1]
                        + u[i * n + j + 1]);
                }
            }
            final double[] t = u;
            u = next;
            next = t;
        }
        return u;
    }
}
