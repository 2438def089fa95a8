package org.jhpvm.mpi;

import static org.jhpvm.mpi.PointToPointTest.assertClass;
import static org.jhpvm.mpi.PointToPointTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import mpi.Comm;
import mpi.Count;
import mpi.Datatype;
import mpi.DistGraphNeighbors;
import mpi.DoubleComplex;
import mpi.GraphComm;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MpiFatalError;
import mpi.Prequest;
import mpi.Status;
import mpi.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The parts of Open MPI's Java API that its test suite needed and jhpvm lacked: attributes, Info, status setters,
 * persistent buffered sends, complex types, alltoallw, pack/unpack, createGroup, graph topologies, users' structs,
 * callErrhandler and the version queries. Each checks the values, not just that the call exists.
 */
@Timeout(60)
class OpenMpiApiTest {
    @Test
    void attributesKeyvalsAndInfo() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            assertEquals(MPI.PROC_NULL, w.getAttr(MPI.HOST));
            assertEquals(w.getRank(), w.getAttr(MPI.IO));
            assertEquals(2, w.getAttr(MPI.UNIVERSE_SIZE));
            assertEquals(0, w.getAttr(MPI.APPNUM));
            final int key = Comm.createKeyval();
            final Intracomm d = w.dup();
            d.setAttr(key, "mine");
            assertEquals("mine", d.getAttr(key));
            assertNull(w.getAttr(key), "set on the copy only");
            assertEquals("mine", d.dup().getAttr(key), "dup copies attributes");
            d.setErrhandler(MPI.ERRORS_RETURN);
            assertClass(MPI.ERR_KEYVAL, () -> d.deleteAttr(MPI.TAG_UB));
            Comm.freeKeyval(key);
            assertEquals("mine", d.getAttr(key), "a freed keyval's attributes stay until deleted");
            assertClass(MPI.ERR_KEYVAL, () -> d.setAttr(key, 1));
            d.deleteAttr(key);
            assertNull(d.getAttr(key));
            final Info info = new Info();
            info.set("a", "1");
            info.set("b", "2");
            assertEquals(2, info.size());
            assertEquals("b", info.getKey(1));
            final Intracomm withInfo = w.dupWithInfo(info);
            assertEquals("1", withInfo.getInfo().get("a"));
            info.free();
            assertTrue(info.isNull());
            assertTrue(MPI.INFO_NULL.isNull());
            assertEquals(3, MPI.getVersion().getVersion());
            assertTrue(MPI.getLibVersion().contains("jhpvm"));
            MPI.pControl(1, null);
            w.setErrhandler(MPI.ERRORS_RETURN);
            w.callErrhandler(MPI.ERR_COMM); // ERRORS_RETURN: the handler does nothing
            w.setErrhandler(MPI.ERRORS_ARE_FATAL);
            final MpiFatalError fatal = assertThrows(MpiFatalError.class, () -> w.callErrhandler(MPI.ERR_COMM));
            assertEquals(MPI.ERR_COMM, fatal.errorClass(), "ERRORS_ARE_FATAL ends the job with the error");
            MPI.Finalize();
        });
    }

    @Test
    void statusSettersCountAndPersistentBufferedSends() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final IntBuffer buf = MPI.newIntBuffer(2);
            if (me == 0) {
                final Prequest p = MPI.COMM_WORLD.bSendInit(buf, 2, MPI.INT, 1, 3);
                for (int i = 0; i < 3; i++) {
                    buf.put(0, i).put(1, 10 * i);
                    p.start();
                    p.waitFor();
                }
                p.free();
            } else {
                for (int i = 0; i < 3; i++) {
                    final int[] got = new int[2];
                    final Status s = MPI.COMM_WORLD.recv(got, 2, MPI.INT, 0, 3);
                    assertArrayEquals(new int[] {i, 10 * i}, got);
                    s.setElements(MPI.INT, 7);
                    assertEquals(7, s.getElements(MPI.INT));
                    s.setElementsX(MPI.DOUBLE, new Count(5));
                    assertEquals(new Count(5), s.getElementsX(MPI.DOUBLE));
                    assertEquals(10, s.getElements(MPI.INT), "5 doubles are 10 ints");
                    assertFalse(s.isCancelled());
                    s.setCancelled(true);
                    assertTrue(s.isCancelled());
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void complexReductionsAlltoallwAndPacking() {
        run(3, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            // (1 + me i): the sum is (3 + 3i), the product (1 + 0i)(1 + i)(1 + 2i) = (-1 + 3i).
            final double[] z = {1, me};
            final double[] sum = new double[2];
            final double[] prod = new double[2];
            MPI.COMM_WORLD.allReduce(z, sum, 1, MPI.DOUBLE_COMPLEX, MPI.SUM);
            MPI.COMM_WORLD.allReduce(z, prod, 1, MPI.DOUBLE_COMPLEX, MPI.PROD);
            assertArrayEquals(new double[] {3, 3}, sum, 0.0);
            assertArrayEquals(new double[] {-1, 3}, prod, 0.0);
            assertEquals(-1, DoubleComplex.get(prod).getReal(), 0.0);
            assertEquals(3, DoubleComplex.get(prod).getImag(), 0.0);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertClass(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(z, sum, 1, MPI.DOUBLE_COMPLEX, MPI.MAX));
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
            // alltoallw: to member j, j + 1 ints at byte 16 j; from member j, j + 1 ints at byte 16 j.
            final IntBuffer send = MPI.newIntBuffer(12);
            final IntBuffer recv = MPI.newIntBuffer(12);
            final int[] counts = {1, 2, 3};
            final int[] displs = {0, 16, 32};
            final Datatype[] ints = {MPI.INT, MPI.INT, MPI.INT};
            for (int i = 0; i < 12; i++) {
                send.put(i, 100 * me + i);
            }
            final int[] rc = {me + 1, me + 1, me + 1};
            MPI.COMM_WORLD.allToAllw(send, counts, displs, ints, recv, rc, displs, ints);
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k <= me; k++) {
                    assertEquals(100 * j + 4 * me + k, recv.get(4 * j + k), "from " + j);
                }
            }
            // pack a vector of every other int, unpack into a contiguous array.
            final Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
            every2.commit();
            final byte[] packed = new byte[MPI.COMM_WORLD.packSize(1, every2) + 4];
            final int end = MPI.COMM_WORLD.pack(new int[] {1, -1, 2, -1, 3}, 1, every2, packed, 4);
            assertEquals(16, end);
            final int[] back = new int[3];
            assertEquals(16, MPI.COMM_WORLD.unpack(packed, 4, back, 3, MPI.INT));
            assertArrayEquals(new int[] {1, 2, 3}, back);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertClass(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.pack(new int[3], 3, MPI.INT, new byte[8], 0));
            MPI.Finalize();
        });
    }

    @Test
    void createGroupAndGraphTopologies() {
        run(4, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            if (me % 2 == 0) { // only the group's members call
                final Intracomm evens = MPI.COMM_WORLD.createGroup(MPI.COMM_WORLD.getGroup().incl(new int[] {0, 2}),
                    7);
                final int[] sum = {me};
                evens.allReduce(sum, 1, MPI.INT, MPI.SUM);
                assertEquals(2, sum[0]);
            }
            MPI.COMM_WORLD.barrier();
            // A ring of 3 nodes; rank 3 is left out.
            final GraphComm ring = MPI.COMM_WORLD.createGraph(new int[] {2, 4, 6}, new int[] {1, 2, 0, 2, 0, 1},
                false);
            if (me == 3) {
                assertTrue(ring.isNull());
            } else {
                assertEquals(MPI.GRAPH, ring.getTopology());
                assertEquals(3, ring.getDims().getIndexCount());
                assertArrayEquals(new int[] {0, 2}, ring.getNeighbors(1));
            }
            assertTrue(MPI.COMM_WORLD.createGraph(new int[0], new int[0], false).isNull(), "no nodes");
            // Each rank describes its own edge to the next one: in-edge from the previous.
            final GraphComm dg = MPI.COMM_WORLD.createDistGraph(new int[] {me}, new int[] {1},
                new int[] {(me + 1) % 4}, new int[] {me + 10}, MPI.INFO_NULL, false);
            final DistGraphNeighbors n = dg.getDistGraphNeighbors();
            assertEquals(MPI.DIST_GRAPH, dg.getTopology());
            assertEquals(1, n.getInDegree());
            assertEquals((me + 3) % 4, n.getSource(0));
            assertEquals((me + 3) % 4 + 10, n.getSourceWeight(0));
            assertEquals((me + 1) % 4, n.getDestination(0));
            assertTrue(n.isWeighted());
            MPI.Finalize();
        });
    }

    /** A user's struct as the suite writes them: a double, then two ints. */
    static final class Particle extends Struct {
        final int mass = addDouble();
        final int ids = addInt(2);

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            double mass() {
                return getDouble(mass);
            }

            int id(final int k) {
                return getInt(ids, k);
            }

            void set(final double m, final int a, final int b) {
                putDouble(mass, m);
                putInt(ids, 0, a);
                putInt(ids, 1, b);
            }
        }
    }

    @Test
    void usersStructsSendAndReadBack() {
        run(2, () -> {
            MPI.Init(new String[0]);
            final Particle p = new Particle();
            assertEquals(16, p.getExtent());
            final ByteBuffer items = MPI.newByteBuffer(3 * p.getExtent());
            if (MPI.COMM_WORLD.getRank() == 0) {
                for (int i = 0; i < 3; i++) {
                    final Particle.Data d = p.getData(items, i);
                    d.set(1.5 * i, i, -i);
                }
                MPI.COMM_WORLD.send(items, 3, p.getType(), 1, 0);
            } else {
                MPI.COMM_WORLD.recv(items, 3, p.getType(), 0, 0);
                for (int i = 0; i < 3; i++) {
                    final Particle.Data d = p.getData(items, i);
                    assertEquals(1.5 * i, d.mass(), 0.0);
                    assertEquals(i, d.id(0));
                    assertEquals(-i, d.id(1));
                }
                assertThrows(IllegalStateException.class, p::addInt, "fields are fixed once the type is made");
            }
            MPI.Finalize();
        });
    }
}
