package mpi;

import java.nio.ByteBuffer;

/** The items of {@code MPI.LONG_INT}: a {@code long} value and an {@code int} index. */
public final class LongInt extends Struct {
    LongInt(final Datatype type) {
        super(type);
    }

    @Override
    Data newData(final ByteBuffer buffer, final int index) {
        return new Data(this, buffer, index);
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
