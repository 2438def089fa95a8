package org.jhpvm.ga;

import java.util.Arrays;

/**
 * What {@link GlobalArray#access()} (or {@link GlobalArray#accessBlock(int)}) returns: this PE's block as the plain Java
 * array it lives in, with its layout.
 * The block is stored row-major with {@code width[d]} ghost layers on each side of every dimension; {@link #ld()}
 * gives the leading dimensions (ghosts included) as GA's {@code NGA_Access} does, and {@link #index(int...)} maps
 * a global subscript (ghost positions included) to the array index. Kernels are plain loops over the array.
 * <p>
 * For a complex array (SCPL, DCPL) the array is the {@code float[]} or {@code double[]} of interleaved pairs
 * ({@link #floats()}, {@link #doubles()}): {@link #index(int...)}, {@link #ld()} and {@link #strides()} count
 * elements, and element {@code k} is at {@code 2k} (real part) and {@code 2k+1} (imaginary part).
 */
public final class LocalBlock {
    private final Object array;
    private final GaType type;
    private final int[] lo;
    private final int[] hi;
    private final int[] width;
    private final int[] strides;
    private final boolean owns;
    /** Where the block starts in the array (a block-cyclic rank's later blocks follow its first). */
    private final int base;

    LocalBlock(final Object array, final GaType type, final int[] lo, final int[] hi, final int[] width,
        final int[] strides, final boolean owns) {
        this(array, type, lo, hi, width, strides, owns, 0);
    }

    LocalBlock(final Object array, final GaType type, final int[] lo, final int[] hi, final int[] width,
        final int[] strides, final boolean owns, final int base) {
        this.base = base;
        this.array = array;
        this.type = type;
        this.lo = lo;
        this.hi = hi;
        this.width = width;
        this.strides = strides;
        this.owns = owns;
    }

    /**
     * Whether this PE owns nothing: a rank beyond the processor grid. An empty block has {@link #lo()} all 0 and
     * {@link #hi()} all -1, {@link #index(int...)} rejects every subscript, and its array holds no part of the
     * global array.
     *
     * @return whether this PE owns no elements of the array
     */
    public boolean isEmpty() {
        return !owns;
    }

    /**
     * The global subscript of the block's first interior element (ghosts excluded), {@code NGA_Distribution}'s lo.
     *
     * @return the first subscript of the block (a copy), all 0 for an empty block
     */
    public int[] lo() {
        return lo.clone();
    }

    /**
     * The global subscript of the block's last interior element, inclusive (ghosts excluded).
     *
     * @return the last subscript of the block (a copy), all -1 for an empty block
     */
    public int[] hi() {
        return hi.clone();
    }

    /**
     * The ghost layers stored on each side of the block, the same as the array's {@code ghostWidths()}.
     *
     * @return ghost widths, one entry per dimension (a copy)
     */
    public int[] ghostWidths() {
        return width.clone();
    }

    /**
     * The leading dimensions of the stored block, as {@code NGA_Access} returns them, so that the element at global
     * subscript {@code s} sits at {@code offset()} plus the row-major position of {@code s - lo} under these extents.
     * Computed on each call.
     *
     * @return leading dimensions, {@code ndim-1} entries (none for a 1-D array): {@code ld[d]} is the stored extent
     *         (ghosts included) of dimension {@code d+1}
     */
    public int[] ld() {
        final int[] ld = new int[lo.length - 1];
        for (int d = 1; d < lo.length; d++) {
            ld[d - 1] = hi[d] - lo[d] + 1 + 2 * width[d];
        }
        return ld;
    }

    /**
     * The extents of the stored block with its ghost layers ({@code NGA_Access_ghosts}'s {@code dims}): the block's
     * extent plus twice the ghost width in every dimension.
     *
     * @return extents, one per dimension (all 0 for an empty block)
     */
    public int[] ghostDims() {
        final int[] d = new int[lo.length];
        if (owns) {
            for (int k = 0; k < d.length; k++) {
                d[k] = hi[k] - lo[k] + 1 + 2 * width[k];
            }
        }
        return d;
    }

    /**
     * Where the stored block starts in the array, its first ghost element (where {@code NGA_Access_ghosts}'s
     * pointer points): the element at subscript {@code lo[d] - width[d]} in every dimension.
     *
     * @return the index of the first stored element (0 for an empty block)
     */
    public int ghostOffset() {
        return owns ? base : 0;
    }

    /**
     * The distance in array elements between neighbours in each dimension of the stored block (ghosts included):
     * the last entry is 1, each other is the product of the stored extents after it. Meaningless for an empty block.
     *
     * @return the row-major strides of the stored block, in elements (a copy)
     */
    public int[] strides() {
        return strides.clone();
    }

    /**
     * Maps a global subscript to its position in the block's array. Ghost positions count: subscript {@code lo[d]-1}
     * in dimension {@code d} is the lower ghost layer next to the interior (what GA's {@code NGA_Access_ghosts}
     * addresses). No communication.
     *
     * @param subscript global subscript inside the block or its ghost layers, one entry per dimension
     * @return its index in the array
     * @throws IllegalArgumentException  if the subscript has the wrong number of entries
     * @throws IndexOutOfBoundsException outside the block and its ghosts, and for every subscript of an empty block
     */
    public int index(final int... subscript) {
        if (subscript.length != lo.length) {
            throw new IllegalArgumentException("subscript has " + subscript.length + " entries for " + lo.length
                + " dimensions");
        }
        int i = base;
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

    /**
     * Where the block's interior starts in the array, the usual start of a kernel's loop.
     *
     * @return the index of the block's first interior element ({@code lo}), 0 for an empty block
     */
    public int offset() {
        return owns ? index(lo) : 0;
    }

    /**
     * This PE's storage of a double array, itself, not a copy: writes change the global array at once and reach
     * other PEs' reads after a sync; other PEs' puts and accumulates land in it. Its length may exceed the stored
     * block: every PE of the group allocates room for the largest block.
     *
     * @return the array of a double global array (of a DCPL one: its interleaved pairs)
     * @throws IllegalArgumentException if the global array holds another type
     */
    public double[] doubles() {
        return (double[]) typed(type == GaType.DCPL ? GaType.DCPL : GaType.DOUBLE);
    }

    /**
     * This PE's storage of a float array, itself, not a copy: writes change the global array at once and reach
     * other PEs' reads after a sync; other PEs' puts and accumulates land in it. Its length may exceed the stored
     * block: every PE of the group allocates room for the largest block.
     *
     * @return the array of a float global array (of an SCPL one: its interleaved pairs)
     * @throws IllegalArgumentException if the global array holds another type
     */
    public float[] floats() {
        return (float[]) typed(type == GaType.SCPL ? GaType.SCPL : GaType.FLOAT);
    }

    /**
     * This PE's storage of a long array, itself, not a copy: writes change the global array at once and reach
     * other PEs' reads after a sync; other PEs' puts and accumulates land in it. Its length may exceed the stored
     * block: every PE of the group allocates room for the largest block.
     *
     * @return the array of a long global array
     * @throws IllegalArgumentException if the global array holds another type
     */
    public long[] longs() {
        return (long[]) typed(GaType.LONG);
    }

    /**
     * This PE's storage of an int array, itself, not a copy: writes change the global array at once and reach
     * other PEs' reads after a sync; other PEs' puts and accumulates land in it. Its length may exceed the stored
     * block: every PE of the group allocates room for the largest block.
     *
     * @return the array of an int global array
     * @throws IllegalArgumentException if the global array holds another type
     */
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
