package org.jhpvm.mpi.internal;

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
    RecvOp prev;
    RecvOp next;

    RecvOp() {
    }

    @Override
    public boolean isReceive() {
        return true;
    }
}
