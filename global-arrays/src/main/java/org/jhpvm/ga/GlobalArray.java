package org.jhpvm.ga;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A global array: a dense 1- to 7-dimensional array of int, long, float or double distributed in blocks over a
 * processor group, each PE's block (with its ghost layers) a plain Java array. Sections are inclusive
 * {@code lo}/{@code hi} subscript arrays; user buffers are row-major with leading dimensions {@code ld}
 * ({@code ndim-1} entries: {@code ld[d]} is the buffer's extent in dimension {@code d+1}), as in GA's C API.
 * <p>
 * One-sided operations ({@link #put}, {@link #get}, {@link #acc}, strided, periodic, scatter/gather,
 * {@link #readInc}) send one SHMEM block-strided message per owner piece, gathered from the user buffer and
 * scattered into the owner's block, with no staging copy. Puts and accumulates are complete at their targets after
 * {@link GlobalArrays#fence()} or a sync; gets return with the data. Collective operations (creation, ghosts,
 * algebra, {@link #destroy()}) must be called by every PE of the array's group.
 * <p>
 * Errors: a section outside the array, lo &gt; hi, a wrong number of dimensions, a buffer too small for the section
 * with its {@code ld}, a buffer of the wrong type, or a destroyed array throw before anything is sent.
 * <p>
 * Thread-safety: a handle belongs to one PE; use it from that PE's thread.
 */
public final class GlobalArray extends NonBlockingAndPeriodicOps {
    // The API, with GA's documentation, is this class and the package-private superclasses it extends, one per
    // responsibility so each file stays small enough to read: ArrayHandle (state, destroy, inquiry), ElementAndGhostOps
    // (scatter, gather, readInc, updateGhosts), AlgebraOps (whole-array and patch algebra, printing) and
    // NonBlockingAndPeriodicOps (nbPut/nbGet/nbAcc, periodic put/get/acc). An inherited public method of a
    // package-private class is reached through a bridge javac adds here, so some stay here:
    // - the blocking and strided section operations (put/get/acc and stridedPut/Get/Acc, the ones bench ga measures),
    //   which call SectionTransfer themselves: a bridge is one call more between the user and FM's copy loops
    //   (README, Measured);
    // - locate and locateRegion: a bridge has neither the varargs flag nor the generic signature, so reflection would
    //   see locate(int[]) and a raw List;
    // - the methods other Javadoc links to (access, selectElem, updateGhostDir): javadoc links an inherited method of
    //   a package-private class only from this class's own page, elsewhere it prints the superclass's name;
    // - creation and the nested types. The bodies are in package-private helpers: ArgumentChecks, SectionTransfer,
    //   ElementOps, DistributionQueries, Ghosts, Algebra and Gemm.

    GlobalArray(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist, final GlobalArray overlayOf) {
        super(ga, group, type, name, dist, overlayOf);
    }

    // ---------------------------------------------------------------- creation

    /** Creation settings ({@code GA_Set_data}, {@code GA_Set_chunk}, ...); {@link #create()} allocates. */
    public static final class Builder extends BuilderLayouts {
        private final GlobalArrays ga;
        private final GaType type;
        private final int[] dims;
        private String name = "";
        private int[] chunk;
        private int[] procGrid;
        private int[] nblock;
        private int[] map;
        private int[] width;
        private GaGroup group;

        Builder(final GlobalArrays ga, final GaType type, final int[] dims) {
            this.ga = ga;
            this.type = Objects.requireNonNull(type, "type");
            Objects.requireNonNull(dims, "dims");
            if (dims.length < 1 || dims.length > 7) {
                throw new IllegalArgumentException(dims.length + " dimensions: Global Arrays have 1 to 7");
            }
            for (int d = 0; d < dims.length; d++) {
                if (dims[d] < 1) {
                    throw new IllegalArgumentException("dims[" + d + "]=" + dims[d] + " must be at least 1");
                }
            }
            this.dims = dims.clone();
            this.group = ga.defaultGroup;
        }

        /**
         * {@code GA_Set_array_name}: names the array for printing, {@link GlobalArrays#summarize()} and error messages.
         * Without it the name is empty.
         *
         * @param n the array's name ({@code GA_Set_array_name}), not null
         * @return this
         */
        public Builder name(final String n) {
            this.name = Objects.requireNonNull(n, "name");
            return this;
        }

        /**
         * {@code GA_Set_chunk}: the minimum block extent per dimension (0 or less: no constraint).
         *
         * @param c one entry per dimension
         * @return this
         * @throws IllegalArgumentException if {@code c} does not have one entry per dimension
         */
        public Builder chunk(final int... c) {
            this.chunk = perDim(c, "chunk").clone();
            return this;
        }

        /**
         * The processor grid of a regular distribution ({@code GA_Set_tiled_proc_grid}): {@code g[d]} blocks in
         * dimension d; the product may not exceed the group's size.
         *
         * @param g one entry per dimension
         * @return this
         * @throws IllegalArgumentException if {@code g} does not have one entry per dimension (the product and the
         *                                  entries are checked by {@link #create()})
         */
        public Builder procGrid(final int... g) {
            this.procGrid = perDim(g, "procGrid").clone();
            return this;
        }

        /**
         * {@code GA_Set_irreg_distr}: {@code nblock[d]} blocks per dimension starting at the concatenated {@code map}
         * entries (0-based).
         *
         * @param nb blocks per dimension
         * @param m  block starts
         * @return this
         * @throws IllegalArgumentException if {@code nb} does not have one entry per dimension (the map itself is
         *                                  checked by {@link #create()})
         */
        public Builder irregular(final int[] nb, final int[] m) {
            this.nblock = perDim(nb, "nblock").clone();
            this.map = Objects.requireNonNull(m, "map").clone();
            return this;
        }

        /**
         * {@code GA_Set_ghosts}: each block stores {@code w[d]} ghost layers on each side of dimension d, filled by
         * {@code updateGhosts} and reached through {@link GlobalArray#access()}. {@link #create()} rejects a
         * distribution with a block thinner than its ghost layers.
         *
         * @param w ghost widths per dimension ({@code GA_Set_ghosts}), at least 0
         * @return this
         * @throws IllegalArgumentException if {@code w} does not have one entry per dimension or an entry is negative
         */
        public Builder ghosts(final int... w) {
            perDim(w, "width");
            for (int d = 0; d < w.length; d++) {
                if (w[d] < 0) {
                    throw new IllegalArgumentException("width[" + d + "]=" + w[d] + " is negative");
                }
            }
            this.width = w.clone();
            return this;
        }

        /**
         * {@code GA_Set_pgroup}: distributes the array over a processor group instead of the world. {@link #create()}
         * is then collective over that group only, and the array's API numbers PEs by their ranks in it.
         *
         * @param g the processor group ({@code GA_Set_pgroup}), not null
         * @return this
         */
        public Builder group(final GaGroup g) {
            this.group = Objects.requireNonNull(g, "group");
            return this;
        }

        private int[] perDim(final int[] a, final String what) {
            Objects.requireNonNull(a, what);
            if (a.length != dims.length) {
                throw new IllegalArgumentException(what + " has " + a.length + " entries for " + dims.length
                    + " dimensions");
            }
            return a;
        }

        /**
         * {@code GA_Allocate}: collective over the group; the array is zeroed (ghosts too).
         *
         * @return the array
         * @throws IllegalArgumentException for an impossible distribution, or on every PE if the PEs asked for
         *                                  different arrays
         * @throws IllegalStateException    if the caller is not a member of the group, or SHMEM's heap is full
         */
        public GlobalArray create() {
            ga.checkGroup(group);
            final Distribution dist;
            if (blockDims != null || tileMap != null) {
                if (chunk != null || procGrid != null || nblock != null || restricted != null
                    || width != null && Arrays.stream(width).anyMatch(x -> x > 0)) {
                    throw new IllegalArgumentException("a block-cyclic or tiled distribution excludes chunk, procGrid, "
                        + "irregular, restricted and ghost cells (as in GA)");
                }
                dist = tileMap != null
                    ? Distribution.tiledIrregular(dims, tileBlocks, tileMap, cyclicGrid, group.nnodes())
                    : Distribution.blockCyclic(dims, perDim(blockDims, "block dims"), cyclicGrid, group.nnodes());
            } else {
                dist = Distribution.of(dims, chunk, procGrid, nblock, map, width, restricted, group.nnodes());
            }
            if (overlay != null) {
                ArgumentChecks.checkOverlay(overlay, type, group, dist);
            }
            return new GlobalArray(ga, group, type, name, dist, overlay);
        }
    }

    // ---------------------------------------------------------------- locality and results

    /**
     * {@code NGA_Locate}: the rank owning an element.
     *
     * @param subscript one index per dimension
     * @return its owner's rank in the group
     */
    public int locate(final int... subscript) {
        return queries.locate(subscript);
    }

    /**
     * One owner's piece of a section ({@code NGA_Locate_region}'s map and procs).
     *
     * @param owner the owner's rank in the array's group
     * @param lo    first subscript of the piece
     * @param hi    last subscript of the piece (inclusive)
     */
    public record Piece(int owner, int[] lo, int[] hi) {
        @Override
        public String toString() {
            return "rank " + owner + " " + Arrays.toString(lo) + ".." + Arrays.toString(hi);
        }
    }

    /**
     * {@code NGA_Locate_region}: the owners of a section and the piece each holds.
     *
     * @param lo first subscript
     * @param hi last subscript (inclusive)
     * @return pieces in owner order
     */
    public List<Piece> locateRegion(final int[] lo, final int[] hi) {
        return queries.locateRegion(lo, hi);
    }

    /**
     * {@code NGA_Access}: this PE's block as a plain array with its layout. Writes are seen by others after a sync.
     *
     * @return the local block (empty if this PE owns nothing)
     */
    public LocalBlock access() {
        return queries.access();
    }

    /**
     * What {@link #selectElem} finds: the subscript and the value (exact in {@code longValue} for int/long).
     *
     * @param subscript the first subscript in row-major order holding the value; all -1 if every element is NaN
     * @param value     the value as a double; NaN if every element is NaN
     * @param longValue the exact value for int/long arrays; for float/double arrays the value truncated toward zero as
     *                  a {@code (long)} cast does, and 0 if every element is NaN
     */
    public record Selected(int[] subscript, double value, long longValue) {
        @Override
        public String toString() {
            return Arrays.toString(subscript) + " = " + value;
        }
    }

    /**
     * {@code NGA_Select_elem}: the largest or smallest element and the first subscript (row-major) holding it; NaNs
     * are skipped. Collective.
     *
     * @param which "max" or "min"
     * @return the element
     */
    public Selected selectElem(final String which) {
        checks.checkReal("selectElem");
        return Algebra.select(this, which);
    }

    // ---------------------------------------------------------------- put / get / acc

    /**
     * {@code NGA_Put}: copies {@code buf} into the section {@code lo..hi} of a double array. One-sided: returns when
     * {@code buf} may be reused; the data is complete at its targets after {@link GlobalArrays#fence()} or a sync.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf data, row-major with leading dimensions {@code ld}
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]}, {@code lo}/{@code hi} have the wrong length,
     *                                   {@code buf} is not of the array's type, or {@code buf} with {@code ld} cannot
     *                                   hold the section (checked before anything is sent)
     * @throws IllegalStateException     if the array was destroyed
     */
    public void put(final int[] lo, final int[] hi, final double[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.PUT, GaType.DOUBLE, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.PUT, lo, hi, ones, buf, ld);
            sections.transfer(Mover.PUT, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Put} of floats: copies {@code buf} into the section {@code lo..hi} of a float array. One-sided:
     * returns when {@code buf} may be reused; the data is complete at its targets after {@link GlobalArrays#fence()} or
     * a sync.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf data, row-major with leading dimensions {@code ld}
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws RuntimeException the exceptions of {@link #put(int[], int[], double[], int[])} for the same bad input
     */
    public void put(final int[] lo, final int[] hi, final float[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.PUT, GaType.FLOAT, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.PUT, lo, hi, ones, buf, ld);
            sections.transfer(Mover.PUT, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Put} of longs: copies {@code buf} into the section {@code lo..hi} of a long array. One-sided: returns
     * when {@code buf} may be reused; the data is complete at its targets after {@link GlobalArrays#fence()} or a sync.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf data, row-major with leading dimensions {@code ld}
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws RuntimeException the exceptions of {@link #put(int[], int[], double[], int[])} for the same bad input
     */
    public void put(final int[] lo, final int[] hi, final long[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.PUT, GaType.LONG, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.PUT, lo, hi, ones, buf, ld);
            sections.transfer(Mover.PUT, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Put} of ints: copies {@code buf} into the section {@code lo..hi} of an int array. One-sided: returns
     * when {@code buf} may be reused; the data is complete at its targets after {@link GlobalArrays#fence()} or a sync.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf data, row-major with leading dimensions {@code ld}
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws RuntimeException the exceptions of {@link #put(int[], int[], double[], int[])} for the same bad input
     */
    public void put(final int[] lo, final int[] hi, final int[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.PUT, GaType.INT, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.PUT, lo, hi, ones, buf, ld);
            sections.transfer(Mover.PUT, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Get}: copies the section {@code lo..hi} of a double array into {@code buf}. One-sided and blocking:
     * returns with the data.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf receives the section, row-major with leading dimensions {@code ld}; its elements outside the section
     *            are left alone
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]}, {@code lo}/{@code hi} have the wrong length,
     *                                   {@code buf} is not of the array's type, or {@code buf} with {@code ld} cannot
     *                                   hold the section (checked before anything is sent)
     * @throws IllegalStateException     if the array was destroyed
     */
    public void get(final int[] lo, final int[] hi, final double[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.GET, GaType.DOUBLE, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.GET, lo, hi, ones, buf, ld);
            sections.transfer(Mover.GET, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Get} of floats: copies the section {@code lo..hi} of a float array into {@code buf}. One-sided and
     * blocking: returns with the data.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf receives the section, row-major with leading dimensions {@code ld}; its elements outside the section
     *            are left alone
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws RuntimeException the exceptions of {@link #get(int[], int[], double[], int[])} for the same bad input
     */
    public void get(final int[] lo, final int[] hi, final float[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.GET, GaType.FLOAT, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.GET, lo, hi, ones, buf, ld);
            sections.transfer(Mover.GET, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Get} of longs: copies the section {@code lo..hi} of a long array into {@code buf}. One-sided and
     * blocking: returns with the data.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf receives the section, row-major with leading dimensions {@code ld}; its elements outside the section
     *            are left alone
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws RuntimeException the exceptions of {@link #get(int[], int[], double[], int[])} for the same bad input
     */
    public void get(final int[] lo, final int[] hi, final long[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.GET, GaType.LONG, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.GET, lo, hi, ones, buf, ld);
            sections.transfer(Mover.GET, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Get} of ints: copies the section {@code lo..hi} of an int array into {@code buf}. One-sided and
     * blocking: returns with the data.
     *
     * @param lo  first subscript
     * @param hi  last subscript (inclusive)
     * @param buf receives the section, row-major with leading dimensions {@code ld}; its elements outside the section
     *            are left alone
     * @param ld  leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *            next dimension (may be null for a 1-D array)
     * @throws RuntimeException the exceptions of {@link #get(int[], int[], double[], int[])} for the same bad input
     */
    public void get(final int[] lo, final int[] hi, final int[] buf, final int[] ld) {
        if (buf == null || !hot.move(Mover.GET, GaType.INT, lo, hi, buf, buf.length, ld, 0, 0)) {
            sections.prepare(Mover.GET, lo, hi, ones, buf, ld);
            sections.transfer(Mover.GET, lo, hi, ones, buf, 0, 0, 0);
        }
    }

    /**
     * {@code NGA_Acc}: {@code a[section] += alpha * buf}, atomic per element with respect to other accumulates.
     * One-sided like a put: returns when {@code buf} may be reused, complete at the targets after a fence or a sync.
     *
     * @param lo    first subscript
     * @param hi    last (inclusive)
     * @param buf   data, row-major with leading dimensions {@code ld}
     * @param ld    leading dimensions, as for a put
     * @param alpha scale
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]}, {@code lo}/{@code hi} have the wrong length,
     *                                   {@code buf} is not of the array's type, or {@code buf} with {@code ld} cannot
     *                                   hold the section (checked before anything is sent)
     * @throws IllegalStateException     if the array was destroyed
     */
    public void acc(final int[] lo, final int[] hi, final double[] buf, final int[] ld, final double alpha) {
        if (buf == null || !hot.move(Mover.ACC, GaType.DOUBLE, lo, hi, buf, buf.length, ld, 0, alpha)) {
            sections.prepare(Mover.ACC, lo, hi, ones, buf, ld);
            sections.transfer(Mover.ACC, lo, hi, ones, buf, 0, 0, alpha);
        }
    }

    /**
     * {@code NGA_Acc} of floats: {@code a[section] += alpha * buf} on a float array, atomic per element with respect to
     * other accumulates. One-sided like a put: returns when {@code buf} may be reused, complete at the targets after a
     * fence or a sync.
     *
     * @param lo    first subscript
     * @param hi    last subscript (inclusive)
     * @param buf   data, row-major with leading dimensions {@code ld}
     * @param ld    leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *              next dimension (may be null for a 1-D array)
     * @param alpha scale applied to every element of {@code buf}
     * @throws RuntimeException the exceptions of {@link #acc(int[], int[], double[], int[], double)} for the same bad
     *                          input
     */
    public void acc(final int[] lo, final int[] hi, final float[] buf, final int[] ld, final float alpha) {
        if (buf == null || !hot.move(Mover.ACC, GaType.FLOAT, lo, hi, buf, buf.length, ld, 0, alpha)) {
            sections.prepare(Mover.ACC, lo, hi, ones, buf, ld);
            sections.transfer(Mover.ACC, lo, hi, ones, buf, 0, 0, alpha);
        }
    }

    /**
     * {@code NGA_Acc} of longs: {@code a[section] += alpha * buf} on a long array, atomic per element with respect to
     * other accumulates. One-sided like a put: returns when {@code buf} may be reused, complete at the targets after a
     * fence or a sync. Products and sums wrap as Java's long arithmetic does.
     *
     * @param lo    first subscript
     * @param hi    last subscript (inclusive)
     * @param buf   data, row-major with leading dimensions {@code ld}
     * @param ld    leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *              next dimension (may be null for a 1-D array)
     * @param alpha scale applied to every element of {@code buf}
     * @throws RuntimeException the exceptions of {@link #acc(int[], int[], double[], int[], double)} for the same bad
     *                          input
     */
    public void acc(final int[] lo, final int[] hi, final long[] buf, final int[] ld, final long alpha) {
        if (buf == null || !hot.move(Mover.ACC, GaType.LONG, lo, hi, buf, buf.length, ld, alpha, 0)) {
            sections.prepare(Mover.ACC, lo, hi, ones, buf, ld);
            sections.transfer(Mover.ACC, lo, hi, ones, buf, 0, alpha, 0);
        }
    }

    /**
     * {@code NGA_Acc} of ints: {@code a[section] += alpha * buf} on an int array, atomic per element with respect to
     * other accumulates. One-sided like a put: returns when {@code buf} may be reused, complete at the targets after a
     * fence or a sync. Products and sums wrap as Java's int arithmetic does.
     *
     * @param lo    first subscript
     * @param hi    last subscript (inclusive)
     * @param buf   data, row-major with leading dimensions {@code ld}
     * @param ld    leading dimensions of {@code buf}, {@code ndim-1} entries, each at least the section's extent in the
     *              next dimension (may be null for a 1-D array)
     * @param alpha scale applied to every element of {@code buf}
     * @throws RuntimeException the exceptions of {@link #acc(int[], int[], double[], int[], double)} for the same bad
     *                          input
     */
    public void acc(final int[] lo, final int[] hi, final int[] buf, final int[] ld, final int alpha) {
        if (buf == null || !hot.move(Mover.ACC, GaType.INT, lo, hi, buf, buf.length, ld, alpha, 0)) {
            sections.prepare(Mover.ACC, lo, hi, ones, buf, ld);
            sections.transfer(Mover.ACC, lo, hi, ones, buf, 0, alpha, 0);
        }
    }

    // ---------------------------------------------------------------- strided (sub-sampled sections)

    /**
     * {@code NGA_Strided_put}: the elements {@code lo[d], lo[d]+skip[d], ...} up to {@code hi[d]}, packed in buf.
     *
     * @param lo   first subscript
     * @param hi   bound (inclusive)
     * @param skip step per dimension, at least 1
     * @param buf  data (matching the array's type)
     * @param ld   leading dimensions of buf
     */
    public void stridedPut(final int[] lo, final int[] hi, final int[] skip, final Object buf, final int[] ld) {
        sections.prepare(Mover.PUT, lo, hi, skip, buf, ld);
        sections.transfer(Mover.PUT, lo, hi, skip, buf, 0, 0, 0);
    }

    /**
     * {@code NGA_Strided_get}: copies the elements {@code lo[d], lo[d]+skip[d], ...} up to {@code hi[d]} into
     * {@code buf}, packed (neighbouring samples adjacent, row-major with leading dimensions {@code ld}). One-sided and
     * blocking: returns with the data.
     *
     * @param lo   first subscript
     * @param hi   bound (inclusive; need not be a sampled element)
     * @param skip steps per dimension, at least 1
     * @param buf  receives the samples (matching the array's type)
     * @param ld   leading dimensions of {@code buf}, counted in samples: {@code ld[d]} at least the samples in
     *             dimension {@code d+1}
     * @throws IndexOutOfBoundsException if the section leaves the array
     * @throws IllegalArgumentException  if {@code lo[d] > hi[d]}, {@code skip[d] < 1}, an argument has the wrong
     *                                   length, {@code buf} is not of the array's type, or {@code buf} with {@code ld}
     *                                   cannot hold the samples (checked before anything is sent)
     * @throws IllegalStateException     if the array was destroyed
     */
    public void stridedGet(final int[] lo, final int[] hi, final int[] skip, final Object buf, final int[] ld) {
        sections.prepare(Mover.GET, lo, hi, skip, buf, ld);
        sections.transfer(Mover.GET, lo, hi, skip, buf, 0, 0, 0);
    }

    /**
     * {@code NGA_Strided_acc}; for int/long arrays alpha is rounded.
     *
     * @param lo    first subscript
     * @param hi    bound
     * @param skip  steps
     * @param buf   data
     * @param ld    leading dimensions
     * @param alpha scale
     */
    public void stridedAcc(final int[] lo, final int[] hi, final int[] skip, final Object buf, final int[] ld,
        final double alpha) {
        sections.prepare(Mover.ACC, lo, hi, skip, buf, ld);
        sections.transfer(Mover.ACC, lo, hi, skip, buf, 0, Math.round(alpha), alpha);
    }

}
