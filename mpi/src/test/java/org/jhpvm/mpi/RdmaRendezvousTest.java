package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.time.Duration;
import java.util.Arrays;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI's rendezvous by one RDMA read (the module README's "Rendezvous"): a large message from a Java array goes to a
 * receive into a Java array of its kind with no FM rendezvous of its own (FM's counters show none), whether the
 * receive was posted first or came later, from an offset, truncated, from one array many times or from more arrays
 * than stay registered, between direct buffers of the wire's byte order too; a receive that cannot take a raw copy
 * gets the data by clear-to-send, as before.
 */
@Timeout(120)
class RdmaRendezvousTest {
    private static final int N = 20_000; // 80,000 bytes of int: far above the eager limit and FM's rendezvous size

    private static MpiJob.Report run(final MpiJob.Body body) {
        return run(true, body);
    }

    /**
     * A job of 2 ranks; {@code offload = false} makes FM carry RDMA in its own messages, as over Aeron, where the read
     * goes the same way and its bytes, between ranks whose host memory reaches each other, through FM's host-memory
     * ring instead of frames.
     */
    private static MpiJob.Report run(final boolean offload, final MpiJob.Body body) {
        return MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(90)).option("fm.nicOffload", "" + offload).build()
            .run(body);
    }

    /** Without NIC offload, FM sent fewer bytes than the messages read held: they went through host memory. */
    private static void assertReadThroughHostMemory(final MpiJob.Report report, final long framedBytes,
                                                    final long readBytes) {
        final long sent = report.counters().get("fm.bytesSent");
        assertTrue(sent < framedBytes + readBytes / 2, "FM sent " + sent + " bytes, where " + framedBytes + " go "
            + "in frames either way: the " + readBytes + " bytes read should have gone through host memory");
    }

    private static int[] pattern(final int n, final int seed) {
        final int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = seed * 1_000_003 + i * 31;
        }
        return a;
    }

    private static long fmRendezvous(final MpiJob.Report report) {
        return report.counters().get("fm.rendezvousMessages");
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void aLargeMessageIsReadOnceWhetherItsReceiveWasPostedFirstOrCameLater(final boolean offload) {
        final MpiJob.Report report = run(offload, () -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.getRank() == 0) {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 9); // rank 1 has posted its first receive
                MPI.COMM_WORLD.send(pattern(N, 1), N, MPI.INT, 1, 1);
                MPI.COMM_WORLD.send(pattern(N, 2), N, MPI.INT, 1, 2); // unexpected at rank 1
                // from an offset: a heap buffer's slice, its items from element 7 of the array
                MPI.COMM_WORLD.send(IntBuffer.wrap(pattern(N + 7, 3), 7, N).slice(), N, MPI.INT, 1, 3);
            } else {
                final int[] first = new int[N];
                final Request posted = MPI.COMM_WORLD.iRecv(first, N, MPI.INT, 0, 1);
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 9);
                posted.waitFor();
                assertArrayEquals(pattern(N, 1), first);
                while (MPI.COMM_WORLD.iProbe(0, 2) == null) {
                    Thread.onSpinWait(); // the second request to send is held unexpected before its receive
                }
                final int[] second = new int[N + 5];
                final Status s = MPI.COMM_WORLD.recv(second, N + 5, MPI.INT, 0, 2);
                assertEquals(N, s.getCount(MPI.INT));
                assertArrayEquals(pattern(N, 2), Arrays.copyOf(second, N));
                assertEquals(0, second[N], "nothing written beyond the message");
                final int[] third = new int[N + 4]; // into an offset: element 2 on
                MPI.COMM_WORLD.recv(IntBuffer.wrap(third, 2, N).slice(), N, MPI.INT, 0, 3);
                assertArrayEquals(Arrays.copyOfRange(pattern(N + 7, 3), 7, N + 7), Arrays.copyOfRange(third, 2, N + 2));
                assertEquals(0, third[1] | third[N + 2], "nothing written around the receive");
            }
            MPI.Finalize();
        });
        assertEquals(0, fmRendezvous(report), "every large message was read by MPI, none went by FM's rendezvous");
        if (!offload) {
            assertReadThroughHostMemory(report, 4L * N, 2 * 4L * N); // the heap buffer's message by clear-to-send
        }
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void aSelfSendAndATruncatedReceiveAreReadToo(final boolean offload) {
        final MpiJob.Report report = run(offload, () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final int me = MPI.COMM_WORLD.getRank();
            final int[] mine = new int[N];
            final Request self = MPI.COMM_WORLD.iRecv(mine, N, MPI.INT, me, 5);
            MPI.COMM_WORLD.send(pattern(N, 10 + me), N, MPI.INT, me, 5);
            self.waitFor();
            assertArrayEquals(pattern(N, 10 + me), mine);
            if (me == 0) {
                MPI.COMM_WORLD.send(pattern(N, 4), N, MPI.INT, 1, 6);
            } else {
                final int[] small = new int[N / 2 + 3];
                final MPIException e = assertThrows(MPIException.class,
                    () -> MPI.COMM_WORLD.recv(small, N / 2, MPI.INT, 0, 6));
                assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
                assertArrayEquals(Arrays.copyOf(pattern(N, 4), N / 2), Arrays.copyOf(small, N / 2));
                assertArrayEquals(new int[3], Arrays.copyOfRange(small, N / 2, N / 2 + 3), "nothing past the receive");
            }
            MPI.Finalize();
        });
        assertEquals(0, fmRendezvous(report));
        if (!offload) {
            // Each rank's self-send crosses FM's loopback in frames; the truncated receive reads half a message.
            assertReadThroughHostMemory(report, 2 * 4L * N, 4L * N / 2);
        }
    }

    @Test
    void aWindowFromOneArrayAndMoreArraysThanStayRegisteredAllArrive() {
        final int arrays = 40; // more than MPI keeps registered at once (16): the rest go by clear-to-send
        final int n = 6000; // 24,000 bytes: above the eager limit (16 KiB)
        run(() -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.getRank() == 0) {
                final int[] one = pattern(n, 7);
                final Request[] window = new Request[64];
                for (int i = 0; i < window.length; i++) {
                    window[i] = MPI.COMM_WORLD.iSend(one, n, MPI.INT, 1, 100);
                }
                Request.waitAll(window);
                final Request[] many = new Request[arrays];
                for (int i = 0; i < arrays; i++) {
                    many[i] = MPI.COMM_WORLD.iSend(pattern(n, 1000 + i), n, MPI.INT, 1, 200 + i);
                }
                Request.waitAll(many);
                MPI.COMM_WORLD.sSend(pattern(N, 8), N, MPI.INT, 1, 300);
            } else {
                final int[][] in = new int[64][n];
                final Request[] window = new Request[64];
                for (int i = 0; i < window.length; i++) {
                    window[i] = MPI.COMM_WORLD.iRecv(in[i], n, MPI.INT, 0, 100);
                }
                Request.waitAll(window);
                for (final int[] a : in) {
                    assertArrayEquals(pattern(n, 7), a);
                }
                for (int i = arrays - 1; i >= 0; i--) { // in reverse: every request to send waits unexpected
                    final int[] got = new int[n];
                    MPI.COMM_WORLD.recv(got, n, MPI.INT, 0, 200 + i);
                    assertArrayEquals(pattern(n, 1000 + i), got, "message " + i);
                }
                final int[] last = new int[N];
                MPI.COMM_WORLD.recv(last, N, MPI.INT, 0, 300);
                assertArrayEquals(pattern(N, 8), last);
            }
            MPI.Finalize();
        });
    }

    @Test
    void largeArraysAreNotKeptRegisteredBeyondTheCachesBudget() {
        final int n = 24 << 20; // three arrays of 24 MiB: more than the 64 MiB kept between transfers
        run(() -> {
            MPI.Init(new String[0]);
            final byte[][] arrays = new byte[3][n];
            for (int i = 0; i < 3; i++) {
                arrays[i][n - 1] = (byte) (i + 1);
                if (MPI.COMM_WORLD.getRank() == 0) {
                    MPI.COMM_WORLD.send(arrays[i], n, MPI.BYTE, 1, i);
                } else {
                    MPI.COMM_WORLD.recv(arrays[i], n, MPI.BYTE, 0, i);
                }
            }
            for (int i = 0; i < 3; i++) {
                assertEquals(i + 1, arrays[i][n - 1]);
            }
            final long kept = org.jhpvm.mpi.internal.RankBinding.current().registeredBytes();
            assertTrue(kept > 0 && kept <= 64L << 20, "bytes kept registered: " + kept);
            MPI.Finalize();
        });
    }

    @Test
    void directBuffersInTheWiresOrderAreReadTooWhateverTheirPositionAndLimit() {
        final MpiJob.Report report = run(() -> {
            MPI.Init(new String[0]);
            // Open MPI's bindings address a direct buffer from its start to its capacity: position and limit are the
            // program's business, so neither may shorten what is sent or received.
            final IntBuffer ints = MPI.newIntBuffer(N + 3);
            final DoubleBuffer doubles = MPI.newDoubleBuffer(N);
            final ByteBuffer bytes = ByteBuffer.allocateDirect(4 * N + 8); // big endian: its bytes are its bytes
            if (MPI.COMM_WORLD.getRank() == 0) {
                ints.put(0, pattern(N + 3, 20)).position(5).limit(9);
                MPI.COMM_WORLD.send(ints, N + 3, MPI.INT, 1, 1);
                final double[] d = new double[N];
                Arrays.setAll(d, i -> i * 0.25 - 7);
                doubles.put(0, d);
                final Request[] window = new Request[8];
                for (int i = 0; i < window.length; i++) { // the same buffer, registered once, to an array
                    window[i] = MPI.COMM_WORLD.iSend(doubles, N, MPI.DOUBLE, 1, 2);
                }
                Request.waitAll(window);
                final ByteBuffer le = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
                le.asIntBuffer().put(pattern(N, 21));
                MPI.COMM_WORLD.send(le.array(), 4 * N, MPI.BYTE, 1, 3);
            } else {
                ints.position(5).limit(9);
                MPI.COMM_WORLD.recv(ints, N + 3, MPI.INT, 0, 1);
                assertEquals(5, ints.position(), "the receive leaves the buffer's position alone");
                assertEquals(9, ints.limit(), "and its limit");
                final int[] got = new int[N + 3];
                ints.clear().get(0, got);
                assertArrayEquals(pattern(N + 3, 20), got);
                for (int i = 0; i < 8; i++) {
                    final double[] d = new double[N];
                    MPI.COMM_WORLD.recv(d, N, MPI.DOUBLE, 0, 2);
                    assertEquals(-7.0, d[0]);
                    assertEquals((N - 1) * 0.25 - 7, d[N - 1]);
                }
                // into a big-endian byte buffer, from element 8 on: BYTEs need no order
                MPI.COMM_WORLD.recv(MPI.slice(bytes, 8), 4 * N, MPI.BYTE, 0, 3);
                final int[] back = new int[N];
                bytes.order(ByteOrder.LITTLE_ENDIAN).position(8).slice().order(ByteOrder.LITTLE_ENDIAN)
                    .asIntBuffer().get(back);
                assertArrayEquals(pattern(N, 21), back);
                assertEquals(0L, bytes.getLong(0), "nothing before the slice");
            }
            MPI.Finalize();
        });
        assertEquals(0, fmRendezvous(report), "every buffer was read by MPI, none staged through FM's rendezvous: "
            + report.counters());
    }

    @Test
    void aReceiveThatCannotTakeARawCopyGetsTheDataByClearToSend() {
        final MpiJob.Report report = run(() -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            if (MPI.COMM_WORLD.getRank() == 0) {
                MPI.COMM_WORLD.send(pattern(N, 5), N, MPI.INT, 1, 1);
                MPI.COMM_WORLD.send(pattern(N, 6), N, MPI.INT, 1, 2);
                MPI.COMM_WORLD.send(pattern(N, 7), N, MPI.INT, 1, 3);
            } else {
                final IntBuffer direct = ByteBuffer.allocateDirect(4 * N).asIntBuffer(); // big endian, not the wire's
                MPI.COMM_WORLD.recv(direct, N, MPI.INT, 0, 1);
                final int[] viaBuffer = new int[N];
                direct.get(0, viaBuffer);
                assertArrayEquals(pattern(N, 5), viaBuffer);
                final Datatype everyOther = Datatype.createVector(N, 1, 2, MPI.INT);
                everyOther.commit();
                final int[] strided = new int[2 * N];
                MPI.COMM_WORLD.recv(strided, 1, everyOther, 0, 2);
                final int[] expected = pattern(N, 6);
                for (int i = 0; i < N; i++) {
                    assertEquals(expected[i], strided[2 * i], "element " + i);
                    assertEquals(0, strided[2 * i + 1], "gap " + i);
                }
                final MPIException e = assertThrows(MPIException.class,
                    () -> MPI.COMM_WORLD.recv(new long[N], N, MPI.LONG, 0, 3));
                assertEquals(MPI.ERR_TYPE, e.getErrorClass());
            }
            MPI.Finalize();
        });
        assertTrue(fmRendezvous(report) >= 2, "the big-endian buffer's and the strided receive's data went by FM's "
            + "rendezvous: " + report.counters());
    }
}
