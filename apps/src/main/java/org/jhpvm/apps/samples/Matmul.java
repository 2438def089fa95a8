package org.jhpvm.apps.samples;

import java.time.Duration;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;

/**
 * GA {@code dgemm} on distributed matrices with a closed-form product: {@code A(i,k) = i + k}, {@code B(k,j) = k - j}
 * give {@code C(i,j) = sum_k (i+k)(k-j) = n*(-i*j) + (i - j)*S1 + S2} with {@code S1 = n(n-1)/2},
 * {@code S2 = (n-1)n(2n-1)/6}: integers, exact in double for the sizes used, so the check is equality.
 */
public final class Matmul {
    private Matmul() {
    }

    /**
     * What a run found.
     *
     * @param n           matrix order
     * @param pes         PEs
     * @param mismatches  elements of C that differ from the closed form
     * @param seconds     wall time of the dgemm
     * @param gflops      2 n^3 / time
     */
    public record Result(int n, int pes, long mismatches, double seconds, double gflops) {
    }

    /**
     * Fills A and B, times one {@code dgemm} C = A B in a job of {@code pes} PEs, and has every PE check the block
     * of C it owns against the closed form.
     *
     * @param pes number of PEs
     * @param n   matrix order
     * @return the check and the speed; in a process of a launched job that does not host PE 0, zero mismatches and
     *     zero seconds (only PE 0 holds the figures)
     * @throws IllegalArgumentException if {@code n} is outside 1..20000
     */
    public static Result run(final int pes, final int n) {
        if (n < 1 || n > 20_000) {
            throw new IllegalArgumentException("--n " + n + ": 1..20000");
        }
        final long[] bad = new long[1];
        final double[] seconds = new double[1];
        ShmemJob.builder().pes(pes).timeout(Duration.ofMinutes(10)).option("shmem.heapBytes", "2G").build()
            .run(sh -> {
                final GlobalArrays ga = new GlobalArrays(sh);
                final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {n, n}, "A");
                final GlobalArray b = ga.create(GaType.DOUBLE, new int[] {n, n}, "B");
                final GlobalArray c = ga.create(GaType.DOUBLE, new int[] {n, n}, "C");
                fill(a, true);
                fill(b, false);
                ga.sync();
                final long t0 = System.nanoTime();
                ga.dgemm('N', 'N', n, n, n, 1.0, a, b, 0.0, c);
                final double s = (System.nanoTime() - t0) / 1e9;
                // Each PE checks the block it owns, then the counts are summed.
                final long[] wrong = {0};
                final var block = c.access();
                if (!block.isEmpty()) {
                    final int[] lo = block.lo();
                    final int[] hi = block.hi();
                    final double[] x = block.doubles();
                    final double s1 = (double) n * (n - 1) / 2;
                    final double s2 = (double) (n - 1) * n * (2L * n - 1) / 6;
                    for (int i = lo[0]; i <= hi[0]; i++) {
                        for (int j = lo[1]; j <= hi[1]; j++) {
                            final double want = -(double) n * i * j + (double) (i - j) * s1 + s2;
                            if (x[block.index(i, j)] != want) {
                                wrong[0]++;
                            }
                        }
                    }
                }
                ga.gop(wrong, org.jhpvm.ga.GopOp.SUM);
                if (ga.nodeid() == 0) {
                    bad[0] = wrong[0];
                    seconds[0] = s;
                }
            });
        return new Result(n, pes, bad[0], seconds[0], 2.0 * n * n * n / seconds[0] / 1e9);
    }

    /** Each PE writes its own block by direct access: A(i,k) = i + k or B(k,j) = k - j. */
    private static void fill(final GlobalArray m, final boolean isA) {
        final var block = m.access();
        if (block.isEmpty()) {
            return;
        }
        final int[] lo = block.lo();
        final int[] hi = block.hi();
        final double[] x = block.doubles();
        for (int r = lo[0]; r <= hi[0]; r++) {
            for (int col = lo[1]; col <= hi[1]; col++) {
                x[block.index(r, col)] = isA ? r + col : r - col;
            }
        }
        m.releaseUpdate();
    }
}
