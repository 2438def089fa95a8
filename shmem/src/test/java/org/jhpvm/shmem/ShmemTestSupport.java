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
     * PE 0's side of the spin patterns (SpinningTargetTest, VirtualTimeShmemTest): spins on calls that stay on it
     * until PE 1 lets it go, {@code while (!testLock(l))} on a lock it homes ("TEST_LOCK", then clears it), a
     * compare-and-swap of its own memory ("COMPARE_SWAP") or {@code g} of it (anything else), counting the spins.
     */
    static void spinOnLocalCalls(final Shmem sh, final String pattern, final SymmetricLongs lock,
        final SymmetricLongs flag, final java.util.concurrent.atomic.AtomicLong spins) {
        switch (pattern) {
            case "TEST_LOCK" -> {
                while (!sh.testLock(lock, 0)) {
                    spins.lazySet(spins.get() + 1);
                }
                sh.clearLock(lock, 0);
            }
            case "COMPARE_SWAP" -> {
                while (flag.atomicCompareSwap(0, 0, 1, 2) != 1) {
                    spins.lazySet(spins.get() + 1);
                }
            }
            default -> {
                while (flag.g(0, 0) == 0) {
                    spins.lazySet(spins.get() + 1);
                }
            }
        }
    }

    /** A value that depends on the writer, the target and the position. */
    static long value(final int from, final int to, final int i) {
        long x = from * 0x9E3779B97F4A7C15L ^ (long) to << 24 ^ i * 0xBF58476D1CE4E5B9L;
        x ^= x >>> 31;
        return x * 0x94D049BB133111EBL;
    }
}
