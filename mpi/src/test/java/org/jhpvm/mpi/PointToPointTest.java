package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.MpiFatalError;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(120)
class PointToPointTest {
    static MpiJob.Report run(final int ranks, final MpiJob.Body body) {
        return MpiJob.builder().ranks(ranks).timeout(Duration.ofSeconds(90)).build().run(body);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void ringPassesATokenAroundEveryRank(final int n) {
        run(n, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            assertEquals(n, MPI.COMM_WORLD.getSize());
            final int[] token = new int[1];
            if (me == 0) {
                token[0] = 1;
                MPI.COMM_WORLD.send(token, 1, MPI.INT, 1 % n, 7);
                final Status s = MPI.COMM_WORLD.recv(token, 1, MPI.INT, n - 1, 7);
                assertEquals(n, token[0]);
                assertEquals(n - 1, s.getSource());
                assertEquals(7, s.getTag());
                assertEquals(1, s.getCount(MPI.INT));
            } else {
                final Status s = MPI.COMM_WORLD.recv(token, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertEquals(me - 1, s.getSource());
                token[0]++;
                MPI.COMM_WORLD.send(token, 1, MPI.INT, (me + 1) % n, 7);
            }
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2047, 2048, 2049, 40_000, 131_072})
    void messagesOfEverySizeArriveIntactEagerAndByRendezvous(final int count) {
        run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final double[] data = new double[count];
            final Random r = new Random(count);
            for (int i = 0; i < count; i++) {
                data[i] = r.nextDouble();
            }
            if (me == 0) {
                MPI.COMM_WORLD.send(data, count, MPI.DOUBLE, 1, 3);
                final double[] back = new double[count + 1];
                final Status s = MPI.COMM_WORLD.recv(back, count + 1, MPI.DOUBLE, 1, 4);
                assertEquals(count, s.getCount(MPI.DOUBLE));
                for (int i = 0; i < count; i++) {
                    assertEquals(-data[i], back[i]);
                }
            } else {
                final double[] got = new double[count];
                MPI.COMM_WORLD.recv(got, count, MPI.DOUBLE, 0, 3);
                assertArrayEquals(data, got);
                for (int i = 0; i < count; i++) {
                    got[i] = -got[i];
                }
                MPI.COMM_WORLD.send(got, count, MPI.DOUBLE, 0, 4);
            }
            MPI.Finalize();
        });
    }

