package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import mpi.CartComm;
import mpi.GraphComm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The neighbourhood collectives against what MPI-4.1 (section 8.6) says each rank gets: on Cartesian grids (the
 * block sent in one direction arriving as from the other, also where a periodic dimension of 1 or 2 makes both
 * neighbours one process; nothing at a non-periodic edge), on graphs, and on distributed graphs with a process named
 * twice (the k-th edge to it matching the k-th edge from it); blocking and non-blocking alike; no topology refused.
 */
@Timeout(120)
class NeighborCollectivesTest {
    /** What rank {@code r} sends in block {@code j}. */
    private static int block(final int r, final int j) {
        return 100 * r + j;
    }

    @Test
    void cartesianAllToAllDeliversEachDirectionsBlockAsFromTheOtherEvenWhereBothNeighboursAreOneProcess() {
        // 3 x 2 x 1, all periodic: dimension 1 has both neighbours one process, dimension 2 is the rank itself.
        PointToPointTest.run(6, () -> {
            MPI.Init(new String[0]);
            final CartComm grid = MPI.COMM_WORLD.createCart(new int[] {3, 2, 1}, new boolean[] {true, true, true},
                false);
            final int me = grid.getRank();
            final int[] send = new int[6];
            for (int j = 0; j < 6; j++) {
                send[j] = block(me, j);
            }
            final int[] expected = new int[6];
            for (int d = 0; d < 3; d++) {
                final ShiftParms s = grid.shift(d, 1);
                expected[2 * d] = block(s.getRankSource(), 2 * d + 1);     // sent "up" by the rank below
                expected[2 * d + 1] = block(s.getRankDest(), 2 * d);       // sent "down" by the rank above
            }
            final int[] got = new int[6];
            grid.neighborAllToAll(send, 1, MPI.INT, got, 1, MPI.INT);
            assertArrayEquals(expected, got, "rank " + me);
            final int[] nb = new int[6];
            grid.iNeighborAllToAll(send, 1, MPI.INT, nb, 1, MPI.INT).waitFor();
            assertArrayEquals(expected, nb, "rank " + me + ", non-blocking");
            // v-form: block j holds j+1 items at displacement 2j, placed at 3i on receipt.
            final int[] sc = new int[6];
            final int[] sd = new int[6];
            final int[] rc = new int[6];
            final int[] rd = new int[6];
            final int[] vsend = new int[12];
            for (int j = 0; j < 6; j++) {
                sc[j] = 1 + (j % 2);
                sd[j] = 2 * j;
                vsend[2 * j] = block(me, j);
                vsend[2 * j + 1] = -block(me, j);
                rd[j] = 3 * j;
                rc[j] = 1 + ((j + 1) % 2); // the partner block's count: direction flipped
            }
            final int[] vgot = new int[18];
            java.util.Arrays.fill(vgot, 7);
            grid.neighborAllToAllv(vsend, sc, sd, MPI.INT, vgot, rc, rd, MPI.INT);
            for (int i = 0; i < 6; i++) {
                assertEquals(expected[i], vgot[3 * i], "rank " + me + " v-block " + i);
                assertEquals(rc[i] == 2 ? -expected[i] : 7, vgot[3 * i + 1], "rank " + me + " v-block " + i);
                assertEquals(7, vgot[3 * i + 2], "nothing beyond the block");
            }
            MPI.Finalize();
        });
    }

    @Test
    void aNonPeriodicEdgeSendsNothingAndLeavesItsBlockAlone() {
        PointToPointTest.run(4, () -> {
            MPI.Init(new String[0]);
            final CartComm line = MPI.COMM_WORLD.createCart(new int[] {4}, new boolean[] {false}, false);
            final int me = line.getRank();
            final int[] got = {-1, -1, -1, -1};
            line.neighborAllGather(new int[] {block(me, 0)}, 1, MPI.INT, got, 2, MPI.INT);
            assertEquals(me == 0 ? -1 : block(me - 1, 0), got[0], "rank " + me + " from below");
            assertEquals(-1, got[1], "a block of two receives one item");
            assertEquals(me == 3 ? -1 : block(me + 1, 0), got[2], "rank " + me + " from above");
            final int[] nb = {-1, -1};
            line.iNeighborAllGather(new int[] {block(me, 1)}, 1, MPI.INT, nb, 1, MPI.INT).waitFor();
            assertArrayEquals(new int[] {me == 0 ? -1 : block(me - 1, 1), me == 3 ? -1 : block(me + 1, 1)}, nb);
            MPI.Finalize();
        });
    }

