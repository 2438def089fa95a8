package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.IdentityHashMap;

import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;

/**
 * An endpoint's registered memory. Where the NIC does the work it registers each region with the NIC too (once per
 * memory: this table is the cache, as the NIC's is) and the NIC checks remote requests; elsewhere this table is what
 * FM's message path checks a request against: a handle, its key, the bytes. Handles below
 * {@link Nic#MAX_NAMED_HANDLE} are the caller's; the others are the NIC's, or this table's where there is no NIC
 * registration.
 * <p>
 * The endpoint's thread only (registration is part of the host interface; the message path serves requests inside
 * extract).
 */
final class FmRegionTable {
    private final Nic nic;
    private final boolean offload;
    private final IdentityHashMap<Object, RegionImpl> cache = new IdentityHashMap<>();
    private final NamedRegionMap named = new NamedRegionMap();
    private RegionImpl[] dynamic = new RegionImpl[16];
    private int[] free = new int[16];
    private int freeCount;
    private int nextDynamic;
    private long keys;
    private final long keySeed;

    FmRegionTable(final Nic nic, final boolean offload, final long keySeed) {
        this.nic = nic;
        this.offload = offload;
        this.keySeed = keySeed;
    }

    RegionImpl register(final Object memory) {
        final RegionImpl cached = cache.get(memory);
        if (cached != null) {
            cached.registrations++;
            return cached;
        }
        final RegionImpl r;
        if (offload) {
            final MemoryRegion m = nic.register(memory);
            r = new RegionImpl(m.handle(), m.key(), memory, m.segment(), m);
        } else {
            final MemorySegment segment = MemoryRegion.segmentOf(memory);
            final int slot = freeCount > 0 ? free[--freeCount] : nextDynamic++;
            r = new RegionImpl(Nic.MAX_NAMED_HANDLE + slot, nextKey(), memory, segment, null);
        }
        putDynamic(r);
        cache.put(memory, r);
        return r;
    }

    RegionImpl register(final Object memory, final int handle, final int key) {
        if (handle < 0 || handle >= Nic.MAX_NAMED_HANDLE) {
            throw new IllegalArgumentException("handle=" + handle + " outside 0.." + (Nic.MAX_NAMED_HANDLE - 1));
        }
        if (named.get(handle) != null) {
            throw new IllegalArgumentException("handle " + handle + " is already registered: " + named.get(handle));
        }
        final RegionImpl r;
        if (offload) {
            final MemoryRegion m = nic.register(memory, handle, key);
            r = new RegionImpl(handle, key, memory, m.segment(), m);
        } else {
            r = new RegionImpl(handle, key, memory, MemoryRegion.segmentOf(memory), null);
        }
        named.put(handle, r);
        return r;
    }

    void deregister(final RegionImpl r) {
        if (lookup(r.handle) != r) {
            throw new IllegalArgumentException(r + " is not registered here");
        }
        if (r.handle < Nic.MAX_NAMED_HANDLE) {
            named.remove(r.handle);
        } else {
            if (--r.registrations > 0) {
                return;
            }
            cache.remove(r.memory);
            final int slot = slotOf(r.handle);
            dynamic[slot] = null;
            if (!offload) {
                if (freeCount == free.length) {
                    free = Arrays.copyOf(free, freeCount * 2);
                }
                free[freeCount++] = slot;
            }
        }
        if (r.nicRegion != null) {
            nic.deregister(r.nicRegion);
        }
    }

    /** @return the region with this handle, or null */
    RegionImpl lookup(final int handle) {
        if (handle >= 0 && handle < Nic.MAX_NAMED_HANDLE) {
            return named.get(handle);
        }
        final int slot = slotOf(handle);
        return slot >= 0 && slot < dynamic.length ? dynamic[slot] : null;
    }

    private void putDynamic(final RegionImpl r) {
        final int slot = slotOf(r.handle);
        if (slot >= dynamic.length) {
            dynamic = Arrays.copyOf(dynamic, Math.max(dynamic.length * 2, slot + 1));
        }
        dynamic[slot] = r;
    }

    /**
     * Dynamic handles: this table's own start at {@code MAX_NAMED_HANDLE}; the NIC's also start there, and it reuses
     * the ones given back, so they stay dense.
     */
    private static int slotOf(final int handle) {
        return handle - Nic.MAX_NAMED_HANDLE;
    }

    private int nextKey() {
        long z = keySeed + ++keys * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        final int key = (int) (z ^ (z >>> 31));
        return key == 0 ? 1 : key;
    }
}
