package org.jhpvm.mpi;

import static org.jhpvm.mpi.PointToPointTest.assertClass;
import static org.jhpvm.mpi.PointToPointTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import mpi.Datatype;
import mpi.Group;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What Open MPI's Java bindings do and its Java test suite checks, where jhpvm used to be stricter or different: a
 * Java array is memory (the datatype says what lies there, whatever the array's type), freed handles and ranks left
 * out of a split are null objects, a test over no active request says so with an empty status, the processor name
 * is the host's.
 */
@Timeout(60)
class OpenMpiSemanticsTest {
    @Test
    void anArrayIsMemoryWhateverItsType() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            if (me == 0) {
                final int[] ints = {0x04030201, 0x08070605};
                MPI.COMM_WORLD.send(ints, 5, MPI.BYTE, 1, 0); // its first 5 bytes, in the platform's order
                MPI.COMM_WORLD.send(new char[] {'h', 'i', '!', '?'}, 4, MPI.CHAR, 1, 1);
                MPI.COMM_WORLD.send(new double[] {1.5, -2}, 2, MPI.DOUBLE, 1, 2);
            } else {
                final byte[] bytes = new byte[5];
                final Status s = MPI.COMM_WORLD.recv(bytes, 5, MPI.BYTE, 0, 0);
                assertEquals(5, s.getCount(MPI.BYTE));
                final ByteBuffer expect = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
                expect.putInt(0x04030201).putInt(0x08070605);
                for (int i = 0; i < 5; i++) {
                    assertEquals(expect.get(i), bytes[i], "byte " + i);
                }
                final int[] chars = new int[2]; // 4 chars land in the memory of 2 ints
                MPI.COMM_WORLD.recv(chars, 4, MPI.CHAR, 0, 1);
                final ByteBuffer got = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
                got.putInt(chars[0]).putInt(chars[1]);
                assertEquals('h', got.getChar(0));
                assertEquals('?', got.getChar(6));
                final long[] asLongs = new long[2];
                MPI.COMM_WORLD.recv(asLongs, 2, MPI.DOUBLE, 0, 2);
                assertEquals(1.5, Double.longBitsToDouble(asLongs[0]), 0.0);
                assertEquals(-2, Double.longBitsToDouble(asLongs[1]), 0.0);
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
                assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.recv(new short[1], 1, MPI.INT, 0, 3));
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
            }
            MPI.Finalize();
        });
    }

    @Test
    void aTypeWithANegativeLowerBoundReachesBeforeADirectSlice() {
        run(1, () -> {
            MPI.Init(new String[0]);
            final ByteBuffer buf = MPI.newByteBuffer(16);
            for (int i = 0; i < 16; i++) {
                buf.put(i, (byte) i);
            }
            final Datatype back = Datatype.createVector(3, 1, -2, MPI.BYTE); // elements 0, -2, -4
            back.commit();
            final byte[] out = new byte[3];
            MPI.COMM_WORLD.pack(MPI.slice(buf, 8), 1, back, out, 0);
            assertArrayEquals(new byte[] {8, 6, 4}, out, "as C reaches before &buf[8]");
            final ByteBuffer into = MPI.newByteBuffer(16);
            MPI.COMM_WORLD.unpack(out, 0, MPI.slice(MPI.slice(into, 4), 4), 1, back);
            assertEquals(8, into.get(8));
            assertEquals(6, into.get(6));
            assertEquals(4, into.get(4), "a slice of a slice reaches its grandparent");
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.pack(MPI.slice(buf, 2), 1, back, out, 0));
            MPI.Finalize();
        });
    }

    @Test
    void getElementsCountsAStructsBasicElementsAlongItsSignature() {
        run(1, () -> {
            MPI.Init(new String[0]);
            final Datatype di = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.DOUBLE, MPI.INT});
            final Datatype four = Datatype.createContiguous(4, di);
            four.commit();
            final ByteBuffer in = MPI.newByteBuffer(256);
            final ByteBuffer out = MPI.newByteBuffer(256);
            final int[][] cases = {{33, MPI.UNDEFINED}, {5 * 8 + 4 * 4, 9}, {5 * 12, 10}, {48 + 8, 9}};
            for (final int[] c : cases) {
                final Status s = MPI.COMM_WORLD.sendRecv(out, c[0], MPI.BYTE, 0, 0, in, 3, four, 0, 0);
                assertEquals(c[1], s.getElements(four), c[0] + " bytes");
            }
            final Status s = MPI.COMM_WORLD.sendRecv(out, 96, MPI.BYTE, 0, 0, in, 3, four, 0, 0);
            assertEquals(2, s.getCount(four), "96 bytes: two items of 48");
            MPI.Finalize();
        });
    }

    @Test
    void freedHandlesAndLeftOutRanksAreNullObjects() {
        run(3, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final var none = MPI.COMM_WORLD.split(me == 2 ? MPI.UNDEFINED : 0, 0);
            assertEquals(me == 2, none.isNull());
            final var cart = MPI.COMM_WORLD.createCart(new int[] {2}, new boolean[] {false}, false);
            assertEquals(me == 2, cart.isNull());
            final var point = MPI.COMM_WORLD.createCart(new int[0], new boolean[0], false);
            assertEquals(me != 0, point.isNull(), "0 dimensions: a grid of one rank");
            if (me == 0) {
                assertEquals(1, point.getSize());
                // MPI reads the first ndims entries of a C array: longer Java arrays are accepted.
                assertEquals(MPI.CART, point.sub(new boolean[4]).getTopology());
                assertEquals(0, point.getRank(new int[3]));
            }
            final Group g = MPI.COMM_WORLD.getGroup();
            assertFalse(g.isNull());
            g.free();
            assertTrue(g.isNull());
            final Op op = new Op(new mpi.UserFunction() { }, true);
            assertFalse(op.isNull());
            op.free();
            assertTrue(op.isNull());
            final Datatype t = Datatype.createContiguous(2, MPI.INT);
            t.free();
            assertTrue(t.isNull());
            final var d = MPI.COMM_WORLD.dup();
            d.free();
            assertTrue(d.isNull());
            MPI.Finalize();
        });
    }

    @Test
    void aTestOverNoActiveRequestGivesAnEmptyStatus() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final Status empty = Request.testAnyStatus(new Request[0]);
            assertNotNull(empty, "MPI's flag is true when no request is active");
            assertEquals(MPI.UNDEFINED, empty.getIndex());
            assertEquals(MPI.ANY_SOURCE, empty.getSource());
            assertNotNull(Request.testAnyStatus(new Request[] {null, MPI.REQUEST_NULL}));
            final int[] in = new int[1];
            final Request pending = MPI.COMM_WORLD.iRecv(in, 1, MPI.INT, 1 - MPI.COMM_WORLD.getRank(), 5);
            assertNull(Request.testAnyStatus(new Request[] {pending}), "active and not complete: null");
            MPI.COMM_WORLD.barrier(); // nothing is sent before both have tested
            MPI.COMM_WORLD.send(new int[] {7}, 1, MPI.INT, 1 - MPI.COMM_WORLD.getRank(), 5);
            pending.waitFor();
            assertEquals(7, in[0]);
            assertArrayEquals(new int[] {7}, in);
            final String host = MPI.getProcessorName();
            assertFalse(host.contains("rank"), "the host's name, as Open MPI gives it: " + host);
            MPI.Finalize();
        });
    }
}
