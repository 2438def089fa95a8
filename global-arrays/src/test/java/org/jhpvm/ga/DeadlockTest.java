package org.jhpvm.ga;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.jhpvm.shmem.ShmemAbortException;
import org.jhpvm.shmem.ShmemJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A GA program whose PEs wait for each other ends with a line per PE naming the call and its line. */
@Timeout(120)
class DeadlockTest {
    @Test
    void shouldReportASyncWhileAnotherPeWaitsForAMutexItsHolderKeeps() {
        final ShmemAbortException e = assertThrows(ShmemAbortException.class, () -> ShmemJob.builder().pes(2)
            .timeout(Duration.ofSeconds(60)).option("fm.deadlockAfterNs", "200000000").build().run(sh -> {
                final GlobalArrays ga = new GlobalArrays(sh);
                ga.createMutexes(1);
                if (ga.nodeid() == 0) {
                    ga.lock(0);
                }
                ga.sync();
                if (ga.nodeid() == 0) {
                    ga.sync();
                } else {
                    ga.lock(0);
                }
            }));
        Throwable c = e;
        while (c != null && !c.getClass().getSimpleName().equals("FmDeadlockException")) {
            c = c.getCause();
        }
        assertTrue(c != null, String.valueOf(e));
        final String r = c.getMessage();
        assertTrue(r.startsWith("deadlock: "), r);
        assertTrue(r.contains("PE 0: GlobalArrays.sync at DeadlockTest.java:"), r);
        assertTrue(r.contains("waiting for PE 1 of the world team to reach the same barrier"), r);
        assertTrue(r.contains("PE 1: GlobalArrays.lock at DeadlockTest.java:"), r);
    }
}
