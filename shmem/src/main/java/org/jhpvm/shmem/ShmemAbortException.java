package org.jhpvm.shmem;

/**
 * The SHMEM job was aborted: a PE threw, or the job timed out. Carries the first cause and the PE it came from
 * ({@link #NO_PE} for a timeout).
 */
public final class ShmemAbortException extends RuntimeException {
    /** PE number used when the abort did not come from a PE (job timeout). */
    public static final int NO_PE = -1;
    private static final long serialVersionUID = 1L;

    /** The PE whose failure aborted the job, or {@link #NO_PE}; part of the serialized form. */
    private final int pe;

    ShmemAbortException(final int pe, final Throwable cause) {
        super((pe == NO_PE ? "SHMEM job aborted: " : "SHMEM job aborted by PE " + pe + ": ") + cause, cause);
        this.pe = pe;
    }

    /**
     * Which PE's failure aborted the job: the first PE that threw, whose exception is {@link #getCause()}. Failures
     * on other PEs after the abort began are consequences of it and are not reported here.
     *
     * @return the PE whose failure aborted the job, or {@link #NO_PE}
     */
    public int pe() {
        return pe;
    }
}
