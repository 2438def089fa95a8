package org.jhpvm.mpi;

/**
 * An MPI job ended because a rank failed (an exception, or an MPI error under {@code MPI.ERRORS_ARE_FATAL}) or the
 * job timed out: carries the first cause and its rank. Every other rank's blocking call ended promptly.
 */
public final class MpiAbortException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The rank of a failure that belongs to no rank (a timeout). */
    public static final int NO_RANK = -1;

    /** The rank that failed first. */
    private final int rank;

    /**
     * The failure.
     *
     * @param rank  the rank that failed first, or {@link #NO_RANK}
     * @param cause what it threw
     */
    public MpiAbortException(final int rank, final Throwable cause) {
        super((rank == NO_RANK ? "MPI job aborted" : "rank " + rank + " failed") + ": " + cause, cause);
        this.rank = rank;
    }

    /**
     * The rank that failed first.
     *
     * @return the rank, or {@link #NO_RANK}
     */
    public int rank() {
        return rank;
    }
}
