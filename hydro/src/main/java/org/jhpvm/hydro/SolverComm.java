package org.jhpvm.hydro;

/**
 * What the ZEUS solver needs from the layer it runs on: one block of the fields per PE with ghost layers, the ghost
 * exchange between blocks, global max and sum reductions, a barrier, and reading the whole grid back to PE 0 (output,
 * checkpoints) or writing it from there (restart). {@link GaComm} does it with Global Arrays, {@link MpiComm} with MPI
 * on a Cartesian communicator, as Zeus-MP does. Every method but {@link #rank} and {@link #block} is collective.
 */
interface SolverComm {
    /**
     * This PE's number.
     *
     * @return the rank, 0 reading the grid back
     */
    int rank();

    /**
     * This PE's block: its fields array ({@code [fields, zones...]}, {@link HydroConfig#fields}, with {@link ZeusSolver#GHOST} ghost layers
     * per spatial dimension) and where it lies in the grid.
     *
     * @return the block, the same object every call
     */
    ZeusBlock block();

    /**
     * Copies every field's ghost zones from the blocks that own them (periodic dimensions wrap), edges and corners
     * included; the ghosts beyond the grid's physical faces are left to {@link GhostZones}.
     */
    void exchangeGhosts();

    /**
     * As {@link #exchangeGhosts()}, needing only {@code low[d]} ghost layers below each block and {@code high[d]}
     * above it in each spatial dimension d, those next to the block, and the edges between them: a layer that can
     * exchange fewer does (GA's partial update); the others exchange every layer (MPI's halo types are made for all
     * of them), which gives the same results.
     *
     * @param low  per spatial dimension, 0 to {@link ZeusSolver#GHOST}
     * @param high per spatial dimension, 0 to {@link ZeusSolver#GHOST}
     */
    default void exchangeGhosts(final int[] low, final int[] high) {
        exchangeGhosts();
    }

    /** Says that the PE has written its block's zones (after initialisation): they are visible to the others. */
    void written();

    /**
     * Replaces each value with its maximum over the PEs (exact: every PE gets the same bits).
     *
     * @param v the values, the same length on every PE
     */
    void max(double[] v);

    /**
     * Replaces each value with its sum over the PEs (the rounding depends on the decomposition).
     *
     * @param v the values, the same length on every PE
     */
    void sum(double[] v);

    /** Waits until every PE has come here. */
    void barrier();

    /**
     * Reads every field of the whole grid to PE 0.
     *
     * @return on PE 0 {@code [field][zones...]} row-major (d, e, v0, (v1, (v2)), (the dual-energy field)); null
     *         elsewhere
     */
    double[] gather();

    /**
     * Writes every field of the whole grid from PE 0 into the blocks.
     *
     * @param fields on PE 0, {@code [field][zones...]} row-major as {@link #gather} gives them; ignored elsewhere
     */
    void scatter(double[] fields);
}
