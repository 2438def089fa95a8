package org.jhpvm.fabric.internal;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.IdentityHashMap;

import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;

/**
 * A NIC's registered memory: the regions by handle, which any NIC engine may look up (an initiator's engine checks
 * the target's regions when it moves bytes), and the registration cache, which only the NIC's host uses.
 * <p>
 * Handles below {@link Nic#MAX_NAMED_HANDLE} are the caller's (a symmetric heap's object ids, any number): they live
 * in {@link NamedRegions}, a hash table the host writes and anyone reads, so a registration costs O(1) however many
 * regions are live and memory follows the live regions, not the largest id. The NIC hands out the handles above,
 * reusing those given back, as indices of an array replaced whole when it changes (copy on write; these are the
 * cached registrations of a few buffers) and read with one volatile load. Keys of NIC-chosen handles come from a
 * counter mixed with the NIC's seed, so a deregistered handle that is reused gets a new key and a stale descriptor is
 * refused.
 */
final class RegionTable {
    /** One cached registration: the region and how many registrations it answers for. */
    private static final class Cached {
        final MemoryRegion region;
        int registrations;

        Cached(final MemoryRegion region) {
            this.region = region;
        }
    }

    private final int nic;
    private final long keySeed;
    private final NamedRegions named = new NamedRegions();
    private volatile MemoryRegion[] dynamic = new MemoryRegion[16];

    // Host only.
    private final IdentityHashMap<Object, Cached> cache = new IdentityHashMap<>();
    private int[] freeDynamic = new int[16];
    private int freeCount;
    private int nextDynamic;
    private long keyCounter;
    private long registrations;
    private long cacheHits;
    private long deregistrations;

    RegionTable(final int nic, final long keySeed) {
        this.nic = nic;
        this.keySeed = keySeed;
    }

    /** Registers memory under a NIC-chosen handle, or answers the cached region of memory already registered. */
    MemoryRegion register(final Object memory) {
        final Cached c = cache.get(memory);
        if (c != null) {
            c.registrations++;
            cacheHits++;
            return c.region;
        }
        final MemorySegment segment = MemoryRegion.segmentOf(memory);
        final int slot = freeCount > 0 ? freeDynamic[--freeCount] : nextDynamic++;
        final MemoryRegion region = new MemoryRegion(nic, Nic.MAX_NAMED_HANDLE + slot, nextKey(), memory, segment);
        MemoryRegion[] t = dynamic;
        if (slot >= t.length) {
            t = Arrays.copyOf(t, Math.max(t.length * 2, slot + 1));
        } else {
            t = t.clone();
        }
        t[slot] = region;
        dynamic = t;
        final Cached entry = new Cached(region);
        entry.registrations = 1;
        cache.put(memory, entry);
        registrations++;
        return region;
    }

    /** Registers memory under the caller's handle and key. */
    MemoryRegion register(final Object memory, final int handle, final int key) {
        if (handle < 0 || handle >= Nic.MAX_NAMED_HANDLE) {
            throw new IllegalArgumentException("handle=" + handle + " outside 0.." + (Nic.MAX_NAMED_HANDLE - 1));
        }
        final MemorySegment segment = MemoryRegion.segmentOf(memory);
        final MemoryRegion taken = named.get(handle);
        if (taken != null) {
            throw new IllegalArgumentException("handle " + handle + " is already registered at NIC " + nic + ": "
                + taken);
        }
        final MemoryRegion region = new MemoryRegion(nic, handle, key, memory, segment);
        named.put(region);
        registrations++;
        return region;
    }

    /** Gives a registration back; the region goes with its last registration. */
    void deregister(final MemoryRegion region) {
        if (region.nic() != nic || lookup(region.handle()) != region) {
            throw new IllegalArgumentException(region + " is not registered at NIC " + nic);
        }
        if (region.handle() < Nic.MAX_NAMED_HANDLE) {
            named.remove(region.handle());
        } else {
            final Cached c = cache.get(region.memory());
            if (c != null && --c.registrations > 0) {
                return;
            }
            cache.remove(region.memory());
            final int slot = region.handle() - Nic.MAX_NAMED_HANDLE;
            final MemoryRegion[] t = dynamic.clone();
            t[slot] = null;
            dynamic = t;
            if (freeCount == freeDynamic.length) {
                freeDynamic = Arrays.copyOf(freeDynamic, freeCount * 2);
            }
            freeDynamic[freeCount++] = slot;
        }
        deregistrations++;
    }

    /** @return the region with this handle, or null; safe from any thread */
    MemoryRegion lookup(final int handle) {
        if (handle >= 0 && handle < Nic.MAX_NAMED_HANDLE) {
            return named.get(handle);
        }
        final MemoryRegion[] t = dynamic;
        final int slot = handle - Nic.MAX_NAMED_HANDLE;
        return slot >= 0 && slot < t.length ? t[slot] : null;
    }

    long registrations() {
        return registrations;
    }

    long cacheHits() {
        return cacheHits;
    }

    long deregistrations() {
        return deregistrations;
    }

    private int nextKey() {
        int key;
        do {
            key = (int) MixHash.mix(keySeed + ++keyCounter);
        } while (key == 0);
        return key;
    }
}
