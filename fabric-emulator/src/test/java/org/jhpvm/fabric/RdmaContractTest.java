package org.jhpvm.fabric;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of the NIC as a processor: registered memory, RDMA write and read, completions and NIC handlers, for
 * every fabric whose {@link FabricCapabilities} offer them; a fabric that does not offer them must refuse the calls
 * cleanly ({@link #shouldRefuseWhatTheFabricDoesNotOffer}). One subclass per implementation supplies the fabric.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
abstract class RdmaContractTest {
    static final long WAIT_NS = TimeUnit.SECONDS.toNanos(10);
    static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * @param nics number of NICs
     * @return a new open fabric without faults
     */
    protected abstract Fabric fabric(int nics);

    /** A completion, waited for; fails the test if none comes. */
    static Completion complete(final Nic nic) {
        final Completion c = new Completion();
        assertTrue(nic.completionQueue().await(c, WAIT_NS), "no completion came");
        return c;
    }

    private static void assumeRdma(final Fabric fabric) {
        Assumptions.assumeTrue(fabric.capabilities().remoteDma(), "this fabric offers no RDMA");
    }

    private static void assumeNicHandlers(final Fabric fabric) {
        Assumptions.assumeTrue(fabric.capabilities().nicHandlers(), "this fabric's NICs run no handlers");
    }

    static long[] ramp(final int n, final long base) {
        final long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = base + i;
        }
        return a;
    }

    @Test
    void shouldWriteAndReadBetweenRegisteredRegions() {
        try (Fabric fabric = fabric(2)) {
            assumeRdma(fabric);
            final long[] src = ramp(1000, 5);
            final double[] dst = new double[1000];
            final MemoryRegion local = fabric.nic(0).register(src);
            final MemoryRegion remote = fabric.nic(1).register(dst);
            final WorkDescriptor d = new WorkDescriptor().rdmaWrite(local, 8 * 10, 1, remote.handle(), remote.key(),
                8 * 20, 8 * 500, 42);
            assertTrue(fabric.nic(0).post(d));
            final Completion c = complete(fabric.nic(0));
            assertTrue(c.ok(), c::toString);
            assertEquals(42, c.context());
            assertEquals(WorkDescriptor.RDMA_WRITE, c.op());
            assertEquals(8 * 500, c.lengthBytes());
            // the bytes of longs 10..509 now sit in doubles 20..519 (RDMA moves bytes, not values)
            for (int i = 0; i < 1000; i++) {
                final long expected = i >= 20 && i < 520 ? src[i - 10] : 0;
                assertEquals(expected, Double.doubleToRawLongBits(dst[i]), "element " + i);
            }
            final long[] back = new long[500];
            final MemoryRegion backRegion = fabric.nic(0).register(back);
            assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaRead(backRegion, 0, 1, remote.handle(),
                remote.key(), 8 * 20, 8 * 500, 43)));
            assertEquals(43, complete(fabric.nic(0)).context());
            assertArrayEquals(Arrays.copyOfRange(src, 10, 510), back);
            final RdmaCounters counters = fabric.nic(0).rdmaCounters();
            assertEquals(1, counters.rdmaWrites());
            assertEquals(1, counters.rdmaReads());
            assertEquals(8000, counters.rdmaBytes());
            assertEquals(0, counters.errors());
        }
    }

    @Test
    void shouldMoveEmptyAndSegmentRegions() {
        try (Fabric fabric = fabric(2)) {
            assumeRdma(fabric);
            final MemorySegment native1 = MemorySegment.ofArray(new byte[4096]);
            final MemoryRegion a = fabric.nic(0).register(native1);
            final MemoryRegion b = fabric.nic(1).register(new byte[4096], 7, 0x1234);
            assertEquals(7, b.handle());
            assertEquals(0x1234, b.key());
            native1.fill((byte) 9);
            assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaWrite(a, 0, 1, 7, 0x1234, 0, 0, 1)));
            assertTrue(complete(fabric.nic(0)).ok());
            assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaWrite(a, 0, 1, 7, 0x1234, 4000, 96, 2)));
            assertTrue(complete(fabric.nic(0)).ok());
            final byte[] got = (byte[]) b.memory();
            assertEquals(0, got[3999]);
            assertEquals(9, got[4000]);
            assertEquals(9, got[4095]);
        }
    }

    @Test
    void shouldRefuseBadDescriptorsTouchingNoMemory() {
        try (Fabric fabric = fabric(2)) {
            assumeRdma(fabric);
            final long[] src = ramp(64, 1);
            final long[] dst = new long[64];
            final MemoryRegion local = fabric.nic(0).register(src);
            final MemoryRegion remote = fabric.nic(1).register(dst);
            final MemoryRegion elsewhere = fabric.nic(1).register(new long[8]);
            final int[] statuses = {
                post(fabric, new WorkDescriptor().rdmaWrite(local, 0, 1, remote.handle() + 1000, remote.key(), 0, 8, 1)),
                post(fabric, new WorkDescriptor().rdmaWrite(local, 0, 1, remote.handle(), remote.key() + 1, 0, 8, 2)),
                post(fabric, new WorkDescriptor().rdmaWrite(local, 0, 1, remote.handle(), remote.key(), 8 * 60, 64, 3)),
                post(fabric, new WorkDescriptor().rdmaWrite(local, 8 * 60, 1, remote.handle(), remote.key(), 0, 64, 4)),
                post(fabric, new WorkDescriptor().rdmaWrite(elsewhere, 0, 1, remote.handle(), remote.key(), 0, 8, 5)),
                post(fabric, new WorkDescriptor().rdmaWrite(null, 0, 1, remote.handle(), remote.key(), 0, 8, 6)),
                post(fabric, new WorkDescriptor().rdmaRead(local, 0, 1, remote.handle(), remote.key() ^ 1, 0, 8, 7)),
            };
            assertArrayEquals(new int[] {Completion.ERR_NOT_REGISTERED, Completion.ERR_BAD_KEY,
                Completion.ERR_OUT_OF_BOUNDS, Completion.ERR_OUT_OF_BOUNDS, Completion.ERR_NOT_REGISTERED,
                Completion.ERR_NOT_REGISTERED, Completion.ERR_BAD_KEY}, statuses);
            assertArrayEquals(new long[64], dst, "the target's memory is untouched");
            assertArrayEquals(ramp(64, 1), src, "the source's memory is untouched");
            assertEquals(7, fabric.nic(0).rdmaCounters().errors());
            assertEquals(4, fabric.nic(1).rdmaCounters().refusedAtTarget());
            assertEquals(0, fabric.nic(0).rdmaCounters().rdmaBytes());
            // programming errors are exceptions, and nothing is posted
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(0).post(new WorkDescriptor()));
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(0).post(new WorkDescriptor()
                .rdmaWrite(local, 0, 5, remote.handle(), remote.key(), 0, 8, 1)));
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(0).post(new WorkDescriptor()
                .rdmaWrite(local, 0, 1, remote.handle(), remote.key(), 0, -1, 1)));
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(0).register(new Object()));
            fabric.nic(1).register(new long[1], 0, 3);
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(1).register(new long[1], 0, 3),
                "handle 0 is taken");
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(1).register(new long[1], -1, 3));
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(1).register(new long[1],
                Nic.MAX_NAMED_HANDLE, 3));
            assertEquals(0, fabric.nic(0).completionQueue().size());
        }
    }

    private static int post(final Fabric fabric, final WorkDescriptor d) {
        assertTrue(fabric.nic(0).post(d));
        final Completion c = complete(fabric.nic(0));
        assertEquals(d.context(), c.context());
        assertEquals(0, c.lengthBytes());
        return c.status();
    }

    @Test
    void shouldCacheRegistrationsAndRefuseStaleOnes() {
        try (Fabric fabric = fabric(2)) {
            assumeRdma(fabric);
            final long[] buffer = new long[16];
            final MemoryRegion first = fabric.nic(1).register(buffer);
            assertSame(first, fabric.nic(1).register(buffer), "a buffer registered again comes from the cache");
            assertEquals(1, fabric.nic(1).rdmaCounters().registrations());
            assertEquals(1, fabric.nic(1).rdmaCounters().cacheHits());
            fabric.nic(1).deregister(first);
            final MemoryRegion src = fabric.nic(0).register(ramp(16, 3));
            assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaWrite(src, 0, 1, first.handle(), first.key(), 0,
                8, 1)));
            assertTrue(complete(fabric.nic(0)).ok(), "still registered once");
            fabric.nic(1).deregister(first);
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(1).deregister(first));
            assertEquals(Completion.ERR_NOT_REGISTERED, post(fabric, new WorkDescriptor().rdmaWrite(src, 0, 1,
                first.handle(), first.key(), 8, 8, 2)));
            final long[] newcomer = new long[16];
            final MemoryRegion again = fabric.nic(1).register(newcomer);
            final int stale = post(fabric, new WorkDescriptor().rdmaWrite(src, 0, 1, first.handle(), first.key(), 8, 8,
                3));
            if (again.handle() == first.handle()) {
                assertNotEquals(first.key(), again.key(), "a reused handle gets a new key");
                assertEquals(Completion.ERR_BAD_KEY, stale);
            } else {
                assertEquals(Completion.ERR_NOT_REGISTERED, stale);
            }
            assertEquals(0, buffer[1], "the stale descriptor wrote nothing");
            assertArrayEquals(new long[16], newcomer, "nor into the region that took the handle");
        }
    }

    @Test
    void shouldRunTheTargetNicsHandlerAndReply() {
        try (Fabric fabric = fabric(3)) {
            assumeNicHandlers(fabric);
            final long[] target = new long[32];
            final MemoryRegion targetRegion = fabric.nic(2).register(target, 5, 77);
            final AtomicInteger served = new AtomicInteger();
            // a put-and-fetch handler: payload long 0 is the index, long 1 the value; replies the old value
            fabric.nic(2).registerNicHandler(9, m -> {
                final MemoryRegion r = m.region(5, (int) m.frame().getHeaderLong(0));
                if (r == null) {
                    m.reject();
                    return;
                }
                final int index = (int) m.frame().getPayloadLong(0);
                final long[] mem = (long[]) r.memory();
                m.replyLong(mem[index]);
                mem[index] = m.frame().getPayloadLong(8);
                served.incrementAndGet();
            });
            final long[] replies = new long[4];
            final MemoryRegion replyRegion = fabric.nic(0).register(replies);
            target[3] = 11;
            assertEquals(Completion.OK, message(fabric, 2, 9, 77, 3, 99, replyRegion, 8, 8, 1));
            assertEquals(99, target[3]);
            assertEquals(11, replies[1]);
            assertEquals(1, served.get());
            // a wrong key is refused by the handler; an unknown handler and a reply too long by the NIC
            assertEquals(Completion.ERR_REJECTED, message(fabric, 2, 9, 78, 3, 5, replyRegion, 8, 8, 2));
            assertEquals(Completion.ERR_NO_HANDLER, message(fabric, 2, 10, 77, 3, 5, replyRegion, 8, 8, 3));
            assertEquals(Completion.ERR_OUT_OF_BOUNDS, message(fabric, 2, 9, 77, 3, 6, replyRegion, 8, 4, 4));
            assertEquals(Completion.ERR_OUT_OF_BOUNDS, message(fabric, 2, 9, 77, 3, 7, replyRegion, 30, 8, 5));
            assertEquals(99, target[3], "refused messages changed nothing");
            assertEquals(11, replies[1]);
            assertEquals(0, replies[2], "a refused reply lands nowhere");
            assertEquals(1, fabric.nic(2).rdmaCounters().nicMessagesHandled());
            assertEquals(1, fabric.nic(0).rdmaCounters().nicMessagesSent());
            assertThrows(IllegalStateException.class, () -> fabric.nic(2).registerNicHandler(9, m -> { }));
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(2).registerNicHandler(-1, m -> { }));
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(2).registerNicHandler(
                Nic.MAX_NIC_HANDLERS, m -> { }));
            // the frames went back to the pool: as many messages again as the pool holds
            for (int i = 0; i < 200; i++) {
                assertEquals(Completion.OK, message(fabric, 2, 9, 77, 4, i, replyRegion, 0, 8, 100 + i));
            }
            assertEquals(199, target[4]);
        }
    }

    /** Sends a NIC message from NIC 0: header long 0 = key, payload = (index, value). */
    static int message(final Fabric fabric, final int dest, final int handler, final long key, final long index,
                       final long value, final MemoryRegion reply, final long replyOffset, final int replyCapacity,
                       final long context) {
        final Nic nic = fabric.nic(0);
        final Frame f = nic.acquire();
        f.setDestination(dest).setLength(16);
        f.putHeaderLong(0, key);
        f.putPayloadLong(0, index);
        f.putPayloadLong(8, value);
        assertTrue(nic.post(new WorkDescriptor().nicMessage(f, handler, reply, replyOffset, replyCapacity, context)));
        final Completion c = complete(nic);
        assertEquals(context, c.context());
        assertEquals(WorkDescriptor.NIC_MESSAGE, c.op());
        assertEquals(c.ok() ? replyCapacity >= 8 ? 8 : 0 : 0, c.ok() ? c.lengthBytes() : 0);
        return c.status();
    }

    @Test
    void shouldRefuseToPostWithoutRoomForTheCompletion() {
        try (Fabric fabric = fabric(2)) {
            assumeRdma(fabric);
            final MemoryRegion a = fabric.nic(0).register(new byte[8]);
            final MemoryRegion b = fabric.nic(1).register(new byte[8]);
            final WorkDescriptor d = new WorkDescriptor().rdmaWrite(a, 0, 1, b.handle(), b.key(), 0, 8, 0);
            final int capacity = fabric.nic(0).completionQueue().capacity();
            for (int i = 0; i < capacity; i++) {
                assertTrue(fabric.nic(0).post(d));
            }
            assertFalse(fabric.nic(0).post(d), "no room for another completion");
            assertEquals(capacity, fabric.nic(0).completionQueue().size());
            assertTrue(complete(fabric.nic(0)).ok());
            assertTrue(fabric.nic(0).post(d));
        }
    }

    @Test
    void shouldCompleteEachQueuePairsRequestsOnItsOwnQueue() {
        try (Fabric fabric = fabric(2)) {
            assumeRdma(fabric);
            final Nic nic = fabric.nic(0);
            final long[] src = ramp(16, 100);
            final long[] dst = new long[16];
            final MemoryRegion a = nic.register(src);
            final MemoryRegion b = fabric.nic(1).register(dst);
            final QueuePair q1 = nic.openQueuePair();
            final QueuePair q2 = nic.openQueuePair();
            assertTrue(q1.post(new WorkDescriptor().rdmaWrite(a, 0, 1, b.handle(), b.key(), 0, 64, 11)));
            assertTrue(q2.post(new WorkDescriptor().rdmaWrite(a, 64, 1, b.handle(), b.key(), 64, 64, 12)));
            assertTrue(nic.post(new WorkDescriptor().rdmaWrite(a, 0, 1, b.handle(), b.key(), 0, 8, 10)));
            assertArrayEquals(src, dst, "both queue pairs' writes carried out");
            final Completion c = new Completion();
            assertTrue(q2.completionQueue().poll(c));
            assertEquals(12, c.context(), "q2's own request");
            assertFalse(q2.completionQueue().poll(c), "nothing else on q2");
            assertEquals(10, complete(nic).context(), "the NIC's own queue has only its own");
            assertFalse(nic.completionQueue().poll(c));
            // Closing is refused while a completion waits, and nothing changes.
            assertThrows(IllegalStateException.class, q1::close);
            assertFalse(q1.isClosed());
            assertTrue(q1.completionQueue().poll(c));
            assertEquals(11, c.context());
            q1.close();
            assertTrue(q1.isClosed());
            assertThrows(IllegalStateException.class, () -> q1.post(new WorkDescriptor().rdmaWrite(a, 0, 1,
                b.handle(), b.key(), 0, 8, 13)), "posted on a closed queue pair");
            assertThrows(IllegalStateException.class, q1::close);
            // A refused request completes on its queue pair too, with its error.
            assertTrue(q2.post(new WorkDescriptor().rdmaWrite(a, 0, 1, b.handle(), b.key() + 1, 0, 8, 14)));
            assertTrue(q2.completionQueue().poll(c));
            assertEquals(Completion.ERR_BAD_KEY, c.status());
            assertEquals(14, c.context());
            q2.close();
        }
    }

    @Test
    void shouldRefuseAfterClose() {
        final Fabric fabric = fabric(2);
        final boolean rdma = fabric.capabilities().remoteDma();
        final MemoryRegion a = rdma ? fabric.nic(0).register(new byte[8]) : null;
        fabric.close();
        Assumptions.assumeTrue(rdma, "this fabric offers no RDMA");
        assertThrows(FabricClosedException.class, () -> fabric.nic(0).post(new WorkDescriptor()
            .rdmaWrite(a, 0, 1, 0, 0, 0, 8, 0)));
        assertThrows(FabricClosedException.class, () -> fabric.nic(0).completionQueue().poll(new Completion()));
        assertThrows(FabricClosedException.class, () -> fabric.nic(0).register(new byte[4]));
    }

    @Test
    void shouldRefuseWhatTheFabricDoesNotOffer() {
        try (Fabric fabric = fabric(2)) {
            if (!fabric.capabilities().remoteDma()) {
                assertThrows(IllegalStateException.class, () -> fabric.nic(0).register(new byte[8]));
                assertThrows(IllegalStateException.class, () -> fabric.nic(0).post(new WorkDescriptor()));
                assertThrows(IllegalStateException.class, () -> fabric.nic(0).completionQueue());
                assertThrows(IllegalStateException.class, () -> fabric.nic(0).openQueuePair());
                assertEquals(RdmaCounters.zero(), fabric.nic(0).rdmaCounters());
            }
            if (!fabric.capabilities().nicHandlers()) {
                assertThrows(IllegalStateException.class, () -> fabric.nic(0).registerNicHandler(0, m -> { }));
            }
            assertTrue(fabric.capabilities().remoteDma() || !fabric.capabilities().nicHandlers(),
                "NIC handlers reply into registered memory: they come with RDMA");
        }
    }
}
