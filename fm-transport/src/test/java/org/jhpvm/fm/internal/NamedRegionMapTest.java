package org.jhpvm.fm.internal;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The open-addressing table of named regions against a {@link HashMap}: random puts and removes of clustered and
 * scattered handles (backward-shift deletion must keep every probe chain whole), checked after every step.
 */
@Timeout(60)
class NamedRegionMapTest {
    @Test
    void shouldAgreeWithAHashMapThroughRandomPutsAndRemoves() {
        final long seed = Long.getLong("jhpvm.test.seed", System.nanoTime());
        System.out.println("NamedRegionMapTest seed " + seed + " (replay: -Djhpvm.test.seed=" + seed + ")");
        final SplittableRandom random = new SplittableRandom(seed);
        final NamedRegionMap map = new NamedRegionMap();
        final Map<Integer, RegionImpl> model = new HashMap<>();
        final MemorySegment memory = MemorySegment.ofArray(new long[1]);
        for (int step = 0; step < 20_000; step++) {
            // small handles collide and cluster; a few huge ones are scattered
            final int handle = random.nextInt(8) == 0 ? random.nextInt(1 << 30) : random.nextInt(200);
            if (random.nextInt(3) == 0) {
                map.remove(handle);
                model.remove(handle);
            } else {
                final RegionImpl r = new RegionImpl(handle, step, memory, memory, null);
                map.put(handle, r);
                model.put(handle, r);
            }
            final int probe = random.nextInt(200);
            assertSame(model.get(probe), map.get(probe), "handle " + probe + " at step " + step + ", seed " + seed);
            assertSame(model.get(handle), map.get(handle), "handle " + handle + " at step " + step + ", seed " + seed);
        }
        for (final Map.Entry<Integer, RegionImpl> e : model.entrySet()) {
            assertSame(e.getValue(), map.get(e.getKey()), "handle " + e.getKey() + ", seed " + seed);
        }
    }
}
