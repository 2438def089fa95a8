package org.jhpvm.mpi.internal;

/**
 * A message that arrived before its receive was posted: its envelope, and either its data (eager) or the id of the
 * sender's waiting send (rendezvous: the data stays at the sender until the receive is posted). Public only as the
 * handle of a matched probe ({@code mpi.Message}): a message taken out of matching, for one receive to get.
 */
public final class Unexpected {
    int context;
    int source;
    int tag;
    Kind kind;
    long elements;
    int senderWorld;
    /** The data of an eager message, null for a request to send. */
    byte[] data;
    int sendId;
    /** A request to send that named the sender's array (RDMA rendezvous): where the data can be read from. */
    boolean remote;
    int remoteHandle;
    int remoteKey;
    long remoteOffset;
    Unexpected prev;
    Unexpected next;

    /** A message arrived from {@code senderWorld}: its envelope, and for a request to send the sender's op and array. */
    Unexpected(final Arrival a, final int senderWorld) {
        this.context = a.context;
        this.source = a.source;
        this.tag = a.tag;
        this.kind = a.kind;
        this.elements = a.elements;
        this.senderWorld = senderWorld;
        this.sendId = a.sendId;
        this.remote = a.remote;
        this.remoteHandle = a.remoteHandle;
        this.remoteKey = a.remoteKey;
        this.remoteOffset = a.remoteOffset;
    }

    /** Copies this message's envelope into a probe's status. */
    void describeInto(final Pending into) {
        into.source = source;
        into.tag = tag;
        into.kind = kind;
        into.elements = elements;
        into.error = ErrorClasses.SUCCESS;
    }
}
