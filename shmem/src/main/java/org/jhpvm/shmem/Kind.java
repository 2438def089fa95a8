package org.jhpvm.shmem;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/** Element types of symmetric objects: their sizes, arrays, and how they travel through FM's typed pieces. */
enum Kind {
    BYTE(1, "byte", ValueLayout.JAVA_BYTE),
    INT(4, "int", ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)),
    LONG(8, "long", ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)),
    FLOAT(4, "float", ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)),
    DOUBLE(8, "double", ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN));

    static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    static final VarHandle FLOATS = MethodHandles.arrayElementVarHandle(float[].class);
    static final VarHandle DOUBLES = MethodHandles.arrayElementVarHandle(double[].class);

    final int bytes;
    final String javaName;
    /** The elements' layout on the wire (FM's typed pieces: little endian, unaligned). */
    final ValueLayout wire;

    Kind(final int bytes, final String javaName, final ValueLayout wire) {
        this.bytes = bytes;
        this.javaName = javaName;
        this.wire = wire;
    }

    /** @return the kind of a primitive array, or null if it is none of SHMEM's */
    static Kind of(final Object array) {
        return switch (array) {
            case byte[] a -> BYTE;
            case int[] a -> INT;
            case long[] a -> LONG;
            case float[] a -> FLOAT;
            case double[] a -> DOUBLE;
            default -> null;
        };
    }

    Object newArray(final int n) {
        return switch (this) {
            case BYTE -> new byte[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    static int length(final Object a) {
        return switch (a) {
            case byte[] x -> x.length;
            case int[] x -> x.length;
            case long[] x -> x.length;
            case float[] x -> x.length;
            case double[] x -> x.length;
            default -> java.lang.reflect.Array.getLength(a);
        };
    }

    /** Typed gather straight from {@code a} into the message. */
    void send(final FmOutputStream out, final Object a, final int index, final int stride, final int count) {
        switch (this) {
            case BYTE -> out.sendBytes((byte[]) a, index, stride, count);
            case INT -> out.sendInts((int[]) a, index, stride, count);
            case LONG -> out.sendLongs((long[]) a, index, stride, count);
            case FLOAT -> out.sendFloats((float[]) a, index, stride, count);
            case DOUBLE -> out.sendDoubles((double[]) a, index, stride, count);
        }
    }

    /** Typed scatter straight from the message into {@code a}. */
    void receive(final FmInputStream in, final Object a, final int index, final int stride, final int count) {
        switch (this) {
            case BYTE -> in.receiveBytes((byte[]) a, index, stride, count);
            case INT -> in.receiveInts((int[]) a, index, stride, count);
            case LONG -> in.receiveLongs((long[]) a, index, stride, count);
            case FLOAT -> in.receiveFloats((float[]) a, index, stride, count);
            case DOUBLE -> in.receiveDoubles((double[]) a, index, stride, count);
        }
    }

    /**
     * Block-strided gather: {@code count} blocks of {@code block} contiguous elements, block starts {@code stride}
     * apart ({@code block == 1} is the plain element stride).
     */
    void sendBlocks(final FmOutputStream out, final Object a, final int index, final int stride, final int count,
        final int block) {
        if (block == 1) {
            send(out, a, index, stride, count);
            return;
        }
        for (int b = 0; b < count; b++) {
            send(out, a, index + b * stride, 1, block);
        }
    }

    /** Block-strided scatter, the inverse of {@link #sendBlocks}. */
    void receiveBlocks(final FmInputStream in, final Object a, final int index, final int stride, final int count,
        final int block) {
        if (block == 1) {
            receive(in, a, index, stride, count);
            return;
        }
        for (int b = 0; b < count; b++) {
            receive(in, a, index + b * stride, 1, block);
        }
    }

    /** Local block-strided copy. */
    static void copyBlocks(final Object src, final int srcIndex, final int srcStride, final Object dst,
        final int dstIndex, final int dstStride, final int count, final int block) {
        if (block == 1) {
            copy(src, srcIndex, srcStride, dst, dstIndex, dstStride, count);
            return;
        }
        for (int b = 0; b < count; b++) {
            System.arraycopy(src, srcIndex + b * srcStride, dst, dstIndex + b * dstStride, block);
        }
    }

    /** Local strided copy (put or get on this PE's own memory). */
    static void copy(final Object src, final int srcIndex, final int srcStride, final Object dst, final int dstIndex,
        final int dstStride, final int count) {
        if (srcStride == 1 && dstStride == 1) {
            System.arraycopy(src, srcIndex, dst, dstIndex, count);
            return;
        }
        // Typed loops: a one-element System.arraycopy per element costs several times more.
        switch (src) {
            case double[] s when dst instanceof double[] d -> {
                for (int k = 0; k < count; k++) {
                    d[dstIndex + k * dstStride] = s[srcIndex + k * srcStride];
                }
            }
            case long[] s when dst instanceof long[] d -> {
                for (int k = 0; k < count; k++) {
                    d[dstIndex + k * dstStride] = s[srcIndex + k * srcStride];
                }
            }
            case int[] s when dst instanceof int[] d -> {
                for (int k = 0; k < count; k++) {
                    d[dstIndex + k * dstStride] = s[srcIndex + k * srcStride];
                }
            }
            case float[] s when dst instanceof float[] d -> {
                for (int k = 0; k < count; k++) {
                    d[dstIndex + k * dstStride] = s[srcIndex + k * srcStride];
                }
            }
            default -> {
                for (int k = 0; k < count; k++) {
                    System.arraycopy(src, srcIndex + k * srcStride, dst, dstIndex + k * dstStride, 1);
                }
            }
        }
    }

    /** The value of element {@code i} as raw long bits (doubles and floats by their IEEE bits). */
    long getBits(final Object a, final int i) {
        return switch (this) {
            case BYTE -> ((byte[]) a)[i];
            case INT -> (int) INTS.getVolatile((int[]) a, i);
            case LONG -> (long) LONGS.getVolatile((long[]) a, i);
            case FLOAT -> Float.floatToRawIntBits((float) FLOATS.getVolatile((float[]) a, i));
            case DOUBLE -> Double.doubleToRawLongBits((double) DOUBLES.getVolatile((double[]) a, i));
        };
    }

    /** Stores raw long bits into element {@code i} (a volatile store). */
    void setBits(final Object a, final int i, final long bits) {
        switch (this) {
            case BYTE -> ((byte[]) a)[i] = (byte) bits;
            case INT -> INTS.setVolatile((int[]) a, i, (int) bits);
            case LONG -> LONGS.setVolatile((long[]) a, i, bits);
            case FLOAT -> FLOATS.setVolatile((float[]) a, i, Float.intBitsToFloat((int) bits));
            case DOUBLE -> DOUBLES.setVolatile((double[]) a, i, Double.longBitsToDouble(bits));
        }
    }

    /**
     * {@code dst[di + k*ds] += alpha * src[k]} for {@code k < n}; alpha is raw bits of this kind. The caller holds
     * the PE's progress ownership, which makes each element's update atomic with respect to every other
     * accumulate.
     */
    void accumulate(final Object dst, final int di, final int ds, final Object src, final int n, final long alpha) {
        switch (this) {
            case INT -> {
                final int[] d = (int[]) dst;
                final int[] s = (int[]) src;
                final int a = (int) alpha;
                for (int k = 0; k < n; k++) {
                    d[di + k * ds] += a * s[k];
                }
            }
            case LONG -> {
                final long[] d = (long[]) dst;
                final long[] s = (long[]) src;
                for (int k = 0; k < n; k++) {
                    d[di + k * ds] += alpha * s[k];
                }
            }
            case FLOAT -> {
                final float[] d = (float[]) dst;
                final float[] s = (float[]) src;
                final float a = Float.intBitsToFloat((int) alpha);
                for (int k = 0; k < n; k++) {
                    d[di + k * ds] += a * s[k];
                }
            }
            case DOUBLE -> {
                final double[] d = (double[]) dst;
                final double[] s = (double[]) src;
                final double a = Double.longBitsToDouble(alpha);
                for (int k = 0; k < n; k++) {
                    d[di + k * ds] += a * s[k];
                }
            }
            case BYTE -> throw new IllegalArgumentException("accumulate is not defined on byte");
        }
    }
}
