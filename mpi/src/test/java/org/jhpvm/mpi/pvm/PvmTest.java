package org.jhpvm.mpi.pvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import org.jhpvm.mpi.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** FPVM's PVM 3 face: tids, packing, send/recv/nrecv/trecv/probe/bufinfo, mcast's tree and order, bad input. */
@Timeout(120)
class PvmTest {
    static void run(final int tasks, final MpiJob.Body body) {
        MpiJob.builder().ranks(tasks).timeout(Duration.ofSeconds(90)).build().run(body);
    }

    @Test
    void packedItemsArriveWithTheirTagSenderAndLengthAndUnpackInOrder() {
        run(2, () -> {
            final Pvm pvm = Pvm.task();
            final int me = pvm.mytid() - Pvm.TID_BASE;
            assertEquals(Pvm.PvmNoParent, pvm.parent());
            assertArrayEquals(new int[] {Pvm.TID_BASE, Pvm.TID_BASE + 1}, pvm.siblings());
            final int other = Pvm.TID_BASE + 1 - me;
            if (me == 0) {
                assertTrue(pvm.initsend(Pvm.PvmDataDefault) > 0);
                assertEquals(Pvm.PvmOk, pvm.pkint(new int[] {1, -1, 2, -1, 3}, 3, 2));
                assertEquals(Pvm.PvmOk, pvm.pkdouble(new double[] {Math.PI}, 1, 1));
                assertEquals(Pvm.PvmOk, pvm.pkstr("héllo"));
                assertEquals(Pvm.PvmOk, pvm.pklong(new long[] {Long.MIN_VALUE}, 1, 1));
                assertEquals(Pvm.PvmOk, pvm.send(other, 7));
            } else {
                final int bufid = pvm.recv(-1, -1);
                assertTrue(bufid > 0);
                final int[] info = new int[3];
                assertEquals(Pvm.PvmOk, pvm.bufinfo(bufid, info));
                assertEquals(3 * 4 + 8 + 4 + "héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 8,
                    info[0]);
                assertEquals(7, info[1]);
                assertEquals(other, info[2]);
                final int[] ints = new int[6];
                assertEquals(Pvm.PvmOk, pvm.upkint(ints, 3, 2));
                assertArrayEquals(new int[] {1, 0, 2, 0, 3, 0}, ints);
                final double[] d = new double[1];
                assertEquals(Pvm.PvmOk, pvm.upkdouble(d, 1, 1));
                assertEquals(Math.PI, d[0]);
                assertEquals("héllo", pvm.upkstr());
                final long[] l = new long[1];
                assertEquals(Pvm.PvmOk, pvm.upklong(l, 1, 1));
                assertEquals(Long.MIN_VALUE, l[0]);
                final int[] past = {42};
                assertEquals(Pvm.PvmNoData, pvm.upkint(past, 1, 1));
                assertEquals(42, past[0], "a refused unpack wrote something");
                assertNull(pvm.upkstr());
            }
            assertEquals(Pvm.PvmOk, pvm.exit());
        });
    }

    @Test
    void nrecvTrecvAndProbeDoNotWaitOrWaitOnlyAsAsked() {
        run(2, () -> {
            final Pvm pvm = Pvm.task();
            final int me = pvm.mytid() - Pvm.TID_BASE;
            final int other = Pvm.TID_BASE + 1 - me;
            if (me == 1) {
                assertEquals(0, pvm.nrecv(-1, 5));
                assertEquals(0, pvm.probe(other, 5));
                final long t0 = System.nanoTime();
                assertEquals(0, pvm.trecv(other, 5, 50_000));
                assertTrue(System.nanoTime() - t0 >= 50_000_000L, "trecv returned before its timeout");
                pvm.psend(other, 1, new int[] {0}, 1, Pvm.PVM_INT);
                int probed;
                do {
                    probed = pvm.probe(other, 5);
                } while (probed == 0);
                final int[] info = new int[3];
                pvm.bufinfo(probed, info);
                assertEquals(5, info[1]);
                assertEquals(probed, pvm.nrecv(-1, 5), "the probed message is the one received");
                final short[] s = new short[3];
                assertEquals(Pvm.PvmOk, pvm.upkshort(s, 3, 1));
                assertArrayEquals(new short[] {4, 5, 6}, s);
            } else {
                pvm.recv(other, 1);
                pvm.psend(other, 5, new short[] {4, 5, 6}, 3, Pvm.PVM_SHORT);
            }
            pvm.exit();
        });
    }

