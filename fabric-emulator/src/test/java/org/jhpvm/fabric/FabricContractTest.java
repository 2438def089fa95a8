package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fabric SPI's contract: what every {@link Fabric} implementation must do, whatever carries its frames. One
 * subclass per implementation supplies the fabric (JCTools' queue sanity suites, UCX's tests per transport); the
 * emulated Myrinet's is {@link EmulatedMyrinetTest}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
abstract class FabricContractTest {
    /**
     * @param nics number of NICs
     * @param ring send and receive ring capacity
     * @return a new open fabric without faults, frames of 4096 payload bytes and a header area of at least 16
     */
    protected abstract Fabric fabric(int nics, int ring);

    @ParameterizedTest
    @ValueSource(ints = {0, 8, 256, 257, 4096})
    void shouldDeliverSourceLengthHeaderAndPayloadIntact(final int length) {
        try (Fabric fabric = fabric(2, 4)) {
            Frames.send(fabric.nic(0), 1, 77, length);
            final Frame frame = fabric.nic(1).receive(Frames.WAIT_NS);
            assertNotNull(frame);
            assertEquals(0, frame.source());
            assertEquals(1, frame.destination());
            assertEquals(length, frame.length());
            assertEquals(77, frame.getHeaderLong(0));
            assertTrue(Frames.intact(frame));
            fabric.nic(1).release(frame);
            final NicCounters c = fabric.nic(0).counters();
            assertEquals(1, c.framesSent());
            assertEquals(length, c.bytesSent());
            assertEquals(1, c.framesDelivered());
            assertEquals(1, fabric.nic(1).counters().framesReceived());
            assertEquals(length, fabric.nic(1).counters().bytesReceived());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8})
    void shouldKeepOrderOnAPathWhateverTheRingCapacity(final int ring) {
        try (Fabric fabric = fabric(3, ring)) {
            final List<Long> expected = new ArrayList<>();
            for (long tag = 0; tag < 200; tag++) {
                final int length = tag % 3 == 0 ? 1000 : 16; // mix the copy and the by-reference paths
                sendOrDrain(fabric, 0, 2, tag, length);
                expected.add(tag);
            }
            final List<List<Long>> received = Frames.drainAll(fabric);
            received.get(2).addAll(0, early);
            assertEquals(expected, received.get(2));
        }
    }

    private final List<Long> early = new ArrayList<>();

    /** Sends from one thread; while the sender's rings are full, drains the receiver (as a real host would). */
    private void sendOrDrain(final Fabric fabric, final int src, final int dst, final long tag, final int length) {
        final Nic nic = fabric.nic(src);
        final long deadline = System.nanoTime() + Frames.WAIT_NS;
        Frame frame;
        while ((frame = nic.tryAcquire()) == null) {
            drainInto(fabric.nic(dst));
            assertTrue(System.nanoTime() - deadline < 0, "no frame became free");
        }
        frame.setDestination(dst).setLength(length).putHeaderLong(0, tag);
        while (!nic.trySend(frame)) {
            drainInto(fabric.nic(dst));
            assertTrue(System.nanoTime() - deadline < 0, "send did not complete");
        }
    }

    private void drainInto(final Nic receiver) {
        Frame in;
        while ((in = receiver.poll()) != null) {
            early.add(in.getHeaderLong(0));
            receiver.release(in);
        }
    }

    @Test
    void shouldHoldFramesBackWhenTheReceiverDoesNotPollAndLoseNothing() {
        try (Fabric fabric = fabric(2, 2)) {
            final Nic sender = fabric.nic(0);
            final Nic receiver = fabric.nic(1);
            // Send until the fabric refuses (its rings, or its transport's window, are full): back-pressure.
            long tag = 0;
            Frame refused = null;
            while (refused == null) {
                assertTrue(tag < 10_000_000, "the fabric never pushed back");
                final Frame frame = sender.tryAcquire();
                if (frame == null) {
                    break; // every frame of the pool is in flight: a refusal by another name
                }
                frame.setDestination(1).setLength(8).putHeaderLong(0, tag);
                if (sender.trySend(frame)) {
                    tag++;
                } else {
                    refused = frame;
                }
            }
            if (refused != null) {
                assertEquals(FrameDescriptor.STATE_HOST, refused.state(), "a refused frame stays the host's");
            }
            // The receiver drains; every frame arrives, in order; the refused one goes through afterwards.
            final long deadline = System.nanoTime() + Frames.WAIT_NS;
            long next = 0;
            boolean refusedSent = refused == null;
            while (next < tag + (refused == null ? 0 : 1) && System.nanoTime() - deadline < 0) {
                if (!refusedSent && sender.trySend(refused)) {
                    refusedSent = true;
                }
                sender.progress();
                final Frame frame = receiver.poll();
                if (frame != null) {
                    assertEquals(next++, frame.getHeaderLong(0));
                    receiver.release(frame);
                }
            }
            assertEquals(tag + (refused == null ? 0 : 1), next, "frames lost or late");
            assertTrue(sender.counters().backPressureStalls() > 0 || refused == null);
        }
    }

