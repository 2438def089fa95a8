package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import mpi.MPI;
import mpi.Request;

import org.jhpvm.mpi.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A blocking eager {@code send} allocates nothing on the sending rank: its state is only awaited and checked, so the
 * engine makes none (a send used to make an operation and a status nobody read, about 100 bytes a message and a
 * young collection every second or so of a ping-pong). A blocking {@code recv} makes only the status it returns.
 * Completing requests by {@code waitAll}, {@code waitFor} or
 * {@code test} makes no status nobody reads (a window of iSends used to make one per message). Measured on rank 0's
 * own thread after a warm-up.
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

    /**
     * A blocking {@code recv} whose message arrives after it was posted (a ping-pong) makes only the status it
     * returns: the engine uses the operation of the last blocking receive again.
     */
    @Test
    void aBlockingReceiveShouldMakeOnlyItsStatus() {
        final long[] bytes = new long[1];
        final long[] last = new long[1];
        MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(100)).build().run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final long[] word = new long[1];
            for (int round = 0; round < 2; round++) { // a warm-up, then the measured round
                MPI.COMM_WORLD.barrier();
                final long before = ThreadAllocation.bytes();
                for (int i = 0; i < SENDS; i++) {
                    if (me == 0) {
                        word[0] = i;
                        MPI.COMM_WORLD.send(word, 1, MPI.LONG, 1, 6);
                        MPI.COMM_WORLD.recv(word, 1, MPI.LONG, 1, 6);
                    } else {
                        MPI.COMM_WORLD.recv(word, 1, MPI.LONG, 0, 6);
                        MPI.COMM_WORLD.send(word, 1, MPI.LONG, 0, 6);
                    }
                }
                if (me == 1) {
                    bytes[0] = ThreadAllocation.bytes() - before;
                    last[0] = word[0];
                }
            }
            MPI.Finalize();
        });
        assertEquals(SENDS - 1, last[0], "every message arrived, the last one last");
        // A Status is about 40 bytes; an operation per receive as well would be about 150 bytes a round trip.
        assertTrue(bytes[0] < 64L * SENDS, bytes[0] + " bytes allocated on rank 1 for " + SENDS + " round trips");
    }

    /** Windows of eager iSends completed by waitAll, by waitFor one at a time, and by test one at a time. */
    private static final int WINDOWS = 300;
    private static final int WINDOW = 64;

    @Test
    void completingRequestsWithoutStatusesShouldNotAllocate() {
        final long[] bytes = new long[3];
        final long[] received = new long[1];
        MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(100)).build().run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final long[] word = new long[1];
            final Request[] window = new Request[WINDOW];
            for (int round = 0; round < 2; round++) { // a warm-up, then the measured round
                for (int way = 0; way < 3; way++) {
                    MPI.COMM_WORLD.barrier();
                    long completing = 0;
                    for (int w = 0; w < WINDOWS; w++) {
                        if (me == 0) {
                            for (int j = 0; j < WINDOW; j++) {
                                window[j] = MPI.COMM_WORLD.iSend(word, 1, MPI.LONG, 1, 6);
                            }
                            // Only the completing calls are counted: the requests themselves are objects MPI returns.
                            final long before = ThreadAllocation.bytes();
                            complete(way, window);
                            completing += ThreadAllocation.bytes() - before;
                        } else {
                            for (int j = 0; j < WINDOW; j++) {
                                MPI.COMM_WORLD.recv(word, 1, MPI.LONG, 0, 6);
                                received[0]++;
                            }
                        }
                    }
                    if (me == 0 && round == 1) {
                        bytes[way] = completing;
                    }
                }
            }
            MPI.Finalize();
        });
        assertEquals(2L * 3 * WINDOWS * WINDOW, received[0], "every message arrived");
        final String[] ways = {"waitAll", "waitFor", "test"};
        for (int way = 0; way < 3; way++) {
            // A status per request would be about 750 kilobytes; the slack is for the counter's own reads.
            assertTrue(bytes[way] < 16 * 1024, bytes[way] + " bytes allocated completing " + WINDOWS * WINDOW
                + " send requests by " + ways[way]);
        }
    }

    private static void complete(final int way, final Request[] window) throws mpi.MPIException {
        switch (way) {
            case 0 -> Request.waitAll(window);
            case 1 -> {
                for (final Request r : window) {
                    r.waitFor();
                }
            }
            default -> {
                for (final Request r : window) {
                    while (!r.test()) {
                        Thread.onSpinWait();
                    }
                }
            }
        }
        for (final Request r : window) {
            assertTrue(r.isNull(), "a completed request is freed");
        }
    }
}
