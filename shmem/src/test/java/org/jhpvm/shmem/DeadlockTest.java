package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.jhpvm.fm.FmDeadlockException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deadlocks of SHMEM programs end the job with a line per PE naming the call, the program's line and what it waits
 * for; programs that are only slow, or whose wait another thread of the PE ends, run to their end.
 */
@Timeout(120)
class DeadlockTest {
    private static ShmemJob.Builder job(final int pes) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(60)).option("fm.deadlockAfterNs", "200000000");
    }

    private static String report(final ShmemJob job, final ShmemJob.Body body) {
        final ShmemAbortException e = assertThrows(ShmemAbortException.class, () -> job.run(body));
        Throwable c = e;
        while (c != null && !(c instanceof FmDeadlockException)) {
            c = c.getCause();
        }
        assertInstanceOf(FmDeadlockException.class, c, String.valueOf(e));
        return c.getMessage();
    }

    @Test
    void shouldReportABarrierOnePeCallsOnceMoreThanTheOthers() {
        final String r = report(job(3).build(), sh -> {
            sh.barrierAll();
            if (sh.myPe() == 0) {
                sh.barrierAll();
            }
        });
        // PE 0's extra barrier meets the others' finalize; one of the barriers after it waits for a PE that has
        // finished. Which PEs are where depends on the dissemination pattern: every PE has its line, and some waits.
        for (int pe = 0; pe < 3; pe++) {
            assertTrue(r.contains("\n  PE " + pe + ": "), r);
        }
        assertTrue(r.contains("to reach the same barrier"), r);
        assertTrue(r.contains("finished (its body returned"), r);
    }

    @Test
    void shouldReportABarrierAPeNeverReachesWithWhatEachPeWaitsIn() {
        final String r = report(job(2).build(), sh -> {
            final SymmetricLongs never = sh.mallocLongs(1);
            if (sh.myPe() == 0) {
                sh.barrierAll();
            } else {
                never.waitUntil(0, Cmp.NE, 0);
            }
        });
        assertTrue(r.contains("PE 0: Shmem.barrierAll at DeadlockTest.java:"), r);
        assertTrue(r.contains("waiting for PE 1 of the world team to reach the same barrier"), r);
        assertTrue(r.contains("PE 1: SymmetricLongs.waitUntil at DeadlockTest.java:"), r);
        assertTrue(r.contains("SymmetricLongs#0[0] (now 0) NE 0"), r);
    }

    @Test
    void shouldReportAWaitUntilNobodySatisfiesWithTheVariableAndValue() {
        final String r = report(job(2).build(), sh -> {
            final SymmetricLongs flag = sh.mallocLongs(4);
            sh.barrierAll();
            flag.waitUntil(2, Cmp.EQ, 7);
        });
        for (int pe = 0; pe < 2; pe++) {
            assertTrue(r.contains("PE " + pe + ": SymmetricLongs.waitUntil at DeadlockTest.java:"), r);
        }
        assertTrue(r.contains("waiting for SymmetricLongs#0[2] (now 0) EQ 7"), r);
    }

    @Test
    void shouldReportALockItsHolderKeepsAcrossABarrier() {
        final String r = report(job(2).build(), sh -> {
            final SymmetricLongs lock = sh.mallocLongs(1);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                sh.setLock(lock, 0);
                sh.barrierAll();
            } else {
                sh.barrierAll();
                sh.setLock(lock, 0);
            }
        });
        assertTrue(r.contains("PE 1: Shmem.setLock at DeadlockTest.java:"), r);
        assertTrue(r.contains("the answer of PE 0 to its lock request"), r);
        assertTrue(r.contains("PE 0: in Shmem.finish"), r);
    }

    @Test
    void shouldNotReportAPeThatComputesWhileTheOthersWaitInABarrier() {
        final ShmemJob.Report report = job(4).build().run(sh -> {
            if (sh.myPe() == 2) {
                final long end = System.nanoTime() + 800_000_000L; // four times the deadlock delay
                double x = 0;
                while (System.nanoTime() - end < 0) {
                    x += Math.sqrt(x + 1);
                }
                assertTrue(x > 0);
            }
            sh.barrierAll();
        });
        assertEquals(0, report.exitStatus());
    }

    @Test
    void shouldNotReportAWaitAnotherThreadOfThePeEnds() {
        // Thread level MULTIPLE: PE 1's second thread sleeps 1.5 s, then puts what PE 0 waits for.
        job(2).threadLevel(ThreadLevel.MULTIPLE).build().run(sh -> {
            final SymmetricLongs flag = sh.mallocLongs(1);
            sh.barrierAll();
            if (sh.myPe() == 1) {
                final Thread helper = new Thread(() -> {
                    try {
                        Thread.sleep(800); // four times the deadlock delay
                    } catch (InterruptedException e) {
                        return;
                    }
                    flag.p(0, 0, 1);
                    sh.quiet();
                });
                helper.start();
                helper.join();
            } else {
                flag.waitUntil(0, Cmp.EQ, 1);
            }
        });
    }

    @Test
    void shouldNotReportAWaitForAStoreAThreadOfThePeMakesIntoItsOwnMemory() {
        // Thread level FUNNELED: a thread the body started stores into the PE's own array after 1.5 s.
        job(2).build().run(sh -> {
            final SymmetricLongs flag = sh.mallocLongs(1);
            sh.barrierAll();
            final Thread helper = new Thread(() -> {
                try {
                    Thread.sleep(800); // four times the deadlock delay
                } catch (InterruptedException e) {
                    return;
                }
                flag.local()[0] = 1;
            });
            helper.start();
            flag.waitUntil(0, Cmp.EQ, 1);
            helper.join();
        });
    }
}
