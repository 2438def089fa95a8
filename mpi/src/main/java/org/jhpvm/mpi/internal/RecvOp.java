package org.jhpvm.mpi.internal;

import org.jhpvm.fm.FmRegion;

/** A posted receive: what it matches, where the data goes, and, once matched by a request to send, its sender. */
public final class RecvOp extends Pending {
    int context;
    int wantSource;
    int wantTag;
    Object buf;
    long offset;
    TypeMap type;
    long capacity;
    int senderWorld;
    int sendId;
    /** The sender named its array (RDMA rendezvous): where the data can be read from. */
    boolean remote;
    int remoteHandle;
    int remoteKey;
    long remoteOffset;
    /** This receive's registered array while an RDMA read into it is in flight, or null. */
    FmRegion region;
    RecvOp prev;
    RecvOp next;

    RecvOp() {
    }

    /** Back to a new operation's state, for {@link Engine#startBlockingReceive}. */
    void clear() {
        clearPending();
        context = 0;
        wantSource = 0;
        wantTag = 0;
        buf = null;
        offset = 0;
        type = null;
        capacity = 0;
        senderWorld = 0;
        sendId = 0;
        remote = false;
        remoteHandle = 0;
        remoteKey = 0;
        remoteOffset = 0;
        region = null;
        prev = null;
        next = null;
    }

    /** Sets what the receive takes: its communicator's context, source and tag (or ANY), and where the data goes. */
    void wants(final int context, final int wantSource, final int wantTag, final Object buf, final long offset,
               final TypeMap type, final int count) {
        this.context = context;
        this.wantSource = wantSource;
        this.wantTag = wantTag;
        this.buf = buf;
        this.offset = offset;
        this.type = type;
        this.capacity = count * type.size();
    }

    @Override
    public boolean isReceive() {
        return true;
    }

    /** Takes the sender's array a request to send named, if it named one. */
    void remoteFrom(final boolean named, final int handle, final int key, final long byteOffset) {
        remote = named;
        remoteHandle = handle;
        remoteKey = key;
        remoteOffset = byteOffset;
    }

    @Override
    boolean describeWait(final StringBuilder out) {
        out.append("a message from ").append(wantSource == Matching.ANY ? "any rank" : "rank " + wantSource)
            .append(" with ").append(wantTag == Matching.ANY ? "any tag" : "tag " + wantTag)
            .append(" (communicator context ").append(context).append(')');
        return true;
    }
}
