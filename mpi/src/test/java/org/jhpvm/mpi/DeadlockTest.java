package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import mpi.MPI;
import org.jhpvm.fm.FmDeadlockException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An MPI program whose ranks all wait ends with a line per rank naming the call, its line and what it waits for. */
@Timeout(120)
class DeadlockTest {
    @Test
    void shouldReportAReceiveNoRankSendsTo() {
        final MpiAbortException e = assertThrows(MpiAbortException.class, () -> MpiJob.builder().ranks(3)
            .timeout(Duration.ofSeconds(60)).option("fm.deadlockAfterNs", "200000000").build().run(() -> {
                MPI.Init(new String[0]);
                final int[] buf = new int[1];
                if (MPI.COMM_WORLD.getRank() == 1) {
                    MPI.COMM_WORLD.recv(buf, 1, MPI.INT, 0, 42);
                }
                MPI.COMM_WORLD.barrier();
                MPI.Finalize();
            }));
        assertInstanceOf(FmDeadlockException.class, e.getCause(), String.valueOf(e));
        final String r = e.getCause().getMessage();
        assertTrue(r.contains("PE 1: recv at DeadlockTest.java:"), r);
        assertTrue(r.contains("a message from rank 0 with tag 42"), r);
        assertTrue(r.contains("PE 0: barrier at DeadlockTest.java:"), r);
        assertTrue(r.contains("PE 2: barrier at DeadlockTest.java:"), r);
    }

    @Test
    void shouldNotReportARankThatComputesWhileAnotherWaitsForItsMessage() {
        MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(60)).option("fm.deadlockAfterNs", "200000000").build()
            .run(() -> {
                MPI.Init(new String[0]);
                final int[] buf = new int[1];
                if (MPI.COMM_WORLD.getRank() == 0) {
                    final long end = System.nanoTime() + 800_000_000L; // four times the deadlock delay
                    double x = 0;
                    while (System.nanoTime() - end < 0) {
                        x += Math.sqrt(x + 1);
                    }
                    buf[0] = x > 0 ? 5 : 6;
                    MPI.COMM_WORLD.send(buf, 1, MPI.INT, 1, 3);
                } else {
                    MPI.COMM_WORLD.recv(buf, 1, MPI.INT, 0, 3);
                    assertTrue(buf[0] == 5);
                }
                MPI.Finalize();
            });
    }
}
