package org.jhpvm.apps.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.jhpvm.fabric.ClockSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bench ga --clock virtual}: a section owned by one PE costs, on the model, what SHMEM moving the same bytes
 * costs (GA's own software is not counted there): a get or an accumulate no message more, exactly. An owner looked up
 * by a message, or an accumulate done as a locked get and put, would cost a round trip more. A stream of tiny puts
 * costs GA a little more than SHMEM (9% at 8 B on ppro-pci-1998): SHMEM combines them into batches, and fewer of
 * GA's join one.
 */
@Timeout(120)
class VirtualGaBenchmarkTest {
    @Test
    void aSingleOwnerSectionCostsWhatShmemCostsOnTheModel() {
        final VirtualGaBenchmark.Result r = VirtualGaBenchmark.run(
            new ClockSettings(true, "ppro-pci-1998", Map.of(), false), 10, x -> { });
        for (int op = 0; op < VirtualGaBenchmark.OPS.length; op++) {
            for (int i = 0; i < VirtualGaBenchmark.SIZES.length; i++) {
                final double e = r.efficiency(op, i);
                final String what = VirtualGaBenchmark.OPS[op] + " of " + VirtualGaBenchmark.SIZES[i]
                    + " B: GA's efficiency over SHMEM on the model is " + e;
                if (VirtualGaBenchmark.OPS[op].equals("put")) {
                    assertTrue(e > 0.85 && e < 1.0 + 1e-9, what);
                } else {
                    assertEquals(1.0, e, 1e-9, what);
                }
            }
        }
        assertTrue(r.putRInfMBps() > 0 && r.putNHalfBytes() > 0);
    }
}
