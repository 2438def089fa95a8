package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Message;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Matched probes ({@code Message.mProbe}, {@code imProbe}, {@code mRecv}, {@code imRecv}): the probed message is
 * the one received, and no other receive can take it meanwhile; eager and rendezvous sizes; PROC_NULL; misuse.
 */
@Timeout(120)
class MatchedProbeTest {
    @Test
    void theProbedMessageShouldBeTheOneReceivedAndNoOtherReceiveMayTakeIt() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            if (w.getRank() == 0) {
                // Two messages with the same envelope: small (eager) then large (rendezvous), then a third one.
                w.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 7);
                final int[] big = new int[100_000];
                java.util.Arrays.setAll(big, i -> i * 3);
                // Non-blocking: a rendezvous send completes only once received, after the third message.
                final Request large = w.iSend(big, big.length, MPI.INT, 1, 7);
                w.send(new int[] {9}, 1, MPI.INT, 1, 7);
                large.waitFor();
            } else {
                final Message first = new Message();
                assertTrue(first.isNull());
                final Status s1 = first.mProbe(0, 7, w);
                assertFalse(first.isNull());
                assertEquals(3, s1.getCount(MPI.INT));
                // A plain receive now gets the second message, not the probed one.
                final Message second = new Message();
                Status s2;
                while ((s2 = second.imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, w)) == null) {
                    Thread.onSpinWait();
                }
                assertEquals(100_000, s2.getCount(MPI.INT));
                final int[] third = new int[1];
                w.recv(third, 1, MPI.INT, 0, 7);
                assertEquals(9, third[0], "the receive got the message no probe holds");
                final int[] got1 = new int[3];
                final Status r1 = first.mRecv(got1, 3, MPI.INT);
                assertArrayEquals(new int[] {1, 2, 3}, got1);
                assertEquals(0, r1.getSource());
                assertEquals(7, r1.getTag());
                assertTrue(first.isNull(), "a received message is null again");
                final int[] got2 = new int[s2.getCount(MPI.INT)];
                final Request r = second.imRecv(got2, got2.length, MPI.INT);
                r.waitFor();
                for (int i = 0; i < got2.length; i++) {
                    assertEquals(i * 3, got2[i]);
                }
                assertNull(new Message().imProbe(0, 7, w), "nothing left to probe");
            }
            MPI.Finalize();
        });
    }

    @Test
    void procNullMisuseAndTruncationShouldBeMpisAnswers() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            if (w.getRank() == 0) {
                w.send(new double[] {1, 2}, 2, MPI.DOUBLE, 1, 3);
            } else {
                final Message none = new Message();
                final Status ps = none.mProbe(MPI.PROC_NULL, 0, w);
                assertEquals(MPI.PROC_NULL, ps.getSource());
                assertTrue(none.isNoProc());
                assertEquals(MPI.PROC_NULL, none.mRecv(new double[1], 1, MPI.DOUBLE).getSource());
                assertTrue(none.isNull());
                PointToPointTest.assertClass(MPI.ERR_RANK, () -> new Message().mProbe(5, 0, w));
                PointToPointTest.assertClass(MPI.ERR_TAG, () -> new Message().imProbe(0, -7, w));
                final Message m = new Message();
                m.mProbe(0, 3, w);
                PointToPointTest.assertClass(MPI.ERR_REQUEST, () -> m.mProbe(0, 3, w));
                final double[] small = new double[1];
                PointToPointTest.assertClass(MPI.ERR_TRUNCATE, () -> m.mRecv(small, 1, MPI.DOUBLE));
                assertEquals(1.0, small[0], "what fits arrived");
                assertTrue(m.isNull());
            }
            MPI.Finalize();
        });
    }
}
