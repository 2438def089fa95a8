package org.jhpvm.ga;

import java.util.Arrays;

/**
 * Where each block of a global array lives: a processor grid of {@code grid[d]} blocks per dimension, block starts
 * per dimension, and ghost widths. Group rank {@code r < owners()} owns the block at grid coordinates taken from
 * {@code r} with the last dimension fastest (row-major, as GA's C API); higher ranks own nothing. A block's local
 * storage is its extent plus {@code 2*width[d]} ghost layers in each dimension, row-major.
 * <p>
 * Immutable; computed identically on every PE from the creation arguments.
 */
final class Distribution {
    final int ndim;
    final int[] dims;
    final int[] grid;
    /** starts[d][b] is block b's first index in dimension d; starts[d][grid[d]] == dims[d]. */
    final int[][] starts;
    final int[] width;
    /** The number of blocks (each owned by one rank). */
    final int owners;
    final int maxLocalLength;
    /** Row-major strides of each block's local storage (ghosts included), computed once; by block. */
    final int[][] strides;
    /**
     * {@code GA_Set_restricted}: the group rank owning each block, or null when block {@code b} belongs to rank
     * {@code b} (then ranks from {@link #owners} on own nothing).
     */
    private final int[] rankOfBlock;
    /** The block of each group rank (-1 for none), or null as for {@link #rankOfBlock}. */
    private final int[] blockOfRank;
    /**
     * Block-cyclic (and tiled) distributions: a rank owns several blocks, stored one after another in block order in
     * its local storage, block {@code b} from {@code blockOffset[b]}; null for one block per rank.
     */
    private final int[] blockOffset;
    /** Block-cyclic: the blocks of each rank, in block order; null otherwise. */
    private final int[][] blocksOfRank;

    private Distribution(final int[] dims, final int[][] starts, final int[] width) {
        this(dims, starts, width, null, null, 0);
    }

