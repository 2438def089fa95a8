package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import mpi.MPI;

import org.jhpvm.mpi.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A blocking eager {@code send} allocates nothing on the sending rank: its state is only awaited and checked, so the
 * engine makes none (a send used to make an operation and a status nobody read, about 100 bytes a message and a
 * young collection every second or so of a ping-pong). Measured on rank 0's own thread after a warm-up.
 */
@Timeout(120)
class MpiAllocationTest {
    private static final int SENDS = 20_000;

    @Test
    void aBlockingEagerSendShouldNotAllocate() {
        final long[] bytes = new long[1];
        final long[] last = new long[1];
        MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(100)).build().run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final long[] word = new long[1];
            for (int round = 0; round < 2; round++) { // a warm-up, then the measured round
                MPI.COMM_WORLD.barrier();
                if (me == 0) {
                    final long before = ThreadAllocation.bytes();
                    for (int i = 0; i < SENDS; i++) {
                        word[0] = i;
                        MPI.COMM_WORLD.send(word, 1, MPI.LONG, 1, 5);
                    }
                    bytes[0] = ThreadAllocation.bytes() - before;
                } else {
                    for (int i = 0; i < SENDS; i++) {
                        MPI.COMM_WORLD.recv(word, 1, MPI.LONG, 0, 5);
                    }
                    last[0] = word[0];
                }
            }
            MPI.Finalize();
        });
        assertEquals(SENDS - 1, last[0], "every message arrived, the last one last");
        // Slack for the measuring itself; an object per send would be hundreds of kilobytes.
        assertTrue(bytes[0] < 16 * 1024, bytes[0] + " bytes allocated on the sending rank for " + SENDS + " sends");
    }
}
