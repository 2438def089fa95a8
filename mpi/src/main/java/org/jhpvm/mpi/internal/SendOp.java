package org.jhpvm.mpi.internal;

/** A send by rendezvous waiting for its receiver's clear-to-send, or an eager send (done at once). */
public final class SendOp extends Pending {
    int destWorld;
    Object buf;
    long offset;
    TypeMap type;
    int count;
    int recvId;

    SendOp() {
    }

    @Override
    public boolean isReceive() {
        return false;
    }
}
