package org.jhpvm.mpi.internal;

/**
 * The operation of a rank's last blocking receive, done and in no queue, kept for its next one: a blocking
 * {@code recv} returns only once its operation is done and read, so one operation serves them all (a new one is about
 * 100 bytes a message). A receive whose wait an abort ended may still be posted, and is not kept. Used by the rank's
 * thread only.
 */
final class SpareReceive {
    private RecvOp spare;

    /** @return the kept operation, cleared, or a new one */
    RecvOp take() {
        final RecvOp r = spare;
        if (r == null) {
            return new RecvOp();
        }
        spare = null;
        r.clear();
        return r;
    }

    /** Keeps {@code r} for the next blocking receive if it is done. */
    void give(final RecvOp r) {
        if (r.done) {
            spare = r;
        }
    }
}
