package org.jhpvm.shmem;

import org.jhpvm.fm.FmCompletion;

/**
 * One PE's record of refused requests: those of its own a target refused (met in passing, raised by its next call),
 * those it refused itself (which only a bug or corruption sends: memory untouched), and a failure of its progress
 * agent. The first one's message is kept and thrown by {@link #check()}; all are counted ({@code shmem.rejected}).
 * Written by the PE's thread or, holding the endpoint, its agent; the message is volatile for the check.
 */
final class Rejections {
    private final int me;
    private volatile String first;
    private long count;

    Rejections(final int me) {
        this.me = me;
    }

    /** Throws the first refusal recorded, if any. */
    void check() {
        final String r = first;
        if (r != null) {
            throw new IllegalStateException(r);
        }
    }

    /** A NIC request of this PE that the target refused, met in passing: counted and raised by the next call. */
    void requestFailed(final int status) {
        count++;
        if (first == null) {
            first = "a NIC request of PE " + me + " was refused: " + FmCompletion.statusName(status)
                + " (no such live symmetric object at the target, or an index outside it); no memory was touched";
        }
    }

    /** A refused request raised at once by the call that waited for it. */
    void countRejected() {
        count++;
    }

    /** A request that can only come from a bug or corruption: counted, memory untouched, raised on this PE. */
    void reject(final int sender, final String what, final int id, final int index, final int stride,
        final int n) {
        count++;
        if (first == null) {
            first = "PE " + me + " rejected a " + what + " from PE " + sender + ": symmetric object #" + id
                + ", index " + index + ", stride " + stride + ", count " + n
                + " is not a live object or not inside it; memory was not touched";
        }
    }

    /** The agent hit an unexpected error: the PE thread's next SHMEM call throws it. */
    void agentFailed(final Throwable t) {
        if (first == null) {
            first = "the progress agent of PE " + me + " failed: " + t;
        }
    }

    /** @return requests refused so far */
    long count() {
        return count;
    }
}
