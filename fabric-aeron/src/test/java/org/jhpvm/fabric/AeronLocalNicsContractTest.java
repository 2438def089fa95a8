package org.jhpvm.fabric;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.aeron.AeronCluster;
import org.junit.jupiter.api.Timeout;

/** The Aeron fabric passes the fabric contract between the NICs of one process (the in-JVM path); a test may take 90 s, as a cluster's join
 * may take up to a minute on a busy machine (AeronCluster allows 60 s). */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AeronLocalNicsContractTest extends FabricContractTest {
    @Override
    protected Fabric fabric(final int nics, final int ring) {
        return AeronCluster.start(1, nics, false, FabricConfig.builder(nics).frameBytes(4096)
            .receiveRingCapacity(ring).build());
    }
}
