package org.jhpvm.mpi.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmRegion;

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

    /** Bytes of the longest header: an envelope, a request's id and an array's handle, key and offset. */
    static final int HEADER = ENVELOPE + REQUEST + REMOTE;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Puts an envelope at the start of {@code header} (at least {@link #HEADER} bytes), as FM's {@code sendLong},
     * {@code sendLong} and {@code sendInt} would send it (little endian): context and source, tag and elements, kind.
     * The header then goes as one piece, one call into FM rather than three.
     *
     * @return {@link #ENVELOPE}, where what follows goes
     */
    static int putEnvelope(final byte[] header, final int context, final int source, final int tag, final Kind kind,
                           final long elements) {
        LONG.set(header, 0, ((long) context << 32) | (source & 0xFFFF_FFFFL));
        LONG.set(header, 8, ((long) tag << 32) | (elements & 0xFFFF_FFFFL));
        INT.set(header, 16, kind.ordinal());
        return ENVELOPE;
    }

    /** @return the length of a request to send's header, with an array named ({@code region} not null) or not */
    static int requestBytes(final FmRegion region) {
        return region == null ? ENVELOPE + REQUEST : HEADER;
    }

    /**
     * Puts a request to send's part after the envelope: the sender's operation {@code id}, and, if {@code region} is
     * not null, the array's handle, key and byte offset.
     *
     * @return the header's length in bytes
     */
    static int putRequest(final byte[] header, final int id, final FmRegion region, final long byteOffset) {
        INT.set(header, ENVELOPE, id);
        if (region == null) {
            return ENVELOPE + REQUEST;
        }
        INT.set(header, ENVELOPE + REQUEST, region.handle());
        INT.set(header, ENVELOPE + REQUEST + 4, region.key());
        LONG.set(header, ENVELOPE + REQUEST + 8, byteOffset);
        return HEADER;
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
