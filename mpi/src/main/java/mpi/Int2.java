package mpi;

/** The items of {@code MPI.INT2}: a {@code int} value and an {@code int} index. */
public final class Int2 extends Struct {
    Int2(final Datatype type) {
        super(type);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One item: value and index. */
    public final class Data extends Struct.Data {
        /** A view, bound by {@link Struct#getData}. */
        Data() {
        }

        /**
         * The value.
         *
         * @return the value
         */
        public int getValue() {
            return getInt(0);
        }

        /**
         * Sets the value.
         *
         * @param v the value
         */
        public void putValue(final int v) {
            putInt(0, v);
        }

        /**
         * The item's index (the location MINLOC and MAXLOC carry).
         *
         * @return the index
         */
        public int getIndex() {
            return getInt(pair.indexOffset);
        }

        /**
         * Sets the item's index.
         *
         * @param v the index
         */
        public void putIndex(final int v) {
            putInt(pair.indexOffset, v);
        }
    }
}
