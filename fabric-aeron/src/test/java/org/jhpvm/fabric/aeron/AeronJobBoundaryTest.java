package org.jhpvm.fabric.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs one after another on a launched fabric's streams: a process may begin the next job while a peer is still in
 * the last one's exit barrier (it learns of the job-wide end later). A message of the next job must wait until its
 * receiver has begun that job, else the FM streams of the ended job take it for theirs (that was "fabric broke its
 * guarantee of exactly-once ... seq 0 ... expected 527662" between two benchmarks under {@code launch}); a message of
 * a job the receiver has left is dropped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AeronJobBoundaryTest {
    private static final ProcessFabric.JobHooks RUNNING = RunningJobHooks.RUNNING;

    @Test
    void aMessageOfTheNextJobShouldWaitForItsReceiverToBeginItAndOneOfAnEndedJobShouldGo() {
        try (AeronCluster c = AeronCluster.start(2, 1, false, FabricConfig.builder(2).frameBytes(1024).build())) {
            final Nic sender = c.nic(0);
            final Nic receiver = c.nic(1);
            ProcessFabric.JobSession s0 = c.rank(0).beginJob(RUNNING);
            ProcessFabric.JobSession s1 = c.rank(1).beginJob(RUNNING);
            send(sender, 1);
            assertEquals(1, payload(receiver, receiver.receive(10_000_000_000L)), "within one job a message passes");

            // Rank 0 has left job 1 and begun job 2; rank 1 is still in job 1.
            s0.close();
            s0 = c.rank(0).beginJob(RUNNING);
            send(sender, 2);
            assertNull(receiver.receive(300_000_000L), "a message of job 2 reached a process still in job 1");
            assertTrue(c.rank(1).earlyJobPolls() > 0, "the message was seen and left waiting");
            s1.close();
            s1 = c.rank(1).beginJob(RUNNING);
            assertEquals(2, payload(receiver, receiver.receive(10_000_000_000L)), "once begun, job 2 gets it");

            // Now rank 1 is ahead: in job 3, while rank 0 still sends as job 2. Those messages are stragglers.
            s1.close();
            s1 = c.rank(1).beginJob(RUNNING);
            final long droppedBefore = receiver.counters().framesDropped();
            send(sender, 3);
            assertNull(receiver.receive(300_000_000L), "a message of job 2 reached a process in job 3");
            assertEquals(1, c.rank(1).staleJobMessages());
            assertEquals(droppedBefore + 1, receiver.counters().framesDropped());
            s0.close();
            s0 = c.rank(0).beginJob(RUNNING);
            send(sender, 4);
            assertEquals(4, payload(receiver, receiver.receive(10_000_000_000L)), "job 3 on both sides: it passes");
            s0.close();
            s1.close();
        }
    }

    private static void send(final Nic nic, final long value) {
        final Frame f = nic.acquire();
        f.setDestination(1);
        f.putPayloadLong(0, value);
        f.setLength(8);
        nic.send(f);
    }

    private static long payload(final Nic nic, final Frame f) {
        assertNotNull(f, "no message came");
        final long v = f.getPayloadLong(0);
        nic.release(f);
        return v;
    }
}
