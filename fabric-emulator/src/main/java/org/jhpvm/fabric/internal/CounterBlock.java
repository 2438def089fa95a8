package org.jhpvm.fabric.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A small block of counters with one writer at a time (the writer holds the lock or is the thread that owns
 * the role), read by anyone. Padded at both ends so that counters of different writers never share a cache
 * line. Writes and reads are opaque: atomic, never torn, no ordering cost on the data path.
 */
final class CounterBlock {
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int PAD = 16;

    private final long[] cells;

    CounterBlock(final int counters) {
        cells = new long[PAD + counters + PAD];
    }

    void add(final int counter, final long delta) {
        final int i = PAD + counter;
        CELL.setOpaque(cells, i, (long) CELL.getOpaque(cells, i) + delta);
    }

    void increment(final int counter) {
        add(counter, 1);
    }

    long get(final int counter) {
        return (long) CELL.getOpaque(cells, PAD + counter);
    }

    /** @return bytes this block takes on the heap (array header plus cells) */
    long footprintBytes() {
        return HeapFootprint.longArray(cells.length);
    }
}
