package org.jhpvm.fabric.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jhpvm.fabric.MemoryRegion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The named-region table against a {@link HashMap} through random registrations and deregistrations (tombstones,
 * rebuilds), and a reader on another thread that must find every region that stays registered while the host churns
 * the others.
 */
@Timeout(60)
class NamedRegionsTest {
    private static final MemorySegment MEMORY = MemorySegment.ofArray(new long[1]);

    private static MemoryRegion region(final int handle, final int key) {
        return new MemoryRegion(0, handle, key, MEMORY.heapBase().orElseThrow(), MEMORY);
    }

    @Test
    void shouldAgreeWithAHashMapThroughChurn() {
        final long seed = Long.getLong("jhpvm.test.seed", System.nanoTime());
        System.out.println("NamedRegionsTest seed " + seed + " (replay: -Djhpvm.test.seed=" + seed + ")");
        final SplittableRandom random = new SplittableRandom(seed);
        final NamedRegions table = new NamedRegions();
        final Map<Integer, MemoryRegion> model = new HashMap<>();
        for (int step = 0; step < 50_000; step++) {
            final int handle = random.nextInt(8) == 0 ? random.nextInt(1 << 30) : random.nextInt(300);
            if (model.containsKey(handle)) {
                table.remove(handle);
                model.remove(handle);
            } else {
                final MemoryRegion r = region(handle, step);
                table.put(r);
                model.put(handle, r);
            }
            final int probe = random.nextInt(300);
            assertSame(model.get(probe), table.get(probe), "handle " + probe + " at step " + step + ", seed " + seed);
        }
        for (final Map.Entry<Integer, MemoryRegion> e : model.entrySet()) {
            assertSame(e.getValue(), table.get(e.getKey()), "handle " + e.getKey() + ", seed " + seed);
        }
    }

    @Test
    void aReaderShouldAlwaysFindTheRegionsThatStayWhileOthersChurn() throws InterruptedException {
        final NamedRegions table = new NamedRegions();
        final MemoryRegion[] stay = new MemoryRegion[64];
        for (int i = 0; i < stay.length; i++) {
            stay[i] = region(i * 7919, i);
            table.put(stay[i]);
        }
        final AtomicReference<String> failure = new AtomicReference<>();
        final AtomicLong lookups = new AtomicLong();
        final Thread reader = new Thread(() -> {
            long n = 0;
            while (!Thread.currentThread().isInterrupted() && failure.get() == null) {
                final MemoryRegion r = stay[(int) (n % stay.length)];
                if (table.get(r.handle()) != r) {
                    failure.set("lookup " + n + " of handle " + r.handle() + " found " + table.get(r.handle()));
                }
                n++;
            }
            lookups.set(n);
        });
        reader.start();
        // The host registers and deregisters 100 000 other regions, in batches that force rebuilds.
        for (int round = 0; round < 1_000; round++) {
            for (int i = 0; i < 100; i++) {
                table.put(region(1_000_000 + round * 100 + i, i));
            }
            for (int i = 0; i < 100; i++) {
                table.remove(1_000_000 + round * 100 + i);
            }
        }
        reader.interrupt();
        reader.join(10_000);
        assertEquals(null, failure.get());
        for (final MemoryRegion r : stay) {
            assertSame(r, table.get(r.handle()));
        }
        System.out.println("NamedRegionsTest: " + lookups.get() + " lookups during the churn");
    }
}
