package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * OpenSHMEM's progress rule for a target that spins the classic ways, for the whole measurement: PE 0 spins until PE
 * 1 lets it go, and PE 1 meanwhile runs gets, fetch-adds and puts against PE 0, then lets it go. The patterns:
 * {@code while (!testLock(l))} on a lock PE 0 homes and PE 1 holds (PE 1's release is a lock message to the
 * spinning home), a compare-and-swap on PE 0's own memory, and {@code g} of PE 0's own memory. Before the NIC ran
 * SHMEM's handlers, a get to such a PE waited 2.8 s; the bound here (50 ms per operation on average) is far above
 * what it takes and far below that.
 */
@Timeout(120)
class SpinningTargetTest {
    private static final int OPS = 200;
    private static final long BOUND_NS = OPS * 3 * 50_000_000L;

    @ParameterizedTest(name = "{0} offload={1}")
    @CsvSource({"TEST_LOCK,true", "TEST_LOCK,false", "COMPARE_SWAP,true", "COMPARE_SWAP,false", "G,true",
        "G,false"})
    void shouldServeAPeThatSpinsOnCallsThatStayLocal(final String pattern, final boolean offload) {
        final AtomicBoolean spinning = new AtomicBoolean();
        final AtomicBoolean finishedWhileSpinning = new AtomicBoolean();
        final AtomicLong phaseNs = new AtomicLong();
        final AtomicLong spins = new AtomicLong();
        ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(100)).option("fm.nicOffload", "" + offload).build()
            .run(sh -> {
                final int me = sh.myPe();
                final SymmetricLongs lock = sh.mallocLongs(1);
                final SymmetricLongs flag = sh.mallocLongs(1);
                final SymmetricLongs data = sh.mallocLongs(64);
                if (me == 1 && pattern.equals("TEST_LOCK")) {
                    sh.setLock(lock, 0);
                }
                sh.barrierAll();
                if (me == 0) {
                    spinning.set(true);
                    ShmemTestSupport.spinOnLocalCalls(sh, pattern, lock, flag, spins);
                    spinning.set(false);
                } else {
                    // The measurement starts once the target has spun at least once (test-side flags): a target
                    // descheduled before its first call would otherwise see the whole measurement pass unspun.
                    while (!spinning.get() || spins.get() == 0) {
                        Thread.onSpinWait();
                    }
                    final long t0 = System.nanoTime();
                    final long[] one = new long[1];
                    for (int i = 0; i < OPS; i++) {
                        data.get(0, i % 64, one, 0, 1);
                        data.atomicFetchAdd(0, 63, 1);
                        data.p(0, i % 63, i);
                    }
                    sh.quiet();
                    phaseNs.set(System.nanoTime() - t0);
                    finishedWhileSpinning.set(spinning.get());
                    if (pattern.equals("TEST_LOCK")) {
                        sh.clearLock(lock, 0);
                    } else {
                        flag.atomicSet(0, 0, 1);
                    }
                }
                sh.barrierAll();
                if (me == 0) {
                    assertEquals(OPS, data.local()[63], "every fetch-add landed");
                }
            });
        System.out.printf("SpinningTargetTest %s offload=%s: %d operations in %.1f ms while the target spun %d times%n",
            pattern, offload, 3 * OPS, phaseNs.get() / 1e6, spins.get());
        assertTrue(finishedWhileSpinning.get(), pattern + ": the operations finished only after the target stopped "
            + "spinning");
        assertTrue(phaseNs.get() < BOUND_NS, pattern + ": " + 3 * OPS + " operations took " + phaseNs.get() / 1_000_000
            + " ms while the target spun");
        assertTrue(spins.get() > 0, "the target spun");
    }
}