    @Test
    void shouldReportItsBufferingSoTheLayerAboveCanSizeItsOwn() {
        try (Fabric fabric = fabric(2, 8)) {
            assertEquals(8, fabric.receiveRingCapacity());
            assertTrue(fabric.poolFrames() >= 8, "a pool smaller than a ring: " + fabric.poolFrames());
            int acquired = 0;
            while (fabric.nic(0).tryAcquire() != null) {
                acquired++;
            }
            assertEquals(fabric.poolFrames(), acquired, "poolFrames() is what the pool hands out");
        }
    }

    @Test
    void shouldRejectFrameLargerThanTheFrameSizeAndSendNothing() {
        try (Fabric fabric = fabric(2, 4)) {
            final Nic nic = fabric.nic(0);
            final Frame frame = nic.acquire().setDestination(1);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> frame.setLength(4097));
            assertTrue(e.getMessage().contains("length=4097 exceeds frameBytes=4096"), e.getMessage());
            // Bypass the setter through the array: the NIC checks again on send.
            java.nio.ByteBuffer.wrap(frame.array()).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putInt(frame.frameOffset() + FrameDescriptor.LENGTH_OFFSET, 5000);
            assertThrows(IllegalArgumentException.class, () -> nic.trySend(frame));
            assertNothingSent(fabric, frame);
        }
    }

    @Test
    void shouldRejectUnknownDestinationAndSendNothing() {
        try (Fabric fabric = fabric(2, 4)) {
            final Nic nic = fabric.nic(0);
            for (final int dst : new int[] {2, -1, Integer.MAX_VALUE}) {
                final Frame frame = nic.acquire().setDestination(dst).setLength(1);
                final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> nic.trySend(frame));
                assertTrue(e.getMessage().contains("destination=" + dst), e.getMessage());
                assertNothingSent(fabric, frame);
                nic.release(frame);
            }
        }
    }

    private static void assertNothingSent(final Fabric fabric, final Frame frame) {
        assertEquals(FrameDescriptor.STATE_HOST, frame.state());
        assertEquals(NicCounters.ZERO, fabric.totals());
        assertEquals(0, fabric.nic(0).pendingFrames());
        assertNull(fabric.nic(1).poll());
    }

    @Test
    void shouldRejectFramesOfAnotherNicOrFabricAndDoubleSends() {
        try (Fabric fabric = fabric(2, 4); Fabric other = fabric(2, 4)) {
            final Frame foreign = other.nic(0).acquire().setDestination(1).setLength(1);
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(0).trySend(foreign));
            final Frame ofNic1 = fabric.nic(1).acquire().setDestination(0).setLength(1);
            assertThrows(IllegalArgumentException.class, () -> fabric.nic(0).trySend(ofNic1));
            final Frame frame = fabric.nic(0).acquire().setDestination(1).setLength(1);
            fabric.nic(0).send(frame);
            assertThrows(IllegalStateException.class, () -> fabric.nic(0).trySend(frame));
            assertEquals(1, fabric.totals().framesSent());
        }
    }

    @Test
    void shouldRejectDoubleReleaseAndReleaseThroughTheWrongNic() {
        try (Fabric fabric = fabric(3, 4)) {
            for (final int length : new int[] {8, 1000}) {
                Frames.send(fabric.nic(0), 1, 5, length);
                final Frame frame = fabric.nic(1).receive(Frames.WAIT_NS);
                assertNotNull(frame);
                assertThrows(IllegalArgumentException.class, () -> fabric.nic(2).release(frame));
                fabric.nic(1).release(frame);
                assertThrows(IllegalStateException.class, () -> fabric.nic(1).release(frame));
                fabric.nic(1).progress(); // the deferred hand-back happens here
                assertThrows(IllegalStateException.class, () -> fabric.nic(1).release(frame));
            }
        }
    }

    @Test
    void shouldNotRunOutOfFramesWhenFramesAreReleased() {
        try (Fabric fabric = fabric(2, 2)) {
            for (long tag = 0; tag < 10_000; tag++) {
                Frames.send(fabric.nic(0), 1, tag, (int) (tag % 600));
                assertEquals(tag, Frames.receiveTag(fabric.nic(1)));
            }
        }
    }

    @Test
    void shouldDeliverToSelf() {
        try (Fabric fabric = fabric(1, 2)) {
            Frames.send(fabric.nic(0), 0, 9, 300);
            assertEquals(9, Frames.receiveTag(fabric.nic(0)));
        }
    }

    @Test
    void shouldRejectEveryCallOnAClosedFabric() {
        final Fabric fabric = fabric(2, 4);
        final Frame frame = fabric.nic(0).acquire().setDestination(1).setLength(1);
        fabric.close();
        fabric.close(); // idempotent
        assertTrue(fabric.isClosed());
        assertThrows(FabricClosedException.class, () -> fabric.nic(0).trySend(frame));
        assertThrows(FabricClosedException.class, () -> fabric.nic(0).tryAcquire());
        assertThrows(FabricClosedException.class, () -> fabric.nic(1).poll());
        assertThrows(FabricClosedException.class, () -> fabric.nic(1).progress());
        assertEquals(0, fabric.totals().framesSent());
    }

    @Test
    void closingShouldReleaseBlockedReceiversAndSendersPromptly() throws InterruptedException {
        final Fabric fabric = fabric(3, 1);
        final CountDownLatch blocked = new CountDownLatch(2);
        final AtomicReference<Throwable> receiverOutcome = new AtomicReference<>();
        final AtomicReference<Throwable> senderOutcome = new AtomicReference<>();
        final java.util.concurrent.atomic.AtomicLong lastReleaseNs = new java.util.concurrent.atomic.AtomicLong();
        final Thread receiver = new Thread(() -> {
            blocked.countDown();
            try {
                fabric.nic(2).receive(TimeUnit.SECONDS.toNanos(60));
            } catch (final Throwable t) {
                lastReleaseNs.accumulateAndGet(System.nanoTime(), Math::max);
                receiverOutcome.set(t);
            }
        });
        final Thread sender = new Thread(() -> {
            final Nic nic = fabric.nic(0);
            try {
                // Nobody drains NIC 1: once its rings (or the transport's window) are full, send() waits.
                for (int i = 0; ; i++) {
                    if (i == 2) {
                        blocked.countDown();
                    }
                    nic.send(nic.acquire().setDestination(1).setLength(1));
                }
            } catch (final Throwable t) {
                lastReleaseNs.accumulateAndGet(System.nanoTime(), Math::max);
                senderOutcome.set(t);
            }
        });
        receiver.start();
        sender.start();
        assertTrue(blocked.await(5, TimeUnit.SECONDS));
        assertTrue(waitUntilWaiting(sender) && waitUntilWaiting(receiver), "threads did not start waiting");
        final long t0 = System.nanoTime();
        fabric.close();
        receiver.join(15_000);
        sender.join(15_000);
        assertFalse(receiver.isAlive() || sender.isAlive(), "a blocked call outlived the fabric");
        // From the start of close to the moment the last blocked call threw: not the rest of a transport's close
        // (an Aeron cluster waits for its peers to leave). 1 s is what a user sees on a quiet machine; 10 s allows for
        // a busy one.
        final long waitedMs = TimeUnit.NANOSECONDS.toMillis(lastReleaseNs.get() - t0);
        assertTrue(waitedMs < 10_000, "close took " + waitedMs + " ms to release the waiters");
        assertTrue(receiverOutcome.get() instanceof FabricClosedException, String.valueOf(receiverOutcome.get()));
        assertTrue(senderOutcome.get() instanceof FabricClosedException, String.valueOf(senderOutcome.get()));
    }

    /** Bounded wait until a thread has been seen blocked or parked (spinning counts as waiting too). */
    private static boolean waitUntilWaiting(final Thread thread) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() - deadline < 0) {
            final Thread.State state = thread.getState();
            if (state == Thread.State.TIMED_WAITING || state == Thread.State.WAITING) {
                return true;
            }
            thread.join(10);
        }
        return thread.isAlive();
    }

    @Test
    void aDeliveryShouldWakeAReceiverAsleepInTheNicWhateverTheMomentItArrives() throws InterruptedException {
        // A receiver waits with a long timeout; frames arrive at random moments around the time it goes to sleep
        // (at once, while it spins, while it parks). A lost wake-up would hold one receive for 60 s.
        try (Fabric fabric = fabric(2, 4)) {
            final int rounds = 400;
            final AtomicReference<Throwable> outcome = new AtomicReference<>();
            final CountDownLatch[] ready = new CountDownLatch[rounds];
            for (int r = 0; r < rounds; r++) {
                ready[r] = new CountDownLatch(1);
            }
            final Thread receiver = new Thread(() -> {
                try {
                    final Nic nic = fabric.nic(1);
                    for (int r = 0; r < rounds; r++) {
                        ready[r].countDown();
                        final Frame f = nic.receive(TimeUnit.SECONDS.toNanos(60));
                        if (f == null) {
                            throw new AssertionError("round " + r + ": no frame within 60 s");
                        }
                        nic.release(f);
                    }
                } catch (final Throwable t) {
                    outcome.set(t);
                }
            });
            receiver.start();
            final java.util.Random random = new java.util.Random(7);
            final Nic sender = fabric.nic(0);
            final long t0 = System.nanoTime();
            for (int r = 0; r < rounds; r++) {
                assertTrue(ready[r].await(60, TimeUnit.SECONDS), "round " + r);
                // Not waits for a condition: pauses of random length put the delivery at random points of the
                // receiver's way to sleep, which is what is tested.
                final int pause = random.nextInt(4);
                if (pause == 1) {
                    Thread.onSpinWait();
                } else if (pause == 2) {
                    Thread.sleep(0, random.nextInt(200_000));
                } else if (pause == 3) {
                    Thread.sleep(1 + random.nextInt(3));
                }
                sender.send(sender.acquire().setDestination(1).setLength(8));
            }
            receiver.join(120_000);
            assertFalse(receiver.isAlive(), "the receiver is still waiting");
            assertNull(outcome.get(), String.valueOf(outcome.get()));
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(60), "a wake-up was lost");
        }
    }

    @Test
    void interruptShouldEndAWait() throws InterruptedException {
        try (Fabric fabric = fabric(2, 4)) {
            final AtomicReference<Throwable> outcome = new AtomicReference<>();
            final Thread waiter = new Thread(() -> {
                try {
                    fabric.nic(1).receive(TimeUnit.SECONDS.toNanos(60));
                } catch (final Throwable t) {
                    outcome.set(t);
                }
            });
            waiter.start();
            waitUntilWaiting(waiter);
            waiter.interrupt();
            waiter.join(5_000);
            assertFalse(waiter.isAlive());
            assertTrue(outcome.get() instanceof NicInterruptedException, String.valueOf(outcome.get()));
        }
    }

    @Test
    void receiveShouldReturnNullOnTimeout() {
        try (Fabric fabric = fabric(2, 4)) {
            final long t0 = System.nanoTime();
            assertNull(fabric.nic(1).receive(TimeUnit.MILLISECONDS.toNanos(20)));
            assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    @Test
    void framesFromTwoSendersShouldInterleaveButKeepEachPathInOrder() throws InterruptedException {
        try (Fabric fabric = fabric(3, 2)) {
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread[] senders = Frames.startSenders(fabric, 2, 2, 5_000, failure);
            final long[] next = new long[2];
            final Nic receiver = fabric.nic(2);
            for (int i = 0; i < 10_000; i++) {
                final Frame frame = receiver.receive(Frames.WAIT_NS);
                assertNotNull(frame, "frame " + i + " missing; failure=" + failure.get());
                assertTrue(Frames.intact(frame));
                assertEquals(next[frame.source()]++, frame.getHeaderLong(0));
                receiver.release(frame);
            }
            for (final Thread t : senders) {
                t.join(5_000);
            }
            assertNull(failure.get());
            assertArrayEquals(new long[] {5_000, 5_000}, next);
        }
    }
}
