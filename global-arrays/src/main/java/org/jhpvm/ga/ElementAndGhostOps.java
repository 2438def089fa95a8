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

    ElementAndGhostOps(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist) {
        super(ga, group, type, name, dist);
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

    // ---------------------------------------------------------------- ghosts (collective)

    /** {@code GA_Update_ghosts} with every dimension periodic (GA's behaviour). Collective. */
    public void updateGhosts() {
        ghostUpdater().update(null);
    }

    private Ghosts ghostUpdater() {
        if (ghostUpdater == null) {
            ghostUpdater = new Ghosts(self());
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
        ghostUpdater().update(Objects.requireNonNull(periodic, "periodic"));
    }
}
