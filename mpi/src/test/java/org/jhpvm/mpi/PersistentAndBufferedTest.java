package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;

import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Persistent requests (sendInit, recvInit, start, startAll) and buffered sends (attachBuffer, bSend, detach). */
@Timeout(60)
class PersistentAndBufferedTest {
    @Test
    void aPersistentRequestSendsTheBuffersContentsAtEachStart() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final IntBuffer buf = MPI.newIntBuffer(3);
            final Prequest p = me == 0 ? MPI.COMM_WORLD.sendInit(buf, 3, MPI.INT, 1, 4)
                : MPI.COMM_WORLD.recvInit(buf, 3, MPI.INT, 0, 4);
            assertFalse(p.isNull(), "an inactive persistent request is not null");
            for (int round = 0; round < 5; round++) {
                if (me == 0) {
                    buf.put(0, round).put(1, round * 10).put(2, -round);
                }
                Prequest.startAll(new Prequest[] {p});
                final Status s = p.waitStatus();
                if (me == 1) {
                    assertEquals(round * 10, buf.get(1));
                    assertEquals(-round, buf.get(2));
                    assertEquals(3, s.getCount(MPI.INT));
                }
                assertFalse(p.isNull());
            }
            // Inactive: waiting returns at once, and an array of inactive requests counts as all null.
            p.waitFor();
            assertEquals(MPI.UNDEFINED, Request.waitAny(new Request[] {p}));
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            p.start();
            PointToPointTest.assertClass(MPI.ERR_REQUEST, p::start);
            p.waitFor();
            p.free();
            assertTrue(p.isNull());
            PointToPointTest.assertClass(MPI.ERR_REQUEST, p::start);
            MPI.Finalize();
        });
    }

    @Test
    void bufferedSendsReturnAtOnceWithinTheAttachedSpaceAndDetachWaitsForThem() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            if (me == 0) {
                // No buffer attached: a small message goes inline, as Open MPI's ob1 sends it; a large one is refused.
                MPI.COMM_WORLD.bSend(new int[] {42}, 1, MPI.INT, 1, 50);
                PointToPointTest.assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.bSend(new double[40_000], 40_000,
                    MPI.DOUBLE, 1, 0));
                final byte[] space = new byte[2 * (40_000 * 8 + MPI.BSEND_OVERHEAD)];
                MPI.attachBuffer(space);
                PointToPointTest.assertClass(MPI.ERR_BUFFER, () -> MPI.attachBuffer(new byte[10]));
                final double[] big = new double[40_000];
                for (int i = 0; i < 2; i++) {
                    java.util.Arrays.fill(big, i + 1);
                    // Rank 1 has not posted its receive: a large standard send would wait here, a buffered one
                    // does not.
                    MPI.COMM_WORLD.bSend(big, big.length, MPI.DOUBLE, 1, i);
                }
                java.util.Arrays.fill(big, -1);
                PointToPointTest.assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.bSend(big, big.length,
                    MPI.DOUBLE, 1, 9));
                MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, 1, 100);
                assertSame(space, MPI.detachBuffer());
                PointToPointTest.assertClass(MPI.ERR_BUFFER, MPI::detachBuffer);
            } else {
                final int[] inline = new int[1];
                MPI.COMM_WORLD.recv(inline, 1, MPI.INT, 0, 50);
                assertEquals(42, inline[0]);
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 100);
                final double[] got = new double[40_000];
                for (int i = 1; i >= 0; i--) {
                    MPI.COMM_WORLD.recv(got, got.length, MPI.DOUBLE, 0, i);
                    assertEquals(i + 1, got[39_999], "the copy was taken when bSend returned");
                }
                assertTrue(MPI.COMM_WORLD.iProbe(0, 9) == null, "the refused send sent something");
            }
            MPI.Finalize();
        });
    }

    @Test
    void anUnmatchedReceiveCanBeCancelledAndGroupsComputeTheirSets() {
        PointToPointTest.run(4, () -> {
            MPI.Init(new String[0]);
            final Request r = MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.ANY_SOURCE, 99);
            r.cancel();
            final Status s = r.waitStatus();
            assertTrue(s.isCancelled());
            assertTrue(r.isNull());
            final mpi.Group all = MPI.COMM_WORLD.getGroup();
            final mpi.Group even = all.rangeIncl(new int[][] {{0, 3, 2}});
            final mpi.Group upper = all.excl(new int[] {0, 1});
            assertEquals(2, even.getSize());
            assertEquals(MPI.IDENT, mpi.Group.compare(mpi.Group.union(even, upper), all.incl(new int[] {0, 2, 3})));
            assertEquals(MPI.SIMILAR, mpi.Group.compare(mpi.Group.union(upper, even), all.incl(new int[] {0, 2, 3})));
            assertArrayEquals(new int[] {MPI.UNDEFINED, 0}, mpi.Group.translateRanks(all, new int[] {1, 2},
                mpi.Group.intersection(even, upper)));
            assertEquals(1, mpi.Group.difference(even, upper).getSize());
            assertEquals(MPI.UNEQUAL, mpi.Group.compare(even, upper));
            assertEquals(MPI.COMM_WORLD.getRank() == 2 ? 0 : MPI.UNDEFINED,
                mpi.Group.intersection(even, upper).getRank());
            MPI.Finalize();
        });
    }

    @Test
    void persistentAndBufferedCallsCheckTheirArgumentsFirst() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final IntBuffer b = MPI.newIntBuffer(2);
            PointToPointTest.assertClass(MPI.ERR_RANK, () -> MPI.COMM_WORLD.sendInit(b, 1, MPI.INT, 2, 0));
            PointToPointTest.assertClass(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.recvInit(b, 3, MPI.INT, 0, 0));
            PointToPointTest.assertClass(MPI.ERR_TAG, () -> MPI.COMM_WORLD.ibSend(b, 1, MPI.INT, 1, -1));
            final Prequest none = MPI.COMM_WORLD.sendInit(b, 1, MPI.INT, MPI.PROC_NULL, 0);
            none.start();
            assertEquals(MPI.PROC_NULL, none.waitStatus().getSource());
            assertArrayEquals(new int[] {0, 0}, new int[] {b.get(0), b.get(1)});
            MPI.Finalize();
        });
    }
}
