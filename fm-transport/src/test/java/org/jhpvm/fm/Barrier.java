package org.jhpvm.fm;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A barrier over FM 1.x messages for tests: everyone tells PE 0, PE 0 tells everyone. Create it before communicating. */
final class Barrier {
    private static final int ARRIVE = 4000;
    private static final int RELEASE = 4001;

    private final FastMessages fm;
    private long arrived;
    private long released;
    private long generation;

    Barrier(final FastMessages fm) {
        this.fm = fm;
        fm.register(ARRIVE, (Fm1Handler) (sender, buffer, offset, length) -> arrived++);
        fm.register(RELEASE, (Fm1Handler) (sender, buffer, offset, length) -> released++);
    }

    void await() {
        generation++;
        fm.send4(0, ARRIVE, 0, 0, 0, 0);
        if (fm.pe() == 0) {
            assertTrue(fm.extractUntil(() -> arrived >= generation * fm.pes(), TimeUnit.SECONDS.toNanos(30)));
            for (int p = 0; p < fm.pes(); p++) {
                fm.send4(p, RELEASE, 0, 0, 0, 0);
            }
        }
        assertTrue(fm.extractUntil(() -> released >= generation, TimeUnit.SECONDS.toNanos(30)));
    }
}
