package org.jhpvm.shmem;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One PE's symmetric objects by id: registered by its allocations (its own thread), looked up by its handlers and,
 * for {@code ptr}, by other PEs' threads. Entries are published with release and read with acquire; the table grows
 * by copying, and a reader that sees the old table misses only objects registered since, which no request can name
 * yet (an allocation ends with a barrier).
 */
final class SymmetricObjects {
    private static final VarHandle OBJECTS = MethodHandles.arrayElementVarHandle(SymmetricArray[].class);

    private volatile SymmetricArray[] objects = new SymmetricArray[64];

    void register(final SymmetricArray s) {
        SymmetricArray[] t = objects;
        if (s.id >= t.length) {
            final SymmetricArray[] grown = new SymmetricArray[Math.max(s.id + 1, 2 * t.length)];
            System.arraycopy(t, 0, grown, 0, t.length);
            t = grown;
            objects = t;
        }
        OBJECTS.setRelease(t, s.id, s);
    }

    void unregister(final SymmetricArray s) {
        OBJECTS.setRelease(objects, s.id, (SymmetricArray) null);
    }

    /** @return the live object with this id, or null (any thread) */
    SymmetricArray lookup(final int id) {
        final SymmetricArray[] t = objects;
        if (id < 0 || id >= t.length) {
            return null;
        }
        final SymmetricArray s = (SymmetricArray) OBJECTS.getAcquire(t, id);
        return s == null || s.freed ? null : s;
    }
}
