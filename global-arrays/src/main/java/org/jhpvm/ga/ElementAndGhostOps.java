package org.jhpvm.ga;

import java.util.Objects;

/**
 * The element and ghost operations of a {@link GlobalArray}, the second of the package-private superclasses that
 * hold its public methods: scatter, gather, scatter-accumulate and read-increment, one-sided, one element at a time
 * (the bodies in {@link ElementOps}); and the collective update of every ghost cell (the body in {@link Ghosts},
 * its faces laid out on the first update).
 */
abstract sealed class ElementAndGhostOps extends ArrayHandle permits AlgebraOps {
    private final ElementOps elements;
    private Ghosts ghostUpdater;
    private boolean ghostCorners = true;
    /** Whether full ghost updates may load the neighbours' blocks directly when the whole group is in this JVM. */
    private boolean ghostsDirect = true;

    ElementAndGhostOps(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist, final GlobalArray overlayOf) {
        super(ga, group, type, name, dist, overlayOf);
        this.elements = new ElementOps(self());
    }

    // ---------------------------------------------------------------- scatter / gather / readInc (one-sided)

    /**
     * {@code NGA_Scatter}: {@code a[subs[i]] = values[i]} for {@code i < n}.
     *
     * @param values    data (matching the array's type)
     * @param subscripts n subscripts of ndim entries each
     * @param n         elements
     */
    public void scatter(final Object values, final int[][] subscripts, final int n) {
        elements.move(Mover.PUT, values, subscripts, n, 0, 0);
    }

    /**
     * {@code NGA_Gather}: {@code values[i] = a[subs[i]]} for {@code i < n}.
     *
     * @param values     receives (matching the array's type)
     * @param subscripts n subscripts
     * @param n          elements
     */
    public void gather(final Object values, final int[][] subscripts, final int n) {
        elements.move(Mover.GET_NBI, values, subscripts, n, 0, 0);
        shmem.quiet();
    }

    /**
     * {@code NGA_Scatter_acc}: {@code a[subs[i]] += alpha * values[i]}, atomic per element; for int/long arrays
     * alpha is rounded.
     *
     * @param values     data
     * @param subscripts n subscripts
     * @param n          elements
     * @param alpha      scale
     */
    public void scatterAcc(final Object values, final int[][] subscripts, final int n, final double alpha) {
        elements.move(Mover.ACC, values, subscripts, n, Math.round(alpha), alpha);
    }

    /**
     * {@code NGA_Read_inc}: atomically adds {@code inc} to an int or long element and returns its old value (the
     * shared task counter of dynamic load balancing).
     *
     * @param subscript the element
     * @param inc       increment
     * @return the value before
     */
    public long readInc(final int[] subscript, final long inc) {
        return elements.readInc(subscript, inc);
    }

    // ---------------------------------------------------------------- ghosts

    /**
     * {@code NGA_Access_ghosts}: this PE's block with its ghost layers, as {@link GlobalArray#access()} gives it (the
     * same storage): {@link LocalBlock#ghostDims()} are the extents GA returns in {@code dims} (the block and its
     * ghosts), {@link LocalBlock#ghostOffset()} is where GA's {@code ptr} points (the first ghost element), and
     * {@link LocalBlock#ld()} the leading dimensions. Local: no communication.
     *
     * @return the local block with its ghosts (empty if this PE owns nothing)
     */
    public LocalBlock accessGhosts() {
        return self().access();
    }

    /**
     * {@code NGA_Access_ghost_element}: where the element at global subscript {@code subscript}, inside this PE's
     * block or its ghost layers, lies in the array {@link GlobalArray#access()} returns. Local.
     *
     * @param subscript the global subscript, ghost positions included (one below {@code lo} is the lower ghost)
     * @return its index in the local array
     * @throws IndexOutOfBoundsException outside the block and its ghosts
     */
    public int accessGhostElement(final int... subscript) {
        return self().access().index(subscript);
    }

    // ---------------------------------------------------------------- ghost updates (collective)

    /** {@code GA_Update_ghosts} with every dimension periodic (GA's behaviour). Collective. */
    public void updateGhosts() {
        ghostUpdater().update(null, null, null);
    }

    private Ghosts ghostUpdater() {
        if (ghostUpdater == null) {
            ghostUpdater = new Ghosts(self(), ghostCorners, ghostsDirect);
        }
        return ghostUpdater;
    }

    /**
     * {@code GA_Update_ghosts} with periodicity per dimension: the ghost cells of every block, corners included, get
     * the values of the neighbouring blocks. In a non-periodic dimension the ghosts beyond the array's physical
     * boundary are not touched: the application fills them (boundary conditions). Collective.
     *
     * @param periodic one flag per dimension
     */
    public void updateGhosts(final boolean[] periodic) {
        ghostUpdater().update(Objects.requireNonNull(periodic, "periodic"), null, null);
    }

