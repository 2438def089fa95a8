package mpi;

import java.nio.ByteBuffer;

/**
 * A user-defined reduction ({@code MPI_Op_create}'s function): override {@link #call(Object, Object, int, Datatype)}
 * to combine {@code inVec} into {@code inOutVec} element by element, {@code inOutVec[i] = inVec[i] op inOutVec[i]}.
 * The vectors are arrays of the datatype's base type holding {@code count} items packed one after another.
 */
public abstract class UserFunction {
    /** For subclasses. */
    protected UserFunction() {
    }

    /**
     * Combines two vectors of items.
     *
     * @param inVec    the left operand, an array of the base type
     * @param inOutVec the right operand and the result, an array of the base type
     * @param count    items
     * @param datatype the items' type
     * @throws MPIException to report an error
     */
    public void call(final Object inVec, final Object inOutVec, final int count, final Datatype datatype)
        throws MPIException {
        throw new UnsupportedOperationException("the user function does not override call(Object, Object, int, "
            + "Datatype)");
    }

    /**
     * Combines two vectors held in byte buffers; the default is not used by this implementation, which always
     * passes arrays.
     *
     * @param in       the left operand
     * @param inOut    the right operand and the result
     * @param count    items
     * @param datatype the items' type
     * @throws MPIException to report an error
     */
    public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype datatype)
        throws MPIException {
        throw new UnsupportedOperationException("byte-buffer user functions are not called by jhpvm");
    }
}
