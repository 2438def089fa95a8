package org.jhpvm.fabric;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The RDMA contract on the emulated Myrinet, and what only an emulator shows: its reliable-connection protocol under
 * a fault plan (every byte once and intact, every NIC message's handler run once, the faults counted).
 */
class EmulatedRdmaTest extends RdmaContractTest {
    @Override
    protected Fabric fabric(final int nics) {
        return EmulatedMyrinet.create(FabricConfig.builder(nics).frameBytes(4096).completionQueueCapacity(64).build());
    }

    private static Fabric lossy(final long seed, final int segmentBytes) {
        return EmulatedMyrinet.create(FabricConfig.builder(2).frameBytes(4096).rdmaSegmentBytes(segmentBytes)
            .faultPlan(FaultPlan.builder(seed).drop(0.1).corrupt(0.05).duplicate(0.05).reorder(0.05).build())
            .build());
    }

    @Test
    void shouldOfferRdmaAndNicHandlersWhateverThePlan() {
        try (Fabric f = lossy(1, 4096)) {
            assertTrue(f.capabilities().remoteDma());
            assertTrue(f.capabilities().nicHandlers());
            assertTrue(!f.capabilities().reliable(), "frames are not reliable under this plan");
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldMoveEveryByteOnceAndIntactUnderFaults(final long seed) {
        try (Fabric fabric = lossy(seed, 256)) {
            final SplittableRandom random = new SplittableRandom(seed);
            final byte[] src = new byte[1 << 16];
            random.nextBytes(src);
            final byte[] dst = new byte[1 << 16];
            final MemoryRegion a = fabric.nic(0).register(src);
            final MemoryRegion b = fabric.nic(1).register(dst);
            for (int i = 0; i < 50; i++) {
                final int off = random.nextInt(1 << 15);
                final int len = random.nextInt(1 << 15);
                assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaWrite(a, off, 1, b.handle(), b.key(), off,
                    len, i)));
                assertTrue(complete(fabric.nic(0)).ok());
                assertArrayEquals(Arrays.copyOfRange(src, off, off + len), Arrays.copyOfRange(dst, off, off + len));
            }
            final byte[] back = new byte[1 << 16];
            final MemoryRegion c = fabric.nic(0).register(back);
            assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaRead(c, 0, 1, b.handle(), b.key(), 0, 1 << 16,
                99)));
            assertTrue(complete(fabric.nic(0)).ok());
            assertArrayEquals(dst, back);
            final RdmaCounters counters = fabric.nic(0).rdmaCounters();
            assertTrue(counters.segmentsLost() > 0 && counters.segmentsCorrupted() > 0
                && counters.segmentsDuplicated() > 0, "the plan really hit segments: " + counters);
            assertEquals(counters.segmentsLost() + counters.segmentsCorrupted(), counters.retransmissions(),
                "every lost or damaged segment was sent again: " + counters);
        }
    }

    @Test
    void shouldRunEachNicMessagesHandlerOnceUnderFaults() {
        try (Fabric fabric = lossy(7, 4096)) {
            final long[] counter = new long[1];
            fabric.nic(1).register(counter, 0, 1);
            final AtomicLong handled = new AtomicLong();
            fabric.nic(1).registerNicHandler(1, m -> {
                // an increment: wrong if a duplicate ran it twice
                ((long[]) m.region(0, 1).memory())[0]++;
                handled.incrementAndGet();
                m.replyLong(handled.get());
            });
            final long[] reply = new long[1];
            final MemoryRegion r = fabric.nic(0).register(reply);
            for (int i = 1; i <= 300; i++) {
                assertEquals(Completion.OK, message(fabric, 1, 1, 1, 0, 0, r, 0, 8, i));
                assertEquals(i, reply[0]);
            }
            assertEquals(300, counter[0]);
            assertTrue(fabric.nic(0).rdmaCounters().retransmissions() > 0);
            assertTrue(fabric.nic(0).rdmaCounters().segmentsDuplicated() > 0);
        }
    }

    @Test
    void shouldGiveUpOnAConnectionThatLosesEverything() {
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).faultPlan(FaultPlan.builder(3).drop(1)
            .build()).build())) {
            final MemoryRegion a = fabric.nic(0).register(new byte[100]);
            final MemoryRegion b = fabric.nic(1).register(new byte[100]);
            assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaWrite(a, 0, 1, b.handle(), b.key(), 0, 100, 5)));
            final Completion c = complete(fabric.nic(0));
            assertEquals(Completion.ERR_RETRY_EXCEEDED, c.status());
            assertEquals(Completion.MAX_ATTEMPTS, fabric.nic(0).rdmaCounters().segmentsLost());
        }
    }

    /**
     * A host waiting in receive for a frame is woken when a NIC writes its memory (its NIC's interrupt), and a write
     * that landed before the call is not missed: receive returns at once, long before its timeout, with no frame.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(60)
    void shouldEndAReceiveWhenANicWritesTheHostsMemory(final boolean writeFirst) throws Exception {
        try (Fabric fabric = fabric(2)) {
            final long[] src = {42};
            final long[] dst = new long[1];
            final MemoryRegion a = fabric.nic(0).register(src);
            final MemoryRegion b = fabric.nic(1).register(dst);
            final CompletableFuture<Frame> received = new CompletableFuture<>();
            final Thread host = new Thread(() -> {
                if (!writeFirst) {
                    // look once as a waiting host does, then wait (the write comes while it waits)
                    assertEquals(0, dst[0]);
                }
                received.complete(fabric.nic(1).receive(TimeUnit.MINUTES.toNanos(10)));
            });
            if (writeFirst) {
                write(fabric, a, b);
                host.start();
            } else {
                host.start();
                while (host.getState() != Thread.State.TIMED_WAITING && host.isAlive()) {
                    Thread.onSpinWait();
                }
                write(fabric, a, b);
            }
            assertEquals(null, received.get(30, TimeUnit.SECONDS), "no frame was sent");
            assertEquals(42, dst[0]);
            host.join();
        }
    }

    /**
     * A NIC message whose handler says it changed no memory (a get, an atomic fetch) does not end the target host's
     * receive, which would otherwise wake that host for every read another PE makes of its memory; one that does not
     * say so still ends it at once.
     */
    @Test
    @Timeout(60)
    void shouldNotEndAReceiveForAHandlerThatChangedNoMemory() {
        try (Fabric fabric = fabric(2)) {
            final long[] target = {7};
            final MemoryRegion t = fabric.nic(1).register(target);
            fabric.nic(1).registerNicHandler(1, m -> {
                m.memoryUnchanged();
                m.replyLong(((long[]) m.region(t.handle(), t.key()).memory())[0]);
            });
            fabric.nic(1).registerNicHandler(2, m -> ((long[]) m.region(t.handle(), t.key()).memory())[0]++);
            final long[] reply = new long[1];
            final MemoryRegion r = fabric.nic(0).register(reply);
            assertEquals(Completion.OK, message(fabric, 1, 1, 0, 0, 0, r, 0, 8, 1));
            assertEquals(7, reply[0]);
            final long waitNs = TimeUnit.MILLISECONDS.toNanos(300);
            final long t0 = System.nanoTime();
            assertEquals(null, fabric.nic(1).receive(waitNs), "no frame was sent");
            final long waited = System.nanoTime() - t0;
            assertTrue(waited >= waitNs, "a read of the host's memory ended its receive after " + waited + " ns");

            assertEquals(Completion.OK, message(fabric, 1, 2, 0, 0, 0, null, 0, 0, 2));
            assertEquals(null, fabric.nic(1).receive(TimeUnit.MINUTES.toNanos(10)), "no frame was sent");
            assertEquals(8, target[0]);
        }
    }

    private static void write(final Fabric fabric, final MemoryRegion a, final MemoryRegion b) {
        assertTrue(fabric.nic(0).post(new WorkDescriptor().rdmaWrite(a, 0, 1, b.handle(), b.key(), 0, 8, 1)));
        assertTrue(complete(fabric.nic(0)).ok());
    }
}
