package org.jhpvm.apps;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fabric's data path allocates nothing: frames, slots and queues are all made up front. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DataPathAllocationTest {
    private static final int ROUNDS = 200_000;

    @Test
    void sendPollAndReleaseShouldNotAllocate() {
        assertNoAllocation(FaultPlan.none());
    }

    @Test
    void theFaultPathShouldNotAllocateEither() {
        assertNoAllocation(FaultPlan.builder(1).drop(0.05).corrupt(0.05).duplicate(0.05).reorder(0.05).build());
    }

    private static void assertNoAllocation(final FaultPlan plan) {
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).frameBytes(2048).faultPlan(plan)
            .build())) {
            final Nic a = fabric.nic(0);
            final Nic b = fabric.nic(1);
            exchange(a, b, ROUNDS); // warm up: JIT, and the fault plan's per-path map gets its entry
            final long before = ThreadAllocation.bytes();
            final long received = exchange(a, b, ROUNDS);
            final long allocated = ThreadAllocation.bytes() - before;
            assertTrue(received > ROUNDS / 2, "frames arrived: " + received);
            // A few hundred bytes of slack for the measuring itself; one object per frame would be megabytes.
            assertTrue(allocated < 4096, allocated + " bytes allocated for " + ROUNDS + " frames");
            assertEquals(0, a.pendingFrames());
        }
    }

    /** Sends rounds frames (small and large alternately) from a to b on this thread; returns frames received. */
    private static long exchange(final Nic a, final Nic b, final int rounds) {
        long received = 0;
        for (int i = 0; i < rounds; i++) {
            Frame frame;
            while ((frame = a.tryAcquire()) == null) {
                received += drain(b);
            }
            frame.setDestination(1).setLength((i & 1) == 0 ? 8 : 1500).putPayloadLong(0, i);
            while (!a.trySend(frame)) {
                received += drain(b);
            }
            received += drain(b);
        }
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (a.pendingFrames() > 0 && System.nanoTime() - deadline < 0) {
            a.progress();
            received += drain(b);
        }
        return received + drain(b);
    }

    private static int drain(final Nic nic) {
        int n = 0;
        Frame frame;
        while ((frame = nic.poll()) != null) {
            nic.release(frame);
            n++;
        }
        return n;
    }
}
