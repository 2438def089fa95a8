package org.jhpvm.fabric;

import org.jhpvm.fabric.aeron.AeronCluster;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The Aeron fabric offers neither RDMA nor NIC handlers: it says so in its capabilities and refuses the calls (the
 * layers above then carry the same requests in messages); the rest of the RDMA contract is skipped.
 */
class AeronRdmaContractTest extends RdmaContractTest {
    @Override
    protected Fabric fabric(final int nics) {
        return AeronCluster.start(1, nics, false, FabricConfig.builder(nics).frameBytes(4096).build());
    }

    @Test
    void shouldSayItHasNoRdmaAndNoNicHandlers() {
        try (Fabric fabric = fabric(2)) {
            assertFalse(fabric.capabilities().remoteDma());
            assertFalse(fabric.capabilities().nicHandlers());
        }
    }
}
