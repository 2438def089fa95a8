package org.jhpvm.shmem;

import java.util.concurrent.atomic.AtomicReferenceArray;

/** What the PEs of one job in this JVM share: each PE's engine, for {@code ptr} (direct load/store access). */
final class World {
    private final AtomicReferenceArray<Engine> engines;

    World(final int pes) {
        this.engines = new AtomicReferenceArray<>(pes);
    }

    void register(final Engine e) {
        engines.set(e.me, e);
    }

    /** @return PE {@code pe}'s live object {@code id}, or null if it is not (yet, or any more) there */
    SymmetricArray object(final int pe, final int id) {
        final Engine e = engines.get(pe);
        return e == null ? null : e.objects.lookup(id);
    }
}
