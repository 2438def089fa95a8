package org.jhpvm.fm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jhpvm.fm.FmCounters;

/**
 * One endpoint's counters: written by the endpoint's thread with plain increments, read from any thread with
 * opaque reads. The two counts the exit barrier sums are written with release stores (free on x86).
 */
final class Counters {
    static final int MESSAGES_SENT = 0;
    static final int FRAMES_SENT = 1;
    static final int BYTES_SENT = 2;
    static final int MESSAGES_HANDLED = 3;
    static final int FRAMES_CONSUMED = 4;
    static final int BYTES_RECEIVED = 5;
    static final int HANDLERS_INLINE = 6;
    static final int HANDLERS_SUSPENDED = 7;
    static final int RETRANSMITTED = 8;
    static final int TIMEOUTS = 9;
    static final int ACKS_SENT = 10;
    static final int NACKS_SENT = 11;
    static final int CHECKSUM_REJECTS = 12;
    static final int DUPLICATE_REJECTS = 13;
    static final int ORDER_REJECTS = 14;
    static final int BUFFER_REJECTS = 15;
    static final int FLOW_WAITS = 16;
    static final int RENDEZVOUS_SENT = 17;
    static final int HANDLER_RESUMES = 18;
    private static final int COUNT = 19;
    /** Counters at the start and end of the array sit on lines of their own. */
    private static final int PAD = 8;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] values = new long[COUNT + 2 * PAD];

    void increment(final int counter) {
        values[PAD + counter]++;
    }

    void add(final int counter, final long delta) {
        values[PAD + counter] += delta;
    }

    /** Increments with a release store: readers that see the new value see everything written before it. */
    void incrementRelease(final int counter) {
        LONGS.setRelease(values, PAD + counter, values[PAD + counter] + 1);
    }

    long getAcquire(final int counter) {
        return (long) LONGS.getAcquire(values, PAD + counter);
    }

    long get(final int counter) {
        return (long) LONGS.getOpaque(values, PAD + counter);
    }

    FmCounters snapshot() {
        return new FmCounters(get(MESSAGES_SENT), get(FRAMES_SENT), get(BYTES_SENT), get(MESSAGES_HANDLED),
            get(FRAMES_CONSUMED), get(BYTES_RECEIVED), get(HANDLERS_INLINE), get(HANDLERS_SUSPENDED),
            get(RETRANSMITTED), get(TIMEOUTS), get(ACKS_SENT), get(NACKS_SENT), get(CHECKSUM_REJECTS),
            get(DUPLICATE_REJECTS), get(ORDER_REJECTS), get(BUFFER_REJECTS), get(FLOW_WAITS), get(RENDEZVOUS_SENT),
            get(HANDLER_RESUMES));
    }

    long footprintBytes() {
        return 16L + 8L * values.length;
    }
}