    /**
     * @param cyclicRanks for a block-cyclic distribution the group's size, with {@code rankOfBlock} giving every
     *                    block's owner; 0 otherwise
     */
    private Distribution(final int[] dims, final int[][] starts, final int[] width, final int[] rankOfBlock,
        final int[] blockOfRank, final int cyclicRanks) {
        this.rankOfBlock = rankOfBlock;
        this.blockOfRank = blockOfRank;
        this.ndim = dims.length;
        this.dims = dims;
        this.starts = starts;
        this.width = width;
        this.grid = new int[ndim];
        int o = 1;
        for (int d = 0; d < ndim; d++) {
            grid[d] = starts[d].length - 1;
            o *= grid[d];
        }
        this.owners = o;
        this.strides = new int[o][ndim];
        for (int b = 0; b < o; b++) {
            blockStrides(b, strides[b]);
        }
        long max = 0;
        final int[] c = new int[ndim];
        for (int b = 0; b < owners; b++) {
            blockCoords(b, c);
            long len = 1;
            for (int d = 0; d < ndim; d++) {
                len *= starts[d][c[d] + 1] - starts[d][c[d]] + 2L * width[d];
            }
            max = Math.max(max, len);
        }
        if (cyclicRanks > 0) {
            // Each rank's blocks back to back, in block order.
            this.blockOffset = new int[o];
            final long[] used = new long[cyclicRanks];
            final int[] count = new int[cyclicRanks];
            for (int b = 0; b < o; b++) {
                count[rankOfBlock[b]]++;
            }
            this.blocksOfRank = new int[cyclicRanks][];
            for (int r = 0; r < cyclicRanks; r++) {
                blocksOfRank[r] = new int[count[r]];
                count[r] = 0;
            }
            for (int b = 0; b < o; b++) {
                final int r = rankOfBlock[b];
                blocksOfRank[r][count[r]++] = b;
                blockCoords(b, c);
                long len = 1;
                for (int d = 0; d < ndim; d++) {
                    len *= starts[d][c[d] + 1] - starts[d][c[d]];
                }
                blockOffset[b] = (int) Math.min(Integer.MAX_VALUE, used[r]);
                used[r] += len;
            }
            max = Arrays.stream(used).max().orElse(0);
        } else {
            this.blockOffset = null;
            this.blocksOfRank = null;
        }
        if (max > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a block of " + max + " elements (ghosts included) exceeds a Java "
                + "array; use more PEs or a finer distribution");
        }
        this.maxLocalLength = (int) max;
    }

    /**
     * {@code GA_Set_block_cyclic} ({@code procGrid == null}: block {@code b}, in row-major order, goes to rank
     * {@code b % nproc}) and {@code GA_Set_block_cyclic_proc_grid} / {@code GA_Set_tiled_proc_grid} (ScaLAPACK's
     * layout: the block at coordinates {@code c} goes to the rank at grid coordinates {@code c[d] % procGrid[d]},
     * row-major): blocks of {@code blockDims} (the last ones in a dimension smaller), no ghost cells.
     */
    static Distribution blockCyclic(final int[] dims, final int[] blockDims, final int[] procGrid, final int nproc) {
        final int n = dims.length;
        if (blockDims.length != n) {
            throw new IllegalArgumentException("block dims have " + blockDims.length + " entries for " + n
                + " dimensions");
        }
        final int[][] starts = new int[n][];
        long blocks = 1;
        for (int d = 0; d < n; d++) {
            if (blockDims[d] < 1) {
                throw new IllegalArgumentException("block dimension " + d + " is " + blockDims[d] + ": at least 1");
            }
            final int nb = (dims[d] + blockDims[d] - 1) / blockDims[d];
            starts[d] = new int[nb + 1];
            for (int i = 0; i <= nb; i++) {
                starts[d][i] = (int) Math.min(dims[d], (long) i * blockDims[d]);
            }
            blocks *= nb;
        }
        return tiles(dims, starts, blocks, procGrid, nproc);
    }

    /**
     * {@code GA_Set_tiled_irreg_proc_grid}: tiles whose boundaries {@code map} gives as {@code GA_Set_irreg_distr}'s
     * do ({@code nblocks[d]} starts per dimension, concatenated, the first 0 and increasing), placed on the processor
     * grid as {@link #blockCyclic} places regular tiles.
     */
    static Distribution tiledIrregular(final int[] dims, final int[] nblocks, final int[] map, final int[] procGrid,
        final int nproc) {
        final int n = dims.length;
        if (nblocks.length != n) {
            throw new IllegalArgumentException("nblocks has " + nblocks.length + " entries for " + n
                + " dimensions");
        }
        final int[][] starts = new int[n][];
        long blocks = 1;
        int k = 0;
        for (int d = 0; d < n; d++) {
            if (nblocks[d] < 1 || nblocks[d] > dims[d]) {
                throw new IllegalArgumentException("nblocks[" + d + "]=" + nblocks[d] + ": between 1 and the "
                    + "extent " + dims[d]);
            }
            if (k + nblocks[d] > map.length) {
                throw new IllegalArgumentException("map has " + map.length + " entries; the block counts need "
                    + Arrays.stream(nblocks).sum());
            }
            starts[d] = new int[nblocks[d] + 1];
            for (int i = 0; i < nblocks[d]; i++) {
                final int v = map[k++];
                if (i == 0 ? v != 0 : v <= starts[d][i - 1] || v >= dims[d]) {
                    throw new IllegalArgumentException("map's starts of dimension " + d + " must begin at 0 and "
                        + "increase below " + dims[d] + "; " + v + " at position " + i + " does not");
                }
                starts[d][i] = v;
            }
            starts[d][nblocks[d]] = dims[d];
            blocks *= nblocks[d];
        }
        if (procGrid == null) {
            throw new IllegalArgumentException("procGrid is needed");
        }
        return tiles(dims, starts, blocks, procGrid, nproc);
    }

    /** Places the tiles ({@code starts} per dimension, {@code blocks} of them) on the processor grid. */
    private static Distribution tiles(final int[] dims, final int[][] starts, final long blocks, final int[] procGrid,
        final int nproc) {
        final int n = dims.length;
        if (blocks > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(blocks + " blocks: use larger blocks");
        }
        if (procGrid != null) {
            if (procGrid.length != n) {
                throw new IllegalArgumentException("procGrid has " + procGrid.length + " entries for " + n
                    + " dimensions");
            }
            long p = 1;
            for (final int g : procGrid) {
                if (g < 1) {
                    throw new IllegalArgumentException("procGrid entry " + g + ": at least 1");
                }
                p *= g;
            }
            if (p != nproc) {
                throw new IllegalArgumentException("the processor grid " + Arrays.toString(procGrid) + " has " + p
                    + " ranks; the group has " + nproc + " (GA needs them equal)");
            }
        }
        final int[] rankOf = new int[(int) blocks];
        final int[] c = new int[n];
        for (int b = 0; b < rankOf.length; b++) {
            if (procGrid == null) {
                rankOf[b] = b % nproc;
                continue;
            }
            int r = b;
            for (int d = n - 1; d >= 0; d--) {
                c[d] = r % (starts[d].length - 1);
                r /= starts[d].length - 1;
            }
            int rank = 0;
            for (int d = 0; d < n; d++) {
                rank = rank * procGrid[d] + c[d] % procGrid[d];
            }
            rankOf[b] = rank;
        }
        return new Distribution(dims.clone(), starts, new int[n], rankOf, null, nproc);
    }

    /** Whether ranks may own several blocks (block-cyclic or tiled). */
    boolean cyclic() {
        return blocksOfRank != null;
    }

    /** @return the blocks {@code rank} owns, in block order (empty for none) */
    int[] blocksOf(final int rank) {
        if (blocksOfRank != null) {
            return rank >= 0 && rank < blocksOfRank.length ? blocksOfRank[rank] : new int[0];
        }
        final int b = blockOf(rank);
        return b < 0 ? new int[0] : new int[] {b};
    }

    /** @return the row-major index of the block at grid coordinates {@code coords} */
    int blockIndex(final int[] coords) {
        int b = 0;
        for (int d = 0; d < ndim; d++) {
            b = b * grid[d] + coords[d];
        }
        return b;
    }

    /** @return the group rank owning block {@code b} */
    int ownerOfBlock(final int b) {
        return rankOfBlock == null ? b : rankOfBlock[b];
    }

    /** @return where block {@code b} starts in its owner's local storage */
    int offsetOf(final int b) {
        return blockOffset == null ? 0 : blockOffset[b];
    }

    /** Fills lo/hi with block {@code b}'s bounds. */
    void blockBounds(final int b, final int[] lo, final int[] hi) {
        blockCoords(b, lo);
        for (int d = 0; d < ndim; d++) {
            final int c = lo[d];
            lo[d] = starts[d][c];
            hi[d] = starts[d][c + 1] - 1;
        }
    }

    /**
     * The distribution a builder's settings ask for: irregular from a block map or regular (a grid given or chosen),
     * laid out for the restricted ranks' number and given to them when {@code restricted} is not null.
     */
    static Distribution of(final int[] dims, final int[] chunk, final int[] procGrid, final int[] nblock,
        final int[] map, final int[] width, final int[] restricted, final int groupSize) {
        if (procGrid != null && nblock != null) {
            throw new IllegalArgumentException("a procGrid and an irregular block map exclude each other");
        }
        final int[] w = width == null ? new int[dims.length] : width;
        final int nproc = restricted != null ? restricted.length : groupSize;
        final Distribution laid = nblock != null ? irregular(dims, nblock, map, w, nproc)
            : regular(dims, chunk, procGrid, w, nproc);
        return restricted != null ? laid.restrictedTo(restricted, groupSize) : laid;
    }

    /** A regular distribution: the processor grid given, or chosen to give near-cubic blocks honouring chunk. */
    static Distribution regular(final int[] dims, final int[] chunk, final int[] procGrid, final int[] width,
        final int nproc) {
        final int n = dims.length;
        final int[] g;
        if (procGrid != null) {
            long p = 1;
            for (int d = 0; d < n; d++) {
                if (procGrid[d] < 1) {
                    throw new IllegalArgumentException("procGrid[" + d + "]=" + procGrid[d] + " must be at least 1");
                }
                p *= procGrid[d];
            }
            if (p > nproc) {
                throw new IllegalArgumentException("procGrid " + Arrays.toString(procGrid) + " needs " + p
                    + " PEs; the group has " + nproc);
            }
            g = procGrid.clone();
        } else {
            final int[] maxBlocks = new int[n];
            for (int d = 0; d < n; d++) {
                // floor(dims/chunk) blocks at most: every block but the last at least chunk wide.
                final int c = chunk == null || chunk[d] <= 0 ? 1 : Math.min(chunk[d], dims[d]);
                maxBlocks[d] = Math.max(1, Math.min(nproc, dims[d] / c));
            }
            g = chooseGrid(dims, maxBlocks, nproc);
        }
        final int[][] starts = new int[n][];
        for (int d = 0; d < n; d++) {
            // GA's rule: every block of the grid holds data and block sizes differ by at most one, the first
            // dims % grid blocks one element longer (4 elements on 3 PEs: 2, 1, 1). A grid wider than the dimension
            // is cut to one element per block.
            g[d] = Math.min(g[d], dims[d]);
            final int q = dims[d] / g[d];
            final int r = dims[d] % g[d];
            starts[d] = new int[g[d] + 1];
            for (int i = 0; i <= g[d]; i++) {
                starts[d][i] = i * q + Math.min(i, r);
            }
        }
        return checked(dims, starts, width);
    }

    /** An irregular distribution: {@code nblock[d]} blocks per dimension starting at the concatenated {@code map}. */
    static Distribution irregular(final int[] dims, final int[] nblock, final int[] map, final int[] width,
        final int nproc) {
        final int n = dims.length;
        if (nblock.length != n) {
            throw new IllegalArgumentException("nblock has " + nblock.length + " entries for " + n + " dimensions");
        }
        long p = 1;
        int total = 0;
        for (int d = 0; d < n; d++) {
            if (nblock[d] < 1 || nblock[d] > dims[d]) {
                throw new IllegalArgumentException("nblock[" + d + "]=" + nblock[d] + " must be in 1.." + dims[d]);
            }
            p *= nblock[d];
            total += nblock[d];
        }
        if (p > nproc) {
            throw new IllegalArgumentException("the block map needs " + p + " PEs; the group has " + nproc);
        }
        if (map.length != total) {
            throw new IllegalArgumentException("map has " + map.length + " entries; nblock needs " + total);
        }
        final int[][] starts = new int[n][];
        int k = 0;
        for (int d = 0; d < n; d++) {
            starts[d] = new int[nblock[d] + 1];
            for (int b = 0; b < nblock[d]; b++) {
                final int s = map[k++];
                if ((b == 0 && s != 0) || (b > 0 && s <= starts[d][b - 1]) || s >= dims[d]) {
                    throw new IllegalArgumentException("map entry " + (k - 1) + "=" + s + " for block " + b
                        + " of dimension " + d + ": starts must begin at 0, increase, and stay below " + dims[d]);
                }
                starts[d][b] = s;
            }
            starts[d][nblock[d]] = dims[d];
        }
        return checked(dims, starts, width);
    }

    private static Distribution checked(final int[] dims, final int[][] starts, final int[] width) {
        for (int d = 0; d < dims.length; d++) {
            if (width[d] == 0) {
                continue;
            }
            for (int b = 0; b + 1 < starts[d].length; b++) {
                final int ext = starts[d][b + 1] - starts[d][b];
                if (ext < width[d]) {
                    throw new IllegalArgumentException("ghost width " + width[d] + " in dimension " + d
                        + " exceeds block " + b + "'s extent " + ext + ": every block must be at least as wide as "
                        + "its ghost layers (use fewer PEs or a procGrid)");
                }
            }
        }
        return new Distribution(dims.clone(), starts, width.clone());
    }

    /**
     * The grid using the most PEs (at most {@code nproc}, at most {@code maxBlocks[d]} per dimension), then the one
     * with the smallest block surface (near-cubic blocks), then the lexicographically largest.
     */
    private static int[] chooseGrid(final int[] dims, final int[] maxBlocks, final int nproc) {
        final int n = dims.length;
        final int[] best = new int[n];
        Arrays.fill(best, 1);
        final double[] bestScore = {1, surface(dims, best)};
        search(dims, maxBlocks, nproc, 0, 1, new int[n], best, bestScore);
        return best;
    }

    private static void search(final int[] dims, final int[] maxBlocks, final int nproc, final int d, final long p,
        final int[] g, final int[] best, final double[] bestScore) {
        if (d == dims.length) {
            final double s = surface(dims, g);
            if (p > bestScore[0] || (p == bestScore[0] && s < bestScore[1] - 1e-9)) {
                bestScore[0] = p;
                bestScore[1] = s;
                System.arraycopy(g, 0, best, 0, g.length);
            }
            return;
        }
        for (int k = 1; k <= maxBlocks[d] && p * k <= nproc; k++) {
            g[d] = k;
            search(dims, maxBlocks, nproc, d + 1, p * k, g, best, bestScore);
        }
    }

    /** The surface of a block of the largest size (the balanced cut's first blocks), summed over its faces. */
    private static double surface(final int[] dims, final int[] g) {
        double s = 0;
        for (int d = 0; d < dims.length; d++) {
            double face = 1;
            for (int e = 0; e < dims.length; e++) {
                if (e != d) {
                    face *= Math.ceil((double) dims[e] / g[e]);
                }
            }
            s += face;
        }
        return s;
    }

    /**
     * {@code GA_Set_restricted}: this distribution's blocks (at most {@code list.length} of them, laid out for that
     * many ranks) given to the listed group ranks in order, block {@code b} to {@code list[b]}; the other ranks, and
     * list entries beyond the blocks, own nothing.
     *
     * @param list  distinct ranks of the group
     * @param nproc the group's size
     * @throws IllegalArgumentException for an empty list, a repeated rank or one outside the group
     */
    Distribution restrictedTo(final int[] list, final int nproc) {
        if (list.length == 0) {
            throw new IllegalArgumentException("restricted to an empty list of ranks");
        }
        final int[] blockOf = new int[nproc];
        Arrays.fill(blockOf, -1);
        final int[] rankOf = new int[owners];
        for (int i = 0; i < list.length; i++) {
            final int r = list[i];
            if (r < 0 || r >= nproc) {
                throw new IllegalArgumentException("restricted list entry " + i + "=" + r + " outside the group's 0.."
                    + (nproc - 1));
            }
            if (blockOf[r] != -1 || (i >= owners && Arrays.stream(list, 0, i).anyMatch(x -> x == r))) {
                throw new IllegalArgumentException("restricted list names rank " + r + " twice");
            }
            if (i < owners) {
                blockOf[r] = i;
                rankOf[i] = r;
            }
        }
        return new Distribution(dims, starts, width, rankOf, blockOf, 0);
    }

    // ---------------------------------------------------------------- queries

    /** @return rank's block index, or -1 if it owns none (the first of several for a block-cyclic distribution) */
    int blockOf(final int rank) {
        if (blocksOfRank != null) {
            return rank >= 0 && rank < blocksOfRank.length && blocksOfRank[rank].length > 0 ? blocksOfRank[rank][0]
                : -1;
        }
        if (blockOfRank != null) {
            return rank >= 0 && rank < blockOfRank.length ? blockOfRank[rank] : -1;
        }
        return rank >= 0 && rank < owners ? rank : -1;
    }

    /** @return whether group rank {@code rank} owns a block */
    boolean owns(final int rank) {
        return blockOf(rank) >= 0;
    }

    /** @return a rank that owns a block (for layouts of ranks that own none) */
    int firstOwner() {
        return rankOfBlock == null ? 0 : rankOfBlock[0];
    }

    /** @return the strides of rank's local storage (rank owns a block) */
    int[] stridesOf(final int rank) {
        return strides[blockOf(rank)];
    }

    /** The grid coordinates of rank's block (rank owns one). */
    void coords(final int rank, final int[] out) {
        blockCoords(blockOf(rank), out);
    }

    private void blockCoords(final int block, final int[] out) {
        int r = block;
        for (int d = ndim - 1; d >= 0; d--) {
            out[d] = r % grid[d];
            r /= grid[d];
        }
    }

    /** @return the group rank owning the block at grid coordinates {@code coords} */
    int rank(final int[] coords) {
        return ownerOfBlock(blockIndex(coords));
    }

    /** @return the block of dimension {@code d} holding {@code index} */
    int findBlock(final int d, final int index) {
        final int[] s = starts[d];
        int lo = 0;
        int hi = s.length - 2;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (s[mid] <= index) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * Steps block coordinates {@code cb} through the box {@code b0..b1}, last dimension fastest (the walk over the
     * blocks a section touches).
     *
     * @return false, with {@code cb} back at {@code b0}, after the last block
     */
    static boolean nextBlock(final int[] cb, final int[] b0, final int[] b1) {
        int d = cb.length - 1;
        while (d >= 0 && cb[d] == b1[d]) {
            cb[d] = b0[d];
            d--;
        }
        if (d < 0) {
            return false;
        }
        cb[d]++;
        return true;
    }

    /** Fills lo/hi with rank's block (hi = lo - 1 in every dimension for a rank that owns nothing). */
    void block(final int rank, final int[] lo, final int[] hi) {
        if (!owns(rank)) {
            Arrays.fill(lo, 0);
            Arrays.fill(hi, -1);
            return;
        }
        coords(rank, lo);
        for (int d = 0; d < ndim; d++) {
            final int b = lo[d];
            lo[d] = starts[d][b];
            hi[d] = starts[d][b + 1] - 1;
        }
    }

    /** Row-major strides of rank's local storage (ghosts included) into {@code out}; returns its length. */
    int localStrides(final int rank, final int[] out) {
        return blockStrides(blockOf(rank), out);
    }

    private int blockStrides(final int block, final int[] out) {
        int s = 1;
        int r = block;
        for (int d = ndim - 1; d >= 0; d--) {
            final int b = r % grid[d];
            r /= grid[d];
            out[d] = s;
            s *= starts[d][b + 1] - starts[d][b] + 2 * width[d];
        }
        return s;
    }

    /** @return a description of the distribution for error messages and summaries */
    String describe() {
        final StringBuilder b = new StringBuilder("grid ").append(Arrays.toString(grid));
        if (cyclic()) {
            b.append(", block-cyclic");
        } else if (rankOfBlock != null) {
            b.append(", restricted to ranks ").append(Arrays.toString(rankOfBlock));
        }
        if (Arrays.stream(width).anyMatch(w -> w > 0)) {
            b.append(", ghosts ").append(Arrays.toString(width));
        }
        return b.toString();
    }

    /** A number equal on every PE that created the same distribution (collective creation check). */
    long fingerprint() {
        long h = Arrays.hashCode(dims);
        for (final int[] s : starts) {
            h = h * 31 + Arrays.hashCode(s);
        }
        return ((h * 31 + Arrays.hashCode(width)) * 31 + Arrays.hashCode(rankOfBlock)) * 31 + (cyclic() ? 1 : 0);
    }
}
