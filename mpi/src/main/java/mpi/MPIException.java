package mpi;

/**
 * An MPI error, as the Open MPI Java bindings throw it: checked, with the MPI error class ({@code MPI.ERR_*}) and
 * code (the same here) and MPI's message. Calls on a communicator whose error handler is
 * {@link MPI#ERRORS_RETURN} throw it; under the default {@link MPI#ERRORS_ARE_FATAL} an error ends the job instead.
 * A call before {@link MPI#Init} or after {@link MPI#Finalize} throws it whatever the handler.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The MPI error class. */
    private final int errorClass;

    /**
     * An error of class {@code MPI.ERR_OTHER} with a message.
     *
     * @param message what went wrong
     */
    public MPIException(final String message) {
        this(MPI.ERR_OTHER, message);
    }

    /**
     * An error of class {@code MPI.ERR_OTHER} caused by another throwable.
     *
     * @param cause the cause
     */
    public MPIException(final Throwable cause) {
        super(cause);
        this.errorClass = MPI.ERR_OTHER;
    }

    MPIException(final int errorClass, final String message) {
        super(message);
        this.errorClass = errorClass;
    }

    /**
     * The error code: here the same as the class.
     *
     * @return an {@code MPI.ERR_*} value
     */
    public int getErrorCode() {
        return errorClass;
    }

    /**
     * The error class, to compare with {@code MPI.ERR_*}.
     *
     * @return an {@code MPI.ERR_*} value
     */
    public int getErrorClass() {
        return errorClass;
    }
}
