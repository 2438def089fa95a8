package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.ga.SparseArray;
import org.jhpvm.shmem.ShmemJob;

/**
 * Global Arrays' LU solver on random well- and ill-conditioned systems against a backward-stable residual bound, and
 * the sparse arrays' row and column split against GA's formula for any shape and PE count. jqwik prints the seed of a
 * failing case and {@code @Property(seed = ...)} replays it.
 */
class GaSolverAndSparseProperties {
    private static final double EPS = Math.ulp(1.0);

    private static void run(final int pes, final Consumer<GlobalArrays> body) {
        ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90)).build()
            .run(sh -> body.accept(new GlobalArrays(sh)));
    }

    /**
     * A random n x n system whose rows are scaled from 1 down to {@code 10^-digits} (condition up to about that,
     * beyond 1e15 for the largest): {@code luSolve} must solve it, never call it singular, with {@code ||b - A x|| <=
     * 16 n eps ||A|| ||x||}.
     */
    @Property(tries = 30)
    void luSolvesRandomSystemsToABackwardStableResidual(@ForAll @IntRange(min = 1, max = 40) final int n,
        @ForAll @IntRange(min = 0, max = 15) final int digits, @ForAll @IntRange(min = 1, max = 3) final int pes,
        @ForAll final long seed) {
        final Random rnd = new Random(seed);
        final double[] a = new double[n * n];
        for (int i = 0; i < n; i++) {
            final double scale = Math.pow(10, -digits * (double) i / Math.max(1, n - 1));
            for (int j = 0; j < n; j++) {
                a[i * n + j] = (rnd.nextDouble() * 2 - 1 + (i == j ? 1.5 : 0)) * scale;
            }
        }
        final double[] b = rnd.doubles(n, -1, 1).toArray();
        final double[] x = new double[n];
        run(pes, ga -> {
            final GlobalArray ma = ga.create(GaType.DOUBLE, new int[] {n, n}, "a");
            final GlobalArray mb = ga.create(GaType.DOUBLE, new int[] {n, 1}, "b");
            if (ga.nodeid() == 0) {
                ma.put(new int[] {0, 0}, new int[] {n - 1, n - 1}, a, new int[] {n});
                mb.put(new int[] {0, 0}, new int[] {n - 1, 0}, b, new int[] {1});
            }
            ga.sync();
            ga.luSolve('N', ma, mb);
            if (ga.nodeid() == 0) {
                mb.get(new int[] {0, 0}, new int[] {n - 1, 0}, x, new int[] {1});
            }
            ga.sync();
        });
        double normA = 0;
        double normX = 0;
        double r = 0;
        for (int i = 0; i < n; i++) {
            double row = 0;
            double s = b[i];
            for (int k = 0; k < n; k++) {
                row += Math.abs(a[i * n + k]);
                s -= a[i * n + k] * x[k];
            }
            normA = Math.max(normA, row);
            normX = Math.max(normX, Math.abs(x[i]));
            r = Math.max(r, Math.abs(s));
        }
        assertTrue(r <= 16 * n * EPS * normA * normX, "residual " + r + " for ||A|| " + normA + ", ||x|| " + normX);
    }

    /**
     * Any shape, any PE count: every row is held by exactly one rank, rank {@code floor(i * nproc / rows)} (GA's
     * split), columns split the same way, and after assembly each rank holds exactly the distinct subscripts of its
     * rows.
     */
    @Property(tries = 40)
    void sparseRowsAreSplitAsGaSplitsThem(@ForAll @IntRange(min = 1, max = 300) final int rows,
        @ForAll @IntRange(min = 1, max = 300) final int cols, @ForAll @IntRange(min = 1, max = 6) final int pes,
        @ForAll final long seed) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        run(pes, ga -> {
            final SparseArray s = ga.createSparse(GaType.DOUBLE, rows, cols);
            final int[] rowOwner = new int[rows];
            final int[] colOwner = new int[cols];
            Arrays.fill(rowOwner, -1);
            Arrays.fill(colOwner, -1);
            for (int p = 0; p < pes; p++) {
                final int[] r = s.rowDistribution(p);
                final int[] c = s.columnDistribution(p);
                for (int i = r[0]; i <= r[1]; i++) {
                    if (rowOwner[i] != -1 || (int) ((long) i * pes / rows) != p) {
                        failures.add("row " + i + " given to rank " + p + " (and " + rowOwner[i] + ")");
                    }
                    rowOwner[i] = p;
                }
                for (int j = c[0]; j <= c[1]; j++) {
                    if (colOwner[j] != -1 || (int) ((long) j * pes / cols) != p) {
                        failures.add("column " + j + " given to rank " + p);
                    }
                    colOwner[j] = p;
                }
            }
            for (int i = 0; i < rows; i++) {
                if (rowOwner[i] < 0) {
                    failures.add("row " + i + " held by no rank");
                }
            }
            for (int j = 0; j < cols; j++) {
                if (colOwner[j] < 0) {
                    failures.add("column " + j + " in no block");
                }
            }
            // Every PE adds the same random elements (summed at assembly); each rank keeps its rows' subscripts.
            final Random rnd = new Random(seed);
            final Set<Long> subscripts = new HashSet<>();
            for (int k = 0; k < 3 * rows; k++) {
                final int i = rnd.nextInt(rows);
                final int j = rnd.nextInt(cols);
                s.addElement(i, j, 1.0);
                if ((int) ((long) i * pes / rows) == ga.nodeid()) {
                    subscripts.add((long) i * cols + j);
                }
            }
            s.assemble();
            if (s.localNonZeros() != subscripts.size()) {
                failures.add("rank " + ga.nodeid() + " holds " + s.localNonZeros() + " elements, its rows have "
                    + subscripts.size() + " distinct subscripts");
            }
            s.destroy();
        });
        assertEquals("[]", failures.toString());
    }
}
