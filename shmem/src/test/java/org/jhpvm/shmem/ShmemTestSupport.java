package org.jhpvm.shmem;

import java.time.Duration;

/** Jobs for the tests: short timeouts; the PE counts every routine is run on. */
final class ShmemTestSupport {
    /** The PE counts: 64 PEs on 2 cores must stay quick. */
    static final int[] PES = {1, 2, 3, 8, 64};

    private ShmemTestSupport() {
    }

    static ShmemJob job(final int pes) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(60)).build();
    }

    static ShmemJob lossyJob(final int pes, final long seed) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(60)).option("fabric.faults.seed", "" + seed)
            .option("fabric.faults.drop", "0.02").option("fabric.faults.corrupt", "0.005")
            .option("fabric.faults.duplicate", "0.005").build();
    }

    /**
     * A job whose waits sleep in FM at once, 1 s and then 2 s (no spinning): a wait that ends within milliseconds of
     * a store was woken by it.
     */
    static ShmemJob sleepyJob(final int pes) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(100)).option("fm.spinWaitNs", "0")
            .option("fm.idleSleepNs", "1000000000").option("fm.idleSleepMaxNs", "4000000000").build();
    }

    static void pause(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A value that depends on the writer, the target and the position. */
    static long value(final int from, final int to, final int i) {
        long x = from * 0x9E3779B97F4A7C15L ^ (long) to << 24 ^ i * 0xBF58476D1CE4E5B9L;
        x ^= x >>> 31;
        return x * 0x94D049BB133111EBL;
    }
}
