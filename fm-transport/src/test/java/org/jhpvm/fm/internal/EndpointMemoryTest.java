package org.jhpvm.fm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fm.FmConfig;
import org.junit.jupiter.api.Test;

class EndpointMemoryTest {
    private static long buffersBytes(final int pes) {
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(pes).frameBytes(4096).build())) {
            final Endpoint ep = new Endpoint(fabric, 0, FmConfig.defaults(), new JobControl(pes));
            return ep.footprintBytes() - Endpoint.perPeerBytes() * pes;
        }
    }

    @Test
    void shouldHoldTheSameBuffersWhateverTheNumberOfPes() {
        final long two = buffersBytes(2);
        assertEquals(two, buffersBytes(64));
        assertEquals(two, buffersBytes(1024));
    }

    @Test
    void shouldDeriveItsSizesFromTheFabric() {
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).receiveRingCapacity(8).poolFrames(40)
            .build())) {
            final Endpoint ep = new Endpoint(fabric, 0, FmConfig.defaults(), new JobControl(2));
            assertEquals(4, ep.receiveQueueFrames());
            assertEquals(10, ep.windowFrames());
        }
    }

    @Test
    void shouldRejectSizesTheFabricCannotCarry() {
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).receiveRingCapacity(8).build())) {
            assertThrows(IllegalArgumentException.class, () -> new Endpoint(fabric, 0,
                FmConfig.builder().receiveQueueFrames(5).build(), new JobControl(2)));
            assertThrows(IllegalArgumentException.class, () -> new Endpoint(fabric, 0,
                FmConfig.builder().windowFrames(1000).build(), new JobControl(2)));
        }
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).headerBytes(16).build())) {
            assertThrows(IllegalArgumentException.class, () -> new Endpoint(fabric, 0, FmConfig.defaults(),
                new JobControl(2)));
        }
    }
}
