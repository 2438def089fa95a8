package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Wire layouts of the typed pieces (little endian, unaligned: a piece may start at any byte of a frame) and the
 * checks shared by the typed send and receive paths.
 */
final class Elements {
    static final ValueLayout BYTE = ValueLayout.JAVA_BYTE;
    static final ValueLayout INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final ValueLayout.OfInt INT_LE = (ValueLayout.OfInt) INT;
    private static final ValueLayout.OfLong LONG_LE = (ValueLayout.OfLong) LONG;
    private static final ValueLayout.OfFloat FLOAT_LE = (ValueLayout.OfFloat) FLOAT;
    private static final ValueLayout.OfDouble DOUBLE_LE = (ValueLayout.OfDouble) DOUBLE;
    /**
     * Runs shorter than this many bytes (and strided elements) are copied element by element:
     * {@code MemorySegment.copy}'s checks of the array's type, the layout and the bounds cost more than such a copy
     * (an MPI subarray's rows along a ghost face are a few elements each), while an element access with a constant
     * layout compiles to a plain load or store.
     */
    static final int BULK_BYTES = 64;

    private Elements() {
    }

    /**
     * Copies elements {@code index, index+stride, ...} ({@code count} of them, checked by the caller) of a primitive
     * array into {@code seg} at {@code at}, packed.
     */
    static void toSegment(final Object array, final int index, final int stride, final int count,
        final MemorySegment seg, final ValueLayout layout, final long at) {
        if (stride == 1 && count * layout.byteSize() >= BULK_BYTES) {
            MemorySegment.copy(array, index, seg, layout, at, count);
            return;
        }
        switch (array) {
            case double[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    seg.set(DOUBLE_LE, at + ((long) k << 3), a[i]);
                }
            }
            case long[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    seg.set(LONG_LE, at + ((long) k << 3), a[i]);
                }
            }
            case int[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    seg.set(INT_LE, at + ((long) k << 2), a[i]);
                }
            }
            case float[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    seg.set(FLOAT_LE, at + ((long) k << 2), a[i]);
                }
            }
            case byte[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    seg.set(ValueLayout.JAVA_BYTE, at + k, a[i]);
                }
            }
            default -> throw new IllegalArgumentException("not a byte, int, long, float or double array");
        }
    }

    /**
     * Copies {@code count} packed elements from {@code seg} at {@code at} into elements {@code index, index+stride,
     * ...} of a primitive array (checked by the caller).
     */
    static void fromSegment(final MemorySegment seg, final ValueLayout layout, final long at, final Object array,
        final int index, final int stride, final int count) {
        if (stride == 1 && count * layout.byteSize() >= BULK_BYTES) {
            MemorySegment.copy(seg, layout, at, array, index, count);
            return;
        }
        switch (array) {
            case double[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    a[i] = seg.get(DOUBLE_LE, at + ((long) k << 3));
                }
            }
            case long[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    a[i] = seg.get(LONG_LE, at + ((long) k << 3));
                }
            }
            case int[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    a[i] = seg.get(INT_LE, at + ((long) k << 2));
                }
            }
            case float[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    a[i] = seg.get(FLOAT_LE, at + ((long) k << 2));
                }
            }
            case byte[] a -> {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    a[i] = seg.get(ValueLayout.JAVA_BYTE, at + k);
                }
            }
            default -> throw new IllegalArgumentException("not a byte, int, long, float or double array");
        }
    }

    /**
     * Checks a strided element range: elements {@code index, index+stride, ...} ({@code count} of them) inside an
     * array of {@code length}.
     *
     * @return the bytes the elements take on the wire
     */
    static long check(final int length, final int index, final int stride, final int count, final int elementBytes) {
        if (count < 0) {
            throw new IllegalArgumentException("count=" + count + " is negative");
        }
        if (stride < 1) {
            throw new IllegalArgumentException("stride=" + stride + " must be at least 1");
        }
        final long last = count == 0 ? index : index + (long) (count - 1) * stride;
        if (index < 0 || (count > 0 && last >= length) || (count == 0 && index > length)) {
            throw new IndexOutOfBoundsException("elements " + index + ", stride " + stride + ", count " + count
                + " outside an array of length " + length);
        }
        return (long) count * elementBytes;
    }

    /** Copies one element between an array and a segment (the slow path for strides and frame-straddling ones). */
    static void toSegment(final Object array, final int index, final MemorySegment seg, final ValueLayout layout,
        final long offset) {
        MemorySegment.copy(array, index, seg, layout, offset, 1);
    }

    /**
     * The wire layout of a primitive array's elements.
     *
     * @throws IllegalArgumentException if it is not a byte, int, long, float or double array
     */
    static ValueLayout layoutOf(final Object array) {
        return switch (array) {
            case byte[] a -> BYTE;
            case int[] a -> INT;
            case long[] a -> LONG;
            case float[] a -> FLOAT;
            case double[] a -> DOUBLE;
            case null -> throw new NullPointerException("array");
            default -> throw new IllegalArgumentException("not a byte, int, long, float or double array: "
                + array.getClass().getName());
        };
    }

    /** The length of a primitive array {@link #layoutOf} accepts. */
    static int lengthOf(final Object array) {
        return switch (array) {
            case byte[] a -> a.length;
            case int[] a -> a.length;
            case long[] a -> a.length;
            case float[] a -> a.length;
            case double[] a -> a.length;
            default -> throw new IllegalArgumentException("not a byte, int, long, float or double array");
        };
    }
}
