package org.jhpvm.fabric;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Partitions of one shared emulated Myrinet: numbered from 0 for their jobs, disjoint, isolated, given back. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SharedMyrinetTest {
    private static FabricConfig config(final int nics) {
        return FabricConfig.builder(nics).frameBytes(4096).build();
    }

    private static SharedMyrinet shared(final int nodes) {
        return SharedMyrinet.create(config(nodes));
    }

    @Test
    void shouldNumberEachPartitionFromZeroOnDisjointNodes() {
        try (SharedMyrinet shared = shared(5)) {
            final Fabric a = shared.partition(config(2));
            final Fabric b = shared.partition(config(3));
            assertEquals(2, a.nicCount());
            assertEquals(3, b.nicCount());
            assertEquals(List.of(new SharedMyrinet.Partition("", 0, 2, true),
                new SharedMyrinet.Partition("", 2, 3, true)), shared.partitions());
            assertEquals(0, shared.freeNodes());
            Frames.send(a.nic(0), 1, 11, 8);
            Frames.send(b.nic(2), 0, 22, 8);
            assertEquals(11, Frames.receiveTag(a.nic(1)));
            assertEquals(22, Frames.receiveTag(b.nic(0)));
            // Each job's NIC 0 is its own node: nothing crossed over.
            assertNull(a.nic(0).receive(20_000_000L));
            assertNull(b.nic(1).receive(0));
            assertEquals(2, shared.totals().framesSent());
            assertEquals(2, shared.totals().framesReceived());
        }
    }

    @Test
    void shouldLeaveTheOtherPartitionsRunningWhenOneCloses() {
        try (SharedMyrinet shared = shared(4)) {
            final Fabric a = shared.partition(config(2));
            final Fabric b = shared.partition(config(2));
            Frames.send(a.nic(0), 1, 1, 8);
            assertEquals(1, Frames.receiveTag(a.nic(1)));
            a.close();
            assertTrue(a.isClosed());
            assertThrows(FabricClosedException.class, () -> a.nic(0).acquire());
            assertFalse(b.isClosed());
            Frames.send(b.nic(1), 0, 2, 8);
            assertEquals(2, Frames.receiveTag(b.nic(0)));
            // The closed job's nodes are free again, its counters kept.
            assertEquals(2, shared.freeNodes());
            assertFalse(shared.partitions().get(0).open());
            assertEquals(2, shared.totals().framesSent());
            final Fabric c = shared.partition(config(2));
            assertEquals(new SharedMyrinet.Partition("", 0, 2, true), shared.partitions().get(2));
            c.close();
        }
    }

    @Test
    void shouldRefuseAJobThatDoesNotFitAndTakeNothing() {
        try (SharedMyrinet shared = shared(4)) {
            final Fabric a = shared.partition(config(1));
            shared.partition(config(2));
            a.close();
            // Nodes 0 and 3 are free: two, but not two in a row.
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> shared.partition(config(2)));
            assertTrue(e.getMessage().contains("2 of its 4 nodes are free, and no 2 of them in a row"),
                e.getMessage());
            assertTrue(e.getMessage().contains("held: nodes 1-2"), e.getMessage());
            assertEquals(2, shared.freeNodes());
            assertEquals(2, shared.partitions().size());
            // A job that fits takes the lowest free run.
            shared.partition(config(1));
            assertEquals(new SharedMyrinet.Partition("", 0, 1, true), shared.partitions().get(2));
        }
    }

    @Test
    void shouldTakeSmallerFramesAndRefuseLargerOnesTakingNothing() {
        try (SharedMyrinet shared = shared(4)) {
            // The switch carries 4096 + 32 bytes: one header byte more does not fit.
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> shared.partition(FabricConfig.builder(2).frameBytes(4096).headerBytes(33).build()));
            assertTrue(e.getMessage().contains("frames of 4096 bytes with 33 header bytes")
                && e.getMessage().contains("carries at most 4128"), e.getMessage());
            assertEquals(4, shared.freeNodes());
            assertTrue(shared.partitions().isEmpty());
            try (Fabric small = shared.partition(FabricConfig.builder(2).frameBytes(1024).headerBytes(16).build())) {
                assertEquals(1024, small.frameBytes());
                Frames.send(small.nic(0), 1, 5, 1024);
                assertEquals(5, Frames.receiveTag(small.nic(1)));
            }
        }
    }

    @Test
    void shouldMakePartitionsOfTheFabricsCreatedInsideShare() throws InterruptedException {
        try (SharedMyrinet shared = shared(6)) {
            final Fabric mine = shared.share("job a", () -> EmulatedMyrinet.create(config(2)));
            final AtomicReference<Fabric> child = new AtomicReference<>();
            shared.share("job b", () -> {
                final Thread t = Thread.ofPlatform().start(() -> child.set(EmulatedMyrinet.create(config(3))));
                try {
                    t.join();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return null;
            });
            assertEquals(List.of(new SharedMyrinet.Partition("job a", 0, 2, true),
                new SharedMyrinet.Partition("job b", 2, 3, true)), shared.partitions());
            assertEquals(3, child.get().nicCount());
            // Outside share a fabric stands alone.
            try (Fabric alone = EmulatedMyrinet.create(config(4))) {
                assertEquals(4, alone.nicCount());
                assertEquals(2, shared.partitions().size());
            }
            mine.close();
            child.get().close();
            assertEquals(6, shared.freeNodes());
        }
    }

    @Test
    void shouldEndWaitsOnEveryPartitionWhenClosed() throws InterruptedException {
        final SharedMyrinet shared = shared(4);
        final Fabric a = shared.partition(config(2));
        final AtomicReference<Throwable> ended = new AtomicReference<>();
        final Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                a.nic(1).receive(Frames.WAIT_NS);
            } catch (Throwable t) {
                ended.set(t);
            }
        });
        Thread.sleep(50);
        shared.close();
        waiter.join(5_000);
        assertFalse(waiter.isAlive(), "a receive on a partition outlived the shared fabric's close");
        assertInstanceOf(FabricClosedException.class, ended.get());
        assertTrue(a.isClosed());
        assertEquals(4, shared.freeNodes());
        assertThrows(IllegalStateException.class, () -> shared.partition(config(1)));
    }
}
