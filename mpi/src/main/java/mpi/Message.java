package mpi;

import java.nio.Buffer;

import org.jhpvm.mpi.internal.Envelope;
import org.jhpvm.mpi.internal.Pending;
import org.jhpvm.mpi.internal.RecvOp;
import org.jhpvm.mpi.internal.Unexpected;

/**
 * A matched message ({@code MPI_Message}): {@link #mProbe} or {@link #imProbe} finds a message and takes it out of
 * matching, so that no other receive, probe or thread can get it; {@link #mRecv} or {@link #imRecv} then receives
 * exactly that message, into a buffer sized from the probe's status. A new message is {@code MPI_MESSAGE_NULL}; a
 * probe with {@code MPI.PROC_NULL} gives {@code MPI_MESSAGE_NO_PROC}, whose receive returns at once with a
 * {@code PROC_NULL} status; a receive makes the message null again. Receiving a null message is
 * {@code ERR_REQUEST}, as are probing into a message not yet received.
 */
public final class Message {
    private CommState comm;
    private Unexpected matched;
    private boolean noProc;

    /** Creates {@code MPI_MESSAGE_NULL}. */
    public Message() {
    }

    /**
     * Whether this is {@code MPI_MESSAGE_NULL}: no message probed, or its receive made.
     *
     * @return true if null
     */
    public boolean isNull() {
        return matched == null && !noProc;
    }

    /**
     * Whether this is {@code MPI_MESSAGE_NO_PROC}: the result of a probe with {@code MPI.PROC_NULL}.
     *
     * @return true if so
     */
    public boolean isNoProc() {
        return noProc;
    }

    /**
     * {@code MPI_Mprobe}: waits for a matching message and takes it for this handle.
     *
     * @param source the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @param comm   the communicator
     * @return the message's status
     * @throws MPIException a bad argument, or {@code ERR_REQUEST} if this handle holds a message not yet received
     */
    public Status mProbe(final int source, final int tag, final Comm comm) throws MPIException {
        final CommState c = probing(source, tag, comm, "mProbe");
        if (source == MPI.PROC_NULL) {
            return noProc(c);
        }
        final Pending into = new Envelope();
        Unexpected u;
        while ((u = c.engine.takeMatch(c.context, source, tag, into)) == null) {
            c.engine.idle();
        }
        return took(c, u, into);
    }

    /**
     * {@code MPI_Improbe}: takes a matching message for this handle if one is there, after making progress once.
     *
     * @param source the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @param comm   the communicator
     * @return the message's status, or null if none is there (the handle stays null)
     * @throws MPIException a bad argument, or {@code ERR_REQUEST} if this handle holds a message not yet received
     */
    public Status imProbe(final int source, final int tag, final Comm comm) throws MPIException {
        final CommState c = probing(source, tag, comm, "imProbe");
        if (source == MPI.PROC_NULL) {
            return noProc(c);
        }
        final Pending into = new Envelope();
        Unexpected u = c.engine.takeMatch(c.context, source, tag, into);
        if (u == null) {
            c.engine.poll();
            u = c.engine.takeMatch(c.context, source, tag, into);
        }
        return u == null ? null : took(c, u, into);
    }

    /**
     * {@code MPI_Mrecv}: receives the probed message.
     *
     * @param buf   where it goes: an array, or a heap or direct buffer
     * @param count items the buffer holds
     * @param type  their datatype
     * @return the status, as the probe's
     * @throws MPIException a bad argument, {@code ERR_REQUEST} for a null message, {@code ERR_TRUNCATE} for a
     *                      message longer than the buffer
     */
    public Status mRecv(final Object buf, final int count, final Datatype type) throws MPIException {
        final CommState c = receiving("mRecv");
        final RecvOp r = start(c, buf, count, type, "mRecv");
        return PointToPoint.complete(c, r);
    }

    /**
     * {@code MPI_Imrecv}: starts receiving the probed message.
     *
     * @param buf   where it goes: a direct buffer (as the bindings ask), or a heap buffer or array
     * @param count items the buffer holds
     * @param type  their datatype
     * @return the request
     * @throws MPIException a bad argument or {@code ERR_REQUEST} for a null message
     */
    public Request imRecv(final Object buf, final int count, final Datatype type) throws MPIException {
        final CommState c = receiving("imRecv");
        final RecvOp r = start(c, buf, count, type, "imRecv");
        return r == null ? new Request(c, Status.procNull(MPI.UNDEFINED)) : new Request(c, r);
    }

    /**
     * {@code MPI_Imrecv} from a {@code java.nio} buffer, the bindings' signature.
     *
     * @param buf   where it goes
     * @param count items the buffer holds
     * @param type  their datatype
     * @return the request
     * @throws MPIException a bad argument or {@code ERR_REQUEST} for a null message
     */
    public Request imRecv(final Buffer buf, final int count, final Datatype type) throws MPIException {
        return imRecv((Object) buf, count, type);
    }

    private CommState probing(final int source, final int tag, final Comm comm, final String what)
        throws MPIException {
        if (comm == null) {
            throw new MPIException(MPI.ERR_COMM, what + ": no communicator");
        }
        final CommState c = comm.st();
        PointToPoint.checkSource(c, source, what);
        PointToPoint.checkRecvTag(c, tag, what);
        if (matched != null) {
            throw c.error(MPI.ERR_REQUEST, what + ": this message handle holds a message not yet received");
        }
        return c;
    }

    private Status noProc(final CommState c) {
        comm = c;
        noProc = true;
        return Status.procNull(MPI.UNDEFINED);
    }

    private Status took(final CommState c, final Unexpected u, final Pending envelope) {
        comm = c;
        matched = u;
        noProc = false;
        return Status.of(envelope, MPI.UNDEFINED);
    }

    private CommState receiving(final String what) throws MPIException {
        if (isNull()) {
            final CommState any = Rank.active().world;
            throw any.error(MPI.ERR_REQUEST, what + ": the message is MPI_MESSAGE_NULL (probe one first)");
        }
        comm.rank.check();
        return comm;
    }

    /** Checks the buffer, then receives the message (null for MESSAGE_NO_PROC); the handle becomes null. */
    private RecvOp start(final CommState c, final Object buf, final int count, final Datatype type, final String what)
        throws MPIException {
        final org.jhpvm.mpi.internal.TypeMap t = PointToPoint.type(c, type, what);
        Buffers.check(c, buf, t, count, what);
        final Unexpected u = matched;
        matched = null;
        noProc = false;
        if (u == null) {
            return null;
        }
        return c.engine.receiveMatched(u, Buffers.data(buf, t.kind()), Buffers.base(buf, t.kind()), t, count);
    }
}
