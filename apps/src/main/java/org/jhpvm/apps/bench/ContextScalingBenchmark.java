package org.jhpvm.apps.bench;

import java.time.Duration;

import org.jhpvm.shmem.ShmemCtx;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * The rate of 8-byte puts one PE streams to another over 1, 2 and 4 OpenSHMEM contexts ({@code bench shmem}'s
 * context-scaling figure): PE 0 issues its puts in batches of {@link #BATCH}, each batch on the next context in turn
 * ({@link ShmemCtx#use()}), and closes with one quiet per context. With one context the batches all go on a created
 * context, so the figures differ only in how many contexts share the stream. Contexts here are completion domains of
 * the PE's one endpoint, so more contexts add no parallel hardware: the figure shows what switching and per-context
 * completion cost, not a speed-up.
 */
public final class ContextScalingBenchmark {
    /** The context counts measured. */
    public static final int[] CONTEXTS = {1, 2, 4};
    /** Puts per batch on one context. */
    public static final int BATCH = 64;

    private final int trials;
    private final int warmups;
    private final int puts;

    /**
     * A benchmark.
     *
     * @param trials  measured passes per context count (the median is reported), at least 1
     * @param warmups unmeasured passes before them, at least 0
     * @param puts    8-byte puts per pass, at least {@link #BATCH}
     * @throws IllegalArgumentException if a count is out of range
     */
    public ContextScalingBenchmark(final int trials, final int warmups, final int puts) {
        if (trials < 1 || warmups < 0 || puts < BATCH) {
            throw new IllegalArgumentException("need trials >= 1, warmups >= 0, puts >= " + BATCH);
        }
        this.trials = trials;
        this.warmups = warmups;
        this.puts = puts;
    }

    /**
     * Runs the measurement in one 2-PE job.
     *
     * @return millions of 8-byte puts per second, per entry of {@link #CONTEXTS} (medians)
     */
    public double[] run() {
        final double[] mops = new double[CONTEXTS.length];
        ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(10)).build().run(sh -> {
            final SymmetricLongs target = sh.mallocLongs(BATCH);
            final long[] src = {42};
            sh.barrierAll();
            if (sh.myPe() == 0) {
                for (int c = 0; c < CONTEXTS.length; c++) {
                    final ShmemCtx[] ctxs = new ShmemCtx[CONTEXTS[c]];
                    for (int k = 0; k < ctxs.length; k++) {
                        ctxs[k] = sh.ctxCreate(ShmemCtx.PRIVATE);
                    }
                    final double[] t = new double[trials];
                    for (int pass = -warmups; pass < trials; pass++) {
                        final long t0 = System.nanoTime();
                        for (int done = 0, k = 0; done < puts; done += BATCH, k = (k + 1) % ctxs.length) {
                            try (ShmemCtx u = ctxs[k].use()) {
                                for (int i = 0; i < BATCH; i++) {
                                    target.put(1, i, src, 0, 1);
                                }
                            }
                        }
                        for (final ShmemCtx x : ctxs) {
                            x.quiet();
                        }
                        if (pass >= 0) {
                            t[pass] = puts / ((System.nanoTime() - t0) / 1e3);
                        }
                    }
                    mops[c] = Stats.median(t);
                    for (final ShmemCtx x : ctxs) {
                        x.destroy();
                    }
                }
            }
            sh.barrierAll();
        });
        return mops;
    }
}
