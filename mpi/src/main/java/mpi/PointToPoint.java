package mpi;

import java.nio.Buffer;

import org.jhpvm.mpi.internal.Envelope;
import org.jhpvm.mpi.internal.Pending;
import org.jhpvm.mpi.internal.RecvOp;
import org.jhpvm.mpi.internal.SendOp;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * The point-to-point calls of a communicator (the part of {@link Comm} that sends and receives one message).
 * Every argument is checked before anything is sent: a bad rank ({@code ERR_RANK}), tag ({@code ERR_TAG}), count
 * ({@code ERR_COUNT}), datatype ({@code ERR_TYPE}), buffer ({@code ERR_BUFFER}) or freed communicator
 * ({@code ERR_COMM}) is reported through the error handler and changes nothing.
 */
abstract class PointToPoint {
    PointToPoint() {
    }

    /** This rank's state of the communicator, checked to be usable. */
    abstract CommState st() throws MPIException;

    // ------------------------------------------------------------------------------------------------ checks

    static void checkDest(final CommState c, final int dest, final String what) throws MPIException {
        if (dest != MPI.PROC_NULL && (dest < 0 || dest >= c.size())) {
            throw c.error(MPI.ERR_RANK, what + ": rank " + dest + " is not in " + c.name + " (size " + c.size()
                + ")");
        }
    }

    static void checkSource(final CommState c, final int source, final String what) throws MPIException {
        if (source != MPI.ANY_SOURCE) {
            checkDest(c, source, what);
        }
    }

