package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one element of an array or buffer of {@code MPI.DOUBLE_COMPLEX} pairs (real part, then imaginary part),
 * as Open MPI's bindings give it: {@code DoubleComplex c = DoubleComplex.get(array, i); c.putReal(x);}. Reads and
 * writes go to the array or buffer itself.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int at;

    private DoubleComplex(final DoubleBuffer buffer, final int index) {
        this.buffer = buffer;
        this.at = 2 * index;
    }

    /**
     * The first element of a buffer.
     *
     * @param buffer pairs of doubles
     * @return its view
     */
    public static DoubleComplex get(final DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    /**
     * Element {@code index} of a buffer.
     *
     * @param buffer pairs of doubles
     * @param index  the element (a pair)
     * @return its view
     */
    public static DoubleComplex get(final DoubleBuffer buffer, final int index) {
        return new DoubleComplex(buffer, index);
    }

    /**
     * The first element of an array.
     *
     * @param array pairs of doubles
     * @return its view
     */
    public static DoubleComplex get(final double[] array) {
        return new DoubleComplex(DoubleBuffer.wrap(array), 0);
    }

    /**
     * Element {@code index} of an array.
     *
     * @param array pairs of doubles
     * @param index the element (a pair)
     * @return its view
     */
    public static DoubleComplex get(final double[] array, final int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /**
     * The first element of a byte buffer (in its byte order).
     *
     * @param buffer bytes of pairs of doubles
     * @return its view
     */
    public static DoubleComplex get(final ByteBuffer buffer) {
        return new DoubleComplex(buffer.asDoubleBuffer(), 0);
    }

    /**
     * Element {@code index} of a byte buffer.
     *
     * @param buffer bytes of pairs of doubles
     * @param index  the element (a pair)
     * @return its view
     */
    public static DoubleComplex get(final ByteBuffer buffer, final int index) {
        return new DoubleComplex(buffer.asDoubleBuffer(), index);
    }

    /**
     * The real part.
     *
     * @return it
     */
    public double getReal() {
        return buffer.get(at);
    }

    /**
     * The imaginary part.
     *
     * @return it
     */
    public double getImag() {
        return buffer.get(at + 1);
    }

    /**
     * Sets the real part.
     *
     * @param real the value
     */
    public void putReal(final double real) {
        buffer.put(at, real);
    }

    /**
     * Sets the imaginary part.
     *
     * @param imag the value
     */
    public void putImag(final double imag) {
        buffer.put(at + 1, imag);
    }

    /**
     * The buffer from this element on.
     *
     * @return a buffer whose element 0 is this element's real part
     */
    public DoubleBuffer getBuffer() {
        return at == 0 ? buffer : buffer.slice(at, buffer.capacity() - at);
    }
}
