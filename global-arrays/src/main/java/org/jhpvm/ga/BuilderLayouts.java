package org.jhpvm.ga;

import java.util.Objects;

/**
 * The settings of {@link GlobalArray.Builder} that choose who owns which block: restricted ranks
 * ({@code GA_Set_restricted}), block-cyclic and tiled layouts ({@code GA_Set_block_cyclic[_proc_grid]},
 * {@code GA_Set_tiled_proc_grid}), and {@code GA_Overlay}. Package-private: its public methods are
 * {@code GlobalArray.Builder}'s (javac gives the public subclass a bridge for each), documented on its page.
 */
abstract sealed class BuilderLayouts permits GlobalArray.Builder {
    GlobalArray overlay;
    int[] restricted;
    int[] blockDims;
    int[] cyclicGrid;
    /** {@code GA_Set_tiled_irreg_proc_grid}'s tile starts and counts (null otherwise). */
    int[] tileMap;
    int[] tileBlocks;

    BuilderLayouts() {
    }

    private GlobalArray.Builder self() {
        return (GlobalArray.Builder) this;
    }

    /**
     * {@code GA_Set_restricted}: only the listed ranks of the group hold data. The distribution is laid out as
     * for a group of {@code list.length} ranks, and its block {@code b} (in the row-major order of the grid)
     * goes to rank {@code list[b]}; the other ranks own nothing. The list may also just reorder the blocks
     * among all ranks.
     *
     * @param list distinct ranks of the group, at least one ({@code GA_Set_restricted}'s list)
     * @return this
     * @throws NullPointerException if {@code list} is null (the ranks are checked by {@link GlobalArray.Builder#create()})
     */
    public final GlobalArray.Builder restricted(final int... list) {
        this.restricted = Objects.requireNonNull(list, "list").clone();
        return self();
    }

    /**
     * {@code GA_Set_restricted_range}: as {@link GlobalArray.Builder#restricted(int...)} with the ranks {@code lo .. hi}.
     *
     * @param lo first rank
     * @param hi last rank
     * @return this
     * @throws IllegalArgumentException if {@code lo > hi}
     */
    public final GlobalArray.Builder restrictedRange(final int lo, final int hi) {
        if (lo > hi) {
            throw new IllegalArgumentException("restrictedRange(" + lo + ", " + hi + "): lo > hi");
        }
        this.restricted = java.util.stream.IntStream.rangeClosed(lo, hi).toArray();
        return self();
    }

    /**
     * {@code GA_Overlay}: {@link GlobalArray.Builder#create()} puts the new array on the memory of {@code parent} instead of
     * allocating: no symmetric heap is taken, and the new array starts with whatever its layout finds there (GA's
     * rule: not zeroed). The parent must be live, of the same element type (a Java array has one type) and group,
     * with blocks at least as large on every rank; it cannot be destroyed while overlays on it live.
     *
     * @param parent the array whose memory to use ({@code GA_Overlay}'s {@code g_p})
     * @return this
     */
    public final GlobalArray.Builder overlay(final GlobalArray parent) {
        this.overlay = Objects.requireNonNull(parent, "parent");
        return self();
    }

    /**
     * {@code GA_Set_block_cyclic}: blocks of {@code dims} elements (the last in a dimension smaller) dealt round-robin
     * over the group's ranks in row-major block order: block {@code b} to rank {@code b % n}. A rank then owns several
     * blocks, stored one after another: {@link GlobalArray#totalBlocks()}, {@link GlobalArray#blockDistribution(int)}
     * and {@link GlobalArray#accessBlock(int)} reach them; every section, element and collective operation works as
     * on any array. Excludes chunk, procGrid, irregular, restricted and ghost cells, as in GA.
     *
     * @param dims the block's extent per dimension, each at least 1
     * @return this
     */
    public final GlobalArray.Builder blockCyclic(final int... dims) {
        this.blockDims = Objects.requireNonNull(dims, "dims").clone();
        this.cyclicGrid = null;
        this.tileMap = null;
        return self();
    }

    /**
     * {@code GA_Set_block_cyclic_proc_grid}: ScaLAPACK's two-level layout: blocks of {@code dims}, the block at grid
     * coordinates {@code c} owned by the rank at processor-grid coordinates {@code c[d] % procGrid[d]} (row-major
     * over the processor grid, whose size must equal the group's, as GA requires).
     *
     * @param dims     the block's extent per dimension
     * @param procGrid ranks per dimension, their product the group's size
     * @return this
     */
    public final GlobalArray.Builder blockCyclicProcGrid(final int[] dims, final int[] procGrid) {
        this.blockDims = Objects.requireNonNull(dims, "dims").clone();
        this.cyclicGrid = Objects.requireNonNull(procGrid, "procGrid").clone();
        this.tileMap = null;
        return self();
    }

    /**
     * {@code GA_Set_tiled_proc_grid}: GA's tiled layout, which places the blocks as
     * {@link GlobalArray.Builder#blockCyclicProcGrid(int[], int[])} does (GA keeps each rank's tiles together in memory, as this implementation does
     * for every block-cyclic array).
     *
     * @param dims     the tile's extent per dimension
     * @param procGrid ranks per dimension, their product the group's size
     * @return this
     */
    public final GlobalArray.Builder tiledProcGrid(final int[] dims, final int[] procGrid) {
        return blockCyclicProcGrid(dims, procGrid);
    }

    /**
     * {@code GA_Set_tiled_irreg_proc_grid}: tiles of irregular sizes, their boundaries given as
     * {@code GA_Set_irreg_distr} gives blocks ({@code nblocks[d]} tile starts for dimension {@code d}, all the
     * dimensions' starts concatenated in {@code map}, each dimension's beginning at 0 and increasing), placed on the
     * processor grid as {@link GlobalArray.Builder#tiledProcGrid(int[], int[])} places regular tiles: the tile at
     * coordinates {@code c} to the rank at grid coordinates {@code c[d] % procGrid[d]}.
     *
     * @param map      the tile starts, dimension after dimension
     * @param nblocks  tiles per dimension
     * @param procGrid ranks per dimension, their product the group's size
     * @return this
     */
    public final GlobalArray.Builder tiledIrregProcGrid(final int[] map, final int[] nblocks, final int[] procGrid) {
        this.tileMap = Objects.requireNonNull(map, "map").clone();
        this.tileBlocks = Objects.requireNonNull(nblocks, "nblocks").clone();
        this.cyclicGrid = Objects.requireNonNull(procGrid, "procGrid").clone();
        this.blockDims = null;
        return self();
    }
}
