package org.jhpvm.fabric;

import org.jhpvm.fabric.aeron.AeronCluster;

/** The Aeron fabric passes the fabric contract over UDP on loopback. */
class AeronUdpFabricContractTest extends FabricContractTest {
    @Override
    protected Fabric fabric(final int nics, final int ring) {
        return AeronCluster.start(nics, 1, true, FabricConfig.builder(nics).frameBytes(4096)
            .receiveRingCapacity(ring).build());
    }
}
