package org.jhpvm.mpi.internal;

import java.util.Arrays;

/**
 * What a datatype is to the transfers: its kind, and the runs of elements one item covers, as displacements and
 * lengths in elements of that kind from the item's start, with the item's extent (where the next item starts) and
 * lower bound. A basic type is one run of one element, extent 1. Runs are kept in type-map order, which is the order
 * of the elements in a message.
 *
 * @param kind    the element kind
 * @param displs  each run's first element, relative to the item's start (may be negative)
 * @param lengths each run's length in elements (all positive)
 * @param lb      the lowest displacement (0 for a basic type)
 * @param extent  the distance between items, in elements
 */
public record TypeMap(Kind kind, int[] displs, int[] lengths, long lb, long extent) {
    /**
     * Checks and keeps the runs.
     *
     * @param kind    the element kind
     * @param displs  run starts
     * @param lengths run lengths
     * @param lb      lower bound
     * @param extent  extent
     */
    public TypeMap {
        if (displs.length != lengths.length) {
            throw new IllegalArgumentException("displs and lengths differ in length");
        }
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
        long n = 0;
        for (final int l : lengths) {
            n += l;
        }
        return n;
    }

    /**
     * Whether {@code count} items are one run of elements starting at 0 (so one transfer call moves them).
     *
     * @return true for a basic type and any type whose elements have no gaps and whose extent is its size
     */
    public boolean contiguous() {
        return displs.length == 1 && displs[0] == 0 && lengths[0] == extent;
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
        long hi = Long.MIN_VALUE;
        for (int j = 0; j < displs.length; j++) {
            hi = Math.max(hi, (long) displs[j] + lengths[j]);
        }
        return (count - 1) * extent + hi;
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
        long lo = Long.MAX_VALUE;
        for (final int d : displs) {
            lo = Math.min(lo, d);
        }
        return Math.min(lo, lo + (count - 1) * extent);
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TypeMap t && kind == t.kind && lb == t.lb && extent == t.extent
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
