package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The faults really happen to the frames, as the plan decides, and the counters say so. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultInjectionTest {
    private static Fabric fabric(final int nics, final FaultPlan plan) {
        return EmulatedMyrinet.create(FabricConfig.builder(nics).frameBytes(2048).inlineBytes(512)
            .sendRingCapacity(8).receiveRingCapacity(8).maxHoldNs(2_000_000).faultPlan(plan).build());
    }

    /** Sends frames 0..count-1 from NIC 0 to NIC 1 on one thread, draining as it goes; returns what arrived. */
    private static List<long[]> exchange(final Fabric fabric, final int count, final int length) {
        final List<long[]> arrived = new ArrayList<>();
        final Nic sender = fabric.nic(0);
        final Nic receiver = fabric.nic(1);
        final long deadline = System.nanoTime() + Frames.WAIT_NS;
        for (long tag = 0; tag < count; tag++) {
            Frame frame;
            while ((frame = sender.tryAcquire()) == null) {
                collect(receiver, arrived);
                assertTrue(System.nanoTime() - deadline < 0);
            }
            frame.setDestination(1).setLength(length).putHeaderLong(0, tag);
            for (int i = 0; i < length; i++) {
                frame.array()[frame.payloadOffset() + i] = Frames.payloadByte(tag, i);
            }
            while (!sender.trySend(frame)) {
                collect(receiver, arrived);
                assertTrue(System.nanoTime() - deadline < 0);
            }
            collect(receiver, arrived);
        }
        while (sender.pendingFrames() > 0) {
            sender.progress();
            collect(receiver, arrived);
            assertTrue(System.nanoTime() - deadline < 0, "frames stuck in flight: " + sender.pendingFrames());
        }
        collect(receiver, arrived);
        return arrived;
    }

    /** Records (tag, intact?) of each arriving frame. */
    private static void collect(final Nic receiver, final List<long[]> arrived) {
        Frame frame;
        while ((frame = receiver.poll()) != null) {
            arrived.add(new long[] {frame.getHeaderLong(0), Frames.intact(frame) ? 1 : 0});
            receiver.release(frame);
        }
    }

    private static void assertBalanced(final Fabric fabric) {
        final NicCounters t = fabric.totals();
        assertEquals(t.framesSent() + t.framesDuplicated(), t.framesDelivered() + t.framesDropped(), t.toString());
        assertEquals(t.framesDelivered(), t.framesReceived(), t.toString());
    }

    @Test
    void dropShouldLoseExactlyTheFramesThePlanPicks() {
        final FaultPlan plan = FaultPlan.builder(5).drop(0.2).build();
        try (Fabric fabric = fabric(2, plan)) {
            final List<long[]> arrived = exchange(fabric, 1000, 100);
            final List<Long> expected = new ArrayList<>();
            for (long n = 0; n < 1000; n++) {
                if ((plan.decide(0, 1, n, 0) & FaultPlan.DROP) == 0) {
                    expected.add(n);
                }
            }
            assertEquals(expected, arrived.stream().map(a -> a[0]).toList());
            assertEquals(1000 - expected.size(), fabric.totals().framesDropped());
            assertBalanced(fabric);
        }
    }

    @Test
    void corruptionShouldFlipRealBitsThatTheReceiverCanSee() {
        final FaultPlan plan = FaultPlan.builder(9).corrupt(1.0).build();
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).frameBytes(2048).headerBytes(0)
            .faultPlan(plan).build())) {
            // No header: every flip lands in the payload, so every frame arrives damaged.
            final Nic sender = fabric.nic(0);
            for (int length : new int[] {64, 1500}) {
                final Frame frame = sender.acquire().setDestination(1).setLength(length);
                final byte[] original = new byte[length];
                for (int i = 0; i < length; i++) {
                    original[i] = (byte) i;
                }
                frame.putPayload(0, original, 0, length);
                sender.send(frame);
                final Frame got = fabric.nic(1).receive(Frames.WAIT_NS);
                int flipped = 0;
                for (int i = 0; i < length; i++) {
                    flipped += Integer.bitCount((got.array()[got.payloadOffset() + i] ^ original[i]) & 0xFF);
                }
                assertTrue(flipped >= 1 && flipped <= 3, "flipped " + flipped + " bits");
                assertEquals(0, got.source(), "the fabric header is never corrupted");
                assertEquals(length, got.length());
                fabric.nic(1).release(got);
            }
            assertEquals(2, fabric.totals().framesCorrupted());
        }
    }

    @Test
    void duplicateShouldDeliverEveryFrameTwiceIntact() {
        try (Fabric fabric = fabric(2, FaultPlan.builder(1).duplicate(1.0).build())) {
            final List<long[]> arrived = exchange(fabric, 300, 700);
            assertEquals(600, arrived.size());
            for (int i = 0; i < 300; i++) {
                assertEquals(i, arrived.get(2 * i)[0]);
                assertEquals(i, arrived.get(2 * i + 1)[0]);
                assertEquals(1, arrived.get(2 * i)[1]);
                assertEquals(1, arrived.get(2 * i + 1)[1]);
            }
            assertEquals(300, fabric.totals().framesDuplicated());
            assertBalanced(fabric);
        }
    }

    @Test
    void reorderShouldLetALaterFrameOvertake() {
        try (Fabric fabric = fabric(2, FaultPlan.builder(1).reorder(0.3).build())) {
            final List<long[]> arrived = exchange(fabric, 1000, 32);
            final List<Long> tags = arrived.stream().map(a -> a[0]).toList();
            assertEquals(1000, tags.size());
            assertEquals(1000, tags.stream().distinct().count(), "reordering neither loses nor duplicates");
            int inversions = 0;
            for (int i = 1; i < tags.size(); i++) {
                inversions += tags.get(i) < tags.get(i - 1) ? 1 : 0;
            }
            assertTrue(inversions > 50, "only " + inversions + " inversions");
            assertEquals(inversions, fabric.totals().framesReordered());
            assertBalanced(fabric);
        }
    }

    @Test
    void linkDownShouldLoseTheWindowOnEveryPathOfTheNic() {
        final FaultPlan plan = FaultPlan.builder(1).linkDown(new LinkDownWindow(1, 100, 150)).build();
        try (Fabric fabric = fabric(3, plan)) {
            final List<long[]> arrived = exchange(fabric, 300, 16);
            assertEquals(250, arrived.size());
            assertTrue(arrived.stream().noneMatch(a -> a[0] >= 100 && a[0] < 150));
            assertEquals(50, fabric.totals().linkDownDrops());
            assertEquals(50, fabric.totals().framesDropped());
        }
    }

    @Test
    void delayAndReceiverStallsShouldSlowFramesDownButLoseNothing() {
        final FaultPlan plan = FaultPlan.builder(2).delay(0.05, 200_000).receiverStall(0.05, 200_000).build();
        try (Fabric fabric = fabric(2, plan)) {
            final long t0 = System.nanoTime();
            final List<long[]> arrived = exchange(fabric, 400, 64);
            final long elapsedNs = System.nanoTime() - t0;
            assertEquals(400, arrived.size());
            for (int i = 0; i < 400; i++) {
                assertEquals(i, arrived.get(i)[0], "delays keep the path in order");
            }
            final NicCounters t = fabric.totals();
            assertTrue(t.framesDelayed() > 0 && t.receiverStalls() > 0, t.toString());
            assertTrue(elapsedNs > t.framesDelayed() * 200_000, "delays took effect");
        }
    }

    @Test
    void theSameSeedShouldReplayTheSameFaults() {
        // Without reordering the whole arrival sequence replays, bit for bit.
        assertReplays(FaultPlan.builder(4).drop(0.05).corrupt(0.05).duplicate(0.05).build(), true);
        // A reorder decision replays too, but whether the held frame is overtaken or times out depends on timing:
        // the same frames arrive, the same ones damaged, perhaps in another order.
        assertReplays(FaultPlan.builder(4).drop(0.05).corrupt(0.05).duplicate(0.05).reorder(0.05).build(), false);
    }

    private static void assertReplays(final FaultPlan plan, final boolean sameOrder) {
        final List<String> first;
        final NicCounters firstCounters;
        try (Fabric fabric = fabric(2, plan)) {
            first = describe(exchange(fabric, 2000, 300), sameOrder);
            firstCounters = fabric.totals();
        }
        try (Fabric fabric = fabric(2, plan)) {
            assertEquals(first, describe(exchange(fabric, 2000, 300), sameOrder));
            final NicCounters t = fabric.totals();
            assertEquals(firstCounters.framesDropped(), t.framesDropped());
            assertEquals(firstCounters.framesCorrupted(), t.framesCorrupted());
            assertEquals(firstCounters.framesDuplicated(), t.framesDuplicated());
        }
        final FaultPlan other = new FaultPlan(plan.seed() + 1, plan.drop(), plan.corrupt(), plan.duplicate(),
            plan.reorder(), plan.delay(), plan.delayNs(), plan.stall(), plan.stallNs(), plan.linkDown());
        try (Fabric fabric = fabric(2, other)) {
            assertNotEquals(first, describe(exchange(fabric, 2000, 300), sameOrder), "another seed, other faults");
        }
    }

    private static List<String> describe(final List<long[]> arrivals, final boolean sameOrder) {
        final List<String> lines = new ArrayList<>();
        for (final long[] a : arrivals) {
            lines.add(a[0] + (a[1] == 1 ? "" : " damaged"));
        }
        if (!sameOrder) {
            lines.sort(null);
        }
        return lines;
    }
}
