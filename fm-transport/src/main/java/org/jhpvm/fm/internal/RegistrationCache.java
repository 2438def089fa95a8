package org.jhpvm.fm.internal;

import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;

/**
 * The arrays a rendezvous moved bytes from or into lately, kept registered with the NIC so that an array used again
 * (the common case: a program sends from and receives into the same buffers over and over) costs a lookup, not a
 * registration. A small round-robin set looked up by identity; the oldest entry is deregistered to make room, which
 * its owner does only between transfers, never with one of its transfers in flight. It holds the arrays until they
 * are evicted or the endpoint closes. The endpoint's thread only; a hit allocates nothing.
 */
final class RegistrationCache {
    private final Nic nic;
    private final Object[] memory;
    private final MemoryRegion[] regions;
    /** The transfer that used each entry last: an entry marked with the current one is in use and stays. */
    private final long[] mark;
    private int next;

    RegistrationCache(final Nic nic, final int entries) {
        this.nic = nic;
        this.memory = new Object[entries];
        this.regions = new MemoryRegion[entries];
        this.mark = new long[entries];
        java.util.Arrays.fill(mark, Long.MIN_VALUE);
    }

    /**
     * The NIC's region of an array, registered if it is not cached: the oldest entry not marked with
     * {@code transfer} makes room.
     *
     * @param array    the array
     * @param transfer the transfer (message) that will use it: the entry is marked with it
     * @return the region, or null if every entry is in use by {@code transfer} (the caller copies instead)
     */
    MemoryRegion regionOf(final Object array, final long transfer) {
        for (int i = 0; i < memory.length; i++) {
            if (memory[i] == array) {
                mark[i] = transfer;
                return regions[i];
            }
        }
        for (int tries = 0; tries < memory.length; tries++) {
            final int slot = next;
            next = (next + 1) % memory.length;
            if (mark[slot] == transfer) {
                continue;
            }
            if (regions[slot] != null) {
                nic.deregister(regions[slot]);
            }
            memory[slot] = array;
            regions[slot] = nic.register(array);
            mark[slot] = transfer;
            return regions[slot];
        }
        return null;
    }

}