    @Test
    void aDistributedGraphNamingAProcessTwiceMatchesItsEdgesInOrder() {
        final int n = 5;
        PointToPointTest.run(n, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final int[] out = {(me + 1) % n, (me + 1) % n, (me + 2) % n};
            final int[] in = {(me + n - 1) % n, (me + n - 1) % n, (me + n - 2) % n};
            final GraphComm g = MPI.COMM_WORLD.createDistGraphAdjacent(in, out, MPI.INFO_NULL, false);
            final double[] send = {block(me, 0), block(me, 1), block(me, 2)};
            final double[] got = new double[3];
            g.neighborAllToAll(send, 1, MPI.DOUBLE, got, 1, MPI.DOUBLE);
            final double[] expected = {block(in[0], 0), block(in[1], 1), block(in[2], 2)};
            assertArrayEquals(expected, got, "rank " + me);
            // allgatherv: source i's item at displacement 2i
            final double[] gv = new double[6];
            g.iNeighborAllGatherv(new double[] {me + 0.5}, 1, MPI.DOUBLE, gv, new int[] {1, 1, 1},
                new int[] {0, 2, 4}, MPI.DOUBLE).waitFor();
            assertArrayEquals(new double[] {in[0] + 0.5, 0, in[1] + 0.5, 0, in[2] + 0.5, 0}, gv, "rank " + me);
            MPI.Finalize();
        });
    }

    @Test
    void aGraphsNeighboursAreItsSourcesAndDestinations() {
        // A star: rank 0 joined to 1, 2 and 3.
        PointToPointTest.run(4, () -> {
            MPI.Init(new String[0]);
            final GraphComm star = MPI.COMM_WORLD.createGraph(new int[] {3, 4, 5, 6}, new int[] {1, 2, 3, 0, 0, 0},
                false);
            final int me = star.getRank();
            final int[] nbrs = star.getNeighbors(me);
            final long[] got = new long[nbrs.length];
            star.neighborAllGatherv(new long[] {block(me, 9)}, 1, MPI.LONG, got, uniform(nbrs.length),
                steps(nbrs.length), MPI.LONG);
            final long[] expected = new long[nbrs.length];
            for (int i = 0; i < nbrs.length; i++) {
                expected[i] = block(nbrs[i], 9);
            }
            assertArrayEquals(expected, got, "rank " + me);
            final long[] a2a = new long[nbrs.length];
            final long[] send = new long[nbrs.length];
            for (int j = 0; j < nbrs.length; j++) {
                send[j] = block(me, 10 + nbrs[j]); // addressed to the neighbour
            }
            star.iNeighborAllToAllv(send, uniform(nbrs.length), steps(nbrs.length), MPI.LONG, a2a,
                uniform(nbrs.length), steps(nbrs.length), MPI.LONG).waitFor();
            for (int i = 0; i < nbrs.length; i++) {
                assertEquals(block(nbrs[i], 10 + me), a2a[i], "rank " + me + " from " + nbrs[i]);
            }
            MPI.Finalize();
        });
    }

    @Test
    void aCommunicatorWithoutATopologyOrWithTooFewCountsIsRefused() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final int[] buf = new int[4];
            final MPIException none = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.neighborAllGather(buf, 1, MPI.INT, buf, 1, MPI.INT));
            assertEquals(MPI.ERR_TOPOLOGY, none.getErrorClass());
            final CartComm ring = MPI.COMM_WORLD.createCart(new int[] {2}, new boolean[] {true}, false);
            ring.setErrhandler(MPI.ERRORS_RETURN);
            final MPIException few = assertThrows(MPIException.class,
                () -> ring.neighborAllToAllv(buf, new int[] {1}, new int[] {0}, MPI.INT, buf, new int[] {1, 1},
                    new int[] {0, 1}, MPI.INT));
            assertEquals(MPI.ERR_ARG, few.getErrorClass());
            final MPIException outside = assertThrows(MPIException.class,
                () -> ring.neighborAllToAll(buf, 3, MPI.INT, buf, 1, MPI.INT));
            assertEquals(MPI.ERR_BUFFER, outside.getErrorClass());
            // The refused calls drew no tags: the next collective still matches on both ranks.
            final int[] got = new int[2];
            ring.neighborAllGather(new int[] {ring.getRank()}, 1, MPI.INT, got, 1, MPI.INT);
            final int other = 1 - ring.getRank();
            assertArrayEquals(new int[] {other, other}, got);
            MPI.Finalize();
        });
    }

    private static int[] uniform(final int n) {
        final int[] a = new int[n];
        java.util.Arrays.fill(a, 1);
        return a;
    }

    private static int[] steps(final int n) {
        final int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }
}
