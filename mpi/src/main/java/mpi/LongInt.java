package mpi;

import java.nio.ByteBuffer;

/** The items of {@code MPI.LONG_INT}: a {@code long} value and an {@code int} index. */
public final class LongInt extends Struct {
    LongInt(final Datatype type) {
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
        Data(final LongInt s, final ByteBuffer buffer, final int index) {
            super(s, buffer, index);
        }

        /**
         * The value.
         *
         * @return the value
         */
        public long getValue() {
            return buffer.getLong(offset);
        }

        /**
         * Sets the value.
         *
         * @param v the value
         */
        public void putValue(final long v) {
            buffer.putLong(offset, v);
        }
    }
}
