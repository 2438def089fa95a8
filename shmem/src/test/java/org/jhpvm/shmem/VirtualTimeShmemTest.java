package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jhpvm.fm.FmClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SHMEM on a virtual-time fabric with declared computation: the modelled times depend only on the program, never on
 * when the operating system runs its threads; and a PE that spins on calls that stay local is still served, without
 * the progress agent that serves it on the wall clock.
 */
@Timeout(120)
class VirtualTimeShmemTest {
    private static final int OPS = 20;

    private static ShmemJob virtualJob() {
        return ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(100)).option("fabric.clock", "virtual")
            .option("fabric.machine", "sparc-sbus-1995").option("fabric.cpu", "declared").build();
    }

    /**
     * PE 1 gets from and fetch-adds at PE 0 while PE 0 computes (declared) and, in one of the runs, also pauses in
     * wall time between its calls. A progress agent that served PE 1 during a pause would move PE 0's clock on by
     * its looks and answer PE 1 at another modelled time: the times would differ.
     */
    @Test
    void modelledTimesDoNotDependOnWallClockPauses() {
        final long[][] quick = timesOfRequestsToAComputingPe(0);
        final long[][] paused = timesOfRequestsToAComputingPe(20);
        assertArrayEquals(quick[0], paused[0], "PE 0's modelled times");
        assertArrayEquals(quick[1], paused[1], "PE 1's modelled times");
        assertTrue(quick[1][OPS - 1] > quick[1][0], "PE 1's clock advanced");
    }

    private static long[][] timesOfRequestsToAComputingPe(final long pauseMs) {
        final long[][] times = new long[2][OPS];
        virtualJob().run(sh -> {
            final int me = sh.myPe();
            final SymmetricLongs data = sh.mallocLongs(8);
            final long[] one = new long[1];
            sh.barrierAll();
            final long t0 = FmClock.nanoTime();
            for (int i = 0; i < OPS; i++) {
                if (me == 0) {
                    FmClock.charge(3_000); // computes between its calls
                    if (pauseMs > 0) {
                        try {
                            Thread.sleep(pauseMs);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    data.p(0, 1, i); // a call that stays local
                } else {
                    data.get(0, 0, one, 0, 1);
                    data.atomicFetchAdd(0, 2, 1);
                }
                times[me][i] = FmClock.nanoTime() - t0;
            }
            sh.barrierAll();
            if (me == 0) {
                assertEquals(OPS, data.local()[2], "every fetch-add landed");
            }
        });
        return times;
    }

    /**
     * PE 0 spins until PE 1, which meanwhile gets, fetch-adds and puts at PE 0, lets it go: PE 1's gets complete
     * only if the spinning PE serves them. (No handshake outside SHMEM: in virtual time a thread that waits on
     * anything else holds every clock back.)
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"G", "COMPARE_SWAP", "TEST_LOCK"})
    void aPeSpinningOnCallsThatStayLocalIsServed(final String pattern) {
        final AtomicLong spins = new AtomicLong();
        virtualJob().run(sh -> {
            final int me = sh.myPe();
            final SpinTarget target = SpinTarget.allocate(sh, pattern);
            if (me == 0) {
                target.spin(sh, spins);
            } else {
                target.request(sh, OPS);
                target.release(sh);
            }
            sh.barrierAll();
            if (me == 0) {
                target.checkLanded(OPS);
            }
        });
        assertTrue(spins.get() > 0, "the target spun");
    }
}
