package org.jhpvm.fabric.internal;

import org.jhpvm.fabric.MemoryRegion;

/**
 * The regions registered under handles the caller chose: an immutable open-addressing hash table from handle to
 * region (linear probing, at most half full). A change makes a new table with the live entries only, so a program
 * that registers and deregisters objects for ever keeps a table the size of what is live; a lookup is a hash and a
 * probe or two, with no allocation, from any thread.
 */
final class NamedRegions {
    static final NamedRegions EMPTY = new NamedRegions(new int[8], new MemoryRegion[8], 0);

    private final int[] handles;
    private final MemoryRegion[] regions;
    private final int size;

    private NamedRegions(final int[] handles, final MemoryRegion[] regions, final int size) {
        this.handles = handles;
        this.regions = regions;
        this.size = size;
    }

    MemoryRegion get(final int handle) {
        final int mask = handles.length - 1;
        for (int i = hash(handle) & mask; ; i = (i + 1) & mask) {
            final MemoryRegion r = regions[i];
            if (r == null) {
                return null;
            }
            if (handles[i] == handle) {
                return r;
            }
        }
    }

    NamedRegions with(final int handle, final MemoryRegion region) {
        final NamedRegions grown = copy(size + 1, -1); // handles are never negative: nothing skipped
        grown.put(handle, region);
        return grown;
    }

    NamedRegions without(final int handle) {
        return copy(size - 1, handle);
    }

    /** A new table for {@code live} entries, holding every entry of this one but {@code skip}'s. */
    private NamedRegions copy(final int live, final int skip) {
        int capacity = 8;
        while (capacity < 2 * live) {
            capacity <<= 1;
        }
        final NamedRegions t = new NamedRegions(new int[capacity], new MemoryRegion[capacity], live);
        for (int i = 0; i < regions.length; i++) {
            if (regions[i] != null && handles[i] != skip) {
                t.put(handles[i], regions[i]);
            }
        }
        return t;
    }

    private void put(final int handle, final MemoryRegion region) {
        final int mask = handles.length - 1;
        int i = hash(handle) & mask;
        while (regions[i] != null) {
            i = (i + 1) & mask;
        }
        handles[i] = handle;
        regions[i] = region;
    }

    private static int hash(final int handle) {
        final int h = handle * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
