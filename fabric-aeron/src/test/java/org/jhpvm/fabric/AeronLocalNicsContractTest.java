package org.jhpvm.fabric;

import org.jhpvm.fabric.aeron.AeronCluster;

/** The Aeron fabric passes the fabric contract between the NICs of one process (the in-JVM path). */
class AeronLocalNicsContractTest extends FabricContractTest {
    @Override
    protected Fabric fabric(final int nics, final int ring) {
        return AeronCluster.start(1, nics, false, FabricConfig.builder(nics).frameBytes(4096)
            .receiveRingCapacity(ring).build());
    }
}
