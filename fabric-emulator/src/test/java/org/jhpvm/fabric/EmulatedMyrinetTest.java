package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The emulated Myrinet passes the fabric contract, on both its copy (small frames) and reference paths. */
class EmulatedMyrinetTest extends FabricContractTest {
    @Override
    protected Fabric fabric(final int nics, final int ring) {
        return EmulatedMyrinet.create(FabricConfig.builder(nics).frameBytes(4096).inlineBytes(256)
            .sendRingCapacity(ring).receiveRingCapacity(ring).build());
    }

    @Test
    void shouldAdvertiseCapabilitiesOfItsFaultPlan() {
        try (Fabric fabric = fabric(2, 4)) {
            assertEquals(new FabricCapabilities(true, true, true, true, false, true), fabric.capabilities());
        }
        final FabricCapabilities faulty = EmulatedMyrinet.capabilities(FaultPlan.builder(1).drop(0.1).reorder(0.1)
            .build());
        assertFalse(faulty.reliable());
        assertFalse(faulty.ordered());
        assertTrue(faulty.flowControlled());
        assertFalse(faulty.buffered(), "the emulator never buffers beyond its rings");
        assertFalse(faulty.endToEndReliable());
    }

    // What the emulator's rings do exactly (the contract only asks for back-pressure without loss).

    @Test
    void shouldHoldFramesBackInItsRingsWhileTheReceiveRingIsFull() {
        try (Fabric fabric = fabric(2, 2)) {
            final Nic sender = fabric.nic(0);
            final Nic receiver = fabric.nic(1);
            for (long tag = 0; tag < 4; tag++) {
                final Frame frame = sender.acquire();
                frame.setDestination(1).setLength(8).putHeaderLong(0, tag);
                assertTrue(sender.trySend(frame));
            }
            // The receive ring holds 2; the other 2 wait in the send ring: back-pressure, nothing lost.
            assertEquals(2, sender.pendingFrames());
            assertTrue(sender.counters().backPressureStalls() > 0);
            assertEquals(2, receiver.counters().framesReceived());
            // The receiver drains; it gives the stalled sender's engine a turn itself (the sender is idle).
            final List<Long> tags = new ArrayList<>();
            final long deadline = System.nanoTime() + Frames.WAIT_NS;
            while (tags.size() < 4 && System.nanoTime() - deadline < 0) {
                final Frame frame = receiver.poll();
                if (frame != null) {
                    tags.add(frame.getHeaderLong(0));
                    receiver.release(frame);
                }
            }
            assertEquals(List.of(0L, 1L, 2L, 3L), tags);
            assertEquals(0, sender.pendingFrames());
        }
    }

    @Test
    void aReceiverHoldingEverySlotShouldSleepWhileASenderWaitsForOneAndGetItsFrameOnceItFreesOne()
        throws InterruptedException {
        // The receiver helps the stalled sender's engine while it waits; that engine, still blocked on the slots the
        // receiver holds, registers as stalled again. Had the registration woken the receiver, its sleep would have
        // been a spin for the whole timeout (it was: 380-500 ms of CPU in a 500 ms wait). A sleeping thread is seen
        // parked; a spinning one, which parks only for an instant at a time, is seen runnable.
        try (Fabric fabric = fabric(2, 4)) {
            final Nic sender = fabric.nic(0);
            final Nic receiver = fabric.nic(1);
            final Frame[] held = new Frame[4];
            for (int i = 0; i <= held.length; i++) {
                sender.send(sender.acquire().setDestination(1).setLength(8).putHeaderLong(0, i));
                if (i < held.length) {
                    held[i] = receiver.receive(Frames.WAIT_NS);
                    assertNotNull(held[i], "frame " + i);
                }
            }
            final AtomicReference<Frame> got = new AtomicReference<>();
            final Thread waiter = new Thread(() -> got.set(receiver.receive(TimeUnit.MILLISECONDS.toNanos(1_500))));
            waiter.start();
            // Until it is first seen parked (it spins and yields for a moment first), at most 5 s.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (waiter.getState() != Thread.State.TIMED_WAITING && waiter.isAlive()
                && System.nanoTime() - deadline < 0) {
                waiter.join(1);
            }
            int looks = 0;
            int parked = 0;
            while (looks < 100 && waiter.isAlive()) {
                final Thread.State state = waiter.getState();
                parked += state == Thread.State.TIMED_WAITING || state == Thread.State.WAITING ? 1 : 0;
                looks++;
                waiter.join(4); // the next look in 4 ms, or at once when its wait has ended
            }
            waiter.join(5_000);
            assertFalse(waiter.isAlive());
            assertNull(got.get(), "every receive slot is held: the fifth frame cannot arrive");
            // 100 looks take 400 ms on a quiet machine; a busy one may give fewer in the 1.5 s wait.
            assertTrue(looks >= 30 && parked >= looks * 8 / 10, "the waiting receiver was seen parked " + parked
                + " times in " + looks + " looks");
            receiver.release(held[0]);
            final Frame fifth = receiver.receive(Frames.WAIT_NS);
            assertNotNull(fifth, "a freed slot lets the stalled frame in");
            assertEquals(4, fifth.getHeaderLong(0));
            receiver.release(fifth);
            for (int i = 1; i < held.length; i++) {
                receiver.release(held[i]);
            }
        }
    }

    @Test
    void shouldReportFullSendRingAsReturnValue() {
        try (Fabric fabric = fabric(2, 1)) {
            final Nic sender = fabric.nic(0);
            assertTrue(sender.trySend(sender.acquire().setDestination(1).setLength(4)));
            assertTrue(sender.trySend(sender.acquire().setDestination(1).setLength(4)));
            final Frame third = sender.acquire().setDestination(1).setLength(4);
            assertFalse(sender.trySend(third), "receive ring 1 and send ring 1 are full");
            assertEquals(FrameDescriptor.STATE_HOST, third.state(), "a refused frame stays the host's");
            assertEquals(2, sender.counters().framesSent());
            sender.release(third);
        }
    }
}

