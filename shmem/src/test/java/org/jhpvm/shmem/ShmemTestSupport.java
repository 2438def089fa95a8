package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
     * A job whose waits sleep in FM at once, for 1 s at first and doubling while nothing comes (no spinning): a wait
     * that ends within milliseconds of a store was woken by it.
     */
    static ShmemJob sleepyJob(final int pes) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(100)).option("fm.spinWaitNs", "0")
            .option("fm.idleSleepNs", "1000000000").option("fm.idleSleepMaxNs", "4000000000").build();
    }

    /**
     * Returns once {@code t} has been parked with a timeout for 100 ms in a row: asleep in a {@link #sleepyJob}'s 1 s
     * sleep, not in a short park. A store then made and not waking it is seen about 0.9 s later.
     */
    static void awaitAsleep(final Thread t) {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        long since = 0;
        while (true) {
            final long now = System.nanoTime();
            assertTrue(now - deadline < 0, "the waiter never slept 100 ms in a row: " + t.getState());
            if (t.getState() != Thread.State.TIMED_WAITING) {
                since = 0;
            } else if (since == 0) {
                since = now;
            } else if (now - since >= 100_000_000L) {
                return;
            }
            Thread.yield();
        }
    }

    /** A value that depends on the writer, the target and the position. */
    static long value(final int from, final int to, final int i) {
        long x = from * 0x9E3779B97F4A7C15L ^ (long) to << 24 ^ i * 0xBF58476D1CE4E5B9L;
        x ^= x >>> 31;
        return x * 0x94D049BB133111EBL;
    }
}
