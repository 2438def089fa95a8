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
    Unexpected prev;
    Unexpected next;

    /** A message arrived with this envelope from {@code senderWorld}; its data or send id are set after. */
    Unexpected(final int context, final int source, final int tag, final Kind kind, final long elements,
               final int senderWorld) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.kind = kind;
        this.elements = elements;
        this.senderWorld = senderWorld;
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
