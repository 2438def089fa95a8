package org.jhpvm.ga;

import java.util.Arrays;
import java.util.Objects;

import org.jhpvm.shmem.Shmem;

/**
 * The state of a {@link GlobalArray} handle and the queries on it, the first of the package-private superclasses that
 * hold GlobalArray's public methods, one responsibility each: the final fields every operation reads, set once at
 * creation with the helpers wired to them; destroy and the liveness check; the inquiries (type, shape, name, group,
 * ghosts, grid, the block a rank owns). Javadoc documents these methods on {@code GlobalArray}, and javac adds a
 * public bridge for each to {@code GlobalArray}, so callers, by name or by reflection, find them there.
 * <p>
 * The hierarchy is sealed: every instance is a {@code GlobalArray}, which {@link #self()} hands to the helpers.
 */
abstract sealed class ArrayHandle permits ElementAndGhostOps {
    final GlobalArrays ga;
    final Shmem shmem;
    final GaGroup group;
    final GaType type;
    final String name;
    final Distribution dist;
    final Storage storage;
    /** The array whose memory this one overlays ({@code GA_Overlay}), or null for an array with its own. */
    final GlobalArray overlayOf;
    /** Live arrays overlaid on this one's memory. */
    int overlays;
    /** With the read_only property: every element, packed row-major, on this PE (gets read it); else null. */
    Object readOnlyCopy;
    /** With the read_cache property: the sections this PE has read; else null. */
    ReadCache readCache;
    final int ndim;
    final int myRank;
    final int id;
    final Mover mover;
    /** All 1: the skip of a section that is not sub-sampled. */
    final int[] ones;
    final ArgumentChecks checks;
    final SectionTransfer sections;
    /** The fast path of put, get and acc for a section inside the block the last one went to. */
    final HotBlock hot;
    final DistributionQueries queries;
    private final boolean ghosts;
    private boolean destroyed;

    ArrayHandle(final GlobalArrays ga, final GaGroup group, final GaType type, final String name,
        final Distribution dist, final GlobalArray overlayOf) {
        this.ga = ga;
        this.shmem = ga.shmem;
        this.group = group;
        this.type = type;
        this.name = name;
        this.dist = dist;
        this.ndim = dist.ndim;
        this.myRank = group.nodeid();
        this.ghosts = Arrays.stream(dist.width).anyMatch(w -> w > 0);
        this.overlayOf = overlayOf;
        ArgumentChecks.checkSameOnEveryPe(shmem, group, type, dist, overlayOf != null);
        if (overlayOf == null) {
            this.storage = Storage.allocate(shmem, group.team, type, dist.maxLocalLength);
        } else {
            this.storage = overlayOf.storage;
            overlayOf.overlays++;
        }
        this.mover = new Mover(storage, ndim);
        this.id = ga.register(self());
        this.ones = new int[ndim];
        Arrays.fill(ones, 1);
        this.checks = new ArgumentChecks(self());
        this.hot = new HotBlock(self());
        this.sections = new SectionTransfer(self());
        this.queries = new DistributionQueries(self());
    }

