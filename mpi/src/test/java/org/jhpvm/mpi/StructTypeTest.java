package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Datatype.createStruct}: C struct layouts in byte buffers (members in native order, padding left alone),
 * the extent a C compiler gives, nested and derived members, use in point-to-point and collectives, bad arguments.
 */
@Timeout(120)
class StructTypeTest {
    /** {@code struct { int id; double x; short tag; }}: offsets 0, 8, 16; C's extent 24 (aligned to 8). */
    private static Datatype particle() throws MPIException {
        final Datatype t = Datatype.createStruct(new int[] {1, 1, 1}, new int[] {0, 8, 16},
            new Datatype[] {MPI.INT, MPI.DOUBLE, MPI.SHORT});
        t.commit();
        return t;
    }

    private static void put(final ByteBuffer b, final int i, final int id, final double x, final short tag) {
        b.putInt(i * 24, id).putDouble(i * 24 + 8, x).putShort(i * 24 + 16, tag);
    }

    @Test
    void aStructShouldHaveCsLayoutAndMoveItsMembersOnly() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype p = particle();
            assertEquals(24, p.getExtent(), "rounded up to the double's alignment");
            assertEquals(4 + 8 + 2, p.getSize(), "the members' bytes, no padding");
            assertEquals(0, p.getLb());
            final int n = 5;
            if (w.getRank() == 0) {
                final ByteBuffer b = ByteBuffer.allocateDirect(24 * n).order(ByteOrder.nativeOrder());
                for (int i = 0; i < n; i++) {
                    put(b, i, 100 + i, i * 1.5, (short) -i);
                    b.put(i * 24 + 4, (byte) 0x55); // padding: not part of the type
                }
                w.send(b, n, p, 1, 1);
            } else {
                final byte[] got = new byte[24 * n];
                java.util.Arrays.fill(got, (byte) 0x11);
                w.recv(got, n, p, 0, 1);
                final ByteBuffer b = ByteBuffer.wrap(got).order(ByteOrder.nativeOrder());
                for (int i = 0; i < n; i++) {
                    assertEquals(100 + i, b.getInt(i * 24));
                    assertEquals(i * 1.5, b.getDouble(i * 24 + 8));
                    assertEquals((short) -i, b.getShort(i * 24 + 16));
                    assertEquals(0x11, got[i * 24 + 4], "padding untouched");
                    assertEquals(0x11, got[i * 24 + 18], "tail padding untouched");
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void structsShouldNestAndGatherLikeAnyType() {
        PointToPointTest.run(3, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final Datatype p = particle();
            // struct { char flag; particle two[2] (every other one of an array's, a vector); }: the particle's
            // alignment (8) carries into the outer struct.
            final Datatype pairOfEveryOther = Datatype.createVector(2, 1, 2, p);
            final Datatype outer = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.BYTE, pairOfEveryOther});
            outer.commit();
            assertEquals(8 + 3 * 24, outer.getExtent());
            assertEquals(1 + 2 * 14, outer.getSize());
            final ByteBuffer mine = ByteBuffer.allocate(80).order(ByteOrder.nativeOrder());
            mine.put(0, (byte) me);
            put(mine.slice(8, 72).order(ByteOrder.nativeOrder()), 0, me, me + 0.25, (short) 1);
            put(mine.slice(8, 72).order(ByteOrder.nativeOrder()), 2, -me, me - 0.25, (short) 2);
            final byte[] all = new byte[80 * 3];
            w.gather(mine.array(), 1, outer, all, 1, outer, 0);
            if (me == 0) {
                final ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.nativeOrder());
                for (int r = 0; r < 3; r++) {
                    assertEquals(r, b.get(r * 80));
                    assertEquals(r, b.getInt(r * 80 + 8));
                    assertEquals(r + 0.25, b.getDouble(r * 80 + 16));
                    assertEquals(-r, b.getInt(r * 80 + 8 + 48));
                    assertEquals(r - 0.25, b.getDouble(r * 80 + 8 + 56));
                    assertEquals(0, b.getInt(r * 80 + 8 + 24), "the skipped particle is not sent");
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void badStructsShouldBeRefused() {
        PointToPointTest.run(1, () -> {
            MPI.Init(new String[0]);
            assertThrows(MPIException.class, () -> Datatype.createStruct(new int[] {1}, new int[] {0, 4},
                new Datatype[] {MPI.INT}));
            PointToPointTest.assertClass(MPI.ERR_ARG, () -> Datatype.createStruct(new int[] {1, 1},
                new int[] {0, 4}, new Datatype[] {MPI.INT}));
            PointToPointTest.assertClass(MPI.ERR_TYPE, () -> Datatype.createStruct(new int[] {1}, new int[] {0},
                new Datatype[] {null}));
            PointToPointTest.assertClass(MPI.ERR_COUNT, () -> Datatype.createStruct(new int[] {-1},
                new int[] {0}, new Datatype[] {MPI.INT}));
            final Datatype empty = Datatype.createStruct(new int[0], new int[0], new Datatype[0]);
            assertEquals(0, empty.getExtent());
            assertEquals(0, empty.getSize());
            MPI.Finalize();
        });
    }
}
