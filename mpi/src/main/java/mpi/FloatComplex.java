package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one element of an array or buffer of {@code MPI.FLOAT_COMPLEX} pairs (real part, then imaginary part),
 * as Open MPI's bindings give it: {@code FloatComplex c = FloatComplex.get(array, i); c.putReal(x);}. Reads and
 * writes go to the array or buffer itself.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int at;

    private FloatComplex(final FloatBuffer buffer, final int index) {
        this.buffer = buffer;
        this.at = 2 * index;
    }

    /**
     * The first element of a buffer.
     *
     * @param buffer pairs of floats
     * @return its view
     */
    public static FloatComplex get(final FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    /**
     * Element {@code index} of a buffer.
     *
     * @param buffer pairs of floats
     * @param index  the element (a pair)
     * @return its view
     */
    public static FloatComplex get(final FloatBuffer buffer, final int index) {
        return new FloatComplex(buffer, index);
    }

    /**
     * The first element of an array.
     *
     * @param array pairs of floats
     * @return its view
     */
    public static FloatComplex get(final float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    /**
     * Element {@code index} of an array.
     *
     * @param array pairs of floats
     * @param index the element (a pair)
     * @return its view
     */
    public static FloatComplex get(final float[] array, final int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /**
     * The first element of a byte buffer (in its byte order).
     *
     * @param buffer bytes of pairs of floats
     * @return its view
     */
    public static FloatComplex get(final ByteBuffer buffer) {
        return new FloatComplex(buffer.asFloatBuffer(), 0);
    }

    /**
     * Element {@code index} of a byte buffer.
     *
     * @param buffer bytes of pairs of floats
     * @param index  the element (a pair)
     * @return its view
     */
    public static FloatComplex get(final ByteBuffer buffer, final int index) {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    /**
     * The real part.
     *
     * @return it
     */
    public float getReal() {
        return buffer.get(at);
    }

    /**
     * The imaginary part.
     *
     * @return it
     */
    public float getImag() {
        return buffer.get(at + 1);
    }

    /**
     * Sets the real part.
     *
     * @param real the value
     */
    public void putReal(final float real) {
        buffer.put(at, real);
    }

    /**
     * Sets the imaginary part.
     *
     * @param imag the value
     */
    public void putImag(final float imag) {
        buffer.put(at + 1, imag);
    }

    /**
     * The buffer from this element on.
     *
     * @return a buffer whose element 0 is this element's real part
     */
    public FloatBuffer getBuffer() {
        return at == 0 ? buffer : buffer.slice(at, buffer.capacity() - at);
    }
}
