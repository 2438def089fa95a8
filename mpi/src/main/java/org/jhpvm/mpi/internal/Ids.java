package org.jhpvm.mpi.internal;

import java.util.Arrays;

/**
 * Small integer names for the operations a rendezvous message refers to (the sender's send in a request to send, the
 * receiver's receive in a clear-to-send), with a free list so that names are reused and the table stays as large as
 * the most operations in flight at once.
 */
final class Ids {
    private Pending[] slots = new Pending[16];
    private int[] free = new int[16];
    private int freeCount;
    private int used;

    int add(final Pending p) {
        final int id;
        if (freeCount > 0) {
            id = free[--freeCount];
        } else {
            if (used == slots.length) {
                slots = Arrays.copyOf(slots, used * 2);
            }
            id = used++;
        }
        slots[id] = p;
        p.id = id;
        return id;
    }

    /** The operation named {@code id}, or null if there is none (a stale or forged id). */
    Pending get(final int id) {
        return id >= 0 && id < used ? slots[id] : null;
    }

    void remove(final Pending p) {
        final int id = p.id;
        if (id < 0 || slots[id] != p) {
            return;
        }
        slots[id] = null;
        p.id = -1;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = id;
    }

    /** Operations in flight. */
    int inFlight() {
        return used - freeCount;
    }
}
