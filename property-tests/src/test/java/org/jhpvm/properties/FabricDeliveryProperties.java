package org.jhpvm.properties;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Without faults the emulated Myrinet delivers every frame exactly once, in order per path, byte-identical, for
 * random traffic among 2..64 NICs and random ring capacities down to 1. jqwik prints the seed of a failing run;
 * {@code @Property(seed = "...")} replays it.
 */
class FabricDeliveryProperties {
    @Provide
    Arbitrary<Scenario> traffic() {
        return Scenario.arbitrary(2, 64, 0, 400);
    }

    @Provide
    Arbitrary<Scenario> smallTraffic() {
        return Scenario.arbitrary(2, 8, 0, 3000);
    }

    static FabricConfig config(final Scenario s, final org.jhpvm.fabric.FaultPlan plan) {
        return FabricConfig.builder(s.nics()).frameBytes(s.frameBytes()).inlineBytes(s.inlineBytes())
            .headerBytes(16).sendRingCapacity(s.sendRing()).receiveRingCapacity(s.receiveRing())
            .maxHoldNs(20_000).faultPlan(plan).build();
    }

    @Property(tries = 150)
    void everyFrameArrivesExactlyOnceInOrderAndIntact(@ForAll("traffic") final Scenario scenario) {
        try (Fabric fabric = EmulatedMyrinet.create(config(scenario, org.jhpvm.fabric.FaultPlan.none()))) {
            final List<Driver.Arrival> arrivals = Driver.run(fabric, scenario);
            assertPathsMatch(scenario, arrivals);
            final NicCounters t = fabric.totals();
            assertEquals(scenario.messages().size(), t.framesSent());
            assertEquals(t.framesSent(), t.framesDelivered());
            assertEquals(t.framesDelivered(), t.framesReceived());
        }
    }

    /** Per path, the arrivals are exactly the messages sent on it, in order, intact. */
    static void assertPathsMatch(final Scenario scenario, final List<Driver.Arrival> arrivals) {
        final Map<Long, List<Long>> expected = new HashMap<>();
        for (int m = 0; m < scenario.messages().size(); m++) {
            final Scenario.Message msg = scenario.messages().get(m);
            expected.computeIfAbsent(path(msg.src(), msg.dst()), k -> new ArrayList<>()).add((long) m);
        }
        final Map<Long, List<Long>> actual = new HashMap<>();
        for (final Driver.Arrival a : arrivals) {
            assertTrue(a.intact(), "payload of message " + a.index() + " damaged");
            final Scenario.Message msg = scenario.messages().get((int) a.index());
            assertEquals(msg.src(), a.src(), "source of message " + a.index());
            assertEquals(msg.dst(), a.dst(), "destination of message " + a.index());
            actual.computeIfAbsent(path(a.src(), a.dst()), k -> new ArrayList<>()).add(a.index());
        }
        assertEquals(expected, actual);
    }

    private static long path(final int src, final int dst) {
        return (long) src << 32 | dst;
    }

    /** The same property with one thread per NIC, all sending and draining at once. */
    @Property(tries = 15)
    void concurrentTrafficArrivesExactlyOnceInOrder(@ForAll("smallTraffic") final Scenario scenario)
        throws InterruptedException {
        try (Fabric fabric = EmulatedMyrinet.create(config(scenario, org.jhpvm.fabric.FaultPlan.none()))) {
            final int n = scenario.nics();
            final List<List<Driver.Arrival>> perNic = new ArrayList<>();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final long expectedTotal = scenario.messages().size();
            final java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
            final Thread[] threads = new Thread[n];
            for (int i = 0; i < n; i++) {
                final List<Driver.Arrival> mine = new ArrayList<>();
                perNic.add(mine);
                final Nic nic = fabric.nic(i);
                final List<Integer> outbox = new ArrayList<>();
                for (int m = 0; m < scenario.messages().size(); m++) {
                    if (scenario.messages().get(m).src() == i) {
                        outbox.add(m);
                    }
                }
                threads[i] = new Thread(() -> {
                    try {
                        final long deadline = System.nanoTime() + Driver.DEADLINE_NS;
                        int next = 0;
                        while (next < outbox.size() || received.get() < expectedTotal) {
                            if (next < outbox.size()) {
                                final Frame frame = nic.tryAcquire();
                                if (frame != null) {
                                    final int index = outbox.get(next);
                                    final Scenario.Message m = scenario.messages().get(index);
                                    frame.setDestination(m.dst()).setLength(m.length()).putHeaderLong(0, index)
                                        .putHeaderLong(8, ~(long) index);
                                    for (int b = 0; b < m.length(); b++) {
                                        frame.array()[frame.payloadOffset() + b] = Driver.payloadByte(index, b);
                                    }
                                    if (nic.trySend(frame)) {
                                        next++;
                                    } else {
                                        nic.release(frame);
                                    }
                                }
                            }
                            received.addAndGet(Driver.pollSome(nic, mine, 16));
                            nic.progress();
                            if (System.nanoTime() - deadline > 0) {
                                throw new AssertionError("NIC " + nic.id() + " timed out: " + fabric.totals());
                            }
                            Thread.onSpinWait();
                        }
                    } catch (final Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
                threads[i].start();
            }
            for (final Thread t : threads) {
                t.join(TimeUnit.NANOSECONDS.toMillis(Driver.DEADLINE_NS) + 5_000);
            }
            assertNull(failure.get());
            final List<Driver.Arrival> all = new ArrayList<>();
            perNic.forEach(all::addAll);
            assertPathsMatch(scenario, all);
        }
    }
}
