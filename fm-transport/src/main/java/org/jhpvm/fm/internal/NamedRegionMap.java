package org.jhpvm.fm.internal;

/**
 * An endpoint's regions under handles the caller chose: an open-addressing hash table from handle to region (linear
 * probing, at most half full, backward-shift deletion), so memory follows the live regions, not the largest handle
 * ever used. Lookups allocate nothing. The endpoint's thread only.
 */
final class NamedRegionMap {
    private int[] handles = new int[16];
    private RegionImpl[] regions = new RegionImpl[16];
    private int size;

    RegionImpl get(final int handle) {
        final int mask = handles.length - 1;
        for (int i = hash(handle) & mask; ; i = (i + 1) & mask) {
            final RegionImpl r = regions[i];
            if (r == null || handles[i] == handle) {
                return r;
            }
        }
    }

    void put(final int handle, final RegionImpl region) {
        if (2 * (size + 1) > handles.length) {
            final int[] oldHandles = handles;
            final RegionImpl[] oldRegions = regions;
            handles = new int[oldHandles.length * 2];
            regions = new RegionImpl[oldHandles.length * 2];
            size = 0;
            for (int i = 0; i < oldRegions.length; i++) {
                if (oldRegions[i] != null) {
                    put(oldHandles[i], oldRegions[i]);
                }
            }
        }
        final int mask = handles.length - 1;
        int i = hash(handle) & mask;
        while (regions[i] != null && handles[i] != handle) {
            i = (i + 1) & mask;
        }
        if (regions[i] == null) {
            size++;
        }
        handles[i] = handle;
        regions[i] = region;
    }

    void remove(final int handle) {
        final int mask = handles.length - 1;
        int i = hash(handle) & mask;
        while (regions[i] != null && handles[i] != handle) {
            i = (i + 1) & mask;
        }
        if (regions[i] == null) {
            return;
        }
        regions[i] = null;
        size--;
        // Backward shift: entries after the hole that probed past it move into it.
        for (int j = (i + 1) & mask; regions[j] != null; j = (j + 1) & mask) {
            final int home = hash(handles[j]) & mask;
            if (((j - home) & mask) >= ((j - i) & mask)) {
                handles[i] = handles[j];
                regions[i] = regions[j];
                regions[j] = null;
                i = j;
            }
        }
    }

    private static int hash(final int handle) {
        final int h = handle * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
