package mpi;

import java.nio.ByteBuffer;

/** The items of {@code MPI.SHORT_INT}: a {@code short} value and an {@code int} index. */
public final class ShortInt extends Struct {
    ShortInt(final Datatype type) {
        super(type);
    }

    @Override
    Data newData(final ByteBuffer buffer, final int index) {
        return new Data(this, buffer, index);
    }

    /** One item: value and index. */
    public static final class Data extends Struct.Data {
        Data(final ShortInt s, final ByteBuffer buffer, final int index) {
            super(s, buffer, index);
        }

        /**
         * The value.
         *
         * @return the value
         */
        public short getValue() {
            return buffer.getShort(offset);
        }

        /**
         * Sets the value.
         *
         * @param v the value
         */
        public void putValue(final short v) {
            buffer.putShort(offset, v);
        }
    }
}
