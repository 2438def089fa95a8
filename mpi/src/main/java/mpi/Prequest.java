package mpi;

import org.jhpvm.mpi.internal.Pending;

/**
 * A persistent request ({@code MPI_Send_init}, {@code MPI_Recv_init} and their relatives): the arguments are
 * checked once, when it is made; each {@link #start()} begins the operation again, and waiting or testing completes
 * it and leaves the request inactive, ready to be started again, until {@link #free()}. An inactive persistent request
 * counts as null in the wait and test calls.
 */
public final class Prequest extends Request {
    /** Starts the operation once more: its state, or null for an operation with {@code MPI.PROC_NULL}. */
    @FunctionalInterface
    interface Starter {
        Pending start() throws MPIException;
    }

    private final Starter starter;
    private boolean freed;

    Prequest(final CommState comm, final Starter starter) {
        super(comm, (Pending) null);
        this.starter = starter;
    }

    @Override
    boolean persistent() {
        return !freed;
    }

    /**
     * {@code MPI_Start}: begins the operation.
     *
     * @throws MPIException {@code ERR_REQUEST} if the request is active or freed; the operation's own errors
     */
    public void start() throws MPIException {
        if (freed || active()) {
            throw comm.error(MPI.ERR_REQUEST, freed ? "start of a freed persistent request"
                : "start of a persistent request that is still active (wait for it first)");
        }
        comm.rank.check();
        final Pending p = starter.start();
        if (p == null) {
            nullStatus = Status.procNull(MPI.UNDEFINED);
        } else {
            op = p;
        }
    }

    /**
     * {@code MPI_Startall}.
     *
     * @param requests persistent requests, each inactive
     * @throws MPIException as {@link #start()}; the requests before the one refused are started
     */
    public static void startAll(final Prequest[] requests) throws MPIException {
        for (final Prequest r : requests) {
            r.start();
        }
    }

    /**
     * {@code MPI_Request_free} of a persistent request: it may not be started again (an operation in progress still
     * completes).
     *
     * @throws MPIException never here
     */
    @Override
    public void free() throws MPIException {
        freed = true;
        super.free();
    }
}
