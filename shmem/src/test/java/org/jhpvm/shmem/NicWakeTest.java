package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An atomic that changes a heap array wakes a waiter asleep in FM, fetching or not: the NIC runs the target's
 * handler, and only a handler that changed nothing (a get, an atomic fetch) may say so and leave the waiter asleep.
 */
@Timeout(120)
class NicWakeTest {

    /**
     * The waiter sleeps in FM for 1 s at a time (no spinning); each atomic comes once the waiter's thread has been
     * parked for 100 ms. Woken, the waiter sees it within milliseconds; not woken, when that sleep ends, about 0.9 s
     * later.
     */
    @Test
    void aChangingAtomicShouldWakeAWaiterAsleepInFm() {
        final String[] ops = {"atomicAdd", "atomicFetchAdd", "atomicSwap", "atomicCompareSwap"};
        final long[] storedAt = new long[ops.length];
        final long[] sawAt = new long[ops.length];
        final AtomicReference<Thread> waiter = new AtomicReference<>();
        ShmemTestSupport.sleepyJob(2).run(sh -> {
            final SymmetricLongs flag = sh.mallocLongs(2);
            if (sh.myPe() == 1) {
                waiter.set(Thread.currentThread());
            }
            sh.barrierAll();
            for (int r = 1; r <= ops.length; r++) {
                if (sh.myPe() == 1) {
                    flag.waitUntil(0, Cmp.GE, r);
                    assertEquals(r, flag.local()[0]);
                    sawAt[r - 1] = System.nanoTime();
                    flag.atomicSet(0, 1, r);
                } else {
                    // Reads of the waiter's memory first: they must not wake it, and do not end its wait.
                    for (int k = 0; k < 1000; k++) {
                        assertEquals(r - 1, flag.atomicFetch(1, 0));
                        assertEquals(r - 1, flag.g(1, 0));
                    }
                    ShmemTestSupport.awaitAsleep(waiter.get());
                    storedAt[r - 1] = System.nanoTime();
                    switch (r) {
                        case 1 -> flag.atomicAdd(1, 0, 1);
                        case 2 -> assertEquals(1, flag.atomicFetchAdd(1, 0, 1));
                        case 3 -> assertEquals(2, flag.atomicSwap(1, 0, 3));
                        default -> assertEquals(3, flag.atomicCompareSwap(1, 0, 3, 4));
                    }
                    flag.waitUntil(1, Cmp.GE, r);
                }
            }
            sh.barrierAll();
        });
        for (int r = 0; r < ops.length; r++) {
            final long lateMs = (sawAt[r] - storedAt[r]) / 1_000_000;
            assertTrue(lateMs < 600, ops[r] + " woke nobody: seen " + lateMs + " ms after it");
        }
    }
}
