package mpi;

/**
 * An MPI error on a communicator whose error handler is {@code MPI.ERRORS_ARE_FATAL} (every communicator's
 * default): thrown out of the call so that the rank, and with it the job, ends with the error as its cause, as
 * {@code mpirun} ends a job. Its cause is the {@link MPIException}, with the error class. (Not a class of Open
 * MPI's bindings, where a fatal error ends the process: jhpvm runs ranks as threads and ends the job this way.)
 */
public final class MpiFatalError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * The fatal error.
     *
     * @param communicator the communicator's name
     * @param cause        the error
     */
    public MpiFatalError(final String communicator, final MPIException cause) {
        super("MPI error on " + communicator + " (errors are fatal): " + cause.getMessage(), cause);
    }

    /**
     * The error class of the cause.
     *
     * @return an {@code MPI.ERR_*} value
     */
    public int errorClass() {
        return ((MPIException) getCause()).getErrorClass();
    }
}
