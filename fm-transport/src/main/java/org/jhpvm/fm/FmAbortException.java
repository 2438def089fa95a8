package org.jhpvm.fm;

/**
 * The job was aborted: a PE failed (its body or a handler threw), or the job timed out. Every PE's blocking FM call
 * ends with this exception, and the launcher rethrows it with the first cause and the number of the PE it came
 * from.
 */
public final class FmAbortException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** PE number used when the abort did not come from a PE (a job timeout). */
    public static final int NO_PE = -1;

    /** The PE whose failure aborted the job, or {@link #NO_PE}; part of the serialized form. */
    private final int pe;

    /**
     * Creates the abort for a job: the message names the PE (or says the job was aborted, for {@link #NO_PE}) and the
     * cause, which is kept as this exception's cause.
     *
     * @param pe    the PE whose failure aborted the job, or {@link #NO_PE}
     * @param cause the first failure
     */
    public FmAbortException(final int pe, final Throwable cause) {
        super((pe == NO_PE ? "job aborted" : "PE " + pe + " failed") + ": " + cause, cause);
        this.pe = pe;
    }

    /**
     * Returns the PE whose body or handler failed first (in a launched job, possibly a PE of another process), or
     * {@link #NO_PE} if the job timed out or the thread running it was interrupted.
     *
     * @return the PE whose failure aborted the job, or {@link #NO_PE}
     */
    public int pe() {
        return pe;
    }
}
