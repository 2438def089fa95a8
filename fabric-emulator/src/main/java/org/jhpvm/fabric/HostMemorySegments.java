package org.jhpvm.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * The bookkeeping of a {@link HostMemory}: which segments this process created and which it mapped, how many maps
 * each has, and the {@link Arena} that ends each one's use here. A fabric says where the bytes come from
 * ({@link #allocate}, {@link #open}) and what removing one leaves to clean ({@link #removed}).
 * <p>
 * A segment this process created is answered to its own maps too (one mapping per process). Removing it ends its use
 * in this process at once (its arena closes: a later access throws {@link IllegalStateException}); the maps other
 * PEs of this process still hold are then given back as no-ops, since a collective free does not order the owner's
 * removal before the others' unmaps.
 * <p>
 * Thread-safety: every method is synchronized (set-up calls).
 */
public abstract class HostMemorySegments implements HostMemory {
    private final Map<Long, Entry> entries = new HashMap<>();

    /** A table with no segment yet. */
    protected HostMemorySegments() {
    }

    private static final class Entry {
        final Arena arena;
        final MemorySegment segment;
        final boolean created;
        int maps;
        boolean removed;

        Entry(final Arena arena, final MemorySegment segment, final boolean created) {
            this.arena = arena;
            this.segment = segment;
            this.created = created;
        }
    }

    /**
     * Whether this process hosts NIC {@code nic} (creates its segments).
     *
     * @param nic a NIC id
     * @return true if it is one of this process's NICs
     */
    protected abstract boolean isLocal(int nic);

    /**
     * Makes the bytes of a new segment, zeroed, owned by {@code arena}.
     *
     * @param nic   a NIC of this process
     * @param name  the segment's name
     * @param bytes its length
     * @param arena the arena the segment's use ends with
     * @return the segment
     */
    protected abstract MemorySegment allocate(int nic, int name, long bytes, Arena arena);

    /**
     * Maps another process's segment.
     *
     * @param nic   the NIC whose process created it (reached, not of this process)
     * @param name  the segment's name
     * @param arena the arena the mapping ends with
     * @return the mapping
     * @throws IllegalStateException if there is no such segment
     */
    protected abstract MemorySegment open(int nic, int name, Arena arena);

    /**
     * Called after a segment this process created was removed and its arena closed (a file to delete, say).
     *
     * @param nic  its NIC
     * @param name its name
     */
    protected void removed(final int nic, final int name) {
    }

    private static long key(final int nic, final int name) {
        return (long) nic << 32 | (name & 0xFFFF_FFFFL);
    }

    @Override
    public synchronized MemorySegment create(final int nic, final int name, final long bytes) {
        if (!isLocal(nic)) {
            throw new IllegalArgumentException("NIC " + nic + " is not a NIC of this process: it cannot create host "
                + "memory here");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes=" + bytes + " is negative");
        }
        final long key = key(nic, name);
        if (entries.containsKey(key)) {
            throw new IllegalArgumentException("NIC " + nic + " already has a host memory segment " + name);
        }
        final Arena arena = Arena.ofShared();
        try {
            final MemorySegment s = allocate(nic, name, bytes, arena);
            entries.put(key, new Entry(arena, s, true));
            return s;
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public synchronized MemorySegment map(final int nic, final int name) {
        if (!reaches(nic)) {
            throw new IllegalArgumentException("NIC " + nic + " is on another host: its memory cannot be mapped here");
        }
        final long key = key(nic, name);
        final Entry e = entries.get(key);
        if (e != null && !e.removed) {
            e.maps++;
            return e.segment;
        }
        if (isLocal(nic)) {
            throw new IllegalStateException("NIC " + nic + " has no host memory segment " + name);
        }
        final Arena arena = Arena.ofShared();
        try {
            final Entry mapped = new Entry(arena, open(nic, name, arena), false);
            mapped.maps = 1;
            entries.put(key, mapped);
            return mapped.segment;
        } catch (RuntimeException | Error x) {
            arena.close();
            throw x;
        }
    }

    @Override
    public synchronized void unmap(final int nic, final int name) {
        final long key = key(nic, name);
        final Entry e = entries.get(key);
        if (e == null || e.maps == 0) {
            throw new IllegalArgumentException("this process has no mapping of segment " + name + " of NIC " + nic);
        }
        if (--e.maps == 0 && (e.removed || !e.created)) {
            entries.remove(key);
            if (!e.created) {
                e.arena.close();
            }
        }
    }

    @Override
    public synchronized void remove(final int nic, final int name) {
        final long key = key(nic, name);
        final Entry e = entries.get(key);
        if (e == null || !e.created || e.removed) {
            throw new IllegalArgumentException("this process created no segment " + name + " of NIC " + nic);
        }
        e.removed = true;
        e.arena.close();
        if (e.maps == 0) {
            entries.remove(key);
        }
        removed(nic, name);
    }

    /**
     * Closes every segment and mapping this process still has (the fabric closes), created ones removed as by
     * {@link #remove}.
     */
    public synchronized void closeAll() {
        for (final var it = entries.entrySet().iterator(); it.hasNext(); ) {
            final var en = it.next();
            final Entry e = en.getValue();
            it.remove();
            if (e.created && e.removed) {
                continue;
            }
            e.arena.close();
            if (e.created) {
                removed((int) (en.getKey() >>> 32), (int) (long) en.getKey());
            }
        }
    }

    /**
     * How many segments this process created and has not removed, and mappings it holds of others'.
     *
     * @return the live entries (for tests and leak checks)
     */
    public synchronized int liveEntries() {
        int n = 0;
        for (final Entry e : entries.values()) {
            if (!e.removed) {
                n++;
            }
        }
        return n;
    }
}
