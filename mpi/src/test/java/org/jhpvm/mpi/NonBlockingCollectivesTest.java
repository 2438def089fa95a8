package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.time.Duration;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The non-blocking collectives: the same bits as the blocking calls on odd and even sizes; progress while the rank
 * does other communication (a program that deadlocks if a non-blocking collective blocks in its call); several in
 * flight with blocking ones on one communicator; bad arguments refused at the call, leaving the communicator usable.
 */
@Timeout(180)
class NonBlockingCollectivesTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void everyNonBlockingCollectiveShouldGiveTheBlockingCallsBits(final int n) {
        final int count = 37;
        PointToPointTest.run(n, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final double[] mine = CollectivesTest.vector(me, count * n);
            // allReduce, reduce to the last rank, scans
            final double[] a = new double[count];
            final double[] b = new double[count];
            w.allReduce(mine, a, count, MPI.DOUBLE, MPI.SUM);
            w.iAllReduce(mine, b, count, MPI.DOUBLE, MPI.SUM).waitFor();
            assertArrayEquals(a, b, 0.0, "iAllReduce");
            final double[] ra = new double[count];
            final double[] rb = new double[count];
            w.reduce(mine, ra, count, MPI.DOUBLE, MPI.MAX, n - 1);
            w.iReduce(mine, rb, count, MPI.DOUBLE, MPI.MAX, n - 1).waitFor();
            assertArrayEquals(ra, rb, 0.0, "iReduce");
            final double[] sa = new double[count];
            final double[] sb = new double[count];
            w.scan(mine, sa, count, MPI.DOUBLE, MPI.SUM);
            w.iScan(mine, sb, count, MPI.DOUBLE, MPI.SUM).waitFor();
            assertArrayEquals(sa, sb, 0.0, "iScan");
            final double[] ea = new double[count];
            final double[] eb = new double[count];
            w.exScan(mine, ea, count, MPI.DOUBLE, MPI.SUM);
            w.iExScan(mine, eb, count, MPI.DOUBLE, MPI.SUM).waitFor();
            assertArrayEquals(ea, eb, 0.0, "iExScan");
            // bcast from the middle rank, into a direct buffer
            final DoubleBuffer db = ByteBuffer.allocateDirect(8 * count).order(ByteOrder.nativeOrder())
                .asDoubleBuffer();
            if (me == n / 2) {
                db.put(0, mine, 0, count);
            }
            w.iBcast(db, count, MPI.DOUBLE, n / 2).waitFor();
            final double[] fromMiddle = CollectivesTest.vector(n / 2, count * n);
            for (int i = 0; i < count; i++) {
                assertEquals(fromMiddle[i], db.get(i), "iBcast " + i);
            }
            // gather, scatter, allGather, allToAll, reduceScatterBlock
            final double[] ga = new double[count * n];
            final double[] gb = new double[count * n];
            w.gather(mine, count, MPI.DOUBLE, ga, count, MPI.DOUBLE, 0);
            w.iGather(mine, count, MPI.DOUBLE, gb, count, MPI.DOUBLE, 0).waitFor();
            assertArrayEquals(ga, gb, 0.0, "iGather");
            final double[] ca = new double[count];
            final double[] cb = new double[count];
            w.scatter(mine, count, MPI.DOUBLE, ca, count, MPI.DOUBLE, n - 1);
            w.iScatter(mine, count, MPI.DOUBLE, cb, count, MPI.DOUBLE, n - 1).waitFor();
            assertArrayEquals(ca, cb, 0.0, "iScatter");
            final double[] aga = new double[count * n];
            final double[] agb = new double[count * n];
            w.allGather(mine, count, MPI.DOUBLE, aga, count, MPI.DOUBLE);
            w.iAllGather(mine, count, MPI.DOUBLE, agb, count, MPI.DOUBLE).waitFor();
            assertArrayEquals(aga, agb, 0.0, "iAllGather");
            final double[] ta = new double[count * n];
            final double[] tb = new double[count * n];
            w.allToAll(mine, count, MPI.DOUBLE, ta, count, MPI.DOUBLE);
            w.iAllToAll(mine, count, MPI.DOUBLE, tb, count, MPI.DOUBLE).waitFor();
            assertArrayEquals(ta, tb, 0.0, "iAllToAll");
            final double[] rsa = new double[count];
            final double[] rsb = new double[count];
            w.reduceScatterBlock(mine, rsa, count, MPI.DOUBLE, MPI.SUM);
            w.iReduceScatterBlock(mine, rsb, count, MPI.DOUBLE, MPI.SUM).waitFor();
            assertArrayEquals(rsa, rsb, 0.0, "iReduceScatterBlock");
            // v-forms with uneven counts: rank i contributes i + 1 items
            final int[] counts = new int[n];
            final int[] displs = new int[n];
            for (int i = 0, at = 0; i < n; at += i + 1, i++) {
                counts[i] = i + 1;
                displs[i] = at;
            }
            final int total = n * (n + 1) / 2;
            final double[] va = new double[total];
            final double[] vb = new double[total];
            w.allGatherv(mine, me + 1, MPI.DOUBLE, va, counts, displs, MPI.DOUBLE);
            w.iAllGatherv(mine, me + 1, MPI.DOUBLE, vb, counts, displs, MPI.DOUBLE).waitFor();
            assertArrayEquals(va, vb, 0.0, "iAllGatherv");
            final double[] rva = new double[me + 1];
            final double[] rvb = new double[me + 1];
            w.reduceScatter(mine, rva, counts, MPI.DOUBLE, MPI.SUM);
            w.iReduceScatter(mine, rvb, counts, MPI.DOUBLE, MPI.SUM).waitFor();
            assertArrayEquals(rva, rvb, 0.0, "iReduceScatter");
            final double[] gva = new double[total];
            final double[] gvb = new double[total];
            w.gatherv(mine, me + 1, MPI.DOUBLE, gva, counts, displs, MPI.DOUBLE, n - 1);
            w.iGatherv(mine, me + 1, MPI.DOUBLE, gvb, counts, displs, MPI.DOUBLE, n - 1).waitFor();
            assertArrayEquals(gva, gvb, 0.0, "iGatherv");
            final double[] sva = new double[me + 1];
            final double[] svb = new double[me + 1];
            w.scatterv(mine, counts, displs, MPI.DOUBLE, sva, me + 1, MPI.DOUBLE, 0);
            w.iScatterv(mine, counts, displs, MPI.DOUBLE, svb, me + 1, MPI.DOUBLE, 0).waitFor();
            assertArrayEquals(sva, svb, 0.0, "iScatterv");
            final double[] xa = new double[count * n];
            final double[] xb = new double[count * n];
            final int[] each = new int[n];
            final int[] at = new int[n];
            for (int i = 0; i < n; i++) {
                each[i] = count - (me + i) % 3; // what ranks me and i exchange, the same both ways
                at[i] = i * count;
            }
            w.allToAllv(mine, each, at, MPI.DOUBLE, xa, each, at, MPI.DOUBLE);
            w.iAllToAllv(mine, each, at, MPI.DOUBLE, xb, each, at, MPI.DOUBLE).waitFor();
            assertArrayEquals(xa, xb, 0.0, "iAllToAllv");
            w.iBarrier().waitFor();
            MPI.Finalize();
        });
    }

    @Test
    void aCollectiveInFlightShouldProgressWhileTheRankWaitsForSomethingElse() {
        // Rank 0 starts the allReduce and only then sends rank 1 the token rank 1 waits for before it joins: an
        // iAllReduce that blocked in its call would deadlock here (the job's timeout ends it).
        MpiJob.builder().ranks(3).timeout(Duration.ofSeconds(30)).build().run(() -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final long[] v = {me + 1L};
            final long[] sum = new long[1];
            final int[] token = new int[1];
            if (me == 1) {
                w.recv(token, 1, MPI.INT, 0, 5);
                assertEquals(42, token[0]);
            }
            final Request r = w.iAllReduce(v, sum, 1, MPI.LONG, MPI.SUM);
            if (me == 0) {
                token[0] = 42;
                w.sSend(token, 1, MPI.INT, 1, 5); // completes only once rank 1 has received it
            }
            r.waitFor();
            assertEquals(6, sum[0]);
            // Progress through test alone.
            final Request b = w.iBarrier();
            while (!b.test()) {
                Thread.onSpinWait();
            }
            assertTrue(b.isNull(), "a completed request is freed");
            MPI.Finalize();
        });
    }

    @Test
    void collectivesInFlightShouldNotTakeEachOthersMessages() {
        PointToPointTest.run(4, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final int[] first = {me == 0 ? 100 : -1};
            final int[] second = {me == 0 ? 200 : -2};
            final int[] third = {me == 0 ? 300 : -3};
            final long[] sum = new long[1];
            // Three bcasts from rank 0 and an allReduce in flight at once; a blocking bcast between them.
            final Request r1 = w.iBcast(first, 1, MPI.INT, 0);
            final Request r2 = w.iAllReduce(new long[] {1L << me}, sum, 1, MPI.LONG, MPI.BOR);
            final Request r3 = w.iBcast(second, 1, MPI.INT, 0);
            w.bcast(third, 1, MPI.INT, 0);
            assertEquals(300, third[0]);
            r3.waitFor(); // waited for in another order than started
            r1.waitFor();
            r2.waitFor();
            assertEquals(100, first[0]);
            assertEquals(200, second[0]);
            assertEquals(15, sum[0]);
            MPI.Finalize();
        });
    }

    @Test
    void badArgumentsShouldBeRefusedAtTheCallAndLeaveTheCommunicatorUsable() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            final int[] buf = {w.getRank() == 0 ? 7 : 0};
            PointToPointTest.assertClass(MPI.ERR_ROOT, () -> w.iBcast(buf, 1, MPI.INT, 2));
            PointToPointTest.assertClass(MPI.ERR_OP, () -> w.iAllReduce(new double[1], new double[1], 1,
                MPI.DOUBLE, MPI.BAND));
            PointToPointTest.assertClass(MPI.ERR_COUNT, () -> w.iReduceScatter(new int[2], new int[1],
                new int[] {1, -1}, MPI.INT, MPI.SUM));
            assertEquals(w.getRank() == 0 ? 7 : 0, buf[0], "nothing moved");
            // The refused calls took no sequence number: the next collective still pairs up.
            final Request r = w.iBcast(buf, 1, MPI.INT, 0);
            r.waitFor();
            assertEquals(7, buf[0]);
            assertTrue(r.isNull());
            MPI.Finalize();
        });
    }
}
