package mpi;

/**
 * A reduction operation: one of the predefined ({@code MPI.SUM}, {@code MPI.MAX}, ...) or a user's
 * ({@link #Op(UserFunction, boolean)}). Predefined operations take the basic types MPI allows them on: arithmetic
 * ({@code MAX}, {@code MIN}, {@code SUM}, {@code PROD}) on the numeric types and {@code CHAR}; logical ({@code LAND},
 * {@code LOR}, {@code LXOR}) on {@code BOOLEAN} and the integer types (non-zero is true, the result 1 or 0); bitwise
 * ({@code BAND}, {@code BOR}, {@code BXOR}) on {@code BYTE}, {@code SHORT}, {@code CHAR}, {@code INT}, {@code LONG}
 * and {@code BOOLEAN}. Any other pairing is refused with {@code MPI.ERR_OP} before anything is sent.
 */
public final class Op implements Freeable {
    static final int MAX = 1;
    static final int MIN = 2;
    static final int SUM = 3;
    static final int PROD = 4;
    static final int LAND = 5;
    static final int BAND = 6;
    static final int LOR = 7;
    static final int BOR = 8;
    static final int LXOR = 9;
    static final int BXOR = 10;
    static final int MINLOC = 11;
    static final int MAXLOC = 12;
    static final int REPLACE = 13;
    static final int NO_OP = 14;

    final int code;
    final UserFunction function;
    private final boolean commute;
    private boolean freed;

    Op(final int code) {
        this.code = code;
        this.function = null;
        this.commute = true;
    }

    /**
     * {@code MPI_Op_create}: a user's operation.
     *
     * @param function the function combining two vectors
     * @param commute  whether it is commutative (either way, jhpvm combines in rank order, so the result is the
     *                 same on every rank and every run)
     */
    public Op(final UserFunction function, final boolean commute) {
        this.code = 0;
        this.function = java.util.Objects.requireNonNull(function, "function");
        this.commute = commute;
    }

    /**
     * Whether the operation is commutative.
     *
     * @return true for the predefined operations and users' commutative ones
     */
    public boolean isCommutative() {
        return commute;
    }

    /**
     * {@code MPI_Op_free}; predefined operations cannot be freed.
     *
     * @throws MPIException {@code ERR_OP} for a predefined or already freed operation
     */
    @Override
    public void free() throws MPIException {
        if (function == null || freed) {
            throw new MPIException(MPI.ERR_OP, function == null ? "a predefined operation cannot be freed"
                : "operation already freed");
        }
        freed = true;
    }

    /**
     * Whether this is {@code MPI_OP_NULL}: an operation becomes it once freed, as in Open MPI's bindings.
     *
     * @return true once freed
     */
    public boolean isNull() {
        return freed;
    }

    boolean isFreed() {
        return freed;
    }

    @Override
    public String toString() {
        return function != null ? "Op[user]" : "Op[" + code + "]";
    }
}
