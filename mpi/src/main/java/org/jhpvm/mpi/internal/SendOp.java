package org.jhpvm.mpi.internal;

import org.jhpvm.fm.FmRegion;

/** A send by rendezvous waiting for its receiver's clear-to-send, or an eager send (done at once). */
public final class SendOp extends Pending {
    int destWorld;
    Object buf;
    long offset;
    TypeMap type;
    int count;
    int recvId;
    /** The registered array a receiver may read the data from (RDMA rendezvous), or null. */
    FmRegion region;

    /** What a blocking eager send returns ({@link Engine#startBlockingSend}): done, shared, never written. */
    static final SendOp SENT = new SendOp();

    static {
        SENT.done = true;
    }

    SendOp() {
    }

    /** Sets the send's envelope: what every send, eager or not, records of itself; returns this. */
    SendOp of(final int source, final int tag, final Kind kind, final long elements) {
        this.source = source;
        this.tag = tag;
        this.kind = kind;
        this.elements = elements;
        return this;
    }

    /** Back to a new operation's state ({@link OpPool}). */
    void clear() {
        clearPending();
        destWorld = 0;
        buf = null;
        offset = 0;
        type = null;
        count = 0;
        recvId = 0;
        region = null;
    }

    @Override
    public boolean isReceive() {
        return false;
    }

    @Override
    boolean describeWait(final StringBuilder out) {
        out.append("rank ").append(destWorld).append(" (of the world) to receive its message with tag ").append(tag)
            .append(" (a message of rendezvous size waits for the matching receive)");
        return true;
    }
}
