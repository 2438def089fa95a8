package org.jhpvm.fabric;

/** A partition of a shared emulated Myrinet, beside another job's partition, passes the whole fabric contract. */
class SharedMyrinetContractTest extends FabricContractTest {
    @Override
    protected Fabric fabric(final int nics, final int ring) {
        final SharedMyrinet shared = SharedMyrinet.create(FabricConfig.builder(nics + 3).frameBytes(4096).build());
        shared.partition(FabricConfig.builder(2).frameBytes(4096).build());
        return shared.partition(FabricConfig.builder(nics).frameBytes(4096).inlineBytes(256)
            .sendRingCapacity(ring).receiveRingCapacity(ring).build());
    }
}
