package org.jhpvm.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A NIC's engine passes between its host and the receiving host that helps it when it stalls. A frame the host
 * queued while a helper still held the engine, after the helper's last look at the send ring, was left to the helper,
 * which let go without looking again: when that was the host's last send (its thread then gone), the frame stayed in
 * the ring and the receiver waited out its whole timeout for it. The contract test's two-sender exchange lost its
 * last frame so about once in 300 runs (a CI run failed on it). Here the exchange runs many times over, on tiny
 * rings so that the senders stall all the time; every frame must arrive, and soon.
 */
class EngineHandOverTest {
    private static final long FRAME_WAIT_NS = TimeUnit.SECONDS.toNanos(3);

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyFrameOfSendersThatStallAndEndArrives() throws InterruptedException {
        exchange(150);
    }

    @Test
    @Tag("soak")
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void everyFrameOfSendersThatStallAndEndArrivesInThousandsOfRuns() throws InterruptedException {
        exchange(3000);
    }

    /** {@code rounds} runs on a shared fabric's partition and as many on a fabric of its own. */
    private static void exchange(final int rounds) throws InterruptedException {
        for (int round = 0; round < rounds; round++) {
            try (SharedMyrinet shared = SharedMyrinet.create(FabricConfig.builder(6).frameBytes(4096).build())) {
                shared.partition(FabricConfig.builder(2).frameBytes(4096).build());
                try (Fabric fabric = shared.partition(config())) {
                    twoSendersToOne(fabric, "shared round " + round);
                }
            }
            try (Fabric fabric = EmulatedMyrinet.create(config())) {
                twoSendersToOne(fabric, "round " + round);
            }
        }
    }

    private static FabricConfig config() {
        return FabricConfig.builder(3).frameBytes(4096).inlineBytes(256).sendRingCapacity(2).receiveRingCapacity(2)
            .build();
    }

    /** NICs 0 and 1 send 5,000 frames each to NIC 2 and end; NIC 2 must get all 10,000, each path in order. */
    private static void twoSendersToOne(final Fabric fabric, final String round) throws InterruptedException {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread[] senders = Frames.startSenders(fabric, 2, 2, 5_000, failure);
        final long[] next = new long[2];
        final Nic receiver = fabric.nic(2);
        for (int i = 0; i < 10_000; i++) {
            final Frame frame = receiver.receive(FRAME_WAIT_NS);
            assertNotNull(frame, round + ": frame " + i + " of 10000 missing after 3 s (senders alive: "
                + senders[0].isAlive() + ", " + senders[1].isAlive() + "; failure=" + failure.get() + ")");
            assertEquals(next[frame.source()]++, frame.getHeaderLong(0), round + ": path order");
            receiver.release(frame);
        }
        for (final Thread t : senders) {
            t.join(10_000);
            assertTrue(!t.isAlive(), round + ": a sender did not end");
        }
        assertEquals(null, failure.get(), round);
    }
}
