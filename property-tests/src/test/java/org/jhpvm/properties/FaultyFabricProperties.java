package org.jhpvm.properties;

import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.LinkDownWindow;
import org.jhpvm.fabric.NicCounters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Under a random fault plan the counters balance and the faults really happened: a plan that injected nothing
 * where missing every frame has a chance under 10^-9 fails the property. Frames that survive on a path keep their order unless the plan reorders or duplicates.
 * The plan's seed, like the traffic, is generated, so jqwik's reported seed replays the faults.
 */
class FaultyFabricProperties {
    /** A scenario and the fault plan to run it under. */
    record Case(Scenario scenario, FaultPlan plan) {
    }

    @Provide
    Arbitrary<Case> faultyTraffic() {
        final Arbitrary<Double> p = Arbitraries.doubles().between(0.02, 0.2);
        final Arbitrary<Double> maybe = Arbitraries.oneOf(Arbitraries.just(0.0), p);
        return Scenario.arbitrary(2, 16, 200, 600).flatMap(scenario -> Combinators.combine(
            Arbitraries.longs(), p, maybe, maybe, maybe, maybe,
            Arbitraries.integers().between(0, scenario.nics() - 1),
            Arbitraries.integers().between(0, 20))
            .as((seed, drop, corrupt, duplicate, reorder, delay, downNic, downFrom) -> new Case(scenario,
                FaultPlan.builder(seed).drop(drop).corrupt(corrupt).duplicate(duplicate).reorder(reorder)
                    .delay(delay, 1_000).receiverStall(delay / 2, 1_000)
                    .linkDown(new LinkDownWindow(downNic, downFrom, downFrom + 3)).build())));
    }

    @Property(tries = 60)
    void countersBalanceAndTheFaultsHappened(@ForAll("faultyTraffic") final Case c) {
        final Scenario scenario = c.scenario();
        try (Fabric fabric = EmulatedMyrinet.create(FabricDeliveryProperties.config(scenario, c.plan()))) {
            final List<Driver.Arrival> arrivals = Driver.run(fabric, scenario);
            final NicCounters t = fabric.totals();
            assertEquals(scenario.messages().size(), t.framesSent());
            assertEquals(t.framesSent() + t.framesDuplicated(), t.framesDelivered() + t.framesDropped(),
                t.toString());
            assertEquals(t.framesDelivered(), t.framesReceived(), t.toString());
            assertEquals(t.framesReceived(), arrivals.size(), "every delivered frame was polled once");
            // Each frame's fate is drawn on its own: a plan may miss every frame by chance (a drop of 0.02 misses
            // 200 frames once in 57). The faults must have happened wherever missing them all is less likely than
            // one in 10^9, which is the case for most plans drawn.
            final FaultPlan plan = c.plan();
            if (Math.pow(1 - plan.drop(), t.framesSent()) < 1e-9) {
                assertTrue(t.framesDropped() > 0, "the plan dropped nothing: " + t);
            }
            final long faults = t.framesDropped() + t.framesCorrupted() + t.framesDuplicated() + t.framesReordered()
                + t.framesDelayed() + t.receiverStalls() + t.linkDownDrops();
            final double clean = (1 - plan.drop()) * (1 - plan.corrupt()) * (1 - plan.duplicate())
                * (1 - plan.reorder());
            if (Math.pow(clean, t.framesSent()) < 1e-9) {
                assertTrue(faults > 0, "the plan injected nothing: " + t);
            }
            if (c.plan().corrupt() > 0 && t.framesCorrupted() > 0) {
                assertTrue(arrivals.stream().anyMatch(a -> !a.intact()), "corruption never reached a receiver");
            }
            if (c.plan().reorder() == 0 && c.plan().duplicate() == 0 && c.plan().corrupt() == 0) {
                assertSurvivorsInOrder(scenario, arrivals);
            }
        }
    }

    /** With only losses and delays, what survives on each path is a subsequence of what was sent, in order. */
    private static void assertSurvivorsInOrder(final Scenario scenario, final List<Driver.Arrival> arrivals) {
        final java.util.Map<Long, List<Long>> perPath = new java.util.HashMap<>();
        for (final Driver.Arrival a : arrivals) {
            assertTrue(a.intact());
            perPath.computeIfAbsent((long) a.src() << 32 | a.dst(), k -> new ArrayList<>()).add(a.index());
        }
        for (final List<Long> indices : perPath.values()) {
            for (int i = 1; i < indices.size(); i++) {
                assertTrue(indices.get(i - 1) < indices.get(i), "path reordered without a reorder fault: " + indices);
            }
        }
        assertTrue(scenario.messages().size() >= arrivals.size());
    }
}
