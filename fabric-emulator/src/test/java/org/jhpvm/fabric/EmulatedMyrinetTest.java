package org.jhpvm.fabric;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            assertEquals(new FabricCapabilities(true, true, true, false), fabric.capabilities());
        }
        final FabricCapabilities faulty = EmulatedMyrinet.capabilities(FaultPlan.builder(1).drop(0.1).reorder(0.1)
            .build());
        assertFalse(faulty.reliable());
        assertFalse(faulty.ordered());
        assertTrue(faulty.flowControlled());
    }
}
