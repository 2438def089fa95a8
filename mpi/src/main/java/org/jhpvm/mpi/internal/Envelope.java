package org.jhpvm.mpi.internal;

/** What a probe found: a message's envelope, filled by {@link Engine#probe}. */
public final class Envelope extends Pending {
    /** An empty envelope. */
    public Envelope() {
    }

    @Override
    public boolean isReceive() {
        return true;
    }
}
