package org.jhpvm.mpi.internal;

import java.util.Arrays;

/**
 * What a datatype is to the transfers: its kind, and the runs of elements one item covers, as displacements and
 * lengths in elements of that kind from the item's start, with the item's extent (where the next item starts) and
 * lower bound. A basic type is one run of one element, extent 1. Runs are kept in type-map order, which is the order
 * of the elements in a message. Immutable; what transfers ask per message (size, bounds, contiguity) is computed once.
 */
public final class TypeMap {
    private final Kind kind;
    private final int[] displs;
    private final int[] lengths;
    private final long lb;
    private final long extent;
    /** Elements per item, and the lowest and one-past-highest element one item touches (0, 0 if none). */
    private final long size;
    private final long low;
    private final long high;
    private final boolean contiguous;

    /**
     * Checks and keeps the runs (the arrays are the caller's no more).
     *
     * @param kind    the element kind
     * @param displs  run starts
     * @param lengths run lengths
     * @param lb      lower bound
     * @param extent  extent
     */
    public TypeMap(final Kind kind, final int[] displs, final int[] lengths, final long lb, final long extent) {
        if (displs.length != lengths.length) {
            throw new IllegalArgumentException("displs and lengths differ in length");
        }
        this.kind = kind;
        this.displs = displs;
        this.lengths = lengths;
        this.lb = lb;
        this.extent = extent;
        long n = 0;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int j = 0; j < displs.length; j++) {
            n += lengths[j];
            lo = Math.min(lo, displs[j]);
            hi = Math.max(hi, (long) displs[j] + lengths[j]);
        }
        this.size = n;
        this.low = displs.length == 0 ? 0 : lo;
        this.high = displs.length == 0 ? 0 : hi;
        this.contiguous = displs.length == 1 && displs[0] == 0 && lengths[0] == extent;
    }

    /**
     * The element kind.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Each run's first element, relative to the item's start.
     *
     * @return the run starts (not to be changed)
     */
    public int[] displs() {
        return displs;
    }

    /**
     * Each run's length in elements.
     *
     * @return the run lengths (not to be changed)
     */
    public int[] lengths() {
        return lengths;
    }

    /**
     * The lower bound.
     *
     * @return the lower bound, in elements
     */
    public long lb() {
        return lb;
    }

    /**
     * The distance between items.
     *
     * @return the extent, in elements
     */
    public long extent() {
        return extent;
    }

    /**
     * The map of a basic type.
     *
     * @param kind its kind
     * @return one run of one element, extent 1
     */
    public static TypeMap basic(final Kind kind) {
        return new TypeMap(kind, new int[] {0}, new int[] {1}, 0, 1);
    }

    /**
     * Elements in one item (MPI's size over the kind's size).
     *
     * @return the sum of the run lengths
     */
    public long size() {
        return size;
    }

    /**
     * Whether {@code count} items are one run of elements starting at 0 (so one transfer call moves them).
     *
     * @return true for a basic type and any type whose elements have no gaps and whose extent is its size
     */
    public boolean contiguous() {
        return contiguous;
    }

    /**
     * The highest element index {@code count} items touch, plus one; with {@link #lowest(int)}, the bounds a buffer
     * must hold.
     *
     * @param count items
     * @return one past the highest element index touched, or 0 if none
     */
    public long highest(final int count) {
        if (count == 0 || displs.length == 0) {
            return 0;
        }
        return Math.max(high, (count - 1) * extent + high);
    }

    /**
     * The lowest element index {@code count} items touch.
     *
     * @param count items
     * @return the lowest index touched, or 0 if none
     */
    public long lowest(final int count) {
        if (count == 0 || displs.length == 0) {
            return 0;
        }
        return Math.min(low, low + (count - 1) * extent);
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TypeMap t && size == t.size && kind == t.kind && lb == t.lb && extent == t.extent
            && Arrays.equals(displs, t.displs) && Arrays.equals(lengths, t.lengths);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Arrays.hashCode(displs) * 17 + Arrays.hashCode(lengths);
    }

    @Override
    public String toString() {
        return "TypeMap[" + kind + ", displs=" + Arrays.toString(displs) + ", lengths=" + Arrays.toString(lengths)
            + ", lb=" + lb + ", extent=" + extent + "]";
    }
}
