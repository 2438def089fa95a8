package mpi;

import java.nio.ByteBuffer;

/** The items of {@code MPI.FLOAT_INT}: a {@code float} value and an {@code int} index. */
public final class FloatInt extends Struct {
    FloatInt(final Datatype type) {
        super(type);
    }

    @Override
    Data newData(final ByteBuffer buffer, final int index) {
        return new Data(this, buffer, index);
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
