package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A C struct laid out in a byte array or byte buffer, as Open MPI's bindings define {@code Struct}: a subclass adds
 * its fields in its constructor ({@link #addInt()}, {@link #addDouble(int)}, {@link #addStruct}, ..., each call
 * returning the field's byte offset, fields placed one after another unless {@link #setOffset} moves the next one),
 * and defines {@link #newData()} to return its own {@link Data}, whose protected accessors read and write the fields
 * of one item. {@link #getType()} is the MPI datatype of one item ({@code createStruct} of the fields, committed on
 * first use; its base type is BYTE), {@link #getData} the view of item {@code i} of a buffer. The MINLOC/MAXLOC pair
 * helpers ({@code MPI.doubleInt}, ...) are structs of this kind whose type is the pair type ({@code MPI.DOUBLE_INT}).
 * Native byte order.
 */
public abstract class Struct {
    /** The pair layout, for the MINLOC/MAXLOC helpers; null for a user's struct. */
    final Pair pair;
    private final List<Object> fieldTypes = new ArrayList<>();
    private final List<Integer> fieldOffsets = new ArrayList<>();
    private final List<Integer> fieldLengths = new ArrayList<>();
    private int extent;
    private Datatype type;

    /** A struct whose fields the subclass's constructor adds. */
    protected Struct() {
        this.pair = null;
    }

    Struct(final Datatype pairType) {
        this.pair = pairType.pair;
        this.type = pairType;
        this.extent = pair.extent;
    }

    private void commit() throws MPIException {
        if (type != null) {
            return;
        }
        final int n = fieldTypes.size();
        final int[] lengths = new int[n];
        final int[] offsets = new int[n];
        final Datatype[] types = new Datatype[n];
        for (int i = 0; i < n; i++) {
            final Object t = fieldTypes.get(i);
            types[i] = t instanceof Struct s ? s.getType() : (Datatype) t;
            offsets[i] = fieldOffsets.get(i);
            lengths[i] = fieldLengths.get(i);
        }
        final Datatype t = Datatype.createStruct(lengths, offsets, types);
        t.commit();
        extent = Math.max(extent, t.getExtent());
        type = extent == t.getExtent() ? t : Datatype.createResized(t, 0, extent);
        type.commit();
    }

    /**
     * Bytes one item takes in a buffer (the struct's size with its padding).
     *
     * @return the extent in bytes
     * @throws MPIException if the struct's type cannot be made
     */
    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    /**
     * The datatype of one item, made and committed on the first call (no field may be added after).
     *
     * @return the struct's datatype
     * @throws MPIException if the struct's type cannot be made
     */
    public final Datatype getType() throws MPIException {
        commit();
        return type;
    }

    /**
     * Makes an unbound view of one item: the subclass returns a new instance of its own {@link Data}.
     *
     * @return the view, which {@link #getData} binds to a buffer
     */
    protected abstract Data newData();

    /**
     * The item at {@code index} of a buffer.
     *
     * @param buffer the items
     * @param index  which item
     * @param <T>    the item class
     * @return its view
     * @throws MPIException if the struct's type cannot be made
     */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(final ByteBuffer buffer, final int index) throws MPIException {
        commit();
        final Data d = newData();
        d.buffer = buffer.duplicate().order(ByteOrder.nativeOrder());
        d.offset = index * extent;
        return (T) d;
    }

    /**
     * The first item of a buffer.
     *
     * @param buffer the items
     * @param <T>    the item class
     * @return its view
     * @throws MPIException if the struct's type cannot be made
     */
    public final <T extends Data> T getData(final ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    /**
     * The item at {@code index} of an array.
     *
     * @param array the items
     * @param index which item
     * @param <T>   the item class
     * @return its view
     * @throws MPIException if the struct's type cannot be made
     */
    public final <T extends Data> T getData(final byte[] array, final int index) throws MPIException {
        return getData(ByteBuffer.wrap(array), index);
    }

    /**
     * The first item of an array.
     *
     * @param array the items
     * @param <T>   the item class
     * @return its view
     * @throws MPIException if the struct's type cannot be made
     */
    public final <T extends Data> T getData(final byte[] array) throws MPIException {
        return getData(array, 0);
    }

    /**
     * Places the next field at byte {@code offset} (at least where the fields so far end).
     *
     * @param offset the next field's byte offset
     * @return this struct
     * @throws IllegalArgumentException if {@code offset} is before the end of the fields so far
     * @throws IllegalStateException    once the type has been made
     */
    public final Struct setOffset(final int offset) {
        checkOpen();
        if (offset < extent) {
            throw new IllegalArgumentException("setOffset(" + offset + "): the fields so far end at byte " + extent);
        }
        extent = offset;
        return this;
    }

    private void checkOpen() {
        if (type != null) {
            throw new IllegalStateException("the struct's type has been made: no field can be added");
        }
    }

    private int add(final Object t, final int bytes, final int length) {
        checkOpen();
        if (length < 0) {
            throw new IllegalArgumentException("a field of " + length + " elements");
        }
        final int offset = extent;
        fieldTypes.add(t);
        fieldOffsets.add(offset);
        fieldLengths.add(length);
        extent += bytes * length;
        return offset;
    }

    /**
     * Adds a {@code byte} field.
     *
     * @return its byte offset, the field's id for the accessors
     */
    public final int addByte() {
        return addByte(1);
    }

    /**
     * Adds a field of {@code length} bytes.
     *
     * @param length elements
     * @return its byte offset
     */
    public final int addByte(final int length) {
        return add(MPI.BYTE, 1, length);
    }

    /**
     * Adds a {@code char} field.
     *
     * @return its byte offset
     */
    public final int addChar() {
        return addChar(1);
    }

    /**
     * Adds a field of {@code length} chars.
     *
     * @param length elements
     * @return its byte offset
     */
    public final int addChar(final int length) {
        return add(MPI.CHAR, 2, length);
    }

    /**
     * Adds a {@code short} field.
     *
     * @return its byte offset
     */
    public final int addShort() {
        return addShort(1);
    }

    /**
     * Adds a field of {@code length} shorts.
     *
     * @param length elements
     * @return its byte offset
     */
    public final int addShort(final int length) {
        return add(MPI.SHORT, 2, length);
    }

    /**
     * Adds an {@code int} field.
     *
     * @return its byte offset
     */
    public final int addInt() {
        return addInt(1);
    }

    /**
     * Adds a field of {@code length} ints.
     *
     * @param length elements
     * @return its byte offset
     */
    public final int addInt(final int length) {
        return add(MPI.INT, 4, length);
    }

    /**
     * Adds a {@code long} field.
     *
     * @return its byte offset
     */
    public final int addLong() {
        return addLong(1);
    }

    /**
     * Adds a field of {@code length} longs.
     *
     * @param length elements
     * @return its byte offset
     */
    public final int addLong(final int length) {
        return add(MPI.LONG, 8, length);
    }

    /**
     * Adds a {@code float} field.
     *
     * @return its byte offset
     */
    public final int addFloat() {
        return addFloat(1);
    }

    /**
     * Adds a field of {@code length} floats.
     *
     * @param length elements
     * @return its byte offset
     */
    public final int addFloat(final int length) {
        return add(MPI.FLOAT, 4, length);
    }

    /**
     * Adds a {@code double} field.
     *
     * @return its byte offset
     */
    public final int addDouble() {
        return addDouble(1);
    }

    /**
     * Adds a field of {@code length} doubles.
     *
     * @param length elements
     * @return its byte offset
     */
    public final int addDouble(final int length) {
        return add(MPI.DOUBLE, 8, length);
    }

    /**
     * Adds a field holding one item of another struct.
     *
     * @param struct the nested struct
     * @return its byte offset
     * @throws MPIException if the nested struct's type cannot be made
     */
    public final int addStruct(final Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /**
     * Adds a field of {@code length} items of another struct.
     *
     * @param struct the nested struct
     * @param length items
     * @return its byte offset
     * @throws MPIException if the nested struct's type cannot be made
     */
    public final int addStruct(final Struct struct, final int length) throws MPIException {
        return add(struct, struct.getExtent(), length);
    }

    /**
     * Adds a field of one item of a datatype.
     *
     * @param type the field's type
     * @return its byte offset
     * @throws MPIException for a freed or uncommitted type
     */
    public final int addData(final Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /**
     * Adds a field of {@code length} items of a datatype.
     *
     * @param type   the field's type
     * @param length items
     * @return its byte offset
     * @throws MPIException for a freed or uncommitted type
     */
    public final int addData(final Datatype type, final int length) throws MPIException {
        final long bytes = (long) type.getExtent() * type.kind().bytes;
        return add(type, Math.toIntExact(bytes), length);
    }

    /**
     * One item of the struct in a buffer: a subclass's accessors read and write its fields by the ids (byte
     * offsets) the {@code add} calls returned.
     */
    public abstract class Data {
        ByteBuffer buffer;
        int offset;

        /** For the struct's {@link Struct#newData()}. */
        protected Data() {
        }

        /**
         * The buffer from this item on (its element 0 is the item's first byte), for sends and receives.
         *
         * @return the buffer
         */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        private int at(final int field, final int index, final int bytes) {
            return offset + field + index * bytes;
        }

        /**
         * Reads the byte of a field.
         *
         * @param field a field's id
         * @return its byte
         */
        protected final byte getByte(final int field) {
            return buffer.get(at(field, 0, 1));
        }

        /**
         * Reads the byte at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @return the byte
         */
        protected final byte getByte(final int field, final int index) {
            return buffer.get(at(field, index, 1));
        }

        /**
         * Writes the byte of a field.
         *
         * @param field a field's id
         * @param v the byte
         */
        protected final void putByte(final int field, final byte v) {
            buffer.put(at(field, 0, 1), v);
        }

        /**
         * Writes the byte at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @param v the byte
         */
        protected final void putByte(final int field, final int index, final byte v) {
            buffer.put(at(field, index, 1), v);
        }

        /**
         * Reads the char of a field.
         *
         * @param field a field's id
         * @return its char
         */
        protected final char getChar(final int field) {
            return buffer.getChar(at(field, 0, 2));
        }

        /**
         * Reads the char at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @return the char
         */
        protected final char getChar(final int field, final int index) {
            return buffer.getChar(at(field, index, 2));
        }

        /**
         * Writes the char of a field.
         *
         * @param field a field's id
         * @param v the char
         */
        protected final void putChar(final int field, final char v) {
            buffer.putChar(at(field, 0, 2), v);
        }

        /**
         * Writes the char at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @param v the char
         */
        protected final void putChar(final int field, final int index, final char v) {
            buffer.putChar(at(field, index, 2), v);
        }

        /**
         * Reads the short of a field.
         *
         * @param field a field's id
         * @return its short
         */
        protected final short getShort(final int field) {
            return buffer.getShort(at(field, 0, 2));
        }

        /**
         * Reads the short at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @return the short
         */
        protected final short getShort(final int field, final int index) {
            return buffer.getShort(at(field, index, 2));
        }

        /**
         * Writes the short of a field.
         *
         * @param field a field's id
         * @param v the short
         */
        protected final void putShort(final int field, final short v) {
            buffer.putShort(at(field, 0, 2), v);
        }

        /**
         * Writes the short at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @param v the short
         */
        protected final void putShort(final int field, final int index, final short v) {
            buffer.putShort(at(field, index, 2), v);
        }

        /**
         * Reads the int of a field.
         *
         * @param field a field's id
         * @return its int
         */
        protected final int getInt(final int field) {
            return buffer.getInt(at(field, 0, 4));
        }

        /**
         * Reads the int at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @return the int
         */
        protected final int getInt(final int field, final int index) {
            return buffer.getInt(at(field, index, 4));
        }

        /**
         * Writes the int of a field.
         *
         * @param field a field's id
         * @param v the int
         */
        protected final void putInt(final int field, final int v) {
            buffer.putInt(at(field, 0, 4), v);
        }

        /**
         * Writes the int at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @param v the int
         */
        protected final void putInt(final int field, final int index, final int v) {
            buffer.putInt(at(field, index, 4), v);
        }

        /**
         * Reads the long of a field.
         *
         * @param field a field's id
         * @return its long
         */
        protected final long getLong(final int field) {
            return buffer.getLong(at(field, 0, 8));
        }

        /**
         * Reads the long at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @return the long
         */
        protected final long getLong(final int field, final int index) {
            return buffer.getLong(at(field, index, 8));
        }

        /**
         * Writes the long of a field.
         *
         * @param field a field's id
         * @param v the long
         */
        protected final void putLong(final int field, final long v) {
            buffer.putLong(at(field, 0, 8), v);
        }

        /**
         * Writes the long at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @param v the long
         */
        protected final void putLong(final int field, final int index, final long v) {
            buffer.putLong(at(field, index, 8), v);
        }

        /**
         * Reads the float of a field.
         *
         * @param field a field's id
         * @return its float
         */
        protected final float getFloat(final int field) {
            return buffer.getFloat(at(field, 0, 4));
        }

        /**
         * Reads the float at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @return the float
         */
        protected final float getFloat(final int field, final int index) {
            return buffer.getFloat(at(field, index, 4));
        }

        /**
         * Writes the float of a field.
         *
         * @param field a field's id
         * @param v the float
         */
        protected final void putFloat(final int field, final float v) {
            buffer.putFloat(at(field, 0, 4), v);
        }

        /**
         * Writes the float at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @param v the float
         */
        protected final void putFloat(final int field, final int index, final float v) {
            buffer.putFloat(at(field, index, 4), v);
        }

        /**
         * Reads the double of a field.
         *
         * @param field a field's id
         * @return its double
         */
        protected final double getDouble(final int field) {
            return buffer.getDouble(at(field, 0, 8));
        }

        /**
         * Reads the double at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @return the double
         */
        protected final double getDouble(final int field, final int index) {
            return buffer.getDouble(at(field, index, 8));
        }

        /**
         * Writes the double of a field.
         *
         * @param field a field's id
         * @param v the double
         */
        protected final void putDouble(final int field, final double v) {
            buffer.putDouble(at(field, 0, 8), v);
        }

        /**
         * Writes the double at element {@code index} of a field.
         *
         * @param field a field's id
         * @param index its element
         * @param v the double
         */
        protected final void putDouble(final int field, final int index, final double v) {
            buffer.putDouble(at(field, index, 8), v);
        }

        /**
         * The nested struct item of a field.
         *
         * @param struct the nested struct
         * @param field  the field's id
         * @param <S>    the nested struct's class
         * @param <D>    its item class
         * @return the view of the nested item
         */
        protected final <S extends Struct, D extends Struct.Data> D getData(final S struct, final int field) {
            return getData(struct, field, 0);
        }

        /**
         * Item {@code index} of a field of nested struct items.
         *
         * @param struct the nested struct
         * @param field  the field's id
         * @param index  the item in the field
         * @param <S>    the nested struct's class
         * @param <D>    its item class
         * @return the view of the nested item
         */
        @SuppressWarnings("unchecked")
        protected final <S extends Struct, D extends Struct.Data> D getData(final S struct, final int field,
                                                                            final int index) {
            final Struct.Data d = struct.newData();
            d.buffer = buffer;
            d.offset = offset + field + index * unchecked(struct::getExtent);
            return (D) d;
        }

        /**
         * The buffer from a field of a datatype's items on, for sends and receives of that field.
         *
         * @param type  the field's type
         * @param field the field's id
         * @return the buffer
         */
        protected final ByteBuffer getBuffer(final Datatype type, final int field) {
            return getBuffer(type, field, 0);
        }

        /**
         * The buffer from item {@code index} of a field of a datatype's items on.
         *
         * @param type  the field's type
         * @param field the field's id
         * @param index the item in the field
         * @return the buffer
         */
        protected final ByteBuffer getBuffer(final Datatype type, final int field, final int index) {
            final int at = offset + field + index * unchecked(() -> type.getExtent() * type.kind().bytes);
            return at == 0 ? buffer : MPI.slice(buffer, at);
        }
    }

    /** A size the struct's fields already fixed: an {@link MPIException} here is a freed type, a program error. */
    private interface Size {
        int get() throws MPIException;
    }

    private static int unchecked(final Size size) {
        try {
            return size.get();
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
