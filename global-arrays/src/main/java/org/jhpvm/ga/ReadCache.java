package org.jhpvm.ga;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The {@code "read_cache"} property's cache ({@code GA_Set_property}): the sections this PE has read, each packed
 * row-major, newest first. A get of a section inside a cached one is served from it without communication; any
 * other get reads the array and is cached, the oldest entry dropped beyond {@link #MAX_ENTRIES} (GA's
 * {@code GA_MAX_CACHE} list). While the property is set the array is not written through GA (puts, accumulates,
 * scatters and read-increments are refused, as with {@code "read_only"}), so an entry never goes stale; it is
 * dropped with the property.
 * <p>
 * Used by one PE's thread only.
 */
final class ReadCache {
    static final int MAX_ENTRIES = 16;

    /** A cached section: its bounds and its elements, packed row-major. */
    record Entry(int[] lo, int[] hi, Object data) {
        boolean covers(final int[] l, final int[] h) {
            for (int d = 0; d < lo.length; d++) {
                if (l[d] < lo[d] || h[d] > hi[d]) {
                    return false;
                }
            }
            return true;
        }

        /** The extents of the cached section. */
        int[] dims() {
            final int[] e = new int[lo.length];
            for (int d = 0; d < e.length; d++) {
                e[d] = hi[d] - lo[d] + 1;
            }
            return e;
        }
    }

    private final Deque<Entry> entries = new ArrayDeque<>();
    private long hits;
    private long misses;

    /** The newest cached section that holds {@code lo..hi}, or null. */
    Entry find(final int[] lo, final int[] hi) {
        for (final Entry e : entries) {
            if (e.covers(lo, hi)) {
                hits++;
                return e;
            }
        }
        misses++;
        return null;
    }

    /** Caches a section just read (copies of the bounds are kept). */
    Entry add(final int[] lo, final int[] hi, final Object data) {
        final Entry e = new Entry(lo.clone(), hi.clone(), data);
        entries.addFirst(e);
        while (entries.size() > MAX_ENTRIES) {
            entries.removeLast();
        }
        return e;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }
}
