package org.jhpvm.apps;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.FabricConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AllToAllTrafficTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twoHundredFiftySixNicsOnTwoCoresShouldFinishWithoutLivelock() throws InterruptedException {
        final FabricConfig config = FabricConfig.builder(256).frameBytes(64).headerBytes(AllToAllTraffic.HEADER_BYTES)
            .sendRingCapacity(4).receiveRingCapacity(4).build();
        // One frame to every other NIC, through rings of 4: every NIC sends into full rings while others do.
        final AllToAllTraffic.Result r = new AllToAllTraffic(config, 255, 100).run(steps -> { });
        assertTrue(r.clean(), r.toString());
        assertEquals(256L * 255, r.totals().framesReceived());
        assertEquals(256L * 255, r.accepted());
    }

    @Test
    void framesOnPathsShouldAddUpToWhatEachNicSends() {
        final FabricConfig config = FabricConfig.builder(7).build();
        final AllToAllTraffic traffic = new AllToAllTraffic(config, 100, 10);
        for (int src = 0; src < 7; src++) {
            long total = 0;
            for (int dst = 0; dst < 7; dst++) {
                total += traffic.framesOnPath(src, dst);
            }
            assertEquals(100, total);
            assertEquals(0, traffic.framesOnPath(src, src));
        }
    }
}
