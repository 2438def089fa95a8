package org.jhpvm.fabric.internal;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fabric's memory per NIC does not grow with the number of NICs, and the stated figure is the real one. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MemoryPerNicTest {
    private static FabricConfig config(final int nics) {
        return FabricConfig.builder(nics).frameBytes(512).inlineBytes(128).sendRingCapacity(8)
            .receiveRingCapacity(8).build();
    }

    @Test
    void memoryPerNicShouldNotGrowWithTheNumberOfNics() {
        final double perNicSmall = measuredBytesPerNic(64);
        final double perNicLarge = measuredBytesPerNic(1024);
        final long stated = EmulatedMyrinet.bytesPerNic(config(1024));
        assertEquals(stated, EmulatedMyrinet.bytesPerNic(config(64)), "the statement does not depend on N");
        assertTrue(perNicLarge < perNicSmall * 1.15 + 256,
            "per NIC: " + perNicLarge + " bytes with 1024 NICs, " + perNicSmall + " with 64");
        assertTrue(Math.abs(perNicLarge - stated) < stated * 0.25,
            "measured " + perNicLarge + " bytes per NIC, stated " + stated);
    }

    @Test
    void everyOneOf1024NicsShouldWork() {
        try (Fabric fabric = EmulatedMyrinet.create(config(1024))) {
            for (int i = 0; i < 1024; i++) {
                final Nic nic = fabric.nic(i);
                final Frame frame = nic.acquire().setDestination((i * 7 + 1) % 1024).setLength(i % 512);
                frame.putHeaderInt(0, i);
                nic.send(frame);
            }
            int received = 0;
            for (int i = 0; i < 1024; i++) {
                final Nic nic = fabric.nic(i);
                Frame frame;
                while ((frame = nic.poll()) != null) {
                    assertEquals(i, frame.destination());
                    assertEquals((frame.source() * 7 + 1) % 1024, i);
                    assertEquals(frame.source(), frame.getHeaderInt(0));
                    nic.release(frame);
                    received++;
                }
            }
            assertEquals(1024, received);
        }
    }

    private static double measuredBytesPerNic(final int nics) {
        final long before = usedHeapAfterGc();
        final Fabric fabric = EmulatedMyrinet.create(config(nics));
        final long after = usedHeapAfterGc();
        final double perNic = (after - before) / (double) nics;
        fabric.close();
        return perNic;
    }

    private static long usedHeapAfterGc() {
        final Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }
}
