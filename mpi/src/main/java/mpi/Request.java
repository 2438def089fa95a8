package mpi;

import org.jhpvm.mpi.internal.Pending;
import org.jhpvm.mpi.internal.RecvOp;
import org.jhpvm.mpi.internal.Schedule;

/**
 * A non-blocking operation ({@code MPI_Request}). Waiting or testing until it completes frees it, as MPI does: it
 * becomes null ({@link #isNull()}), and waiting on a null request returns at once with an empty status. A
 * completed receive whose message was too long ({@code MPI.ERR_TRUNCATE}) or of another type reports that through
 * its communicator's error handler when it is waited for.
 */
public class Request implements Freeable {
    CommState comm;
    Pending op;
    Status nullStatus;

    Request(final CommState comm, final Pending op) {
        this.comm = comm;
        this.op = op;
    }

    /** A request that is complete at once (an operation with {@code MPI.PROC_NULL}) with the given status. */
    Request(final CommState comm, final Status status) {
        this.comm = comm;
        this.nullStatus = status;
    }

    /**
     * Whether the request is null: completed and freed, or {@code MPI.REQUEST_NULL}.
     *
     * @return true if null
     */
    public final boolean isNull() {
        return !active() && !persistent();
    }

    /** Whether an operation is attached (a null request, or an inactive persistent one, has none). */
    final boolean active() {
        return op != null || nullStatus != null;
    }

    /** Whether this is a persistent request that has not been freed ({@link Prequest}). */
    boolean persistent() {
        return false;
    }

    /**
     * {@code MPI_Wait} without a status.
     *
     * @throws MPIException the operation's error, as the communicator's handler says
     */
    public final void waitFor() throws MPIException {
        // As waitStatus, without making the status nobody reads (a wait per message must not allocate one).
        if (op == null) {
            nullStatus = null;
            return;
        }
        comm.rank.check();
        comm.engine.await(op);
        finishDiscard();
    }

    /**
     * {@code MPI_Wait}: waits for the operation, frees the request and returns its status.
     *
     * @return the status (empty for a null request)
     * @throws MPIException the operation's error, as the communicator's handler says
     */
    public final Status waitStatus() throws MPIException {
        if (op == null) {
            return finishNull(MPI.UNDEFINED);
        }
        comm.rank.check();
        comm.engine.await(op);
        return finish(MPI.UNDEFINED);
    }

    /**
     * {@code MPI_Test} without a status.
     *
     * @return true if the operation had completed (the request is then freed)
     * @throws MPIException the operation's error, as the communicator's handler says
     */
    public final boolean test() throws MPIException {
        // As testStatus, without making the status nobody reads.
        if (op == null) {
            nullStatus = null;
            return true;
        }
        comm.rank.check();
        if (!op.done) {
            comm.engine.poll();
        }
        if (!op.done) {
            return false;
        }
        finishDiscard();
        return true;
    }

    /**
     * {@code MPI_Test}: makes progress once and returns the status if the operation has completed.
     *
     * @return the status, or null if not complete
     * @throws MPIException the operation's error, as the communicator's handler says
     */
    public final Status testStatus() throws MPIException {
        if (op == null) {
            return finishNull(MPI.UNDEFINED);
        }
        comm.rank.check();
        if (!op.done) {
            comm.engine.poll();
        }
        return op.done ? finish(MPI.UNDEFINED) : null;
    }

    /**
     * {@code MPI_Request_get_status}: the status if complete, without freeing the request.
     *
     * @return the status, or null if not complete
     * @throws MPIException if MPI is not active
     */
    public final Status getStatus() throws MPIException {
        if (op == null) {
            return nullStatus != null ? nullStatus : emptyStatus(MPI.UNDEFINED);
        }
        comm.rank.check();
        if (!op.done) {
            comm.engine.poll();
        }
        return op.done ? Status.of(op, MPI.UNDEFINED) : null;
    }

    /**
     * {@code MPI_Cancel}: a receive not yet matched is cancelled (its status says so once waited for); a send
     * cannot be cancelled here and completes normally.
     *
     * @throws MPIException if MPI is not active
     */
    public final void cancel() throws MPIException {
        if (op instanceof RecvOp r && !r.done) {
            comm.rank.check();
            comm.engine.cancel(r);
        }
    }

