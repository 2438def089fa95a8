package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import org.jhpvm.mpi.internal.Kind;
import org.jhpvm.mpi.internal.Transfer;

/**
 * A user-defined reduction ({@code MPI_Op_create}'s function): override {@link #call(Object, Object, int, Datatype)}
 * (arrays of the base type) or {@link #call(ByteBuffer, ByteBuffer, int, Datatype)} (byte buffers) to combine
 * {@code inVec} into {@code inOutVec} element by element, {@code inOutVec[i] = inVec[i] op inOutVec[i]}. The vectors
 * hold {@code count} items packed one after another.
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
     * Combines two vectors held in byte buffers (native order), the form the reductions call for every base type but
     * {@code BOOLEAN}, as in the Open MPI bindings. The default converts both to arrays of the base type, calls
     * {@link #call(Object, Object, int, Datatype)} and copies the result back, so overriding either form works.
     *
     * @param in       the left operand
     * @param inOut    the right operand and the result
     * @param count    items
     * @param datatype the items' type
     * @throws MPIException to report an error
     */
    public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype datatype)
        throws MPIException {
        final Kind kind = datatype.kind();
        final int n = inOut.capacity() / kind.bytes;
        final Object a = Buffers.newArray(kind, n);
        final Object b = Buffers.newArray(kind, n);
        final ValueLayout layout = kind.memory;
        MemorySegment.copy(MemorySegment.ofBuffer(in), layout, 0, Transfer.arraySegment(a), layout, 0, n);
        MemorySegment.copy(MemorySegment.ofBuffer(inOut), layout, 0, Transfer.arraySegment(b), layout, 0, n);
        call(a, b, count, datatype);
        MemorySegment.copy(Transfer.arraySegment(b), layout, 0, MemorySegment.ofBuffer(inOut), layout, 0, n);
    }
}
