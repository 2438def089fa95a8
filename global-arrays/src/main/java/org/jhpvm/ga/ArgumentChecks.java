package org.jhpvm.ga;

import java.util.Arrays;
import java.util.Objects;

import org.jhpvm.shmem.ReduceOp;
import org.jhpvm.shmem.Shmem;

/**
 * The checks of a call's arguments against one array, made on the calling PE before anything is sent (the README's
 * Errors): subscripts, sections, buffer types, buffers too small for a section with their {@code ld}, operands on
 * another group; and, at creation, that every PE asked for the same array. A section check leaves the elements per
 * dimension in {@link #count} and a buffer check the buffer's strides in {@link #bs}, scratch the transfer that
 * follows reads, so a checked call allocates nothing.
 * <p>
 * One per global array handle, used from the owning PE's thread.
 */
final class ArgumentChecks {
    /** Elements per dimension of the section last checked. */
    final int[] count;
    /** Strides (in elements) per dimension of the buffer last checked; {@link SectionTransfer} reads them. */
    final int[] bs;

    private final GlobalArray a;
    private final Distribution dist;
    private final int ndim;

    ArgumentChecks(final GlobalArray a) {
        this.a = a;
        this.dist = a.dist;
        this.ndim = a.ndim;
        this.count = new int[ndim];
        this.bs = new int[ndim];
    }

    /**
     * Collective: fails on every PE of the group unless all asked for the same type and distribution. One
     * max-reduction of each value and its negation gives its maximum and minimum, equal only if all PEs agree.
     */
    static void checkSameOnEveryPe(final Shmem shmem, final GaGroup group, final GaType type,
        final Distribution dist, final boolean overlay) {
        final long bytes = overlay ? 0 : (long) dist.maxLocalLength * type.bytes();
        final long[] v = {dist.fingerprint(), -dist.fingerprint(), type.ordinal(), -type.ordinal(),
            group.ga.fitsMemoryLimit(bytes) ? 0 : 1};
        shmem.reduce(group.team, ReduceOp.MAX, v, v, v.length);
        if (v[4] != 0) {
            throw new IllegalStateException("GA memory limit: a PE of " + group + " cannot hold " + bytes
                + " more bytes of array storage (setMemoryLimit); nothing was allocated");
        }
        if (v[0] != -v[1] || v[2] != -v[3]) {
            throw new IllegalArgumentException("collective create mismatch: the PEs of " + group + " asked for "
                + "different types, shapes or distributions (this PE: " + type + " " + Arrays.toString(dist.dims)
                + ", " + dist.describe() + ")");
        }
    }

    /** {@code GA_Overlay}'s conditions: a live parent of the same type and group, with blocks at least as large. */
    static void checkOverlay(final GlobalArray parent, final GaType type, final GaGroup group,
        final Distribution dist) {
        parent.checkLive();
        if (parent.type != type || parent.group.team != group.team
            || dist.maxLocalLength > parent.dist.maxLocalLength) {
            throw new IllegalArgumentException("overlay: " + parent + " must hold " + type + " on the same group "
                + "with blocks of at least " + dist.maxLocalLength + " elements (ghosts included); it has "
                + parent.dist.maxLocalLength);
        }
    }

    void checkDims(final int[] x, final String what) {
        Objects.requireNonNull(x, what);
        if (x.length != ndim) {
            throw new IllegalArgumentException(what + " has " + x.length + " entries; " + a + " has " + ndim
                + " dimensions");
        }
    }

    void checkSubscript(final int[] s) {
        checkDims(s, "subscript");
        for (int d = 0; d < ndim; d++) {
            if (s[d] < 0 || s[d] >= dist.dims[d]) {
                throw new IndexOutOfBoundsException("subscript " + Arrays.toString(s) + " outside " + a);
            }
        }
    }

    /** Checks a section and fills {@link #count} with the elements per dimension. */
    void checkSection(final int[] lo, final int[] hi, final int[] skip) {
        checkDims(lo, "lo");
        checkDims(hi, "hi");
        checkDims(skip, "skip");
        for (int d = 0; d < ndim; d++) {
            if (lo[d] > hi[d]) {
                throw new IllegalArgumentException("lo[" + d + "]=" + lo[d] + " > hi[" + d + "]=" + hi[d]);
            }
            if (lo[d] < 0 || hi[d] >= dist.dims[d]) {
                throw new IndexOutOfBoundsException("section " + Arrays.toString(lo) + ".." + Arrays.toString(hi)
                    + " outside " + a);
            }
            if (skip[d] < 1) {
                throw new IllegalArgumentException("skip[" + d + "]=" + skip[d] + " must be at least 1");
            }
            count[d] = skip[d] == 1 ? hi[d] - lo[d] + 1 : (hi[d] - lo[d]) / skip[d] + 1;
        }
    }

    /**
     * Refuses {@code op} on a complex array: the routines GA defines on real types only here, and those not (yet)
     * provided for complex elements (the module README lists which are).
     */
    void checkReal(final String op) {
        if (a.type.isComplex()) {
            throw new IllegalArgumentException(op + " is not provided for complex arrays (" + a + " holds " + a.type
                + "); see the global-arrays README for the complex routines");
        }
    }

    void checkType(final Object buf) {
        Objects.requireNonNull(buf, "buffer");
        if (!a.type.matches(buf)) {
            throw new IllegalArgumentException("type mismatch: " + a + " holds " + a.type.javaName()
                + ", the buffer is " + buf.getClass().getSimpleName());
        }
    }

    /** Checks the buffer against {@link #count} and fills {@link #bs} with its strides. */
    void checkBuffer(final Object buf, final int[] ld) {
        checkType(buf);
        if (ndim > 1) {
            Objects.requireNonNull(ld, "ld");
        }
        if (ndim > 1 && ld.length < ndim - 1) {
            throw new IllegalArgumentException("ld has " + ld.length + " entries; " + (ndim - 1) + " needed");
        }
        long stride = 1;
        long last = 0;
        for (int d = ndim - 1; d >= 0; d--) {
            if (stride > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("ld " + Arrays.toString(ld) + " overflows an int index");
            }
            bs[d] = (int) stride;
            last += (long) (count[d] - 1) * stride;
            if (d > 0) {
                if (ld[d - 1] < count[d]) {
                    throw new IllegalArgumentException("ld[" + (d - 1) + "]=" + ld[d - 1] + " is smaller than the "
                        + count[d] + " elements of the section in dimension " + d);
                }
                stride *= ld[d - 1];
            }
        }
        final int length = a.type.elements(buf);
        if (last >= length) {
            throw new IllegalArgumentException("buffer too small: the section needs " + (last + 1) + " elements "
                + "with ld " + Arrays.toString(ld) + ", the buffer has " + length);
        }
    }

    void checkSameGroup(final GlobalArray other) {
        Objects.requireNonNull(other, "array");
        other.checkLive();
        if (other.ga != a.ga || other.group.team != a.group.team) {
            throw new IllegalArgumentException(other + " and " + a + " are not on the same processor group");
        }
    }
}
