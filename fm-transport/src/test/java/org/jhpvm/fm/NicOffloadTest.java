package org.jhpvm.fm;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NIC messages, RDMA and registered memory through FM, on both paths: the emulated NIC doing the work
 * ({@code offload = true}) and FM's own messages ({@code fm.nicOffload=false}); the results must be the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NicOffloadTest {
    static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);
    /** put-and-fetch: (handle, key, index, value), replies the old value. */
    static final int SWAP = 1;
    /** get: (handle, key, index, count), replies the elements. */
    static final int GET = 2;

    static FmJob job(final int pes, final boolean offload, final double drop) {
        final FmJob.Builder b = FmJob.builder().pes(pes).timeout(Duration.ofSeconds(50))
            .option("fm.nicOffload", Boolean.toString(offload));
        if (drop > 0) {
            b.option("fabric.faults.seed", "11").option("fabric.faults.drop", Double.toString(drop))
                .option("fabric.faults.corrupt", Double.toString(drop / 4))
                .option("fabric.faults.duplicate", Double.toString(drop / 4));
        }
        return b.build();
    }

    static void handlers(final FastMessages fm) {
        fm.registerNicHandler(SWAP, m -> {
            final long[] mem = (long[]) m.memory(m.receiveInt(), m.receiveInt());
            if (mem == null) {
                m.reject();
                return;
            }
            final int index = (int) m.receiveLong();
            final long value = m.receiveLong();
            m.replyLong(mem[index]);
            mem[index] = value;
        });
        fm.registerNicHandler(GET, m -> {
            final long[] mem = (long[]) m.memory(m.receiveInt(), m.receiveInt());
            if (mem == null) {
                m.reject();
                return;
            }
            final int index = m.receiveInt();
            m.reply(mem, index, 1, m.receiveInt());
        });
    }

    static FmCompletion await(final FastMessages fm) {
        final FmCompletion c = new FmCompletion();
        assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
        return c;
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void nicMessagesShouldReachEveryPeAndReply(final boolean offload) {
        final int pes = 4;
        job(pes, offload, 0).run(fm -> {
            final Barrier b = new Barrier(fm);
            handlers(fm);
            assertEquals(offload, fm.nicOffload());
            final long[] mine = new long[pes];
            fm.register(mine, 3, 33);
            final long[] replies = new long[pes * 8];
            final FmRegion reply = fm.register(replies);
            b.await();
            for (int p = 0; p < pes; p++) {
                final FmOutputStream out = fm.beginNicMessage(p, 24, SWAP, reply, 8L * p, 8, p);
                out.sendInt(3);
                out.sendInt(33);
                out.sendLong(fm.pe());
                out.sendLong(100 + fm.pe());
                out.endMessage();
            }
            final boolean[] seen = new boolean[pes];
            for (int i = 0; i < pes; i++) {
                final FmCompletion c = await(fm);
                assertTrue(c.ok(), c::toString);
                assertEquals(FmCompletion.NIC_MESSAGE, c.op());
                assertEquals(8, c.lengthBytes());
                seen[(int) c.context()] = true;
                assertEquals(0, replies[(int) c.context()], "each PE's slot for me was still 0");
            }
            assertTrue(allTrue(seen));
            b.await();
            for (int p = 0; p < pes; p++) {
                assertEquals(100 + p, mine[p], "PE " + p + " wrote its value into my slot " + p);
            }
            // a get of my neighbour's whole array
            final int right = (fm.pe() + 1) % pes;
            final FmOutputStream out = fm.beginNicMessage(right, 16, GET, reply, 0, 8 * pes, 77);
            out.sendInt(3);
            out.sendInt(33);
            out.sendInt(0);
            out.sendInt(pes);
            out.endMessage();
            final FmCompletion c = await(fm);
            assertTrue(c.ok());
            final long[] expected = new long[pes];
            for (int p = 0; p < pes; p++) {
                expected[p] = 100 + p;
            }
            assertArrayEquals(expected, Arrays.copyOf(replies, pes));
            b.await();
        });
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void failuresShouldTouchNoMemory(final boolean offload) {
        job(2, offload, 0).run(fm -> {
            final Barrier b = new Barrier(fm);
            handlers(fm);
            final long[] mine = {5, 6, 7, 8};
            fm.register(mine, 1, 10);
            final long[] replies = new long[2];
            final FmRegion reply = fm.register(replies);
            b.await();
            final int other = 1 - fm.pe();
            assertEquals(FmCompletion.ERR_REJECTED, swap(fm, other, 1, 11, 0, 99, reply, 8));
            assertEquals(FmCompletion.ERR_REJECTED, swap(fm, other, 2, 10, 0, 99, reply, 8));
            assertEquals(FmCompletion.ERR_OUT_OF_BOUNDS, swap(fm, other, 1, 10, 1, 99, reply, 4));
            final FmOutputStream out = fm.beginNicMessage(other, 0, 50, null, 0, 0, 1);
            out.endMessage();
            assertEquals(FmCompletion.ERR_NO_HANDLER, await(fm).status());
            final long[] src = {1, 2, 3};
            final FmRegion local = fm.register(src);
            fm.rdmaWrite(local, 0, other, 1, 11, 0, 8, 1);
            assertEquals(FmCompletion.ERR_BAD_KEY, await(fm).status());
            fm.rdmaWrite(local, 0, other, 2, 10, 0, 8, 2);
            assertEquals(FmCompletion.ERR_NOT_REGISTERED, await(fm).status());
            fm.rdmaWrite(local, 0, other, 1, 10, 8, 32, 3);
            assertEquals(FmCompletion.ERR_OUT_OF_BOUNDS, await(fm).status());
            fm.rdmaWrite(local, 16, other, 1, 10, 0, 16, 4);
            assertEquals(FmCompletion.ERR_OUT_OF_BOUNDS, await(fm).status(), "local bytes outside the region");
            b.await();
            assertArrayEquals(new long[] {5, 6, 7, 8}, mine, "nothing was written");
            assertArrayEquals(new long[2], replies, "no reply landed");
            assertThrows(IllegalArgumentException.class, () -> fm.beginNicMessage(other, fm.maxNicMessageBytes() + 1,
                SWAP, null, 0, 0, 0));
            assertThrows(IllegalArgumentException.class, () -> fm.beginNicMessage(other, 8, SWAP, reply, 8, 16, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> fm.beginNicMessage(2, 8, SWAP, null, 0, 0, 0));
            assertThrows(IllegalArgumentException.class, () -> fm.rdmaRead(null, 0, other, 1, 10, 0, 8, 0));
            // negative contexts are FM's own: refused, nothing posted
            assertThrows(IllegalArgumentException.class, () -> fm.beginNicMessage(other, 8, SWAP, null, 0, 0, -1));
            assertThrows(IllegalArgumentException.class, () -> fm.rdmaWrite(local, 0, other, 1, 10, 0, 8, -2));
            assertThrows(IllegalArgumentException.class, () -> fm.rdmaRead(local, 0, other, 1, 10, 0, 8, -3));
            assertFalse(fm.pollCompletion(new FmCompletion()), "nothing was posted");
            assertArrayEquals(new long[] {5, 6, 7, 8}, mine, "nothing was written");
            b.await();
        });
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void requestsOnAQueueShouldCompleteOnThatQueueOnly(final boolean offload) {
        job(2, offload, 0).run(fm -> {
            final Barrier b = new Barrier(fm);
            handlers(fm);
            final long[] mine = new long[8];
            fm.register(mine, 3, 33);
            final long[] landing = new long[8];
            landing[1] = 500 + fm.pe();
            final FmRegion land = fm.register(landing);
            b.await();
            final int other = 1 - fm.pe();
            final int q1 = fm.openQueue();
            final int q2 = fm.openQueue();
            assertTrue(q1 > 0 && q2 > 0 && q1 != q2, q1 + ", " + q2);
            swapOn(fm, q1, other, 0, 10, land, 1);
            fm.rdmaWrite(q2, land, 8, other, 3, 33, 8, 8, 2);
            swapOn(fm, 0, other, 2, 30, land, 3);
            final FmCompletion c = new FmCompletion();
            assertEquals(2, awaitOn(fm, q2).context(), "q2 has its RDMA write");
            assertFalse(fm.pollCompletion(q2, c), "and nothing else");
            assertEquals(1, awaitOn(fm, q1).context(), "q1 has its NIC message");
            assertFalse(fm.pollCompletion(q1, c));
            assertEquals(3, await(fm).context(), "the endpoint's own queue has its own request");
            assertFalse(fm.pollCompletion(c));
            // Closing is refused while a request is in flight or its completion waits; nothing changes.
            swapOn(fm, q1, other, 0, 11, land, 4);
            assertThrows(IllegalStateException.class, () -> fm.closeQueue(q1));
            final FmCompletion last = awaitOn(fm, q1);
            assertEquals(4, last.context());
            assertTrue(last.ok(), last::toString);
            fm.closeQueue(q1);
            assertThrows(IllegalArgumentException.class, () -> fm.closeQueue(q1), "closed already");
            assertThrows(IllegalArgumentException.class, () -> fm.pollCompletion(q1, c));
            assertThrows(IllegalArgumentException.class, () -> fm.beginNicMessage(q1, other, 24, SWAP, land, 0, 8,
                5));
            assertThrows(IllegalArgumentException.class, () -> fm.rdmaRead(99, land, 0, other, 3, 33, 0, 8, 6));
            assertThrows(IllegalArgumentException.class, () -> fm.closeQueue(0), "the endpoint's own queue");
            fm.closeQueue(q2);
            assertEquals(q1, fm.openQueue(), "a closed queue's number is given out again");
            b.await();
            assertEquals(500 + other, mine[1], "the RDMA write of q2 landed");
            assertEquals(11, mine[0], "both swaps of q1 landed, in order");
            assertEquals(30, mine[2]);
            b.await();
        });
    }

    private static void swapOn(final FastMessages fm, final int queue, final int dest, final long index,
                               final long value, final FmRegion reply, final long context) {
        final FmOutputStream out = fm.beginNicMessage(queue, dest, 24, SWAP, reply, 0, 8, context);
        out.sendInt(3);
        out.sendInt(33);
        out.sendLong(index);
        out.sendLong(value);
        out.endMessage();
    }

    /** Waits, extracting, for a completion on {@code queue}. */
    private static FmCompletion awaitOn(final FastMessages fm, final int queue) {
        final FmCompletion c = new FmCompletion();
        final long deadline = System.nanoTime() + WAIT_NS;
        while (!fm.pollCompletion(queue, c)) {
            assertTrue(System.nanoTime() - deadline < 0, "no completion on queue " + queue);
            fm.extract(1 << 20);
        }
        return c;
    }

    static int swap(final FastMessages fm, final int dest, final int handle, final int key, final long index,
                    final long value, final FmRegion reply, final int capacity) {
        final FmOutputStream out = fm.beginNicMessage(dest, 24, SWAP, reply, 0, capacity, 9);
        out.sendInt(handle);
        out.sendInt(key);
        out.sendLong(index);
        out.sendLong(value);
        out.endMessage();
        final FmCompletion c = await(fm);
        assertEquals(9, c.context());
        return c.status();
    }

    @ParameterizedTest(name = "offload={0}")
    @ValueSource(booleans = {true, false})
    void rdmaShouldMoveBytesBothWaysUnderFaults(final boolean offload) {
        job(3, offload, 0.02).run(fm -> {
            final Barrier b = new Barrier(fm);
            final int n = 100_000;
            final double[] mine = new double[n];
            for (int i = 0; i < n; i++) {
                mine[i] = fm.pe() * 1e6 + i;
            }
            fm.register(mine, 5, 55);
            final double[] got = new double[n];
            final FmRegion local = fm.register(got);
            b.await();
            final int right = (fm.pe() + 1) % fm.pes();
            fm.rdmaRead(local, 0, right, 5, 55, 0, 8L * n, 1);
            assertTrue(await(fm).ok());
            for (int i = 0; i < n; i += 997) {
                assertEquals(right * 1e6 + i, got[i]);
            }
            b.await();
            // write my copy of the right's array back into the left's array, shifted by one element
            final int left = (fm.pe() + fm.pes() - 1) % fm.pes();
            fm.rdmaWrite(local, 0, left, 5, 55, 8, 8L * (n - 1), 2);
            final FmCompletion c = await(fm);
            assertTrue(c.ok());
            assertEquals(8L * (n - 1), c.lengthBytes());
            b.await();
            // my right wrote into my array, from element 1, the array of its own right
            final int rightOfRight = (fm.pe() + 2) % fm.pes();
            assertEquals(fm.pe() * 1e6, mine[0], "element 0 was not written");
            for (int i = 1; i < n; i += 991) {
                assertEquals(rightOfRight * 1e6 + i - 1, mine[i]);
            }
            b.await();
        });
    }

    @Test
    void theNicShouldServeATargetThatNeverExtracts() {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLongArray served = new AtomicLongArray(1);
        job(2, true, 0).run(fm -> {
            final Barrier b = new Barrier(fm);
            handlers(fm);
            final long[] mine = new long[4];
            fm.register(mine, 1, 1);
            final long[] reply = new long[1];
            final FmRegion r = fm.register(reply);
            b.await();
            if (fm.pe() == 1) {
                // computes without calling FM until PE 0 is done with it
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() & 1;
                }
                served.set(0, mine[2] + (x < 0 ? 1 : 0));
            } else {
                for (int i = 1; i <= 1000; i++) {
                    assertEquals(FmCompletion.OK, swap(fm, 1, 1, 1, 2, i, r, 8));
                    assertEquals(i - 1, reply[0]);
                }
                stop.set(true);
            }
        });
        assertEquals(1000, served.get(0));
    }

    static boolean allTrue(final boolean[] a) {
        for (final boolean b : a) {
            if (!b) {
                return false;
            }
        }
        return true;
    }
}
