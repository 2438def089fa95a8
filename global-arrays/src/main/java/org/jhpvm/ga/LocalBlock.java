package org.jhpvm.ga;

import java.util.Arrays;

/**
 * What {@link GlobalArray#access()} returns: this PE's block as the plain Java array it lives in, with its layout.
 * The block is stored row-major with {@code width[d]} ghost layers on each side of every dimension; {@link #ld()}
 * gives the leading dimensions (ghosts included) as GA's {@code NGA_Access} does, and {@link #index(int...)} maps
 * a global subscript (ghost positions included) to the array index. Kernels are plain loops over the array.
 */
public final class LocalBlock {
    private final Object array;
    private final GaType type;
    private final int[] lo;
    private final int[] hi;
    private final int[] width;
    private final int[] strides;
    private final boolean owns;

    LocalBlock(final Object array, final GaType type, final int[] lo, final int[] hi, final int[] width,
        final int[] strides, final boolean owns) {
        this.array = array;
        this.type = type;
        this.lo = lo;
        this.hi = hi;
        this.width = width;
        this.strides = strides;
        this.owns = owns;
    }

    /** @return whether this PE owns no elements of the array */
    public boolean isEmpty() {
        return !owns;
    }

    /** @return the first subscript of the block (a copy) */
    public int[] lo() {
        return lo.clone();
    }

    /** @return the last subscript of the block (a copy) */
    public int[] hi() {
        return hi.clone();
    }

    /** @return ghost widths (a copy) */
    public int[] ghostWidths() {
        return width.clone();
    }

    /** @return leading dimensions: {@code ld[d]} is the stored extent (ghosts included) of dimension {@code d+1} */
    public int[] ld() {
        final int[] ld = new int[lo.length - 1];
        for (int d = 1; d < lo.length; d++) {
            ld[d - 1] = hi[d] - lo[d] + 1 + 2 * width[d];
        }
        return ld;
    }

    /** @return the row-major strides of the stored block (a copy) */
    public int[] strides() {
        return strides.clone();
    }

    /**
     * @param subscript global subscript inside the block or its ghost layers
     * @return its index in the array
     * @throws IndexOutOfBoundsException outside the block and its ghosts
     */
    public int index(final int... subscript) {
        if (subscript.length != lo.length) {
            throw new IllegalArgumentException("subscript has " + subscript.length + " entries for " + lo.length
                + " dimensions");
        }
        int i = 0;
        for (int d = 0; d < lo.length; d++) {
            final int p = subscript[d] - lo[d] + width[d];
            if (!owns || p < 0 || subscript[d] > hi[d] + width[d]) {
                throw new IndexOutOfBoundsException("subscript " + Arrays.toString(subscript) + " outside block "
                    + Arrays.toString(lo) + ".." + Arrays.toString(hi) + " with ghosts " + Arrays.toString(width));
            }
            i += p * strides[d];
        }
        return i;
    }

    /** @return the index of the block's first interior element ({@code lo}) */
    public int offset() {
        return owns ? index(lo) : 0;
    }

    /** @return the array of a double global array */
    public double[] doubles() {
        return (double[]) typed(GaType.DOUBLE);
    }

    /** @return the array of a float global array */
    public float[] floats() {
        return (float[]) typed(GaType.FLOAT);
    }

    /** @return the array of a long global array */
    public long[] longs() {
        return (long[]) typed(GaType.LONG);
    }

    /** @return the array of an int global array */
    public int[] ints() {
        return (int[]) typed(GaType.INT);
    }

    private Object typed(final GaType want) {
        if (type != want) {
            throw new IllegalArgumentException("type mismatch: the array holds " + type + ", not " + want);
        }
        return array;
    }
}
