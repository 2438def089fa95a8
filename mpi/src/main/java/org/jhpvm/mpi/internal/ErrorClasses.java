package org.jhpvm.mpi.internal;

/**
 * The MPI error classes the engine reports ({@code mpi.MPI} defines its constants from these, so that the engine
 * does not depend on the API above it).
 */
public final class ErrorClasses {
    /** {@code MPI_SUCCESS}. */
    public static final int SUCCESS = 0;
    /** {@code MPI_ERR_TYPE}. */
    public static final int ERR_TYPE = 3;
    /** {@code MPI_ERR_TRUNCATE}. */
    public static final int ERR_TRUNCATE = 15;
    /** {@code MPI_ERR_OTHER}. */
    public static final int ERR_OTHER = 16;

    private ErrorClasses() {
    }
}
