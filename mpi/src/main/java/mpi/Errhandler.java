package mpi;

/**
 * An error handler: {@link MPI#ERRORS_ARE_FATAL} (the default on every communicator, as in MPI: an error ends the
 * whole job with the error as its cause) or {@link MPI#ERRORS_RETURN} (the call throws {@link MPIException}).
 */
public final class Errhandler {
    private final boolean fatal;

    Errhandler(final boolean fatal) {
        this.fatal = fatal;
    }

    boolean isFatal() {
        return fatal;
    }

    @Override
    public String toString() {
        return fatal ? "MPI_ERRORS_ARE_FATAL" : "MPI_ERRORS_RETURN";
    }
}
