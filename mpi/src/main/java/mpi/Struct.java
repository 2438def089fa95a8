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

    static ByteBuffer wrap(final byte[] array) {
        return ByteBuffer.wrap(array).order(ByteOrder.nativeOrder());
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
