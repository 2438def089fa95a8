package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

    @Test
    void jobsTakingAndGivingBackNodesFromManyThreadsShouldNeverShareANodeAndGiveEveryOneBack()
        throws InterruptedException {
        // Eight threads take partitions of 1-3 nodes from 12, check that no other open partition holds their nodes
        // and that their NICs talk only among themselves, and close them; a refusal (too few free nodes) is fine.
        try (SharedMyrinet shared = shared(12)) {
            final int threads = 8;
            final CountDownLatch start = new CountDownLatch(1);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final AtomicInteger taken = new AtomicInteger();
            final List<Thread> started = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int n = 1 + t % 3;
                final long tag = t;
                started.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int round = 0; round < 50; round++) {
                            final Fabric f;
                            try {
                                f = shared.partition(config(n));
                            } catch (final IllegalStateException full) {
                                Thread.yield();
                                continue;
                            }
                            taken.incrementAndGet();
                            assertDisjoint(shared.partitions());
                            Frames.send(f.nic(n - 1), 0, tag, 8);
                            assertEquals(tag, Frames.receiveTag(f.nic(0)));
                            f.close();
                        }
                    } catch (final Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            start.countDown();
            for (final Thread t : started) {
                t.join(20_000);
                assertFalse(t.isAlive());
            }
            assertNull(failure.get(), String.valueOf(failure.get()));
            assertTrue(taken.get() > 0);
            assertEquals(12, shared.freeNodes(), "every node given back");
            assertTrue(shared.partitions().stream().noneMatch(SharedMyrinet.Partition::open));
            assertEquals(taken.get(), shared.partitions().size());
            assertEquals(taken.get(), shared.totals().framesReceived());
        }
    }

    /** No two open partitions of a snapshot share a node. */
    private static void assertDisjoint(final List<SharedMyrinet.Partition> snapshot) {
        final boolean[] held = new boolean[64];
        for (final SharedMyrinet.Partition p : snapshot) {
            for (int i = p.firstNode(); p.open() && i < p.firstNode() + p.nodes(); i++) {
                assertFalse(held[i], "node " + i + " held twice: " + snapshot);
                held[i] = true;
            }
        }
    }
}