    /**
     * {@code MPI_Request_free}: forgets the request; the operation still completes.
     *
     * @throws MPIException never here
     */
    @Override
    public void free() throws MPIException {
        op = null;
        nullStatus = null;
    }

    boolean done() {
        return op == null || op.done;
    }

    CommState comm() {
        return comm;
    }

    /** The status of the completed operation; frees the request; raises its error. */
    Status finish(final int index) throws MPIException {
        if (op == null) {
            return finishNull(index);
        }
        final Status s = Status.of(op, index);
        finishDiscard();
        return s;
    }

    /** As {@link #finish} for a caller that reads no status: frees the request; raises its error. */
    private void finishDiscard() throws MPIException {
        final Pending p = op;
        op = null;
        if (p.error != MPI.SUCCESS) {
            if (p instanceof Schedule collective) {
                throw Collectives.failure(comm, collective);
            }
            final MPIException e = comm.error(p.error, describe(p));
            comm.engine.release(p);
            throw e;
        }
        comm.engine.release(p);
    }

    private Status finishNull(final int index) {
        final Status s = nullStatus != null ? nullStatus : emptyStatus(index);
        nullStatus = null;
        return s;
    }

    static Status emptyStatus(final int index) {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, null, false, index);
    }

    static String describe(final Pending p) {
        return switch (p.error) {
            case MPI.ERR_TRUNCATE -> "message truncated: " + p.elements + " " + p.kind + " elements from rank "
                + p.source + " (tag " + p.tag + ") do not fit the receive buffer";
            case MPI.ERR_TYPE -> "type mismatch: the message from rank " + p.source + " (tag " + p.tag + ") holds "
                + p.kind + " elements";
            default -> "error class " + p.error;
        };
    }

    // ------------------------------------------------------------------------------------------------ arrays

    /**
     * {@code MPI_Waitany}: waits for one of the requests.
     *
     * @param requests the requests (null entries and null requests are skipped)
     * @return the index of the one that completed, or {@code MPI.UNDEFINED} if every request is null
     * @throws MPIException that operation's error
     */
    public static int waitAny(final Request[] requests) throws MPIException {
        final Status s = waitAnyStatus(requests);
        return s.getIndex();
    }

    /**
     * {@code MPI_Waitany} with the status; its {@link Status#getIndex()} says which request completed.
     *
     * @param requests the requests
     * @return the status ({@code getIndex()} is {@code MPI.UNDEFINED} if every request is null)
     * @throws MPIException that operation's error
     */
    public static Status waitAnyStatus(final Request[] requests) throws MPIException {
        final CommState c = anyComm(requests);
        if (c == null) {
            return emptyStatus(MPI.UNDEFINED);
        }
        c.rank.check();
        while (true) {
            for (int i = 0; i < requests.length; i++) {
                final Request r = requests[i];
                if (r != null && r.active() && r.done()) {
                    return r.finish(i);
                }
            }
            c.engine.idle();
        }
    }

    /**
     * {@code MPI_Testany}: makes progress once; the index of a completed request, if any.
     *
     * @param requests the requests
     * @return the index, or {@code MPI.UNDEFINED} if none has completed (or all are null)
     * @throws MPIException that operation's error
     */
    public static int testAny(final Request[] requests) throws MPIException {
        final Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /**
     * {@code MPI_Testany} with the status.
     *
     * @param requests the requests
     * @return the status of a completed request; an empty status whose index is {@code MPI.UNDEFINED} if no request
     *         is active (the array empty, or every request null or inactive: MPI's flag is true then); null if
     *         requests are active and none has completed
     * @throws MPIException that operation's error
     */
    public static Status testAnyStatus(final Request[] requests) throws MPIException {
        final CommState c = anyComm(requests);
        if (c == null) {
            return noneActive(requests) ? Status.empty(MPI.UNDEFINED) : null;
        }
        c.rank.check();
        c.engine.poll();
        for (int i = 0; i < requests.length; i++) {
            final Request r = requests[i];
            if (r != null && r.active() && r.done()) {
                return r.finish(i);
            }
        }
        return null;
    }

    /**
     * {@code MPI_Waitall} without statuses.
     *
     * @param requests the requests
     * @throws MPIException {@code ERR_IN_STATUS} (or the handler's verdict) if an operation failed
     */
    public static void waitAll(final Request[] requests) throws MPIException {
        // As waitAllStatus, without the array of statuses nobody reads (a window of iSends completed by waitAll made
        // one status per message: a quarter of an 8-byte stream's allocation).
        awaitAll(requests);
        finishAllDiscard(requests);
    }

    /**
     * {@code MPI_Waitall}: waits for every request and frees them.
     *
     * @param requests the requests
     * @return their statuses, in order
     * @throws MPIException {@code ERR_IN_STATUS} if an operation failed (the others still complete)
     */
    public static Status[] waitAllStatus(final Request[] requests) throws MPIException {
        awaitAll(requests);
        return finishAll(requests);
    }

    private static void awaitAll(final Request[] requests) throws MPIException {
        final CommState c = anyComm(requests);
        if (c != null) {
            c.rank.check();
            // Requests done stay done: look on from the first one not done, not from the start every time (with a
            // window of n requests completing in order, that was n*n/2 looks).
            int from = 0;
            while ((from = firstNotDone(requests, from)) < requests.length) {
                c.engine.idle();
            }
        }
    }

    /**
     * {@code MPI_Testall}: makes progress once; true (and every request freed) if all have completed.
     *
     * @param requests the requests
     * @return true if all completed
     * @throws MPIException {@code ERR_IN_STATUS} if an operation failed
     */
    public static boolean testAll(final Request[] requests) throws MPIException {
        if (!pollAll(requests)) {
            return false;
        }
        finishAllDiscard(requests);
        return true;
    }

    /**
     * {@code MPI_Testall} with the statuses.
     *
     * @param requests the requests
     * @return the statuses if all completed, else null (and nothing is freed)
     * @throws MPIException {@code ERR_IN_STATUS} if an operation failed
     */
    public static Status[] testAllStatus(final Request[] requests) throws MPIException {
        return pollAll(requests) ? finishAll(requests) : null;
    }

    /** Makes progress once (if any request is active): whether every request is done now. */
    private static boolean pollAll(final Request[] requests) throws MPIException {
        final CommState c = anyComm(requests);
        if (c == null) {
            return true;
        }
        c.rank.check();
        c.engine.poll();
        return allDone(requests);
    }

    /**
     * {@code MPI_Waitsome}: waits until at least one request completes, then frees every completed one.
     *
     * @param requests the requests
     * @return the indices of the completed ones, or null if every request is null ({@code MPI_UNDEFINED})
     * @throws MPIException {@code ERR_IN_STATUS} if an operation failed
     */
    public static int[] waitSome(final Request[] requests) throws MPIException {
        final Status[] s = waitSomeStatus(requests);
        return s == null ? null : indices(s);
    }

    /**
     * {@code MPI_Waitsome} with the statuses.
     *
     * @param requests the requests
     * @return the statuses of the completed ones ({@code getIndex()} says which), or null if every request is null
     * @throws MPIException {@code ERR_IN_STATUS} if an operation failed
     */
    public static Status[] waitSomeStatus(final Request[] requests) throws MPIException {
        final CommState c = anyComm(requests);
        if (c == null) {
            return null;
        }
        c.rank.check();
        while (countDone(requests) == 0) {
            c.engine.idle();
        }
        return finishSome(requests);
    }

    /**
     * {@code MPI_Testsome}: makes progress once and frees the requests that have completed.
     *
     * @param requests the requests
     * @return their indices (empty if none), or null if every request is null
     * @throws MPIException {@code ERR_IN_STATUS} if an operation failed
     */
    public static int[] testSome(final Request[] requests) throws MPIException {
        final Status[] s = testSomeStatus(requests);
        return s == null ? null : indices(s);
    }

    /**
     * {@code MPI_Testsome} with the statuses.
     *
     * @param requests the requests
     * @return the statuses of the completed ones, or null if every request is null
     * @throws MPIException {@code ERR_IN_STATUS} if an operation failed
     */
    public static Status[] testSomeStatus(final Request[] requests) throws MPIException {
        final CommState c = anyComm(requests);
        if (c == null) {
            return null;
        }
        c.rank.check();
        c.engine.poll();
        return finishSome(requests);
    }

    private static CommState anyComm(final Request[] requests) {
        for (final Request r : requests) {
            if (r != null && r.active() && r.comm != null) {
                return r.comm;
            }
        }
        return null;
    }

    private static boolean noneActive(final Request[] requests) {
        for (final Request r : requests) {
            if (r != null && r.active()) {
                return false;
            }
        }
        return true;
    }

    private static boolean allDone(final Request[] requests) {
        return firstNotDone(requests, 0) == requests.length;
    }

    /** The index of the first request from {@code from} on that is not done, or the array's length. */
    private static int firstNotDone(final Request[] requests, final int from) {
        int i = from;
        while (i < requests.length && (requests[i] == null || requests[i].done())) {
            i++;
        }
        return i;
    }

    private static int countDone(final Request[] requests) {
        int n = 0;
        for (final Request r : requests) {
            if (r != null && r.active() && r.done()) {
                n++;
            }
        }
        return n;
    }

    private static Status[] finishAll(final Request[] requests) throws MPIException {
        final Status[] out = new Status[requests.length];
        MPIException failed = null;
        for (int i = 0; i < requests.length; i++) {
            out[i] = requests[i] == null ? emptyStatus(i) : requests[i].finishQuiet(i);
            if (out[i].getError() != MPI.SUCCESS) {
                failed = new MPIException(out[i].getError(), "request " + i + " failed");
            }
        }
        if (failed != null) {
            throw errorInStatus(requests, failed);
        }
        return out;
    }

    /** As {@link #finishAll} for a caller that reads no status: the same frees, the same error. */
    private static void finishAllDiscard(final Request[] requests) throws MPIException {
        MPIException failed = null;
        for (int i = 0; i < requests.length; i++) {
            final int error = requests[i] == null ? MPI.SUCCESS : requests[i].finishQuietError();
            if (error != MPI.SUCCESS) {
                failed = new MPIException(error, "request " + i + " failed");
            }
        }
        if (failed != null) {
            throw errorInStatus(requests, failed);
        }
    }

    private static Status[] finishSome(final Request[] requests) throws MPIException {
        final Status[] out = new Status[countDone(requests)];
        int k = 0;
        MPIException failed = null;
        for (int i = 0; i < requests.length; i++) {
            final Request r = requests[i];
            if (r != null && r.active() && r.done()) {
                out[k++] = r.finishQuiet(i);
                if (out[k - 1].getError() != MPI.SUCCESS) {
                    failed = new MPIException(out[k - 1].getError(), "request " + i + " failed");
                }
            }
        }
        if (failed != null) {
            throw errorInStatus(requests, failed);
        }
        return out;
    }

    /** Finishes without raising (the caller raises {@code ERR_IN_STATUS} once for the array). */
    private Status finishQuiet(final int index) {
        if (op == null) {
            return finishNull(index);
        }
        final Status s = Status.of(op, index);
        comm.engine.release(op);
        op = null;
        return s;
    }

    /** As {@link #finishQuiet}, answering only the error its status would hold. */
    private int finishQuietError() {
        if (op == null) {
            final int error = nullStatus != null ? nullStatus.getError() : MPI.SUCCESS;
            nullStatus = null;
            return error;
        }
        final int error = op.error;
        comm.engine.release(op);
        op = null;
        return error;
    }

    private static MPIException errorInStatus(final Request[] requests, final MPIException cause) {
        final CommState c = anyCommAny(requests);
        return c != null ? c.error(MPI.ERR_IN_STATUS, "an operation failed: " + cause.getMessage())
            : new MPIException(MPI.ERR_IN_STATUS, cause.getMessage());
    }

    private static CommState anyCommAny(final Request[] requests) {
        for (final Request r : requests) {
            if (r != null && r.comm != null) {
                return r.comm;
            }
        }
        return null;
    }

    private static int[] indices(final Status[] s) {
        final int[] out = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getIndex();
        }
        return out;
    }
}
