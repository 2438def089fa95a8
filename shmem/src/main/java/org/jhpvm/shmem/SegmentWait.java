package org.jhpvm.shmem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A {@link SymmetricSegment}'s {@code waitUntil} on its own part, once the word did not compare true at once. A direct
 * store of another PE needs no progress here, so it first looks at the word alone for up to {@link #SPIN_NS} (the
 * progress agent serves the PE meanwhile, as while it computes); then it waits in the engine as every SHMEM wait does,
 * whose passes poll the fabric and which, when long, sleeps in the NIC: the storer's
 * {@link org.jhpvm.fm.FmHostMemory#written} ends that sleep. What it waits for
 * is kept here, set again after each turn another thread of the PE took (thread level MULTIPLE), and described to a
 * deadlock report.
 */
final class SegmentWait extends WaitCondition {
    /** How long a wait looks at the word alone before it waits in the engine. */
    static final long SPIN_NS = 5_000;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private final Engine engine;
    private final MemorySegment local;
    private final int id;
    private long offset;
    private Cmp cmp;
    private long value;

    SegmentWait(final Engine engine, final MemorySegment local, final int id) {
        this.engine = engine;
        this.local = local;
        this.id = id;
    }

    /** Waits until the word at {@code at} compares true against {@code against}; returns the value that did. */
    long await(final long at, final Cmp how, final long against) {
        // In virtual time only messages can change the word (no host memory), and a spin would count as computing.
        final long deadline = System.nanoTime() + (engine.virtualClock ? 0 : SPIN_NS);
        int k = 0;
        do {
            Thread.onSpinWait();
            final long v = (long) WORD.getVolatile(local, at);
            if (how.test(v, against)) {
                return v;
            }
        } while ((++k & 15) != 0 || System.nanoTime() - deadline < 0);
        engine.enter();
        try {
            do {
                offset = at;
                cmp = how;
                value = against;
            } while (!engine.awaitTurn(this));
            return (long) WORD.getVolatile(local, at);
        } finally {
            engine.exit();
        }
    }

    @Override
    public boolean getAsBoolean() {
        return cmp.test((long) WORD.getVolatile(local, offset), value);
    }

    @Override
    public void describeWait(final StringBuilder out) {
        out.append("segment ").append(id).append(" at offset ").append(offset).append(" to compare ").append(cmp)
            .append(' ').append(value).append(" (waitUntil)");
    }
}
