package org.jhpvm.fabric;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A partition of a shared emulated Myrinet, beside another job's partition, passes the whole fabric contract; after
 * each test the other job's partition has received nothing and still carries its own traffic.
 */
class SharedMyrinetContractTest extends FabricContractTest {
    private final List<SharedMyrinet> shared = new ArrayList<>();
    private final List<Fabric> neighbours = new ArrayList<>();

    @Override
    protected Fabric fabric(final int nics, final int ring) {
        final SharedMyrinet s = SharedMyrinet.create(FabricConfig.builder(nics + 3).frameBytes(4096).build());
        shared.add(s);
        neighbours.add(s.partition(FabricConfig.builder(2).frameBytes(4096).build()));
        return s.partition(FabricConfig.builder(nics).frameBytes(4096).inlineBytes(256)
            .sendRingCapacity(ring).receiveRingCapacity(ring).build());
    }

    @AfterEach
    void theOtherJobShouldHaveSeenNothingAndStillWork() {
        try {
            for (final Fabric n : neighbours) {
                assertNull(n.nic(0).receive(0), "a frame of the tested job reached the other job's node 0");
                assertNull(n.nic(1).receive(0), "a frame of the tested job reached the other job's node 1");
                assertEquals(0, n.totals().framesReceived());
                Frames.send(n.nic(0), 1, 99, 8);
                assertEquals(99, Frames.receiveTag(n.nic(1)));
            }
        } finally {
            shared.forEach(SharedMyrinet::close);
        }
    }
}