    /** This handle as the {@link GlobalArray} it is: the sealed hierarchy ends there, so the cast cannot fail. */
    final GlobalArray self() {
        return (GlobalArray) this;
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * {@code GA_Destroy}: completes outstanding operations and frees the memory. Collective over the group.
     *
     * @throws IllegalStateException if this handle was already destroyed
     */
    public void destroy() {
        checkLive();
        if (overlays > 0) {
            throw new IllegalStateException(this + " has " + overlays + " overlay(s) on its memory: destroy them "
                + "first");
        }
        if (overlayOf == null) {
            shmem.free(storage.symmetric);
        } else {
            group.sync(); // collective like a destroy that frees; the memory stays the parent's
            overlayOf.overlays--;
        }
        destroyed = true;
        ga.unregister(self());
    }

    /**
     * {@code GA_Duplicate}: a new zeroed array of the same type, shape, distribution and group. Collective.
     *
     * @param newName its name
     * @return the new array
     */
    public GlobalArray duplicate(final String newName) {
        checkLive();
        return new GlobalArray(ga, group, type, Objects.requireNonNull(newName, "name"), dist, null);
    }

    /**
     * {@code GA_Set_property}. {@code "read_only"} makes the array read-only, replicated on every PE of its group:
     * gets (blocking, non-blocking, strided, periodic, and the operands of collective operations) read the local
     * replica without communication. {@code "read_cache"} keeps the sections each PE reads: a get inside a section
     * read before is served locally, any other is read and kept (the newest {@value ReadCache#MAX_ENTRIES}
     * sections), as GA's read cache does. Under either, puts, accumulates, scatters and read-increments are refused
     * with {@link IllegalStateException} until {@link #unsetProperty()} (GA leaves writes under read_cache
     * undefined; refusing them keeps every cached read true). Collective over the group. Ghost cells are not part of
     * the replica or the cache.
     *
     * @param property {@code "read_only"} or {@code "read_cache"}
     * @throws IllegalArgumentException for another property name
     * @throws IllegalStateException    if the array is destroyed or already has a property
     */
    public void setProperty(final String property) {
        checkLive();
        if (!"read_only".equals(property) && !"read_cache".equals(property)) {
            throw new IllegalArgumentException("property '" + property + "': \"read_only\" and \"read_cache\" are "
                + "provided");
        }
        if (readOnlyCopy != null || readCache != null) {
            throw new IllegalStateException(this + " already has the " + (readCache != null ? "read_cache"
                : "read_only") + " property");
        }
        if ("read_cache".equals(property)) {
            group.sync();
            readCache = new ReadCache();
            return;
        }
        group.sync();
        final int[] d = dist.dims;
        long n = 1;
        for (final int x : d) {
            n *= x;
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(this + " has " + n + " elements: too many to replicate in a Java array");
        }
        final Object copy = type.newArray((int) n);
        final int[] lo = new int[ndim];
        final int[] hi = new int[ndim];
        for (int k = 0; k < ndim; k++) {
            hi[k] = d[k] - 1;
        }
        sections.packed(Mover.GET, lo, hi, copy);
        group.sync();
        readOnlyCopy = copy;
    }

    /**
     * {@code GA_Unset_property}: drops the read-only replica or the read cache; the array is writable again.
     * Collective over the group.
     *
     * @throws IllegalStateException if the array is destroyed
     */
    public void unsetProperty() {
        checkLive();
        group.sync();
        readOnlyCopy = null;
        readCache = null;
    }

    /**
     * Whether {@link #destroy()} has run on this PE's handle. The inquiries without arguments ({@link #type()},
     * {@link #dims()}, {@link #name()} and the like) still answer on a destroyed handle; every other call throws
     * {@link IllegalStateException}.
     *
     * @return true once destroyed
     */
    public boolean isDestroyed() {
        return destroyed;
    }

    // ---------------------------------------------------------------- inquiry

    /**
     * The element type ({@code NGA_Inquire}'s type), which every buffer passed to this array must match.
     *
     * @return the element type
     */
    public GaType type() {
        return type;
    }

    /**
     * The number of dimensions ({@code NGA_Inquire}'s ndim), the length of every subscript and {@code lo}/{@code hi}.
     *
     * @return the number of dimensions, 1 to 7
     */
    public int ndim() {
        return ndim;
    }

    /**
     * The extent of each dimension ({@code NGA_Inquire}'s dims); valid subscripts run from 0 to {@code dims[d]-1}.
     *
     * @return the extents (a copy)
     */
    public int[] dims() {
        return dist.dims.clone();
    }

    /**
     * The name given at creation ({@code GA_Inquire_name}), used in printing and error messages.
     *
     * @return the name, empty if none was given
     */
    public String name() {
        return name;
    }

    /**
     * The processor group the array is distributed over; ranks in this array's API are ranks in this group.
     *
     * @return the processor group (the world group unless the array was created on another)
     */
    public GaGroup group() {
        return group;
    }

    /**
     * The ghost layers each block stores on each side of every dimension (the widths given to {@code GA_Set_ghosts}).
     *
     * @return the ghost widths, one entry per dimension, all 0 for an array without ghosts (a copy)
     */
    public int[] ghostWidths() {
        return dist.width.clone();
    }

    /**
     * {@code GA_Has_ghosts}: whether any dimension has a ghost width above 0, that is whether
     * {@code updateGhosts} has anything to do.
     *
     * @return whether the array has ghost cells
     */
    public boolean hasGhosts() {
        return ghosts;
    }

    /**
     * {@code GA_Get_proc_grid}: how many blocks the distribution has in each dimension. The product may be smaller
     * than the group's size: group ranks beyond it own nothing.
     *
     * @return blocks per dimension (the processor grid, a copy)
     */
    public int[] procGrid() {
        return dist.grid.clone();
    }

    /**
     * {@code NGA_Distribution}: the block a rank owns.
     *
     * @param rank a rank of the group
     * @return {@code {lo, hi}}; a rank that owns nothing gets {@code hi[d] = lo[d] - 1}
     * @throws IndexOutOfBoundsException if {@code rank} is outside the group
     * @throws IllegalStateException     if the array was destroyed
     */
    public int[][] distribution(final int rank) {
        return queries.distribution(rank);
    }

    /**
     * {@code GA_Compare_distr}: whether {@code other} is distributed as this array: the same group, shape, blocks and
     * owners of the blocks (restricted and block-cyclic layouts included; C returns 0 for the same). No communication: every PE computes distributions alike.
     *
     * @param other another live array
     * @return true if every element of both arrays lives on the same PE at the same block position
     * @throws IllegalStateException if either array was destroyed
     */
    public boolean compareDistr(final GlobalArray other) {
        checkLive();
        Objects.requireNonNull(other, "other").checkLive();
        return other.group.team == group.team && Arrays.equals(other.dist.dims, dist.dims)
            && Arrays.deepEquals(other.dist.starts, dist.starts) && other.dist.fingerprint() == dist.fingerprint();
    }

    /**
     * {@code GA_Print_distribution}: rank 0 of the group prints, for every rank, the block it owns (0-based,
     * inclusive), one line each. Collective over the group (a sync before and after).
     *
     * @param out where rank 0 prints (flushed after)
     */
    public void printDistribution(final java.io.PrintStream out) {
        checkLive();
        Objects.requireNonNull(out, "out");
        group.sync();
        if (myRank == 0) {
            final StringBuilder b = new StringBuilder("distribution of ").append(this).append(", ")
                .append(dist.describe()).append('\n');
            for (int r = 0; r < group.nnodes(); r++) {
                final int[][] lh = queries.distribution(r);
                b.append("  rank ").append(r).append(" (PE ").append(group.absoluteId(r)).append("): ")
                    .append(lh[1].length > 0 && lh[1][0] < lh[0][0] ? "nothing" : Arrays.toString(lh[0]) + " .. "
                        + Arrays.toString(lh[1])).append('\n');
            }
            out.print(b);
            out.flush();
        }
        group.sync();
    }

    /**
     * {@code GA_Total_blocks}: the number of blocks the array is cut into (one per owning rank, except for a
     * block-cyclic or tiled array, whose ranks own several). No communication.
     *
     * @return the number of blocks
     */
    public int totalBlocks() {
        return dist.owners;
    }

    /**
     * {@code NGA_Distribution_block}: block {@code i}'s bounds (blocks numbered row-major over the block grid).
     *
     * @param i a block, {@code 0 .. totalBlocks()-1}
     * @return {@code {lo, hi}}, inclusive
     * @throws IndexOutOfBoundsException outside the blocks
     * @throws IllegalStateException     if the array was destroyed
     */
    public int[][] blockDistribution(final int i) {
        return queries.blockDistribution(i);
    }

    /**
     * The rank of the group that owns block {@code i}.
     *
     * @param i a block, {@code 0 .. totalBlocks()-1}
     * @return its owner's rank
     * @throws IndexOutOfBoundsException outside the blocks
     */
    public int blockOwner(final int i) {
        Objects.checkIndex(i, dist.owners);
        return dist.ownerOfBlock(i);
    }

    /**
     * {@code NGA_Access_block}: block {@code i}, which this PE owns, as the plain Java array it lives in (the array
     * holds this PE's other blocks too; {@link LocalBlock#index(int...)} and {@link LocalBlock#offset()} find this
     * one's elements). No communication.
     *
     * @param i a block this PE owns
     * @return the block's layout in this PE's storage
     * @throws IndexOutOfBoundsException outside the blocks
     * @throws IllegalArgumentException  if another rank owns block {@code i}
     */
    public LocalBlock accessBlock(final int i) {
        return queries.accessBlock(i);
    }

    /** {@code NGA_Release}: ends an access (nothing to do: the block is this PE's own memory). */
    public void release() {
        checkLive();
    }

    /** {@code NGA_Release_update}: ends an access that wrote; call a sync before others read. */
    public void releaseUpdate() {
        checkLive();
    }

    // ---------------------------------------------------------------- liveness and name

    final void checkLive() {
        if (destroyed) {
            throw new IllegalStateException(this + " was destroyed");
        }
    }

    @Override
    public String toString() {
        return "GlobalArray#" + id + (name.isEmpty() ? "" : " '" + name + "'") + " " + type + Arrays.toString(
            dist.dims) + (destroyed ? " (destroyed)" : "");
    }
}
