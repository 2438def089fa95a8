package mpi;

import java.nio.ByteBuffer;

/** The items of {@code MPI.FLOAT_INT}: a {@code float} value and an {@code int} index. */
public final class FloatInt extends Struct {
    FloatInt(final Datatype type) {
        super(type);
    }

    /**
     * The item at {@code index} of a buffer.
     *
     * @param buffer the items
     * @param index  which item
     * @return its view
     */
    public Data getData(final ByteBuffer buffer, final int index) {
        return new Data(this, buffer, index);
    }

    /**
     * The first item of a buffer.
     *
     * @param buffer the items
     * @return its view
     */
    public Data getData(final ByteBuffer buffer) {
        return getData(buffer, 0);
    }

    /**
     * The item at {@code index} of an array.
     *
     * @param array the items
     * @param index which item
     * @return its view
     */
    public Data getData(final byte[] array, final int index) {
        return getData(wrap(array), index);
    }

    /**
     * The first item of an array.
     *
     * @param array the items
     * @return its view
     */
    public Data getData(final byte[] array) {
        return getData(wrap(array), 0);
    }

    /** One item: value and index. */
    public static final class Data extends Struct.Data {
        Data(final FloatInt s, final ByteBuffer buffer, final int index) {
            super(s, buffer, index);
        }

        /**
         * The value.
         *
         * @return the value
         */
        public float getValue() {
            return buffer.getFloat(offset);
        }

        /**
         * Sets the value.
         *
         * @param v the value
         */
        public void putValue(final float v) {
            buffer.putFloat(offset, v);
        }
    }
}