    @Test
    void tasksMaySendLargeMessagesToEachOtherBeforeEitherReceives() {
        run(2, () -> {
            final Pvm pvm = Pvm.task();
            final int me = pvm.mytid() - Pvm.TID_BASE;
            final double[] big = new double[200_000];
            Arrays.fill(big, me + 0.5);
            pvm.initsend(Pvm.PvmDataRaw);
            pvm.pkdouble(big, big.length, 1);
            assertEquals(Pvm.PvmOk, pvm.send(Pvm.TID_BASE + 1 - me, 3));
            pvm.recv(-1, 3);
            final double[] got = new double[200_000];
            assertEquals(Pvm.PvmOk, pvm.upkdouble(got, got.length, 1));
            assertEquals(1 - me + 0.5, got[199_999]);
            pvm.exit();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 5, 16})
    void mcastReachesEveryOtherTaskThroughATreeAndKeepsEachSendersOrder(final int n) {
        final long[] rootSends = new long[1];
        run(n, () -> {
            final Pvm pvm = Pvm.task();
            final int me = pvm.mytid() - Pvm.TID_BASE;
            final int root = n - 1;
            if (me == root) {
                pvm.initsend(Pvm.PvmDataDefault);
                pvm.pkint(new int[] {1}, 1, 1);
                final long before = pvm.sentCount();
                assertEquals(Pvm.PvmOk, pvm.mcast(pvm.siblings(), n, 9));
                rootSends[0] = pvm.sentCount() - before;
                // Then a direct message to each: it must not overtake the relayed multicast.
                for (int t = 0; t < n - 1; t++) {
                    pvm.initsend(Pvm.PvmDataDefault);
                    pvm.pkint(new int[] {2}, 1, 1);
                    pvm.send(Pvm.TID_BASE + t, 9);
                }
            } else {
                final int[] v = new int[1];
                pvm.recv(Pvm.TID_BASE + root, 9);
                pvm.upkint(v, 1, 1);
                assertEquals(1, v[0], "the direct message overtook the multicast");
                pvm.recv(Pvm.TID_BASE + root, 9);
                pvm.upkint(v, 1, 1);
                assertEquals(2, v[0]);
                assertEquals(0, pvm.nrecv(-1, -1), "a task got a message twice");
            }
            pvm.exit();
        });
        assertTrue(rootSends[0] <= 32 - Integer.numberOfLeadingZeros(n - 1), "the root sent " + rootSends[0]
            + " messages for " + (n - 1) + " receivers");
    }

    @Test
    void randomTrafficArrivesExactlyOnceInEachSendersOrder() {
        final long seed = new Random().nextLong();
        System.out.println("PvmTest seed " + seed);
        run(4, () -> {
            final Pvm pvm = Pvm.task();
            final int me = pvm.mytid() - Pvm.TID_BASE;
            final Random r = new Random(seed + me);
            final int k = 60;
            for (int i = 0; i < k; i++) {
                pvm.initsend(Pvm.PvmDataDefault);
                pvm.pkint(new int[] {me, i}, 2, 1);
                if (r.nextBoolean()) {
                    pvm.mcast(pvm.siblings(), 4, 1);
                } else {
                    pvm.send(Pvm.TID_BASE + r.nextInt(4), 1);
                }
            }
            pvm.initsend(Pvm.PvmDataDefault);
            pvm.pkint(new int[] {me, -1}, 2, 1);
            pvm.mcast(pvm.siblings(), 4, 2);
            final int[] last = {-1, -1, -1, -1};
            int done = 0;
            while (done < 3) {
                pvm.recv(-1, -1);
                final int[] v = new int[2];
                pvm.upkint(v, 2, 1);
                final int[] info = new int[3];
                pvm.bufinfo(pvm.getrbuf(), info);
                if (info[1] == 2) {
                    done++;
                    continue;
                }
                assertTrue(v[1] > last[v[0]], "from " + v[0] + ": " + v[1] + " after " + last[v[0]] + " (seed "
                    + seed + ")");
                last[v[0]] = v[1];
            }
            assertEquals(Pvm.PvmOk, pvm.exit());
        });
    }

    @Test
    void badCallsReturnPvmErrorsAndChangeNothing() {
        run(2, () -> {
            final Pvm pvm = Pvm.task();
            final int me = pvm.mytid() - Pvm.TID_BASE;
            if (me == 0) {
                assertEquals(Pvm.PvmNoBuf, pvm.pkint(new int[1], 1, 1));
                assertEquals(Pvm.PvmNoBuf, pvm.send(Pvm.TID_BASE + 1, 0));
                assertEquals(Pvm.PvmBadParam, pvm.initsend(7));
                pvm.initsend(Pvm.PvmDataDefault);
                assertEquals(Pvm.PvmBadParam, pvm.pkint(new int[2], 2, 2), "past the end of the array");
                assertEquals(Pvm.PvmBadParam, pvm.pkint(new int[2], 1, 0));
                assertEquals(Pvm.PvmBadParam, pvm.send(Pvm.TID_BASE + 2, 0));
                assertEquals(Pvm.PvmBadParam, pvm.send(12, 0));
                assertEquals(Pvm.PvmBadParam, pvm.send(Pvm.TID_BASE + 1, -1));
                assertEquals(Pvm.PvmBadParam, pvm.mcast(new int[] {Pvm.TID_BASE + 1, 99}, 2, 0));
                assertEquals(Pvm.PvmBadParam, pvm.psend(Pvm.TID_BASE + 1, 0, new int[1], 1, Pvm.PVM_DOUBLE));
                assertEquals(Pvm.PvmNoSuchBuf, pvm.bufinfo(999, new int[3]));
                assertEquals(Pvm.PvmBadParam, pvm.recv(Pvm.TID_BASE + 5, 0));
                pvm.pkint(new int[] {77}, 1, 1);
                pvm.send(Pvm.TID_BASE + 1, 0);
            } else {
                pvm.recv(-1, -1);
                final int[] v = new int[1];
                pvm.upkint(v, 1, 1);
                assertEquals(77, v[0], "a refused call sent something first");
                assertEquals(0, pvm.nrecv(-1, -1));
            }
            assertEquals(Pvm.PvmOk, pvm.exit());
            assertEquals(Pvm.PvmSysErr, pvm.exit());
        });
    }
}
