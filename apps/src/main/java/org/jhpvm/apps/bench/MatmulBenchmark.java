package org.jhpvm.apps.bench;

import java.time.Duration;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;

/**
 * {@code bench ga}'s matrix-multiply figure: {@code NGA_Matmul_patch} of an {@link #N} x {@link #N} double patch
 * (taken at an offset inside larger arrays, the C patch too) on 2 PEs, against the same product computed by one
 * thread with the same i-k-j loop on plain Java arrays in the same run (the machine's baseline for that kernel).
 * Reported in GFLOP/s ({@code 2 N^3} flops per product), medians of the trials.
 */
public final class MatmulBenchmark {
    /** The patch edge. */
    public static final int N = 384;
    private static final int OFFSET = 5;

    private final int trials;
    private final int warmups;

    /**
     * A benchmark.
     *
     * @param trials  measured products (median), at least 1
     * @param warmups unmeasured products before them, at least 0
     * @throws IllegalArgumentException for counts out of range
     */
    public MatmulBenchmark(final int trials, final int warmups) {
        if (trials < 1 || warmups < 0) {
            throw new IllegalArgumentException("need trials >= 1, warmups >= 0");
        }
        this.trials = trials;
        this.warmups = warmups;
    }

    /**
     * What was measured.
     *
     * @param patchGflops GFLOP/s of matmulPatch on 2 PEs
     * @param localGflops GFLOP/s of the same loop on one thread, no GA
     */
    public record Result(double patchGflops, double localGflops) {
        /**
         * The ratio a reader compares: matmulPatch over the one-thread loop.
         *
         * @return {@code patchGflops / localGflops}
         */
        public double ratio() {
            return patchGflops / localGflops;
        }
    }

    /**
     * Runs both measurements.
     *
     * @return the medians
     */
    public Result run() {
        final double flops = 2.0 * N * N * N;
        final double[] local = new double[trials];
        final double[] a = new double[N * N];
        final double[] b = new double[N * N];
        final double[] c = new double[N * N];
        for (int i = 0; i < a.length; i++) {
            a[i] = (i % 17) * 0.25 - 2;
            b[i] = (i % 13) * 0.5 - 3;
        }
        for (int t = -warmups; t < trials; t++) {
            java.util.Arrays.fill(c, 0);
            final long t0 = System.nanoTime();
            for (int i = 0; i < N; i++) {
                for (int k = 0; k < N; k++) {
                    final double aik = a[i * N + k];
                    for (int j = 0; j < N; j++) {
                        c[i * N + j] += aik * b[k * N + j];
                    }
                }
            }
            if (t >= 0) {
                local[t] = flops / (System.nanoTime() - t0);
            }
        }
        final double[] patch = new double[trials];
        ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(10)).build().run(sh -> {
            final GlobalArrays ga = new GlobalArrays(sh);
            final int e = N + 2 * OFFSET;
            final GlobalArray ga1 = ga.create(GaType.DOUBLE, new int[] {e, e}, "a");
            final GlobalArray gb = ga.create(GaType.DOUBLE, new int[] {e, e}, "b");
            final GlobalArray gc = ga.create(GaType.DOUBLE, new int[] {e, e}, "c");
            ga1.fill(0.75);
            gb.fill(-1.5);
            final int[] lo = {OFFSET, OFFSET};
            final int[] hi = {OFFSET + N - 1, OFFSET + N - 1};
            for (int t = -warmups; t < trials; t++) {
                ga.sync();
                final long t0 = System.nanoTime();
                ga.matmulPatch('N', 'N', 1.0, 0.0, ga1, lo, hi, gb, lo, hi, gc, lo, hi);
                if (t >= 0 && ga.nodeid() == 0) {
                    patch[t] = flops / (System.nanoTime() - t0);
                }
            }
        });
        return new Result(Stats.median(patch), Stats.median(local));
    }
}
