package org.jhpvm.fm;

/**
 * Thrown by a PE's body to end the whole job with an exit status, as {@code shmem_global_exit} or
 * {@code MPI_Abort} end a program: the job is aborted like on a failure, but the status travels with it, also to the
 * other processes of a launched job, so that every process can end with the same status. {@link FmJob#run} throws
 * an {@link FmAbortException} whose cause is an {@code FmJobExit} (the one thrown here, or one standing for the
 * exit of a PE in another process); the layer that started the exit turns it into its own result.
 */
public class FmJobExit extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The PE that asked for the exit. */
    private final int pe;
    /** The exit status it asked for. */
    private final int status;

    /**
     * An exit requested by a PE; no stack trace is kept (it is a request, not an error).
     *
     * @param pe     the PE that asks for the exit
     * @param status the job's exit status
     */
    public FmJobExit(final int pe, final int status) {
        super("PE " + pe + " ended the job with exit status " + status, null, false, false);
        this.pe = pe;
        this.status = status;
    }

    /**
     * The PE that asked for the exit.
     *
     * @return its number
     */
    public int pe() {
        return pe;
    }

    /**
     * The exit status the PE asked for.
     *
     * @return the status
     */
    public int status() {
        return status;
    }
}
