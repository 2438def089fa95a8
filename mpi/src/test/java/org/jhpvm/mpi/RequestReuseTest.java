package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine reuses the operations of finished requests: what a finished request gave must stay as it was, and an
 * operation still in use (a request freed before it finished) must not be handed to another request.
 */
@Timeout(120)
class RequestReuseTest {
    private static void run(final MpiJob.Body body) {
        MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(90)).build().run(body);
    }

    @Test
    void windowsOfRequestsShouldDeliverEveryMessageAndKeepEarlierStatuses() {
        run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final int window = 64;
            final int[][] data = new int[window][4];
            Status[] first = null;
            for (int w = 0; w < 5; w++) {
                final Request[] rq = new Request[window];
                for (int j = 0; j < window; j++) {
                    if (me == 0) {
                        for (int k = 0; k < 4; k++) {
                            data[j][k] = w * 1000 + j * 10 + k;
                        }
                        rq[j] = MPI.COMM_WORLD.iSend(data[j], 4, MPI.INT, 1, w * window + j);
                    } else {
                        rq[j] = MPI.COMM_WORLD.iRecv(data[j], 4, MPI.INT, 0, MPI.ANY_TAG);
                    }
                }
                final Status[] s = Request.waitAllStatus(rq);
                for (int j = 0; j < window; j++) {
                    assertTrue(rq[j].isNull(), "a finished request is null");
                    assertTrue(rq[j].test(), "testing it again returns at once");
                    if (me == 1) {
                        assertEquals(w * window + j, s[j].getTag(), "messages of one pair match in order");
                        assertEquals(0, s[j].getSource());
                        assertEquals(4, s[j].getCount(MPI.INT));
                        for (int k = 0; k < 4; k++) {
                            assertEquals(w * 1000 + j * 10 + k, data[j][k]);
                        }
                    }
                }
                first = first == null ? s : first;
            }
            if (me == 1) {
                for (int j = 0; j < window; j++) {
                    assertEquals(j, first[j].getTag(), "the first window's statuses, after four more windows");
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void aRequestFreedBeforeItFinishesShouldStillReceiveIntoItsOwnBuffer() {
        run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            if (me == 1) {
                final int[] a = new int[1];
                final int[] b = new int[1];
                // Finish a request first, so that the pool has an operation to give out.
                final Request done = MPI.COMM_WORLD.iRecv(b, 1, MPI.INT, 0, 9);
                done.waitFor();
                assertEquals(9, b[0]);
                final Request freed = MPI.COMM_WORLD.iRecv(a, 1, MPI.INT, 0, 1);
                freed.free(); // still posted: the engine completes it later
                final Request later = MPI.COMM_WORLD.iRecv(b, 1, MPI.INT, 0, 2);
                MPI.COMM_WORLD.barrier();
                later.waitFor();
                assertEquals(22, b[0], "the later request got its own message");
                final int[] go = new int[1];
                MPI.COMM_WORLD.recv(go, 1, MPI.INT, 0, 3); // sent after tag 1, so tag 1 has arrived
                assertEquals(11, a[0], "the freed request's message went into its own buffer");
            } else {
                MPI.COMM_WORLD.send(new int[] {9}, 1, MPI.INT, 1, 9);
                MPI.COMM_WORLD.barrier();
                MPI.COMM_WORLD.send(new int[] {22}, 1, MPI.INT, 1, 2);
                MPI.COMM_WORLD.send(new int[] {11}, 1, MPI.INT, 1, 1);
                MPI.COMM_WORLD.send(new int[] {0}, 1, MPI.INT, 1, 3);
            }
            MPI.Finalize();
        });
    }
}
