package mpi;

import java.nio.ByteBuffer;

/** The items of {@code MPI.INT2}: a {@code int} value and an {@code int} index. */
public final class Int2 extends Struct {
    Int2(final Datatype type) {
        super(type);
    }

    @Override
    Data newData(final ByteBuffer buffer, final int index) {
        return new Data(this, buffer, index);
    }

    /** One item: value and index. */
    public static final class Data extends Struct.Data {
        Data(final Int2 s, final ByteBuffer buffer, final int index) {
            super(s, buffer, index);
        }

        /**
         * The value.
         *
         * @return the value
         */
        public int getValue() {
            return buffer.getInt(offset);
        }

        /**
         * Sets the value.
         *
         * @param v the value
         */
        public void putValue(final int v) {
            buffer.putInt(offset, v);
        }
    }
}
