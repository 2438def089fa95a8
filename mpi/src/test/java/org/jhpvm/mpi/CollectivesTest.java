package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.UserFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Collectives against sequential results on odd and even sizes, communicators, and derived datatypes. */
@Timeout(180)
class CollectivesTest {
    /** A rank's vector: values that make floating-point sums depend on their order. */
    static double[] vector(final int rank, final int n) {
        final Random r = new Random(rank * 7919L + n);
        final double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(12) - 6);
        }
        return v;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void reductionsMatchTheSequentialRankOrderSumOnEveryRankBitForBit(final int n) {
        final int count = 3000;
        final double[] expected = vector(0, count);
        for (int p = 1; p < n; p++) {
            final double[] v = vector(p, count);
            for (int i = 0; i < count; i++) {
                expected[i] = expected[i] + v[i];
            }
        }
        PointToPointTest.run(n, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final double[] mine = vector(me, count);
            final double[] all = new double[count];
            w.allReduce(mine, all, count, MPI.DOUBLE, MPI.SUM);
            // Binomial pairs (v0+v1)+(v2+v3) can differ from the left fold in the last bit, but every rank must
            // have the same bits, and they must be within rounding of the sequential sum.
            for (int i = 0; i < count; i++) {
                assertEquals(expected[i], all[i], 1e-9 * Math.max(1, Math.abs(expected[i])));
            }
            final double[] atRoot = new double[count];
            w.reduce(mine, atRoot, count, MPI.DOUBLE, MPI.SUM, n - 1);
            if (me == n - 1) {
                assertArrayEquals(all, atRoot, "reduce to another root gave other bits");
            }
            final long[] bits = new long[count];
            for (int i = 0; i < count; i++) {
                bits[i] = Double.doubleToRawLongBits(all[i]);
            }
            final long[] max = bits.clone();
            final long[] min = bits.clone();
            w.allReduce(max, count, MPI.LONG, MPI.MAX);
            w.allReduce(min, count, MPI.LONG, MPI.MIN);
            assertArrayEquals(max, min, "ranks hold different bits");
            final int[] ints = {me + 1, me % 2, 1 << me};
            w.allReduce(ints, 3, MPI.INT, MPI.PROD);
            int fact = 1;
            for (int p = 1; p <= n; p++) {
                fact *= p;
            }
            assertEquals(fact, ints[0]);
            final boolean[] flags = {me == 0, true};
            w.allReduce(flags, 2, MPI.BOOLEAN, MPI.LOR);
            assertTrue(flags[0] && flags[1]);
            final int[] bor = {1 << me};
            w.allReduce(bor, 1, MPI.INT, MPI.BOR);
            assertEquals((1 << n) - 1, bor[0]);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 7})
    void aNonCommutativeUserOperationCombinesInRankOrder(final int n) {
        PointToPointTest.run(n, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            // inOut = in * 10 + inOut: folding digits 1..n in rank order gives 123...n.
            final Op digits = new Op(new UserFunction() {
                @Override
                public void call(final Object in, final Object inOut, final int count, final Datatype type) {
                    final long[] a = (long[]) in;
                    final long[] b = (long[]) inOut;
                    for (int i = 0; i < count; i++) {
                        b[i] = a[i] * (long) Math.pow(10, String.valueOf(b[i]).length()) + b[i];
                    }
                }
            }, false);
            final long[] v = {me + 1};
            final long[] out = new long[1];
            MPI.COMM_WORLD.allReduce(v, out, 1, MPI.LONG, digits);
            final StringBuilder want = new StringBuilder();
            for (int p = 1; p <= n; p++) {
                want.append(p);
            }
            assertEquals(Long.parseLong(want.toString()), out[0]);
            final long[] prefix = new long[1];
            MPI.COMM_WORLD.scan(v, prefix, 1, MPI.LONG, digits);
            assertEquals(Long.parseLong(want.substring(0, me + 1)), prefix[0]);
            final long[] ex = {-1};
            MPI.COMM_WORLD.exScan(v, ex, 1, MPI.LONG, digits);
            assertEquals(me == 0 ? -1 : Long.parseLong(want.substring(0, me)), ex[0]);
            MPI.Finalize();
        });
    }

    @Test
    void aUserOperationWrittenForByteBuffersIsCalledWithThem() {
        PointToPointTest.run(3, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            // Overrides only the byte-buffer form, as some Open MPI Java programs do: a maximum of ints.
            final Op max = new Op(new UserFunction() {
                @Override
                public void call(final java.nio.ByteBuffer in, final java.nio.ByteBuffer inOut, final int count,
                                 final Datatype type) {
                    for (int i = 0; i < count; i++) {
                        inOut.putInt(4 * i, Math.max(in.getInt(4 * i), inOut.getInt(4 * i)));
                    }
                }
            }, true);
            final int[] v = {me * 10, 50 - me};
            MPI.COMM_WORLD.allReduce(v, 2, MPI.INT, max);
            assertArrayEquals(new int[] {20, 50}, v);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 6})
    void gatherScatterAllGatherAndAllToAllPlaceEveryBlock(final int n) {
        PointToPointTest.run(n, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final int k = 3;
            for (int root = 0; root < n; root++) {
                final int[] mine = {me * 100, me * 100 + 1, me * 100 + 2};
                final int[] all = new int[n * k];
                w.gather(mine, k, MPI.INT, all, k, MPI.INT, root);
                if (me == root) {
                    for (int i = 0; i < n * k; i++) {
                        assertEquals(i / k * 100 + i % k, all[i]);
                    }
                }
                final int[] part = new int[k];
                w.scatter(all, k, MPI.INT, part, k, MPI.INT, root);
                if (me == root) {
                    assertArrayEquals(mine, part);
                }
                final double[] b = me == root ? vector(root, 5000) : new double[5000];
                w.bcast(b, 5000, MPI.DOUBLE, root);
                assertArrayEquals(vector(root, 5000), b);
            }
            final int[] everyone = new int[n * k];
            w.allGather(new int[] {me, -me, me * me}, k, MPI.INT, everyone, k, MPI.INT);
            for (int p = 0; p < n; p++) {
                assertEquals(p * p, everyone[p * k + 2]);
            }
            final int[] inPlace = new int[n];
            inPlace[me] = me + 10;
            w.allGather(inPlace, 1, MPI.INT);
            for (int p = 0; p < n; p++) {
                assertEquals(p + 10, inPlace[p]);
            }
            // Variable blocks: rank p sends p + 1 items.
            final int[] counts = new int[n];
            final int[] displs = new int[n];
            int total = 0;
            for (int p = 0; p < n; p++) {
                counts[p] = p + 1;
                displs[p] = total;
                total += p + 1;
            }
            final long[] v = new long[total];
            final long[] mineV = new long[me + 1];
            java.util.Arrays.fill(mineV, me);
            w.allGatherv(mineV, me + 1, MPI.LONG, v, counts, displs, MPI.LONG);
            for (int p = 0; p < n; p++) {
                for (int j = 0; j < p + 1; j++) {
                    assertEquals(p, v[displs[p] + j]);
                }
            }
            final int[] send = new int[n * 2];
            for (int p = 0; p < n; p++) {
                send[2 * p] = me * 1000 + p;
                send[2 * p + 1] = -(me * 1000 + p);
            }
            final int[] recv = new int[n * 2];
            w.allToAll(send, 2, MPI.INT, recv, 2, MPI.INT);
            for (int p = 0; p < n; p++) {
                assertEquals(p * 1000 + me, recv[2 * p]);
                assertEquals(-(p * 1000 + me), recv[2 * p + 1]);
            }
            final int[] rs = new int[2];
            final int[] contrib = new int[2 * n];
            java.util.Arrays.fill(contrib, 1);
            w.reduceScatterBlock(contrib, rs, 2, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {n, n}, rs);
            w.barrier();
            MPI.Finalize();
        });
    }

    @Test
    void sixtyFourRanksOnTwoCoresAgreeOnEveryCollective() {
        final int n = 64;
        PointToPointTest.run(n, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            w.barrier();
            final long[] sum = {me, 1, (long) me * me};
            w.allReduce(sum, 3, MPI.LONG, MPI.SUM);
            assertArrayEquals(new long[] {n * (n - 1) / 2, n, (long) (n - 1) * n * (2 * n - 1) / 6}, sum);
            final int[] b = me == 37 ? new int[] {1, 2, 3} : new int[3];
            w.bcast(b, 3, MPI.INT, 37);
            assertArrayEquals(new int[] {1, 2, 3}, b);
            final int[] all = new int[n];
            w.allGather(new int[] {me * 3}, 1, MPI.INT, all, 1, MPI.INT);
            for (int p = 0; p < n; p++) {
                assertEquals(p * 3, all[p]);
            }
            final long[] prefix = {1};
            w.scan(prefix, 1, MPI.LONG, MPI.SUM);
            assertEquals(me + 1, prefix[0]);
            final Intracomm third = w.split(me % 3, me);
            final int[] size = {1};
            third.allReduce(size, 1, MPI.INT, MPI.SUM);
            assertEquals(me % 3 == 0 ? 22 : 21, size[0]);
            MPI.Finalize();
        });
    }

    @Test
    void splitOrdersByKeyAndDupKeepsItsMessagesApart() {
        PointToPointTest.run(6, () -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final Intracomm half = w.split(me % 2, -me);
            assertEquals(3, half.getSize());
            // Keys -me: the highest world rank of each colour is rank 0.
            assertEquals((5 - me) / 2, half.getRank());
            final int[] sum = {me};
            half.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(me % 2 == 0 ? 0 + 2 + 4 : 1 + 3 + 5, sum[0]);
            final Intracomm alone = w.split(me == 0 ? 0 : MPI.UNDEFINED, 0);
            if (me == 0) {
                assertEquals(1, alone.getSize());
            } else {
                assertTrue(alone.isNull(), "MPI_COMM_NULL, an object as in Open MPI's bindings");
                PointToPointTest.assertClass(MPI.ERR_COMM, alone::getSize);
            }
            final Intracomm d = w.dup();
            assertEquals(MPI.CONGRUENT, Comm.compare(w, d));
            assertEquals(MPI.IDENT, Comm.compare(w, MPI.COMM_WORLD));
            assertEquals(MPI.UNEQUAL, Comm.compare(w, half));
            if (me == 0) {
                d.send(new int[] {1}, 1, MPI.INT, 1, 5);
                w.send(new int[] {2}, 1, MPI.INT, 1, 5);
            } else if (me == 1) {
                final int[] v = new int[1];
                w.recv(v, 1, MPI.INT, 0, 5);
                assertEquals(2, v[0], "a receive on the world took the dup's message");
                d.recv(v, 1, MPI.INT, 0, 5);
                assertEquals(1, v[0]);
            }
            final mpi.Group g = w.getGroup().incl(new int[] {4, 2});
            final Intracomm sub = w.create(g);
            if (me == 4 || me == 2) {
                assertEquals(me == 4 ? 0 : 1, sub.getRank());
                // The even half is world ranks 4, 2, 0 in that order.
                assertArrayEquals(new int[] {1, 0}, mpi.Group.translateRanks(g, new int[] {1, 0}, half.getGroup()));
                assertArrayEquals(new int[] {MPI.UNDEFINED}, mpi.Group.translateRanks(w.getGroup(), new int[] {1},
                    half.getGroup()));
            } else {
                assertTrue(sub.isNull());
            }
            d.setErrhandler(MPI.ERRORS_RETURN);
            assertFalse(d.isNull());
            d.free();
            assertTrue(d.isNull(), "a freed communicator is MPI_COMM_NULL");
            PointToPointTest.assertClass(MPI.ERR_COMM, d::getSize);
            w.setErrhandler(MPI.ERRORS_RETURN);
            PointToPointTest.assertClass(MPI.ERR_COMM, () -> MPI.COMM_WORLD.free());
            MPI.Finalize();
        });
    }

    @Test
    void derivedTypesGatherAndScatterTheirRunsWithoutPacking() {
        PointToPointTest.run(2, () -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            // A column of a 4x5 row-major matrix, and a face of a 3-D block.
            final Datatype column = Datatype.createVector(4, 1, 5, MPI.DOUBLE);
            column.commit();
            assertEquals(4, column.getSize());
            assertEquals(16, column.getExtent());
            final Datatype face = Datatype.createSubarray(new int[] {4, 5, 6}, new int[] {4, 5, 1},
                new int[] {0, 0, 5}, MPI.ORDER_C, MPI.INT);
            face.commit();
            assertEquals(20, face.getSize());
            if (me == 0) {
                final double[] m = new double[20];
                for (int i = 0; i < 20; i++) {
                    m[i] = i;
                }
                MPI.COMM_WORLD.send(mpi.MPI.slice(m, 2), 1, column, 1, 0);
                final int[] block = new int[120];
                for (int i = 0; i < 120; i++) {
                    block[i] = i;
                }
                MPI.COMM_WORLD.send(block, 1, face, 1, 1);
                // Fortran order: a 2 x 2 corner of a 4 x 3 array whose first index varies fastest.
                final Datatype corner = Datatype.createSubarray(new int[] {4, 3}, new int[] {2, 2},
                    new int[] {1, 1}, MPI.ORDER_FORTRAN, MPI.INT);
                corner.commit();
                MPI.COMM_WORLD.send(java.util.stream.IntStream.range(0, 12).toArray(), 1, corner, 1, 2);
            } else {
                final double[] col = new double[4];
                MPI.COMM_WORLD.recv(col, 4, MPI.DOUBLE, 0, 0);
                assertArrayEquals(new double[] {2, 7, 12, 17}, col);
                final int[] into = new int[120];
                final mpi.Status s = MPI.COMM_WORLD.recv(into, 1, face, 0, 1);
                assertEquals(1, s.getCount(face));
                for (int i = 0; i < 120; i++) {
                    assertEquals(i % 6 == 5 ? i : 0, into[i], "element " + i);
                }
                final int[] corner = new int[4];
                MPI.COMM_WORLD.recv(corner, 4, MPI.INT, 0, 2);
                assertArrayEquals(new int[] {5, 6, 9, 10}, corner);
            }
            column.free();
            PointToPointTest.assertClass(MPI.ERR_TYPE, column::free);
            MPI.Finalize();
        });
    }

    @Test
    void theUnexpectedDataARankHoldsStaysWithinItsBudget() {
        final long budget = 64 << 10;
        final long[] peak = new long[1];
        MpiJob.builder().ranks(2).option("mpi.unexpectedBytes", "64K").timeout(java.time.Duration.ofSeconds(60))
            .build().run(() -> {
                MPI.Init(new String[0]);
                final int me = MPI.COMM_WORLD.getRank();
                final int k = 200;
                if (me == 0) {
                    for (int i = 0; i < k; i++) {
                        final int[] m = new int[1000];
                        java.util.Arrays.fill(m, i);
                        MPI.COMM_WORLD.send(m, 1000, MPI.INT, 1, 0);
                    }
                } else {
                    final org.jhpvm.mpi.internal.Engine e = org.jhpvm.mpi.internal.RankBinding.current();
                    final long end = System.nanoTime() + 300_000_000L;
                    while (System.nanoTime() < end) {
                        MPI.COMM_WORLD.iProbe(1, 99);
                        peak[0] = Math.max(peak[0], e.unexpectedBytes());
                    }
                    final int[] m = new int[1000];
                    for (int i = 0; i < k; i++) {
                        MPI.COMM_WORLD.recv(m, 1000, MPI.INT, 0, 0);
                        assertEquals(i, m[999]);
                        peak[0] = Math.max(peak[0], e.unexpectedBytes());
                    }
                }
                MPI.Finalize();
            });
        assertTrue(peak[0] > 0, "no message waited unexpected");
        assertTrue(peak[0] <= budget / 2, "held " + peak[0] + " bytes of unexpected data, over the sender's share");
    }
}
