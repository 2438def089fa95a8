package org.jhpvm.apps.bench;

import java.time.Duration;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.ga.SparseArray;
import org.jhpvm.shmem.ShmemJob;

/**
 * {@code bench ga}'s sparse figure: {@code NGA_Sprs_array_matvec_multiply} of the five-point Laplacian of a
 * {@link #N} x {@link #N} grid on 2 PEs, against the same compressed-row product on one thread over plain Java arrays
 * in the same run. Reported in Mflop/s ({@code 2 * nnz} per product), medians of the trials.
 */
public final class SparseBenchmark {
    /** The grid edge: {@code N * N} unknowns. */
    public static final int N = 256;
    private static final int PRODUCTS = 20;

    private final int trials;
    private final int warmups;

    /**
     * A benchmark.
     *
     * @param trials  measured passes of {@value #PRODUCTS} products (median), at least 1
     * @param warmups unmeasured passes before them, at least 0
     * @throws IllegalArgumentException for counts out of range
     */
    public SparseBenchmark(final int trials, final int warmups) {
        if (trials < 1 || warmups < 0) {
            throw new IllegalArgumentException("need trials >= 1, warmups >= 0");
        }
        this.trials = trials;
        this.warmups = warmups;
    }

    /**
     * What was measured.
     *
     * @param matvecMflops GA's sparse product on 2 PEs
     * @param localMflops  the same product on one thread without GA
     */
    public record Result(double matvecMflops, double localMflops) {
        /**
         * The ratio a reader compares.
         *
         * @return {@code matvecMflops / localMflops}
         */
        public double ratio() {
            return matvecMflops / localMflops;
        }
    }

    /**
     * Runs both measurements.
     *
     * @return the medians
     */
    public Result run() {
        final int m = N * N;
        // The local baseline: compressed rows of the same matrix.
        final int[] start = new int[m + 1];
        final int[] col = new int[5 * m];
        final double[] val = new double[5 * m];
        int nnz = 0;
        for (int row = 0; row < m; row++) {
            final int i = row / N;
            final int j = row % N;
            final int[] cs = {row - N, row - 1, row, row + 1, row + N};
            final boolean[] ok = {i > 0, j > 0, true, j < N - 1, i < N - 1};
            for (int k = 0; k < 5; k++) {
                if (ok[k]) {
                    col[nnz] = cs[k];
                    val[nnz++] = k == 2 ? 4 : -1;
                }
            }
            start[row + 1] = nnz;
        }
        final double flops = 2.0 * nnz * PRODUCTS;
        final double[] x = new double[m];
        final double[] y = new double[m];
        java.util.Arrays.fill(x, 1.5);
        final double[] local = new double[trials];
        for (int t = -warmups; t < trials; t++) {
            final long t0 = System.nanoTime();
            for (int p = 0; p < PRODUCTS; p++) {
                for (int r = 0; r < m; r++) {
                    double s = 0;
                    for (int k = start[r]; k < start[r + 1]; k++) {
                        s += val[k] * x[col[k]];
                    }
                    y[r] = s;
                }
            }
            if (t >= 0) {
                local[t] = flops / ((System.nanoTime() - t0) / 1e3);
            }
        }
        final double[] ga = new double[trials];
        ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(10)).build().run(sh -> {
            final GlobalArrays g = new GlobalArrays(sh);
            final SparseArray a = g.createSparse(GaType.DOUBLE, m, m);
            final int me = g.nodeid();
            for (int row = me * m / 2; row < (me + 1) * m / 2; row++) {
                for (int k = start[row]; k < start[row + 1]; k++) {
                    a.addElement(row, col[k], val[k]);
                }
            }
            a.assemble();
            final GlobalArray gx = g.create(GaType.DOUBLE, new int[] {m}, "x");
            final GlobalArray gy = g.create(GaType.DOUBLE, new int[] {m}, "y");
            gx.fill(1.5);
            for (int t = -warmups; t < trials; t++) {
                g.sync();
                final long t0 = System.nanoTime();
                for (int p = 0; p < PRODUCTS; p++) {
                    a.matvec(gx, gy);
                }
                if (t >= 0 && me == 0) {
                    ga[t] = flops / ((System.nanoTime() - t0) / 1e3);
                }
            }
            a.destroy();
        });
        return new Result(Stats.median(ga), Stats.median(local));
    }
}
