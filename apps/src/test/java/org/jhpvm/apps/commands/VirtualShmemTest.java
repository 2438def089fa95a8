package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jhpvm.apps.bench.VirtualFmBenchmark;
import org.jhpvm.apps.bench.VirtualShmemBenchmark;
import org.jhpvm.fabric.ClockSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SHMEM in virtual time: the same run gives the same modelled figures bitwise, and no SHMEM operation is modelled
 * faster than the FM message beneath it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class VirtualShmemTest {
    @Test
    void shmemFiguresRepeatBitwiseAndNeverBeatFm() {
        final ClockSettings clock = new ClockSettings(true, "sparc-sbus-1995", Map.of(), false);
        final VirtualShmemBenchmark.Result a = new VirtualShmemBenchmark(clock, 3, 10).run(step -> { });
        final VirtualShmemBenchmark.Result b = new VirtualShmemBenchmark(clock, 3, 10).run(step -> { });
        assertArrayEquals(a.pingPongUs(), b.pingPongUs());
        assertArrayEquals(a.getUs(), b.getUs());
        assertArrayEquals(a.putUs(), b.putUs());
        assertEquals(a.fetchAddUs(), b.fetchAddUs());
        final double fmOneWay8 = new VirtualFmBenchmark(clock, 2, 40).run(step -> { }).latency8Us();
        assertTrue(a.pingPongUs()[0] >= fmOneWay8, "a put and its flag take at least one FM message: "
            + a.pingPongUs()[0] + " us against " + fmOneWay8);
        assertTrue(a.getUs()[0] >= 2 * fmOneWay8, "a get is a request and a reply: " + a.getUs()[0] + " us");
        assertTrue(a.fetchAddUs() >= 2 * fmOneWay8, "so is a fetch-add: " + a.fetchAddUs() + " us");
    }
}
