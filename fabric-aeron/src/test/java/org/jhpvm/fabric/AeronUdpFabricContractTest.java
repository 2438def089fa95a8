package org.jhpvm.fabric;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.aeron.AeronCluster;
import org.junit.jupiter.api.Timeout;

/**
 * The Aeron fabric passes the fabric contract over UDP on loopback.
 * A test may take 90 s: a cluster's join may take up to a minute on a busy machine (AeronCluster allows 60 s).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AeronUdpFabricContractTest extends FabricContractTest {
    @Override
    protected Fabric fabric(final int nics, final int ring) {
        return AeronCluster.start(nics, 1, true, FabricConfig.builder(nics).frameBytes(4096)
            .receiveRingCapacity(ring).build());
    }
}
