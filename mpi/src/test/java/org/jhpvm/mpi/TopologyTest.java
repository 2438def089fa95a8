package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import mpi.CartComm;
import mpi.CartParms;
import mpi.DoubleInt;
import mpi.Int2;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Cartesian communicators ({@code createCart}, coordinates, shifts, sub-grids, createDims) and MINLOC/MAXLOC. */
@Timeout(120)
class TopologyTest {
    @Test
    void createDimsBalancesTheFreeExtentsInNonIncreasingOrder() throws MPIException {
        final int[] a = new int[2];
        CartComm.createDims(12, a);
        assertArrayEquals(new int[] {4, 3}, a);
        final int[] b = new int[3];
        CartComm.createDims(8, b);
        assertArrayEquals(new int[] {2, 2, 2}, b);
        final int[] c = {0, 3, 0};
        CartComm.createDims(30, c);
        assertArrayEquals(new int[] {5, 3, 2}, c);
        final int[] d = new int[2];
        CartComm.createDims(7, d);
        assertArrayEquals(new int[] {7, 1}, d);
        final int[] bad = {4, 0};
        final MPIException e = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class,
            () -> CartComm.createDims(6, bad));
        assertEquals(MPI.ERR_DIMS, e.getErrorClass());
        assertArrayEquals(new int[] {4, 0}, bad, "a refused call changed dims");
    }

    @Test
    void aGridNumbersRanksRowMajorAndShiftsStopAtNonPeriodicEdges() {
        PointToPointTest.run(7, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final CartComm grid = MPI.COMM_WORLD.createCart(new int[] {2, 3}, new boolean[] {true, false}, true);
            if (me == 6) {
                assertTrue(grid.isNull(), "rank 6 is outside a 2x3 grid");
                MPI.Finalize();
                return;
            }
            final CartParms p = grid.getTopo();
            assertEquals(2, p.getDimCount());
            assertEquals(me / 3, p.getCoord(0));
            assertEquals(me % 3, p.getCoord(1));
            assertEquals(MPI.CART, grid.getTopology());
            assertArrayEquals(new int[] {me / 3, me % 3}, grid.getCoords(me));
            assertEquals(me, grid.getRank(new int[] {me / 3 + 2, me % 3}), "the periodic dimension wraps");
            final ShiftParms down = grid.shift(0, 1);
            assertEquals((me + 3) % 6, down.getRankDest());
            assertEquals((me + 3) % 6, down.getRankSource());
            final ShiftParms right = grid.shift(1, 1);
            assertEquals(me % 3 == 2 ? MPI.PROC_NULL : me + 1, right.getRankDest());
            assertEquals(me % 3 == 0 ? MPI.PROC_NULL : me - 1, right.getRankSource());
            // A halo exchange along the non-periodic dimension: PROC_NULL at the edges leaves the ghost alone.
            final int[] ghost = {-1};
            grid.sendRecv(new int[] {me}, 1, MPI.INT, right.getRankDest(), 0, ghost, 1, MPI.INT,
                right.getRankSource(), 0);
            assertEquals(me % 3 == 0 ? -1 : me - 1, ghost[0]);
            final CartComm row = grid.sub(new boolean[] {false, true});
            assertEquals(3, row.getSize());
            assertEquals(me % 3, row.getRank());
            assertEquals(1, row.getTopo().getDimCount());
            final int[] sum = {me};
            row.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(me < 3 ? 0 + 1 + 2 : 3 + 4 + 5, sum[0]);
            MPI.Finalize();
        });
    }

    @Test
    void maxlocAndMinlocFindTheExtremeAndTheSmallestIndexOfATie() {
        PointToPointTest.run(4, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final int n = 2;
            final ByteBuffer in = MPI.newByteBuffer(MPI.doubleInt.getExtent() * n);
            final ByteBuffer out = MPI.newByteBuffer(MPI.doubleInt.getExtent() * n);
            // Item 0: value me % 2 (ranks 1 and 3 tie at the maximum); item 1: value -me.
            // As Open MPI's Struct helpers are used: getData's result assigned to the pair type's Data class.
            final DoubleInt.Data first = MPI.doubleInt.getData(in, 0);
            first.putValue(me % 2);
            first.putIndex(me);
            final DoubleInt.Data second = MPI.doubleInt.getData(in, 1);
            second.putValue(-me);
            second.putIndex(me);
            MPI.COMM_WORLD.allReduce(in, out, n, MPI.DOUBLE_INT, MPI.MAXLOC);
            final DoubleInt.Data max0 = MPI.doubleInt.getData(out, 0);
            final DoubleInt.Data max1 = MPI.doubleInt.getData(out, 1);
            assertEquals(1.0, max0.getValue());
            assertEquals(1, max0.getIndex());
            assertEquals(0.0, max1.getValue());
            assertEquals(0, max1.getIndex());
            final byte[] ints = new byte[MPI.int2.getExtent()];
            final Int2.Data mine = MPI.int2.getData(ints);
            mine.putValue(10 - me);
            mine.putIndex(me * 100);
            final byte[] low = new byte[ints.length];
            MPI.COMM_WORLD.allReduce(ints, low, 1, MPI.INT2, MPI.MINLOC);
            final Int2.Data min = MPI.int2.getData(low);
            assertEquals(7, min.getValue());
            assertEquals(300, min.getIndex());
            assertEquals(16, MPI.doubleInt.getExtent());
            assertEquals(12, MPI.DOUBLE_INT.getSize());
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            PointToPointTest.assertClass(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(new double[1], 1, MPI.DOUBLE,
                MPI.MAXLOC));
            PointToPointTest.assertClass(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(ints, 1, MPI.INT2, MPI.SUM));
            MPI.Finalize();
        });
    }
}
