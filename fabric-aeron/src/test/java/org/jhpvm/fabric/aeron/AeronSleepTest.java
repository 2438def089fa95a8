package org.jhpvm.fabric.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A NIC's sleep between processes: nothing can wake it across processes, so it looks for frames between parks that
 * lengthen with the host's idle spell (up to 4 ms once idle for a second). A frame sent after a long idle spell still
 * ends the sleep, long before its timeout, and a sleep with nothing to find runs out at its timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AeronSleepTest {
    @Test
    void aFrameShouldEndASleepAfterALongIdleSpellAndAnEmptySleepShouldRunOut() throws Exception {
        try (AeronCluster c = AeronCluster.start(2, 1, false, FabricConfig.builder(2).frameBytes(1024).build())) {
            final Nic sender = c.nic(0);
            final Nic sleeper = c.nic(1);
            // Nothing comes: each sleep runs out at its timeout.
            final long t0 = System.nanoTime();
            for (int i = 0; i < 2; i++) {
                assertNull(sleeper.sleep(200_000_000L), "a frame from nowhere");
            }
            final long emptyNs = System.nanoTime() - t0;
            assertTrue(emptyNs >= 400_000_000L, "two sleeps of 200 ms ended after " + emptyNs / 1_000_000 + " ms");
            // A frame sent 1.5 s into a sleep of 20 s, when it parks 4 ms at a time, ends it.
            final Thread send = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(1_500);
                } catch (InterruptedException e) {
                    return;
                }
                final Frame f = sender.acquire();
                f.setDestination(1);
                f.putPayloadLong(0, 0x5EEDL);
                f.setLength(8);
                sender.send(f);
            });
            final long t1 = System.nanoTime();
            final Frame got = sleeper.sleep(20_000_000_000L);
            final long sleptMs = (System.nanoTime() - t1) / 1_000_000;
            send.join();
            assertNotNull(got, "the frame did not end the sleep");
            assertEquals(0x5EEDL, got.getPayloadLong(0));
            sleeper.release(got);
            assertTrue(sleptMs >= 1_400 && sleptMs < 10_000, "the sleep ended after " + sleptMs + " ms, not when the "
                + "frame came (1.5 s) nor at its timeout (20 s)");
        }
    }
}
