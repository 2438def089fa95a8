package org.jhpvm.shmem;

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
                final SpinTarget target = SpinTarget.allocate(sh, pattern);
                if (me == 0) {
                    spinning.set(true);
                    target.spin(sh, spins);
                    spinning.set(false);
                } else {
                    // The measurement starts once the target has spun at least once (test-side flags): a target
                    // descheduled before its first call would otherwise see the whole measurement pass unspun.
                    while (!spinning.get() || spins.get() == 0) {
                        Thread.onSpinWait();
                    }
                    final long t0 = System.nanoTime();
                    target.request(sh, OPS);
                    phaseNs.set(System.nanoTime() - t0);
                    finishedWhileSpinning.set(spinning.get());
                    target.release(sh);
                }
                sh.barrierAll();
                if (me == 0) {
                    target.checkLanded(OPS);
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
