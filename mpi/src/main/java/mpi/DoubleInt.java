package mpi;

import java.nio.ByteBuffer;

/** The items of {@code MPI.DOUBLE_INT}: a {@code double} value and an {@code int} index. */
public final class DoubleInt extends Struct {
    DoubleInt(final Datatype type) {
        super(type);
    }

    @Override
    Data newData(final ByteBuffer buffer, final int index) {
        return new Data(this, buffer, index);
    }

    /** One item: value and index. */
    public static final class Data extends Struct.Data {
        Data(final DoubleInt s, final ByteBuffer buffer, final int index) {
            super(s, buffer, index);
        }

        /**
         * The value.
         *
         * @return the value
         */
        public double getValue() {
            return buffer.getDouble(offset);
        }

        /**
         * Sets the value.
         *
         * @param v the value
         */
        public void putValue(final double v) {
            buffer.putDouble(offset, v);
        }
    }
}
