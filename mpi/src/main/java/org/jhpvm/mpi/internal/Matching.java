package org.jhpvm.mpi.internal;

/**
 * MPI's matching: the posted receives in the order they were posted and the unexpected messages in the order they
 * arrived, both as intrusive lists. An arriving message takes the first posted receive it matches; a receive being
 * posted takes the first unexpected message it matches. Since FM delivers each sender's messages in order and the
 * handler matches at the message's first frame, two messages of one sender on one communicator are matched in the
 * order they were sent (MPI's non-overtaking rule). Wildcards: {@link #ANY} for source and tag.
 */
final class Matching {
    /** {@code MPI.ANY_SOURCE} and {@code MPI.ANY_TAG}. */
    static final int ANY = -1;

    private RecvOp postedHead;
    private RecvOp postedTail;
    private Unexpected unexpectedHead;
    private Unexpected unexpectedTail;
    private int unexpectedCount;

    private static boolean matches(final int wantSource, final int wantTag, final int source, final int tag) {
        return (wantSource == ANY || wantSource == source) && (wantTag == ANY || wantTag == tag);
    }

    /** Takes the first posted receive an arriving message matches, or returns null. */
    RecvOp takePosted(final int context, final int source, final int tag) {
        for (RecvOp r = postedHead; r != null; r = r.next) {
            if (r.context == context && matches(r.wantSource, r.wantTag, source, tag)) {
                unlink(r);
                return r;
            }
        }
        return null;
    }

    void post(final RecvOp r) {
        r.next = null;
        r.prev = postedTail;
        if (postedTail == null) {
            postedHead = r;
        } else {
            postedTail.next = r;
        }
        postedTail = r;
    }

    /** Removes a posted receive (a cancel); false if it is not posted any more. */
    boolean unpost(final RecvOp r) {
        for (RecvOp x = postedHead; x != null; x = x.next) {
            if (x == r) {
                unlink(r);
                return true;
            }
        }
        return false;
    }

    private void unlink(final RecvOp r) {
        if (r.prev == null) {
            postedHead = r.next;
        } else {
            r.prev.next = r.next;
        }
        if (r.next == null) {
            postedTail = r.prev;
        } else {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
    }

    /** The first unexpected message a receive (or probe) matches, left in place; null if none. */
    Unexpected findUnexpected(final int context, final int source, final int tag) {
        for (Unexpected u = unexpectedHead; u != null; u = u.next) {
            if (u.context == context && matches(source, tag, u.source, u.tag)) {
                return u;
            }
        }
        return null;
    }

    void addUnexpected(final Unexpected u) {
        u.next = null;
        u.prev = unexpectedTail;
        if (unexpectedTail == null) {
            unexpectedHead = u;
        } else {
            unexpectedTail.next = u;
        }
        unexpectedTail = u;
        unexpectedCount++;
    }

    void removeUnexpected(final Unexpected u) {
        if (u.prev == null) {
            unexpectedHead = u.next;
        } else {
            u.prev.next = u.next;
        }
        if (u.next == null) {
            unexpectedTail = u.prev;
        } else {
            u.next.prev = u.prev;
        }
        u.prev = null;
        u.next = null;
        unexpectedCount--;
    }

    /** How many messages wait unexpected. */
    int unexpectedCount() {
        return unexpectedCount;
    }

    /** Whether any receive is posted. */
    boolean anyPosted() {
        return postedHead != null;
    }
}
