package org.jhpvm.fabric.internal;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jhpvm.fabric.MemoryRegion;

/**
 * The regions registered under handles the caller chose: an open-addressing hash table from handle to region (linear
 * probing, at most half of its slots used), written by the NIC's host only and read by any thread. A slot holds a
 * region (its handle is the key), a tombstone where one was deregistered, or nothing; the writer publishes a slot with
 * a release store and readers load it with acquire, so a lookup never sees a region before it is complete. When live
 * regions and tombstones fill half the table it is rebuilt with the live regions only and published whole. So a
 * registration or deregistration costs O(1) (amortized), memory follows the live regions, not the largest handle,
 * and a lookup is a hash and a probe or two with no allocation.
 */
final class NamedRegions {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(MemoryRegion[].class);
    private static final MemoryRegion TOMBSTONE = new MemoryRegion(-1, -1, 0, new byte[0],
        MemorySegment.ofArray(new byte[0]));
    private static final int MIN_CAPACITY = 16;

    private volatile MemoryRegion[] table = new MemoryRegion[MIN_CAPACITY];
    // The host's only.
    private int live;
    private int used;

    /** @return the region registered under {@code handle}, or null; any thread */
    MemoryRegion get(final int handle) {
        final MemoryRegion[] t = table;
        final int mask = t.length - 1;
        for (int i = hash(handle) & mask; ; i = (i + 1) & mask) {
            final MemoryRegion r = (MemoryRegion) SLOT.getAcquire(t, i);
            if (r == null) {
                return null;
            }
            if (r != TOMBSTONE && r.handle() == handle) {
                return r;
            }
        }
    }

    /** Adds a region whose handle is not registered; the host only. */
    void put(final MemoryRegion region) {
        if (2 * (used + 1) > table.length) {
            rebuild(live + 1);
        }
        final MemoryRegion[] t = table;
        final int mask = t.length - 1;
        int i = hash(region.handle()) & mask;
        MemoryRegion r;
        while ((r = (MemoryRegion) SLOT.getAcquire(t, i)) != null && r != TOMBSTONE) {
            i = (i + 1) & mask;
        }
        if (r == null) {
            used++;
        }
        live++;
        SLOT.setRelease(t, i, region);
    }

    /** Removes the region registered under {@code handle}, if any; the host only. */
    void remove(final int handle) {
        final MemoryRegion[] t = table;
        final int mask = t.length - 1;
        for (int i = hash(handle) & mask; ; i = (i + 1) & mask) {
            final MemoryRegion r = (MemoryRegion) SLOT.getAcquire(t, i);
            if (r == null) {
                return;
            }
            if (r != TOMBSTONE && r.handle() == handle) {
                SLOT.setRelease(t, i, TOMBSTONE);
                live--;
                return;
            }
        }
    }

    /** A new table, room for {@code need} live regions at a quarter full, holding the live ones; published whole. */
    private void rebuild(final int need) {
        int capacity = MIN_CAPACITY;
        while (capacity < 4 * need) {
            capacity <<= 1;
        }
        final MemoryRegion[] old = table;
        final MemoryRegion[] t = new MemoryRegion[capacity];
        final int mask = capacity - 1;
        for (final MemoryRegion r : old) {
            if (r != null && r != TOMBSTONE) {
                int i = hash(r.handle()) & mask;
                while (t[i] != null) {
                    i = (i + 1) & mask;
                }
                t[i] = r;
            }
        }
        used = live;
        table = t;
    }

    private static int hash(final int handle) {
        final int h = handle * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
