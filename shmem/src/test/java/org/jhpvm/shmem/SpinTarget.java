package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The spin patterns of SpinningTargetTest and VirtualTimeShmemTest, on 2 PEs: PE 0 spins on calls that stay on it
 * until PE 1, which meanwhile gets, fetch-adds and puts at PE 0, lets it go. The patterns: {@code while
 * (!testLock(l))} on a lock PE 0 homes and PE 1 holds ("TEST_LOCK"; PE 1's release is a lock message to the spinning
 * home), a compare-and-swap of PE 0's own memory ("COMPARE_SWAP") and {@code g} of it (anything else).
 *
 * @param pattern the pattern
 * @param lock    the lock of "TEST_LOCK"
 * @param flag    the word PE 0 spins on otherwise
 * @param data    what PE 1's requests reach
 */
record SpinTarget(String pattern, SymmetricLongs lock, SymmetricLongs flag, SymmetricLongs data) {
    /** Allocates the objects (collective), PE 1 takes the lock for "TEST_LOCK", and a barrier follows. */
    static SpinTarget allocate(final Shmem sh, final String pattern) {
        final SpinTarget t = new SpinTarget(pattern, sh.mallocLongs(1), sh.mallocLongs(1), sh.mallocLongs(64));
        if (sh.myPe() == 1 && pattern.equals("TEST_LOCK")) {
            sh.setLock(t.lock, 0);
        }
        sh.barrierAll();
        return t;
    }

    /** PE 0: spins until PE 1 lets it go (and clears the lock it then holds), counting the spins. */
    void spin(final Shmem sh, final AtomicLong spins) {
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

    /** PE 1: {@code ops} rounds of a get, a fetch-add and a put at PE 0, then a quiet. */
    void request(final Shmem sh, final int ops) {
        final long[] one = new long[1];
        for (int i = 0; i < ops; i++) {
            data.get(0, i % 64, one, 0, 1);
            data.atomicFetchAdd(0, 63, 1);
            data.p(0, i % 63, i);
        }
        sh.quiet();
    }

    /** PE 1: lets PE 0 go. */
    void release(final Shmem sh) {
        if (pattern.equals("TEST_LOCK")) {
            sh.clearLock(lock, 0);
        } else {
            flag.atomicSet(0, 0, 1);
        }
    }

    /** After a barrier, on PE 0: every fetch-add of {@link #request} landed. */
    void checkLanded(final int ops) {
        assertEquals(ops, data.local()[63], "every fetch-add landed");
    }
}
