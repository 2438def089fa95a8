package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Access to the items of a MINLOC/MAXLOC pair type in a byte array or byte buffer, as the Open MPI Java bindings'
 * {@code Struct} helpers give it ({@code MPI.doubleInt.getData(buffer, i).putValue(x)}): native byte order, the C
 * struct's layout (see {@link #getExtent()}).
 */
public abstract class Struct {
    final Pair pair;
    private final Datatype type;

    Struct(final Datatype type) {
        this.type = type;
        this.pair = type.pair;
    }

    /**
     * Bytes one item takes in a buffer (the struct's size with its padding).
     *
     * @return the extent in bytes
     */
    public final int getExtent() {
        return pair.extent;
    }

    /**
     * The datatype of one item.
     *
     * @return {@code MPI.INT2}, {@code MPI.DOUBLE_INT}, ...
     */
    public final Datatype getType() {
        return type;
    }

    /** Makes the view of one item. */
    abstract Data newData(ByteBuffer buffer, int index);

    /**
     * The item at {@code index} of a buffer.
     *
     * @param buffer the items
     * @param index  which item
     * @param <T>    the item class of this pair type ({@code DoubleInt.Data}, ...)
     * @return its view
     */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(final ByteBuffer buffer, final int index) {
        return (T) newData(buffer, index);
    }

    /**
     * The first item of a buffer.
     *
     * @param buffer the items
     * @param <T>    the item class
     * @return its view
     */
    public final <T extends Data> T getData(final ByteBuffer buffer) {
        return getData(buffer, 0);
    }

    /**
     * The item at {@code index} of an array.
     *
     * @param array the items
     * @param index which item
     * @param <T>   the item class
     * @return its view
     */
    public final <T extends Data> T getData(final byte[] array, final int index) {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    /**
     * The first item of an array.
     *
     * @param array the items
     * @param <T>   the item class
     * @return its view
     */
    public final <T extends Data> T getData(final byte[] array) {
        return getData(array, 0);
    }

    /** One item of a pair type in a buffer: its value and index. */
    public abstract static class Data {
        final ByteBuffer buffer;
        final int offset;
        final Pair pair;

        Data(final Struct s, final ByteBuffer buffer, final int index) {
            this.buffer = buffer.duplicate().order(ByteOrder.nativeOrder());
            this.offset = index * s.pair.extent;
            this.pair = s.pair;
        }

        /**
         * The item's index (the location MINLOC and MAXLOC carry).
         *
         * @return the index
         */
        public final int getIndex() {
            return buffer.getInt(offset + pair.indexOffset);
        }

        /**
         * Sets the item's index.
         *
         * @param v the index
         */
        public final void putIndex(final int v) {
            buffer.putInt(offset + pair.indexOffset, v);
        }

        /**
         * The buffer the item is in.
         *
         * @return the buffer
         */
        public final ByteBuffer getBuffer() {
            return buffer;
        }
    }
}