    static void checkSendTag(final CommState c, final int tag, final String what) throws MPIException {
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw c.error(MPI.ERR_TAG, what + ": tag " + tag + " is not in 0.." + MPI.TAG_UB_VALUE);
        }
    }

    static void checkRecvTag(final CommState c, final int tag, final String what) throws MPIException {
        if (tag != MPI.ANY_TAG) {
            checkSendTag(c, tag, what);
        }
    }

    static TypeMap type(final CommState c, final Datatype type, final String what) throws MPIException {
        if (type == null) {
            throw c.error(MPI.ERR_TYPE, what + ": datatype is null");
        }
        try {
            return type.forUse();
        } catch (MPIException e) {
            throw c.error(MPI.ERR_TYPE, what + ": " + e.getMessage());
        }
    }

    static void checkDirect(final Buffer buf, final String which) {
        if (buf != null && !buf.isDirect()) {
            throw new IllegalArgumentException("The " + which + "buffer must be direct.");
        }
    }

    // ------------------------------------------------------------------------------------------------ sends

    /**
     * Checks and starts a send; null for PROC_NULL. A {@code blocking} one's state is only awaited and checked, so an
     * eager one allocates none ({@link org.jhpvm.mpi.internal.Engine#startBlockingSend}).
     */
    static SendOp startSend(final CommState c, final Object buf, final int count, final Datatype type,
                            final int dest, final int tag, final boolean sync, final boolean blocking,
                            final String what) throws MPIException {
        final TypeMap t = type(c, type, what);
        Buffers.check(c, buf, t, count, what);
        checkDest(c, dest, what);
        checkSendTag(c, tag, what);
        if ((long) count * t.size() * t.kind().bytes > MPI.MAX_MESSAGE_BYTES) {
            throw c.error(MPI.ERR_COUNT, what + ": " + count + " items are more than " + MPI.MAX_MESSAGE_BYTES
                + " bytes");
        }
        if (dest == MPI.PROC_NULL) {
            return null;
        }
        final Object data = Buffers.data(buf, t.kind());
        final long base = Buffers.base(buf, t.kind());
        return blocking ? c.engine.startBlockingSend(c.context, c.me, c.members[dest], tag, data, base, t, count, sync)
            : c.engine.startSend(c.context, c.me, c.members[dest], tag, data, base, t, count, sync);
    }

    /** Checks and starts a receive; null for PROC_NULL. */
    static RecvOp startReceive(final CommState c, final Object buf, final int count, final Datatype type,
                               final int source, final int tag, final String what) throws MPIException {
        return startReceive(c, buf, count, type, source, tag, false, what);
    }

    /** As above; a {@code blocking} receive's operation goes back to the engine ({@code recycle}) once read. */
    private static RecvOp startReceive(final CommState c, final Object buf, final int count, final Datatype type,
                                       final int source, final int tag, final boolean blocking, final String what)
        throws MPIException {
        final TypeMap t = type(c, type, what);
        Buffers.check(c, buf, t, count, what);
        checkSource(c, source, what);
        checkRecvTag(c, tag, what);
        if (source == MPI.PROC_NULL) {
            return null;
        }
        final Object data = Buffers.data(buf, t.kind());
        final long base = Buffers.base(buf, t.kind());
        return blocking ? c.engine.startBlockingReceive(c.context, source, tag, data, base, t, count)
            : c.engine.startReceive(c.context, source, tag, data, base, t, count);
    }

    static Status complete(final CommState c, final Pending p) throws MPIException {
        if (p == null) {
            return Status.procNull(MPI.UNDEFINED);
        }
        awaitChecked(c, p);
        return Status.of(p, MPI.UNDEFINED);
    }

    /** {@link #complete} of a call that returns no status (the blocking sends): no status is made. */
    static void awaitChecked(final CommState c, final Pending p) throws MPIException {
        if (p == null) {
            return;
        }
        c.engine.await(p);
        if (p.error != MPI.SUCCESS) {
            throw c.error(p.error, Request.describe(p));
        }
    }

    /**
     * {@code MPI_Send}: a standard-mode send; returns when {@code buf} may be reused (small messages at once, large
     * ones once the receiver has taken them).
     *
     * @param buf   an array, or a heap or direct buffer, of the type's base type
     * @param count items
     * @param type  their datatype
     * @param dest  the destination's rank, or {@code MPI.PROC_NULL}
     * @param tag   the tag, 0..{@code TAG_UB}
     * @throws MPIException a bad argument, as the error handler says
     */
    public final void send(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        final CommState c = st();
        awaitChecked(c, startSend(c, buf, count, type, dest, tag, false, true, "send"));
    }

    /** Checks a buffered send, copies its data and starts it; the copy's space is given back when it has gone. */
    static void startBuffered(final CommState c, final Object buf, final int count, final Datatype type,
                              final int dest, final int tag, final String what) throws MPIException {
        final TypeMap t = type(c, type, what);
        Buffers.check(c, buf, t, count, what);
        checkDest(c, dest, what);
        checkSendTag(c, tag, what);
        if (dest == MPI.PROC_NULL) {
            return;
        }
        final Rank r = c.rank;
        r.reclaim();
        final long bytes = count * t.size() * t.kind().bytes;
        final long need = bytes + MPI.BSEND_OVERHEAD;
        final boolean room = r.attached != null && r.attachedUsed + need <= r.attached.length;
        // Without room, a message small enough for the eager protocol is sent as Open MPI's ob1 sends it (inline,
        // the data copied at once): the call is as local as a buffered one. Larger ones are refused.
        if (!room && bytes > c.engine.eagerLimit()) {
            throw c.error(MPI.ERR_BUFFER, what + ": " + need + " bytes of buffer needed, "
                + (r.attached == null ? "none attached (MPI.attachBuffer)" : (r.attached.length - r.attachedUsed)
                + " of " + r.attached.length + " free"));
        }
        final Object copy = Buffers.pack(buf, t, count);
        final Pending p = c.engine.startSend(c.context, c.me, c.members[dest], tag, copy, 0,
            TypeMap.basic(t.kind()), Math.toIntExact(count * t.size()), false);
        if (!p.done) {
            final long taken = room ? need : 0;
            r.attachedUsed += taken;
            r.buffered.add(java.util.Map.entry(p, taken));
        }
    }

    /**
     * {@code MPI_Bsend}: a buffered send; returns at once, the data copied, taking space in the buffer
     * {@code MPI.attachBuffer} gave until it has gone.
     *
     * @param buf   the data
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @throws MPIException a bad argument, or {@code ERR_BUFFER} when the attached buffer has no room
     */
    public final void bSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        startBuffered(st(), buf, count, type, dest, tag, "bSend");
    }

    /**
     * {@code MPI_Ibsend}: {@link #bSend} as a request, complete at once.
     *
     * @param buf   a direct buffer
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the (completed) request
     * @throws MPIException as {@link #bSend}
     */
    public final Request ibSend(final Buffer buf, final int count, final Datatype type, final int dest,
                                final int tag) throws MPIException {
        checkDirect(buf, "");
        final CommState c = st();
        startBuffered(c, buf, count, type, dest, tag, "ibSend");
        return new Request(c, Request.emptyStatus(MPI.UNDEFINED));
    }

    /**
     * {@code MPI_Ssend}: a synchronous send; returns only once the matching receive has started.
     *
     * @param buf   the data
     * @param count items
     * @param type  their datatype
     * @param dest  the destination's rank, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @throws MPIException a bad argument, as the error handler says
     */
    public final void sSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        final CommState c = st();
        awaitChecked(c, startSend(c, buf, count, type, dest, tag, true, true, "sSend"));
    }

    /**
     * {@code MPI_Rsend}: a ready-mode send (the receive must be posted already); here the same as {@link #send}.
     *
     * @param buf   the data
     * @param count items
     * @param type  their datatype
     * @param dest  the destination's rank, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @throws MPIException a bad argument, as the error handler says
     */
    public final void rSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        final CommState c = st();
        awaitChecked(c, startSend(c, buf, count, type, dest, tag, false, true, "rSend"));
    }

    /**
     * {@code MPI_Recv}: waits for a matching message and receives it.
     *
     * @param buf    where it goes
     * @param count  items the buffer holds
     * @param type   their datatype
     * @param source the source's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return the status: source, tag, and how much arrived ({@link Status#getCount})
     * @throws MPIException a bad argument, or {@code ERR_TRUNCATE} for a message longer than the buffer
     */
    public final Status recv(final Object buf, final int count, final Datatype type, final int source,
                             final int tag) throws MPIException {
        final CommState c = st();
        final RecvOp r = startReceive(c, buf, count, type, source, tag, true, "recv");
        try {
            return complete(c, r);
        } finally {
            if (r != null) {
                c.engine.recycle(r);
            }
        }
    }

    /**
     * {@code MPI_Sendrecv}: sends one message and receives another, safely in any order of the two ranks' calls.
     *
     * @param sendbuf   the data sent
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param dest      the destination, or {@code MPI.PROC_NULL}
     * @param sendtag   the tag sent
     * @param recvbuf   where the received data goes
     * @param recvcount items it holds
     * @param recvtype  their datatype
     * @param source    the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param recvtag   the tag received, or {@code MPI.ANY_TAG}
     * @return the receive's status
     * @throws MPIException a bad argument, or the receive's error
     */
    public final Status sendRecv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int dest,
                                 final int sendtag, final Object recvbuf, final int recvcount,
                                 final Datatype recvtype, final int source, final int recvtag) throws MPIException {
        final CommState c = st();
        // Both checked before either starts, so that a bad argument changes nothing.
        final TypeMap st = type(c, sendtype, "sendRecv");
        Buffers.check(c, sendbuf, st, sendcount, "sendRecv");
        checkDest(c, dest, "sendRecv");
        checkSendTag(c, sendtag, "sendRecv");
        final RecvOp r = startReceive(c, recvbuf, recvcount, recvtype, source, recvtag, "sendRecv");
        final SendOp s = startSend(c, sendbuf, sendcount, sendtype, dest, sendtag, false, false, "sendRecv");
        if (s != null) {
            c.engine.await(s);
        }
        return complete(c, r);
    }

    /**
     * {@code MPI_Sendrecv_replace}: sends the buffer and receives into it.
     *
     * @param buf     the data sent, replaced by the data received
     * @param count   items
     * @param type    their datatype
     * @param dest    the destination, or {@code MPI.PROC_NULL}
     * @param sendtag the tag sent
     * @param source  the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param recvtag the tag received, or {@code MPI.ANY_TAG}
     * @return the receive's status
     * @throws MPIException a bad argument, or the receive's error
     */
    public final Status sendRecvReplace(final Object buf, final int count, final Datatype type, final int dest,
                                        final int sendtag, final int source, final int recvtag) throws MPIException {
        final CommState c = st();
        final TypeMap t = type(c, type, "sendRecvReplace");
        Buffers.check(c, buf, t, count, "sendRecvReplace");
        checkDest(c, dest, "sendRecvReplace");
        checkSendTag(c, sendtag, "sendRecvReplace");
        checkSource(c, source, "sendRecvReplace");
        checkRecvTag(c, recvtag, "sendRecvReplace");
        final Object copy = Buffers.pack(buf, t, count);
        final TypeMap dense = TypeMap.basic(t.kind());
        final int n = Math.toIntExact(count * t.size());
        final RecvOp r = source == MPI.PROC_NULL ? null : c.engine.startReceive(c.context, source, recvtag,
            Buffers.data(buf, t.kind()), Buffers.base(buf, t.kind()), t, count);
        final SendOp s = dest == MPI.PROC_NULL ? null : c.engine.startSend(c.context, c.me, c.members[dest],
            sendtag, copy, 0, dense, n, false);
        if (s != null) {
            c.engine.await(s);
        }
        return complete(c, r);
    }

    /**
     * {@code MPI_Probe}: waits until a matching message is there, without receiving it.
     *
     * @param source the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return its status
     * @throws MPIException a bad argument
     */
    public final Status probe(final int source, final int tag) throws MPIException {
        final CommState c = st();
        checkSource(c, source, "probe");
        checkRecvTag(c, tag, "probe");
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        final Pending into = new Envelope();
        while (!c.engine.probe(c.context, source, tag, into)) {
            c.engine.idle();
        }
        return Status.of(into, MPI.UNDEFINED);
    }

    /**
     * {@code MPI_Iprobe}: whether a matching message is there, after making progress once.
     *
     * @param source the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return its status, or null if none is there
     * @throws MPIException a bad argument
     */
    public final Status iProbe(final int source, final int tag) throws MPIException {
        final CommState c = st();
        checkSource(c, source, "iProbe");
        checkRecvTag(c, tag, "iProbe");
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        final Pending into = new Envelope();
        if (c.engine.probe(c.context, source, tag, into)) {
            return Status.of(into, MPI.UNDEFINED);
        }
        c.engine.poll();
        return c.engine.probe(c.context, source, tag, into) ? Status.of(into, MPI.UNDEFINED) : null;
    }

    private Request sendRequest(final Object buf, final int count, final Datatype type, final int dest,
                                final int tag, final boolean sync, final String what) throws MPIException {
        if (buf instanceof Buffer b) {
            checkDirect(b, "");
        }
        final CommState c = st();
        final SendOp s = startSend(c, buf, count, type, dest, tag, sync, false, what);
        return s == null ? new Request(c, Status.procNull(MPI.UNDEFINED)) : new Request(c, s);
    }

    /**
     * {@code MPI_Isend}: starts a standard-mode send from a direct buffer.
     *
     * @param buf   a direct buffer ({@code MPI.newDoubleBuffer} and its relatives)
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Request iSend(final Buffer buf, final int count, final Datatype type, final int dest,
                               final int tag) throws MPIException {
        return sendRequest(buf, count, type, dest, tag, false, "iSend");
    }

    /**
     * {@code MPI_Issend}: starts a synchronous send; it completes once the matching receive has started.
     *
     * @param buf   a direct buffer
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Request isSend(final Buffer buf, final int count, final Datatype type, final int dest,
                                final int tag) throws MPIException {
        return sendRequest(buf, count, type, dest, tag, true, "isSend");
    }

    /**
     * {@code MPI_Irsend}: a ready-mode {@link #iSend}.
     *
     * @param buf   a direct buffer
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Request irSend(final Buffer buf, final int count, final Datatype type, final int dest,
                                final int tag) throws MPIException {
        return sendRequest(buf, count, type, dest, tag, false, "irSend");
    }

    /**
     * {@code MPI_Irecv}: posts a receive into a direct buffer.
     *
     * @param buf    a direct buffer
     * @param count  items it holds
     * @param type   their datatype
     * @param source the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return the request; its status says what arrived
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Request iRecv(final Buffer buf, final int count, final Datatype type, final int source,
                               final int tag) throws MPIException {
        return receiveRequest(buf, count, type, source, tag);
    }

    /**
     * {@code MPI_Isend} from a Java array (an extension of the Open MPI bindings, as mpiJava and MPJ Express take
     * arrays here; start at an offset with {@code MPI.slice}): the array must not change until the request
     * completes, and large messages go from it without a copy.
     *
     * @param buf   an array of the type's base type
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Request iSend(final Object buf, final int count, final Datatype type, final int dest,
                               final int tag) throws MPIException {
        return sendRequest(buf, count, type, dest, tag, false, "iSend");
    }

    /**
     * {@code MPI_Irecv} into a Java array (an extension, as {@link #iSend(Object, int, Datatype, int, int)}).
     *
     * @param buf    an array of the type's base type
     * @param count  items it holds
     * @param type   their datatype
     * @param source the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return the request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Request iRecv(final Object buf, final int count, final Datatype type, final int source,
                               final int tag) throws MPIException {
        return receiveRequest(buf, count, type, source, tag);
    }

    private Request receiveRequest(final Object buf, final int count, final Datatype type, final int source,
                                   final int tag) throws MPIException {
        if (buf instanceof Buffer b) {
            checkDirect(b, "");
        }
        final CommState c = st();
        final RecvOp r = startReceive(c, buf, count, type, source, tag, "iRecv");
        return r == null ? new Request(c, Status.procNull(MPI.UNDEFINED)) : new Request(c, r);
    }
}
