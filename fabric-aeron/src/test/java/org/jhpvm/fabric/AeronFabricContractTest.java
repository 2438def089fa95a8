package org.jhpvm.fabric;

import org.jhpvm.fabric.aeron.AeronCluster;

/** The Aeron fabric passes the fabric contract over IPC: one rank per NIC, every frame crossing Aeron. */
class AeronFabricContractTest extends FabricContractTest {
    @Override
    protected Fabric fabric(final int nics, final int ring) {
        return AeronCluster.start(nics, 1, false, FabricConfig.builder(nics).frameBytes(4096)
            .receiveRingCapacity(ring).build());
    }
}
