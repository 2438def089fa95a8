package org.jhpvm.mpi.internal;

import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/**
 * What an MPI message starts with, as a handler reads it: the envelope (context, source, tag, kind, elements), and
 * for a request to send the sender's operation id and, by RDMA rendezvous, the sender's registered array (handle, key,
 * byte offset). All of it lies in the message's first frame, so no other handler runs while it is read; the engine
 * reuses one, and a handler that then waits for later frames (an eager message's data) copies what it needs first.
 */
final class Arrival {
    int context;
    int source;
    int tag;
    Kind kind;
    long elements;
    /** The sender's operation, for a request to send; -1 otherwise. */
    int sendId;
    /** Whether the sender named its array ({@link RdmaReads}). */
    boolean remote;
    int remoteHandle;
    int remoteKey;
    long remoteOffset;

    /** Bytes of the envelope. */
    static final int ENVELOPE = 20;
    /** Bytes a request to send adds to the envelope: the sender's operation id. */
    static final int REQUEST = 4;
    /** Bytes a request to send by RDMA adds beyond that: its array's handle, key and byte offset. */
    static final int REMOTE = 16;

    /** Writes an envelope in three pieces: context and source, tag and elements, kind. */
    static void writeEnvelope(final FmOutputStream out, final int context, final int source, final int tag,
                              final Kind kind, final long elements) {
        out.sendLong(((long) context << 32) | (source & 0xFFFF_FFFFL));
        out.sendLong(((long) tag << 32) | (elements & 0xFFFF_FFFFL));
        out.sendInt(kind.ordinal());
    }

    /** Reads an envelope. */
    void readEnvelope(final FmInputStream in) {
        final long contextSource = in.receiveLong();
        final long tagElements = in.receiveLong();
        kind = Kind.ofCode(in.receiveInt());
        context = (int) (contextSource >> 32);
        source = (int) contextSource;
        tag = (int) (tagElements >> 32);
        elements = tagElements & 0xFFFF_FFFFL;
        sendId = -1;
        remote = false;
    }

    /** Reads a request to send: the envelope, the sender's id and, if {@code named}, the sender's array. */
    void readRequest(final FmInputStream in, final boolean named) {
        readEnvelope(in);
        sendId = in.receiveInt();
        remote = named;
        if (named) {
            remoteHandle = in.receiveInt();
            remoteKey = in.receiveInt();
            remoteOffset = in.receiveLong();
        }
    }
}
