package mpi;

import java.nio.Buffer;

import org.jhpvm.mpi.internal.TypeMap;

/**
 * The persistent point-to-point requests of a communicator ({@code MPI_Send_init} and its kin): every argument is
 * checked when the request is made, as the other point-to-point calls check theirs; {@link Prequest#start()} then
 * starts the operation the request describes, with the buffer's contents at that time.
 */
abstract class PersistentCalls extends PointToPoint {
    PersistentCalls() {
    }

    private Prequest sendInit(final Buffer buf, final int count, final Datatype type, final int dest, final int tag,
                              final boolean sync, final String what) throws MPIException {
        checkDirect(buf, "");
        final CommState c = st();
        final TypeMap t = type(c, type, what);
        Buffers.check(c, buf, t, count, what);
        checkDest(c, dest, what);
        checkSendTag(c, tag, what);
        return new Prequest(c, () -> startSend(c, buf, count, type, dest, tag, sync, false, what));
    }

    /**
     * {@code MPI_Send_init}: a persistent standard-mode send from a direct buffer ({@link Prequest#start()} sends
     * the buffer's contents at that time).
     *
     * @param buf   a direct buffer
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the inactive request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Prequest sendInit(final Buffer buf, final int count, final Datatype type, final int dest,
                                   final int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag, false, "sendInit");
    }

    /**
     * {@code MPI_Bsend_init}: a persistent buffered send ({@link Prequest#start()} copies the buffer's contents and
     * sends them as {@link #bSend} does; the request is complete at once).
     *
     * @param buf   a direct buffer
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the inactive request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Prequest bSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
                                    final int tag) throws MPIException {
        checkDirect(buf, "");
        final CommState c = st();
        Buffers.check(c, buf, type(c, type, "bSendInit"), count, "bSendInit");
        checkDest(c, dest, "bSendInit");
        checkSendTag(c, tag, "bSendInit");
        return new Prequest(c, () -> {
            startBuffered(c, buf, count, type, dest, tag, "bSendInit");
            return null; // complete at once: the data has been copied
        });
    }

    /**
     * {@code MPI_Ssend_init}: a persistent synchronous send.
     *
     * @param buf   a direct buffer
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the inactive request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Prequest sSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
                                    final int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag, true, "sSendInit");
    }

    /**
     * {@code MPI_Rsend_init}: a persistent ready-mode send (here a standard one).
     *
     * @param buf   a direct buffer
     * @param count items
     * @param type  their datatype
     * @param dest  the destination, or {@code MPI.PROC_NULL}
     * @param tag   the tag
     * @return the inactive request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Prequest rSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
                                    final int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag, false, "rSendInit");
    }

    /**
     * {@code MPI_Recv_init}: a persistent receive into a direct buffer.
     *
     * @param buf    a direct buffer
     * @param count  items it holds
     * @param type   their datatype
     * @param source the source, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return the inactive request
     * @throws MPIException a bad argument, as the error handler says
     */
    public final Prequest recvInit(final Buffer buf, final int count, final Datatype type, final int source,
                                   final int tag) throws MPIException {
        checkDirect(buf, "");
        final CommState c = st();
        final TypeMap t = type(c, type, "recvInit");
        Buffers.check(c, buf, t, count, "recvInit");
        checkSource(c, source, "recvInit");
        checkRecvTag(c, tag, "recvInit");
        return new Prequest(c, () -> startReceive(c, buf, count, type, source, tag, "recvInit"));
    }
}