    @Test
    void messagesOfOneSenderAreMatchedInTheOrderSentWhateverTheirSizes() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final int k = 60;
            if (me == 0) {
                for (int i = 0; i < k; i++) {
                    final int[] m = new int[i % 3 == 0 ? 20_000 : 1];
                    m[0] = i;
                    MPI.COMM_WORLD.send(m, m.length, MPI.INT, 1, i % 4);
                }
            } else {
                // The first message (a large one, by rendezvous) waits unexpected before any receive is posted.
                assertEquals(20_000, MPI.COMM_WORLD.probe(0, 0).getCount(MPI.INT));
                final int[] m = new int[20_000];
                for (int i = 0; i < k; i++) {
                    final Status s = MPI.COMM_WORLD.recv(m, m.length, MPI.INT, 0, MPI.ANY_TAG);
                    assertEquals(i, m[0], "message " + i + " overtaken");
                    assertEquals(i % 4, s.getTag());
                    assertEquals(i % 3 == 0 ? 20_000 : 1, s.getCount(MPI.INT));
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void aReceiveForOneTagTakesItsMessageFromBehindUnexpectedOnes() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            if (me == 0) {
                for (int t = 1; t <= 3; t++) {
                    MPI.COMM_WORLD.send(new long[] {t}, 1, MPI.LONG, 1, t);
                }
            } else {
                final long[] v = new long[1];
                final Status probed = MPI.COMM_WORLD.probe(0, 3);
                assertEquals(3, probed.getTag());
                assertEquals(1, probed.getCount(MPI.LONG));
                MPI.COMM_WORLD.recv(v, 1, MPI.LONG, 0, 3);
                assertEquals(3, v[0]);
                assertNull(MPI.COMM_WORLD.iProbe(0, 3));
                assertNotNull(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, 1));
                MPI.COMM_WORLD.recv(v, 1, MPI.LONG, 0, MPI.ANY_TAG);
                assertEquals(1, v[0]);
                MPI.COMM_WORLD.recv(v, 1, MPI.LONG, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertEquals(2, v[0]);
            }
            MPI.Finalize();
        });
    }

    @Test
    void aSynchronousSendReturnsOnlyOnceItsReceiveHasStarted() {
        final AtomicBoolean posted = new AtomicBoolean();
        run(2, () -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.getRank() == 0) {
                MPI.COMM_WORLD.sSend(new int[] {5}, 1, MPI.INT, 1, 0);
                assertTrue(posted.get(), "sSend returned before the receive was posted");
            } else {
                // Rank 0 is inside sSend once its request to send is here; only then is the receive posted.
                MPI.COMM_WORLD.probe(0, 0);
                posted.set(true);
                final int[] v = new int[1];
                MPI.COMM_WORLD.recv(v, 1, MPI.INT, 0, 0);
                assertEquals(5, v[0]);
            }
            MPI.Finalize();
        });
    }

    @Test
    void waitAllReturnsOnlyOnceEveryRequestIsDoneWhateverTheOrderTheyCompleteIn() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final int n = 10;
            if (MPI.COMM_WORLD.getRank() == 0) {
                final int[][] in = new int[n][1];
                final Request[] rs = new Request[n + 1];
                for (int t = 0; t < n; t++) {
                    rs[t] = MPI.COMM_WORLD.iRecv(in[t], 1, MPI.INT, 1, t);
                }
                // Rank 1 sends the second message only once it has received this synchronous send, which completes
                // inside this waitAll: so waitAll sees the first and the last ones done while the second is not.
                final IntBuffer go = MPI.newIntBuffer(1);
                rs[n] = MPI.COMM_WORLD.isSend(go, 1, MPI.INT, 1, 50);
                final Status[] all = Request.waitAllStatus(rs);
                for (int t = 0; t < n; t++) {
                    assertEquals(100 + t, in[t][0], "request " + t + " was done when waitAll returned");
                    assertEquals(t, all[t].getTag());
                }
            } else {
                MPI.COMM_WORLD.send(new int[] {100}, 1, MPI.INT, 0, 0);
                for (int t = n - 1; t >= 2; t--) {
                    MPI.COMM_WORLD.send(new int[] {100 + t}, 1, MPI.INT, 0, t);
                }
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 50);
                MPI.COMM_WORLD.send(new int[] {101}, 1, MPI.INT, 0, 1);
            }
            MPI.Finalize();
        });
    }

    @Test
    void nonBlockingCallsTakeDirectBuffersAndCompleteThroughWaitAndTest() {
        run(3, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final int n = 3;
            final DoubleBuffer out = MPI.newDoubleBuffer(5000);
            for (int i = 0; i < 5000; i++) {
                out.put(i, me * 10_000 + i);
            }
            final DoubleBuffer[] in = new DoubleBuffer[n];
            final Request[] rs = new Request[2 * n];
            for (int p = 0; p < n; p++) {
                in[p] = MPI.newDoubleBuffer(5000);
                rs[p] = MPI.COMM_WORLD.iRecv(in[p], 5000, MPI.DOUBLE, p, 9);
            }
            for (int p = 0; p < n; p++) {
                rs[n + p] = MPI.COMM_WORLD.iSend(out, 5000, MPI.DOUBLE, p, 9);
            }
            final int first = Request.waitAny(rs);
            assertTrue(first >= 0 && first < 2 * n);
            assertTrue(rs[first].isNull());
            final Status[] all = Request.waitAllStatus(rs);
            assertEquals(2 * n, all.length);
            for (int p = 0; p < n; p++) {
                assertEquals(p * 10_000 + 4999, in[p].get(4999));
                if (p != first) {
                    assertEquals(p, all[p].getSource());
                }
            }
            assertTrue(Request.testAll(rs), "null requests are complete");
            assertEquals(MPI.UNDEFINED, Request.waitAny(rs));
            final IntBuffer heap = IntBuffer.allocate(4);
            assertThrows(IllegalArgumentException.class, () -> MPI.COMM_WORLD.iSend(heap, 1, MPI.INT, 0, 0));
            MPI.Finalize();
        });
    }

    @Test
    void procNullOperationsCompleteAtOnceAndMoveNothing() {
        run(1, () -> {
            MPI.Init(new String[0]);
            final int[] v = {42};
            MPI.COMM_WORLD.send(v, 1, MPI.INT, MPI.PROC_NULL, 0);
            final Status s = MPI.COMM_WORLD.recv(v, 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(42, v[0]);
            assertEquals(MPI.PROC_NULL, s.getSource());
            assertEquals(MPI.ANY_TAG, s.getTag());
            assertEquals(0, s.getCount(MPI.INT));
            final Status t = MPI.COMM_WORLD.sendRecv(v, 1, MPI.INT, MPI.PROC_NULL, 0, v, 1, MPI.INT, MPI.PROC_NULL,
                0);
            assertEquals(MPI.PROC_NULL, t.getSource());
            MPI.Finalize();
        });
    }

    @Test
    void sendRecvShiftsARingAndReplaceSwapsInPlace() {
        run(4, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final int[] got = new int[1];
            MPI.COMM_WORLD.sendRecv(new int[] {me}, 1, MPI.INT, (me + 1) % 4, 1, got, 1, MPI.INT, (me + 3) % 4, 1);
            assertEquals((me + 3) % 4, got[0]);
            final double[] buf = new double[30_000];
            java.util.Arrays.fill(buf, me);
            MPI.COMM_WORLD.sendRecvReplace(buf, buf.length, MPI.DOUBLE, (me + 1) % 4, 2, (me + 3) % 4, 2);
            assertEquals((me + 3) % 4, buf[0]);
            assertEquals((me + 3) % 4, buf[29_999]);
            MPI.Finalize();
        });
    }

    @Test
    void aMessageLongerThanTheReceiveIsTruncatedAndReportedAsErrTruncate() {
        run(2, () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            if (MPI.COMM_WORLD.getRank() == 0) {
                MPI.COMM_WORLD.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 0);
                MPI.COMM_WORLD.send(new int[50_000], 50_000, MPI.INT, 1, 1);
            } else {
                final int[] small = new int[2];
                final MPIException e = assertThrows(MPIException.class,
                    () -> MPI.COMM_WORLD.recv(small, 2, MPI.INT, 0, 0));
                assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
                assertArrayEquals(new int[] {1, 2}, small);
                final MPIException big = assertThrows(MPIException.class,
                    () -> MPI.COMM_WORLD.recv(new int[10], 10, MPI.INT, 0, 1));
                assertEquals(MPI.ERR_TRUNCATE, big.getErrorClass());
            }
            MPI.Finalize();
        });
    }

    /**
     * A truncated non-blocking receive reports its error however it is completed, and is freed: waitFor and test
     * raise ERR_TRUNCATE, waitAll and testAll ERR_IN_STATUS (they make no status, but must not lose the error).
     */
    @Test
    void aTruncatedReceiveRaisesItsErrorThroughEveryCompletingCallWithoutAStatus() {
        run(2, () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final int ways = 4;
            if (MPI.COMM_WORLD.getRank() == 0) {
                for (int way = 0; way < ways; way++) {
                    MPI.COMM_WORLD.send(new int[] {way, 2, 3}, 3, MPI.INT, 1, way);
                }
            } else {
                final int[] small = new int[2];
                final int[] classes = new int[ways];
                for (int way = 0; way < ways; way++) {
                    final Request r = MPI.COMM_WORLD.iRecv(small, 2, MPI.INT, 0, way);
                    final Request ok = MPI.COMM_WORLD.iSend(new int[1], 1, MPI.INT, 1, 100 + way);
                    final Request[] both = {ok, r};
                    final int way0 = way;
                    final MPIException e = assertThrows(MPIException.class, () -> {
                        switch (way0) {
                            case 0 -> r.waitFor();
                            case 1 -> {
                                while (!r.test()) {
                                    Thread.onSpinWait();
                                }
                            }
                            case 2 -> Request.waitAll(both);
                            default -> {
                                while (!Request.testAll(both)) {
                                    Thread.onSpinWait();
                                }
                            }
                        }
                    });
                    classes[way] = e.getErrorClass();
                    assertEquals(way, small[0], "the part that fits arrived");
                    assertTrue(r.isNull(), "the failed request is freed");
                    if (way >= 2) {
                        assertTrue(ok.isNull(), "the array's other request is freed too");
                    } else {
                        ok.waitFor();
                    }
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 100 + way);
                }
                assertArrayEquals(new int[] {MPI.ERR_TRUNCATE, MPI.ERR_TRUNCATE, MPI.ERR_IN_STATUS, MPI.ERR_IN_STATUS},
                    classes);
            }
            MPI.Finalize();
        });
    }

    @Test
    void underTheDefaultHandlerAnErrorEndsTheJobWithItsClass() {
        final MpiAbortException e = assertThrows(MpiAbortException.class, () -> run(2, () -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.getRank() == 0) {
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 5, 0);
            } else {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 0);
            }
            MPI.Finalize();
        }));
        assertEquals(0, e.rank());
        final MpiFatalError f = assertInstanceOf(MpiFatalError.class, e.getCause());
        assertEquals(MPI.ERR_RANK, f.errorClass());
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsSent() {
        run(2, () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final int me = MPI.COMM_WORLD.getRank();
            if (me == 0) {
                final int[] v = {1, 2};
                assertClass(MPI.ERR_RANK, () -> MPI.COMM_WORLD.send(v, 1, MPI.INT, 2, 0));
                assertClass(MPI.ERR_RANK, () -> MPI.COMM_WORLD.send(v, 1, MPI.INT, -5, 0));
                assertClass(MPI.ERR_TAG, () -> MPI.COMM_WORLD.send(v, 1, MPI.INT, 1, -3));
                assertClass(MPI.ERR_TAG, () -> MPI.COMM_WORLD.send(v, 1, MPI.INT, 1, MPI.ANY_TAG));
                assertClass(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.send(v, -1, MPI.INT, 1, 0));
                assertClass(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.send(v, 1, null, 1, 0));
                assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(v, 3, MPI.INT, 1, 0));
                assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(new boolean[2], 1, MPI.INT, 1, 0));
                assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(new int[1], 2, MPI.INT, 1, 0));
                final Datatype vec = Datatype.createVector(2, 1, 2, MPI.INT);
                assertClass(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.send(new int[4], 1, vec, 1, 0));
                assertClass(MPI.ERR_ROOT, () -> MPI.COMM_WORLD.bcast(v, 1, MPI.INT, 2));
                MPI.COMM_WORLD.send(new int[] {99}, 1, MPI.INT, 1, 0);
            } else {
                final int[] got = new int[1];
                assertClass(MPI.ERR_RANK, () -> MPI.COMM_WORLD.recv(got, 1, MPI.INT, 7, 0));
                final Status s = MPI.COMM_WORLD.recv(got, 1, MPI.INT, 0, MPI.ANY_TAG);
                assertEquals(99, got[0], "a refused call sent something");
                assertEquals(0, s.getTag());
                assertNull(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
            }
            MPI.Finalize();
        });
    }

    interface Call {
        void run() throws MPIException;
    }

    static void assertClass(final int errorClass, final Call call) {
        final MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }

    @Test
    void callsOutsideInitAndFinalizeAreRefused() {
        run(1, () -> {
            final MPIException before = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.getRank());
            assertTrue(before.getMessage().contains("not initialized"));
            assertFalse(MPI.isInitialized());
            MPI.Init(new String[0]);
            assertThrows(MPIException.class, () -> MPI.Init(new String[0]));
            MPI.Finalize();
            assertTrue(MPI.isFinalized());
            assertThrows(MPIException.class, () -> MPI.COMM_WORLD.getSize());
        });
        final MPIException outside = assertThrows(MPIException.class, () -> MPI.Init(new String[0]));
        assertTrue(outside.getMessage().contains("not a rank"));
        final MpiAbortException noFinalize = assertThrows(MpiAbortException.class, () -> run(2, () ->
            MPI.Init(new String[0])));
        assertTrue(noFinalize.getCause().getMessage().contains("MPI.Finalize"), noFinalize.toString());
    }

    @Test
    void abortEndsEveryRankAndGivesItsCodeAsTheExitStatus() {
        final long start = System.nanoTime();
        final MpiJob.Report r = run(4, () -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.getRank() == 2) {
                MPI.COMM_WORLD.abort(7);
            }
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);
        });
        assertTrue(r.aborted());
        assertEquals(7, r.exitStatus());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "abort took too long");
    }
}
