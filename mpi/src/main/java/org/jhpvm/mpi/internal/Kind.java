package org.jhpvm.mpi.internal;

import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * The primitive element types a datatype is made of, with what each is in a Java array, in a direct buffer and on
 * the wire (little endian; a boolean is one byte, 0 or 1). Every datatype has one kind; messages carry it, and a
 * receive of another kind is refused ({@code MPI_ERR_TYPE}).
 */
public enum Kind {
    /** {@code MPI.BYTE}: {@code byte[]}. */
    BYTE(1, byte[].class, ByteBuffer.class, ValueLayout.JAVA_BYTE),
    /** {@code MPI.CHAR}: {@code char[]}, 2 bytes. */
    CHAR(2, char[].class, CharBuffer.class, ValueLayout.JAVA_CHAR_UNALIGNED),
    /** {@code MPI.SHORT}: {@code short[]}. */
    SHORT(2, short[].class, ShortBuffer.class, ValueLayout.JAVA_SHORT_UNALIGNED),
    /** {@code MPI.BOOLEAN}: {@code boolean[]}, one byte. */
    BOOLEAN(1, boolean[].class, ByteBuffer.class, ValueLayout.JAVA_BYTE),
    /** {@code MPI.INT}: {@code int[]}. */
    INT(4, int[].class, IntBuffer.class, ValueLayout.JAVA_INT_UNALIGNED),
    /** {@code MPI.LONG}: {@code long[]}. */
    LONG(8, long[].class, LongBuffer.class, ValueLayout.JAVA_LONG_UNALIGNED),
    /** {@code MPI.FLOAT}: {@code float[]}. */
    FLOAT(4, float[].class, FloatBuffer.class, ValueLayout.JAVA_FLOAT_UNALIGNED),
    /** {@code MPI.DOUBLE}: {@code double[]}. */
    DOUBLE(8, double[].class, DoubleBuffer.class, ValueLayout.JAVA_DOUBLE_UNALIGNED);

    private static final Kind[] VALUES = values();

    /** Bytes of one element, in memory and on the wire. */
    public final int bytes;
    /** The array class a buffer of this kind is. */
    public final Class<?> arrayClass;
    /** The buffer class a direct buffer of this kind is (a {@link ByteBuffer} holds any kind). */
    public final Class<? extends Buffer> bufferClass;
    /** The element on the wire: little endian. */
    public final ValueLayout wire;
    /** The element in this machine's memory (its byte order): made once, not at every copy. */
    public final ValueLayout memory;

    Kind(final int bytes, final Class<?> arrayClass, final Class<? extends Buffer> bufferClass,
         final ValueLayout layout) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
        this.bufferClass = bufferClass;
        this.wire = layout.withOrder(ByteOrder.LITTLE_ENDIAN);
        this.memory = layout.withOrder(ByteOrder.nativeOrder());
    }

    /**
     * The kind of a code carried in a message.
     *
     * @param code {@link #ordinal()}
     * @return the kind, or null if the code is not one
     */
    public static Kind ofCode(final int code) {
        return code >= 0 && code < VALUES.length ? VALUES[code] : null;
    }

    /**
     * Whether {@code buf} can hold elements of this kind. As in Open MPI's bindings, where the native layer takes a
     * Java array or a direct buffer as memory and the datatype says what lies there: any primitive array (one of
     * another type is read as its bytes in the platform's order: 5 {@code BYTE}s from an {@code int[]} are its
     * first 5 bytes), a heap buffer of {@link #bufferClass} or a {@link ByteBuffer}, or any direct buffer.
     *
     * @param buf a user's buffer
     * @return true if it fits
     */
    public boolean accepts(final Object buf) {
        if (buf == null) {
            return false;
        }
        if (buf.getClass() == arrayClass || elementBytes(buf) > 0 && !(buf instanceof Buffer)) {
            return this != BOOLEAN || buf.getClass() == arrayClass; // booleans are no memory a type can share
        }
        return buf instanceof Buffer b && (bufferClass.isInstance(b) || b instanceof ByteBuffer || b.isDirect());
    }

    /** Bytes per element of a primitive array or an NIO buffer; 0 for anything else. */
    static int elementBytes(final Object buf) {
        return switch (buf) {
            case byte[] a -> 1;
            case char[] a -> 2;
            case short[] a -> 2;
            case int[] a -> 4;
            case long[] a -> 8;
            case float[] a -> 4;
            case double[] a -> 8;
            case ByteBuffer b -> 1;
            case CharBuffer b -> 2;
            case ShortBuffer b -> 2;
            case IntBuffer b -> 4;
            case LongBuffer b -> 8;
            case FloatBuffer b -> 4;
            case DoubleBuffer b -> 8;
            default -> 0;
        };
    }

    /**
     * How many elements of this kind {@code buf} holds (an array's length; a buffer's capacity; in elements of this
     * kind when the array or buffer is of another).
     *
     * @param buf an accepted buffer
     * @return its length in elements
     */
    public long lengthOf(final Object buf) {
        if (buf.getClass() == arrayClass) {
            return java.lang.reflect.Array.getLength(buf);
        }
        final long bytesHeld = (buf instanceof Buffer b ? b.capacity() : java.lang.reflect.Array.getLength(buf))
            * (long) elementBytes(buf);
        return bytesHeld / bytes;
    }
}