    /**
     * A jhpvm extension of {@code GA_Update_ghosts} for codes that know what each step reads (ZEUS-MP exchanges only
     * the layers a substep needs): fills only the {@code lowWidths[d]} ghost layers below the block and the
     * {@code highWidths[d]} above it in each dimension d, those next to the block, and (as
     * {@link #setGhostCornerFlag} says) the edges and corners among them; every other ghost cell keeps its value.
     * Periodicity as {@link #updateGhosts(boolean[])}. Collective, with the same widths on every PE; a dimension in
     * which both are 0 costs no communication.
     *
     * @param periodic   one flag per dimension
     * @param lowWidths  per dimension, 0 to its ghost width
     * @param highWidths per dimension, 0 to its ghost width
     * @throws IllegalArgumentException if an array has the wrong length or a width is outside 0 to the dimension's
     *                                  ghost width (nothing is updated then)
     */
    public void updateGhosts(final boolean[] periodic, final int[] lowWidths, final int[] highWidths) {
        checkLive();
        Objects.requireNonNull(periodic, "periodic");
        Objects.requireNonNull(lowWidths, "lowWidths");
        Objects.requireNonNull(highWidths, "highWidths");
        if (lowWidths.length != ndim || highWidths.length != ndim) {
            throw new IllegalArgumentException("lowWidths has " + lowWidths.length + " and highWidths "
                + highWidths.length + " entries for " + ndim + " dimensions");
        }
        for (int d = 0; d < ndim; d++) {
            final int w = dist.width[d];
            if (lowWidths[d] < 0 || lowWidths[d] > w || highWidths[d] < 0 || highWidths[d] > w) {
                throw new IllegalArgumentException("dimension " + d + ": lowWidths " + lowWidths[d] + " and highWidths "
                    + highWidths[d] + " must lie in 0.." + w + ", its ghost width");
            }
        }
        ghostUpdater().update(periodic, lowWidths, highWidths);
    }

    /**
     * {@code GA_Set_ghost_corner_flag}: whether ghost updates ({@link #updateGhosts()}, {@link #updateGhostsNb()})
     * fill the corner ghosts too (the default, true) or only the faces. No communication; every PE of the group
     * should set it alike.
     *
     * @param corners true to update corners
     */
    public void setGhostCornerFlag(final boolean corners) {
        checkLive();
        if (corners != ghostCorners) {
            ghostCorners = corners;
            ghostUpdater = null;
        }
    }

    /**
     * Makes full ghost updates push faces through SHMEM even where every PE of the group is in this JVM (the way they
     * go when some PE is in another), so tests cover both ways. Every PE of the group must set it alike.
     *
     * @param direct false to push, true (the default) to load the neighbours' blocks directly where possible
     */
    void ghostsDirect(final boolean direct) {
        if (direct != ghostsDirect) {
            ghostsDirect = direct;
            ghostUpdater = null;
        }
    }

    /**
     * {@code NGA_Update_ghosts_nb}: starts filling this PE's ghost cells (every dimension periodic, corners as
     * {@link #setGhostCornerFlag} says) with non-blocking gets from the owners' interiors; they are complete after
     * {@link GlobalArrays#nbWait(long)} on the handle. One-sided, no barrier: as in GA, the program syncs before
     * (so the interiors are final) and, before changing interiors again, after every PE has waited.
     *
     * @return the handle
     * @throws IllegalStateException if the array was destroyed
     */
    public long updateGhostsNb() {
        Ghosts.updateNb(self(), ghostCorners);
        return ga.nbIssue();
    }

    /**
     * {@code NGA_NbGet_ghost_dir}: starts filling the ghost region of this PE in direction {@code mask}: one entry
     * per dimension, -1 the lower ghost layers, +1 the upper, 0 the block's own extent ({@code {+1, 0}} is the upper
     * face of dimension 0, {@code {+1, +1}} a corner); periodic in every dimension. Complete after
     * {@link GlobalArrays#nbWait(long)}. One-sided.
     *
     * @param mask the direction
     * @return the handle
     * @throws IllegalArgumentException if {@code mask} has the wrong length, an entry outside -1..1, or is all 0
     */
    public long nbGetGhostDir(final int[] mask) {
        checkLive();
        Objects.requireNonNull(mask, "mask");
        boolean any = false;
        if (mask.length != ndim) {
            throw new IllegalArgumentException("mask has " + mask.length + " entries for " + ndim + " dimensions");
        }
        for (final int m : mask) {
            if (m < -1 || m > 1) {
                throw new IllegalArgumentException("mask entry " + m + " outside -1..1");
            }
            any |= m != 0;
        }
        if (!any) {
            throw new IllegalArgumentException("mask is all 0: that is the block itself, not a ghost region");
        }
        Ghosts.pullRegion(self(), mask.clone(), true);
        return ga.nbIssue();
    }

    // ---------------------------------------------------------------- ghosts: one side of one dimension (collective)

    /**
     * {@code NGA_Update_ghost_dir}: fills only the ghost layers on one side of one dimension ({@code dir} +1: the
     * upper side, from the upper neighbour; -1: the lower side), periodic. Collective.
     *
     * @param dim     dimension
     * @param dir     +1 or -1
     * @param corners whether to include the ghost corners of the other dimensions
     */
    public void updateGhostDir(final int dim, final int dir, final boolean corners) {
        Ghosts.updateDir(self(), dim, dir, corners, true);
    }

    /**
     * As {@link #updateGhostDir(int, int, boolean)}, saying whether the dimension is periodic.
     *
     * @param dim      dimension
     * @param dir      +1 or -1
     * @param corners  include corners
     * @param periodic whether blocks at the array's boundary take the other side's values
     */
    public void updateGhostDir(final int dim, final int dir, final boolean corners, final boolean periodic) {
        Ghosts.updateDir(self(), dim, dir, corners, periodic);
    }
}
