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

    private final int pe;

    /**
     * @param pe    the PE whose failure aborted the job, or {@link #NO_PE}
     * @param cause the first failure
     */
    public FmAbortException(final int pe, final Throwable cause) {
        super((pe == NO_PE ? "job aborted" : "PE " + pe + " failed") + ": " + cause, cause);
        this.pe = pe;
    }

    /** @return the PE whose failure aborted the job, or {@link #NO_PE} */
    public int pe() {
        return pe;
    }
}
