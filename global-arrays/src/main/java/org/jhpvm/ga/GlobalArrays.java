package org.jhpvm.ga;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemTeam;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * Global Arrays on one PE ({@code GA_Initialize} over a running SHMEM PE): creates arrays, processor groups and
 * mutexes, and holds the operations that are not about one array ({@code GA_Sync}, {@code GA_Fence}, {@code gop},
 * {@code brdcst}, {@code dgemm}, {@code GA_Summarize}).
 * <p>
 * Collective calls (creation, destruction, sync, gop, brdcst, whole-array operations) must be made by every PE of
 * the group concerned, in the same order. Everything else is one-sided. PE numbers: {@link #nodeid()} and group
 * functions use world PE numbers; an array's own API uses ranks in the array's group (world PEs for world arrays).
 * <p>
 * Thread-safety: one instance per PE, used from that PE's thread.
 */
public final class GlobalArrays extends LinearAlgebraOps {
    private final List<GlobalArray> live = new ArrayList<>();
    private int nextArrayId = 1;
    private SymmetricLongs mutexes;
    private long nbIssued;
    private long nbCompleted;
    /** The mirror group (this node's PEs), made on first use; and the PEs of every node with this one's node rank. */
    private GaGroup mirror;
    private GaGroup sameNodeRank;
    /** The one-sided calls of this PE ({@code GA_Print_stats}). */
    final GaStatistics.Counters stats = new GaStatistics.Counters();
    /** {@link #maskSync}: whether the next collective that honours it syncs at its start and at its end. */
    boolean syncAtBegin = true;
    boolean syncAtEnd = true;
    /** {@link #rand(int)}'s generator, seeded by its first call. */
    private java.util.SplittableRandom rand;
    /** {@code GA_Set_memory_limit}: bytes of array storage this PE may hold, or -1 for no limit. */
    private long memoryLimit = -1;

    /**
     * {@code GA_Initialize} on a SHMEM PE. Not collective (no communication).
     *
     * @param shmem the PE's SHMEM
     */
    public GlobalArrays(final Shmem shmem) {
        super(shmem);
    }

    /**
     * {@code GA_Nodeid}: this PE's rank in the default group: its world number unless {@link #pgroupSetDefault} chose
     * another group. It is the numbering {@link #pgroupCreate} lists and the group-less {@code brdcst} roots use. No
     * communication.
     *
     * @return this PE's rank, 0 to {@code nnodes()-1}
     */
    public int nodeid() {
        return defaultGroup == world ? shmem.myPe() : defaultGroup.nodeid();
    }

    /**
     * {@code GA_Nnodes}: the number of PEs in the default group (every PE of the job unless set). No communication.
     *
     * @return the number of PEs
     */
    public int nnodes() {
        return defaultGroup.nnodes();
    }

    /**
     * {@code GA_Pgroup_set_default}: makes {@code group} the default group: new arrays go on it, and
     * {@link #nodeid()}, {@link #nnodes()}, {@link #sync()}, {@link #pgroupCreate}, {@code gop} and {@code brdcst}
     * without a group act on it, as in GA. Every member should set it alike (no communication).
     *
     * @param group a group this PE is a member of (the world group to go back)
     * @throws IllegalStateException if the group was destroyed or this PE is not a member
     */
    public void pgroupSetDefault(final GaGroup group) {
        Objects.requireNonNull(group, "group").checkMember();
        defaultGroup = group;
    }

    /**
     * {@code GA_Pgroup_get_default}: the default group.
     *
     * @return the group {@link #pgroupSetDefault} set, or the world group
     */
    public GaGroup pgroupGetDefault() {
        return defaultGroup;
    }

    /**
     * {@code GA_Pgroup_get_world}: the group of every PE in world order, on which arrays are created unless a builder
     * names another group. It cannot be destroyed.
     *
     * @return the world group
     */
    public GaGroup worldGroup() {
        return world;
    }

    // ---------------------------------------------------------------- creation

    /**
     * A builder for a new array ({@code GA_Create_handle} + {@code GA_Set_*} + {@code GA_Allocate}).
     *
     * @param type element type
     * @param dims extent per dimension (1 to 7 dimensions, each at least 1)
     * @return the builder; {@link GlobalArray.Builder#create()} is collective over the group
     */
    public GlobalArray.Builder builder(final GaType type, final int... dims) {
        return new GlobalArray.Builder(this, type, dims);
    }

    /**
     * {@code NGA_Create}: a regular distribution over the world chosen by GA. Collective.
     *
     * @param type element type
     * @param dims extents
     * @param name name for printing
     * @return the array, zeroed
     */
    public GlobalArray create(final GaType type, final int[] dims, final String name) {
        return builder(type, dims).name(name).create();
    }

    /**
     * {@code NGA_Create_irreg}: {@code nblock[d]} blocks in dimension d starting at the concatenated {@code map}
     * entries. Collective.
     *
     * @param type   element type
     * @param dims   extents
     * @param name   name
     * @param nblock blocks per dimension
     * @param map    block starts, dimension after dimension
     * @return the array, zeroed
     */
    public GlobalArray createIrregular(final GaType type, final int[] dims, final String name, final int[] nblock,
        final int[] map) {
        return builder(type, dims).name(name).irregular(nblock, map).create();
    }

    /**
     * {@code NGA_Create_ghosts}: regular, with {@code width[d]} ghost layers on each side. Collective.
     *
     * @param type  element type
     * @param dims  extents
     * @param width ghost widths
     * @param name  name
     * @return the array, zeroed (ghosts too)
     */
    public GlobalArray createGhosts(final GaType type, final int[] dims, final int[] width, final String name) {
        return builder(type, dims).name(name).ghosts(width).create();
    }

    int register(final GlobalArray a) {
        live.add(a);
        return nextArrayId++;
    }

    void unregister(final GlobalArray a) {
        live.remove(a);
    }

    boolean hasArraysOn(final GaGroup group) {
        for (final GlobalArray a : live) {
            if (a.group == group) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- processor groups

    /**
     * {@code GA_Pgroup_create}: a group of the listed ranks of the default group (world PEs unless
     * {@link #pgroupSetDefault} chose another), in that order. Collective over the default group (every member passes
     * the same list); non-members get a handle they cannot use.
     *
     * @param list distinct ranks of the default group
     * @return the group
     * @throws IllegalArgumentException for an empty list, a repeated or unknown rank, or lists that differ
     */
    public GaGroup pgroupCreate(final int[] list) {
        Objects.requireNonNull(list, "list");
        final GaGroup parent = defaultGroup;
        parent.checkMember();
        final ShmemTeam team = parent.team.split(list);
        final int[] pes = new int[list.length];
        for (int i = 0; i < list.length; i++) {
            pes[i] = parent.absoluteId(list[i]);
        }
        return new GaGroup(this, team, pes);
    }

    /**
     * {@code GA_Pgroup_split}: splits {@code group} into groups of consecutive ranks, {@code ceil(n / num)} each (the
     * last smaller when {@code num} does not divide the size, so there may be fewer than {@code num}), as GA does;
     * returns the caller's. {@code num == 0} returns {@code group} itself. Collective over {@code group}.
     *
     * @param group the parent (this PE a member)
     * @param num   groups wanted, 0 or more
     * @return the caller's new group
     * @throws IllegalArgumentException if {@code num} is negative (before anything is sent)
     * @throws IllegalStateException    if this PE is not a member of {@code group}
     */
    public GaGroup pgroupSplit(final GaGroup group, final int num) {
        Objects.requireNonNull(group, "group").checkMember();
        if (num < 0) {
            throw new IllegalArgumentException("pgroupSplit into " + num + " groups: at least 0");
        }
        if (num == 0) {
            return group;
        }
        final int n = group.nnodes();
        final int size = (n + num - 1) / num;
        return splitByColor(group, group.nodeid() / size);
    }

    /**
     * {@code GA_Pgroup_split_irreg}: the members of {@code group} that pass the same {@code color} form a group, in
     * their order in {@code group}; returns the caller's. Collective over {@code group}.
     *
     * @param group the parent (this PE a member)
     * @param color this PE's color, 0 or more
     * @return the caller's new group
     * @throws IllegalArgumentException on every member if some member passed a negative color
     * @throws IllegalStateException    if this PE is not a member of {@code group}
     */
    public GaGroup pgroupSplitIrreg(final GaGroup group, final int color) {
        Objects.requireNonNull(group, "group").checkMember();
        return splitByColor(group, color);
    }

    private GaGroup splitByColor(final GaGroup group, final int color) {
        final int n = group.nnodes();
        final long[] colors = new long[n];
        colors[group.nodeid()] = color < 0 ? Long.MIN_VALUE / 4 : color + 1L;
        gop(group, colors, GopOp.SUM);
        for (int r = 0; r < n; r++) {
            if (colors[r] < 1) {
                throw new IllegalArgumentException("pgroupSplitIrreg: group rank " + r + " passed a negative color");
            }
        }
        final long[] distinct = java.util.Arrays.stream(colors).distinct().sorted().toArray();
        GaGroup mine = null;
        for (final long c : distinct) {
            final int[] ranks = java.util.stream.IntStream.range(0, n).filter(r -> colors[r] == c).toArray();
            final ShmemTeam team = group.team.split(ranks);
            if (team != null) {
                final int[] pes = new int[ranks.length];
                for (int i = 0; i < ranks.length; i++) {
                    pes[i] = group.absoluteId(ranks[i]);
                }
                mine = new GaGroup(this, team, pes);
            }
        }
        return mine;
    }

    /**
     * {@code NGA_Sprs_array_create}: a {@code rows x cols} sparse matrix over the default group (see
     * {@link SparseArray}). Collective over that group (no communication yet: elements are added locally).
     *
     * @param type the element type
     * @param rows rows, at least 1
     * @param cols columns, at least 1
     * @return the sparse array, empty
     * @throws IllegalArgumentException for a size below 1
     */
    public SparseArray createSparse(final GaType type, final int rows, final int cols) {
        Objects.requireNonNull(type, "type");
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("sparse array of " + rows + " x " + cols + ": at least 1 x 1");
        }
        defaultGroup.checkMember();
        return new SparseArray(this, defaultGroup, type, rows, cols);
    }

    /**
     * {@code NGA_Sprs_array_create_from_dense}: a sparse array, assembled, of the elements of the 2-D array {@code a}
     * that are not zero, of {@code a}'s type, shape and group. Each rank adds the elements of the blocks it owns.
     * Collective over {@code a}'s group.
     *
     * @param a the dense matrix
     * @return the sparse array
     * @throws IllegalArgumentException if {@code a} is not 2-D
     */
    public SparseArray createSparseFromDense(final GlobalArray a) {
        Objects.requireNonNull(a, "a").checkLive();
        if (a.ndim != 2) {
            throw new IllegalArgumentException("createSparseFromDense needs a 2-D array; " + a + " has " + a.ndim
                + " dimensions");
        }
        return SparseProducts.fromDense(this, a);
    }

    /**
     * {@code GA_Pgroup_get_mirror}: the mirror group. An array created on it is mirrored: every node (a JVM: one for a
     * job in one JVM, one per process under {@code launch}) holds a whole copy, distributed over the node's PEs, and
     * each PE's operations act on its node's copy; {@link GlobalArray#mergeMirrored()} adds the copies together.
     * No communication.
     *
     * @return the mirror group
     */
    public GaGroup pgroupGetMirror() {
        if (mirror == null) {
            final org.jhpvm.shmem.ShmemTeam shared = shmem.teamShared();
            final int[] pes = new int[shared.nPes()];
            for (int r = 0; r < pes.length; r++) {
                pes[r] = shared.worldPe(r);
            }
            mirror = new GaGroup(this, shared, pes, true);
        }
        return mirror;
    }

    /** The PEs that hold the same block of every node's copy of a mirrored array (made collectively on first use). */
    GaGroup sameNodeRank() {
        if (sameNodeRank == null) {
            sameNodeRank = pgroupSplitIrreg(world, shmem.teamShared().myPe());
        }
        return sameNodeRank;
    }

    // ---------------------------------------------------------------- synchronisation

    /**
     * {@code GA_Sync}: completes every outstanding operation of every PE, then a barrier over the default group (the
     * world unless set). Collective.
     */
    public void sync() {
        defaultGroup.sync();
    }

    /**
     * {@code GA_Mask_sync}: drops the synchronisation at the start ({@code begin == false}) and/or at the end
     * ({@code end == false}) of the next collective operation, for a program that knows it is not needed (the
     * operation before it already synchronised, or the next one will). As in GA the mask holds for one operation and
     * is then reset. Honoured by the element-wise and patch family ({@code zero}, {@code fill}, {@code scale},
     * {@code copy}, {@code add}, {@code addPatch}, {@code copyPatch}, the {@code elem*} operations and their
     * patches); every other collective keeps both of its synchronisations, which a correct program cannot tell
     * apart, and resets the mask; so does {@link #sync()}. Local: no communication.
     *
     * @param begin whether the next collective syncs when it starts
     * @param end   whether it syncs when it ends
     */
    public void maskSync(final boolean begin, final boolean end) {
        syncAtBegin = begin;
        syncAtEnd = end;
    }

    /**
     * {@code NGA_Rand}: a pseudo-random double in {@code [0, 1)}, from this PE's own generator. The first call seeds
     * it with {@code seed} (0: GA's default seed, 121238; a negative seed as its absolute value) and later calls
     * ignore their argument, as GA's do. The sequence is this implementation's (Java's {@code SplittableRandom}),
     * not GA's Mersenne twister. Local: no communication.
     *
     * @param seed the seed on the first call
     * @return the next value
     */
    public double rand(final int seed) {
        if (rand == null) {
            rand = new java.util.SplittableRandom(seed == 0 ? 121_238 : Math.abs((long) seed));
        }
        return rand.nextDouble();
    }

    /** {@code GA_Init_fence}: start tracking this PE's puts and accumulates for {@link #fence()}. */
    public void initFence() {
        // Every put and accumulate is tracked by SHMEM anyway; fence completes them all.
    }

    /** {@code GA_Fence}: returns when this PE's puts and accumulates are complete at their targets. */
    public void fence() {
        shmem.quiet();
        nbCompleted = nbIssued;
    }

    long nbIssue() {
        return ++nbIssued;
    }

    /**
     * {@code NGA_NbWait}: the non-blocking operation with this handle (and every one issued before it) is complete.
     *
     * @param handle from nbPut/nbGet/nbAcc
     * @throws IllegalArgumentException for a handle never issued
     */
    public void nbWait(final long handle) {
        if (handle < 1 || handle > nbIssued) {
            throw new IllegalArgumentException("handle " + handle + " was not issued (last " + nbIssued + ")");
        }
        if (handle > nbCompleted) {
            fence();
        }
    }

    /**
     * {@code NGA_NbTest}: whether the non-blocking operation with this handle (and every one issued before it) is
     * complete. SHMEM completes this PE's transfers together, so the test completes them (a quiet: with NIC offload
     * they have mostly completed when posted) and answers true; a loop on it always ends.
     *
     * @param handle from nbPut/nbGet/nbAcc
     * @return true: the operation is complete
     * @throws IllegalArgumentException for a handle never issued
     */
    public boolean nbTest(final long handle) {
        nbWait(handle);
        return true;
    }

    // ---------------------------------------------------------------- memory

    /**
     * {@code GA_Set_memory_limit}: from now on, creating an array that would take this PE's array storage beyond
     * {@code bytes} fails (on every PE of the array's group, before anything is allocated).
     *
     * @param bytes the limit, 0 or more
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public void setMemoryLimit(final long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("memory limit " + bytes + " is negative");
        }
        memoryLimit = bytes;
    }

    /**
     * {@code GA_Memory_limited}: whether {@link #setMemoryLimit} was called.
     *
     * @return true if array storage is limited on this PE
     */
    public boolean memoryLimited() {
        return memoryLimit >= 0;
    }

    /**
     * {@code GA_Inquire_memory}: the bytes of array storage the live arrays hold on this PE (each array's largest
     * block, ghosts included, as allocated on every PE of its group).
     *
     * @return bytes in use by this PE's arrays
     */
    public long inquireMemory() {
        long total = 0;
        for (final GlobalArray a : live) {
            if (a.overlayOf == null) {
                total += (long) a.dist.maxLocalLength * a.type.bytes();
            }
        }
        return total;
    }

    /**
     * {@code GA_Memory_avail}: the bytes left for new arrays on this PE: what the limit leaves when one is set, else
     * what SHMEM's symmetric heap has left.
     *
     * @return bytes available
     */
    public long memoryAvail() {
        return memoryLimited() ? Math.max(0, memoryLimit - inquireMemory())
            : shmem.heapBytes() - shmem.heapUsedBytes();
    }

    /** Whether {@code bytes} more of array storage stay within the limit on this PE. */
    boolean fitsMemoryLimit(final long bytes) {
        return !memoryLimited() || inquireMemory() + bytes <= memoryLimit;
    }

    // ---------------------------------------------------------------- mutexes

    /**
     * {@code GA_Create_mutexes}: {@code n} mutexes numbered 0..n-1. Collective over the world.
     *
     * @param n number of mutexes, at least 1
     * @throws IllegalArgumentException if {@code n < 1}
     * @throws IllegalStateException    if mutexes exist already (destroy them first)
     */
    public void createMutexes(final int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " mutexes: at least 1");
        }
        if (mutexes != null) {
            throw new IllegalStateException("mutexes exist already; destroyMutexes first");
        }
        mutexes = shmem.mallocLongs(n);
    }

    /**
     * {@code GA_Lock}: waits for mutex {@code i} (not reentrant). One-sided: blocks only the caller until it holds the
     * mutex; waiters are served in the order they asked.
     *
     * @param i mutex number
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code 0..n-1}
     * @throws IllegalStateException     if no mutexes exist, or this PE already holds mutex {@code i} (it would wait
     *                                   for itself forever)
     */
    public void lock(final int i) {
        shmem.setLock(checkMutex(i), i);
    }

    /**
     * {@code GA_Unlock}: completes this PE's operations, then releases mutex {@code i}, so the next holder sees every
     * put and accumulate made in the critical section.
     *
     * @param i mutex number
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code 0..n-1}
     * @throws IllegalStateException     if no mutexes exist, or this PE does not hold mutex {@code i} (nothing changes)
     */
    public void unlock(final int i) {
        shmem.clearLock(checkMutex(i), i);
    }

    /**
     * {@code GA_Destroy_mutexes}. Collective over the world.
     *
     * @throws IllegalStateException if there are no mutexes
     */
    public void destroyMutexes() {
        if (mutexes == null) {
            throw new IllegalStateException("no mutexes to destroy");
        }
        shmem.free(mutexes);
        mutexes = null;
    }

    private SymmetricLongs checkMutex(final int i) {
        if (mutexes == null) {
            throw new IllegalStateException("no mutexes: call createMutexes first");
        }
        if (i < 0 || i >= mutexes.length()) {
            throw new IndexOutOfBoundsException("mutex " + i + " outside 0.." + (mutexes.length() - 1));
        }
        return mutexes;
    }

    // ---------------------------------------------------------------- debugging

    /**
     * The counts {@code GA_Print_stats} prints: this PE's one-sided calls and the bytes they moved. No communication.
     *
     * @return a snapshot of the counters
     */
    public GaStatistics statistics() {
        return stats.snapshot();
    }

    /**
     * {@code GA_Print_stats}: prints {@link #statistics()} of this PE, one line per family. No communication.
     *
     * @param out where to print (flushed after)
     */
    public void printStats(final PrintStream out) {
        Objects.requireNonNull(out, "out");
        final GaStatistics s = statistics();
        out.printf("GA statistics for PE %d%n", shmem.myPe());
        out.printf("  %-22s %12s %16s%n", "", "calls", "bytes");
        out.printf("  %-22s %12d %16d%n", "put", s.putCalls(), s.putBytes());
        out.printf("  %-22s %12d %16d%n", "get", s.getCalls(), s.getBytes());
        out.printf("  %-22s %12d %16d%n", "accumulate", s.accCalls(), s.accBytes());
        out.printf("  %-22s %12d %16d%n", "scatter (and acc)", s.scatterCalls(), s.scatterBytes());
        out.printf("  %-22s %12d %16d%n", "gather", s.gatherCalls(), s.gatherBytes());
        out.printf("  %-22s %12d %16s%n", "read and increment", s.readIncCalls(), "");
        out.flush();
    }

    /**
     * {@code GA_Summarize} on this PE: one line per live array this PE holds (its type, shape, distribution and bytes
     * per PE), then the total and the SHMEM heap in use. No communication.
     *
     * @return {@code GA_Summarize}'s report: every live array of this PE, its type, shape, distribution, bytes (several
     *         lines, each ending in a newline)
     */
    public String summarize() {
        final StringBuilder b = new StringBuilder("Global Arrays on PE ").append(nodeid()).append(" of ")
            .append(nnodes()).append(": ").append(live.size()).append(" array(s)\n");
        long total = 0;
        for (final GlobalArray a : live) {
            final long bytes = (long) a.dist.maxLocalLength * a.type.bytes();
            total += bytes;
            b.append("  ").append(a).append(", ").append(a.dist.describe()).append(", ").append(bytes)
                .append(" bytes per PE\n");
        }
        b.append("  total ").append(total).append(" bytes per PE; SHMEM heap used ").append(shmem.heapUsedBytes())
            .append(" of ").append(shmem.heapBytes()).append('\n');
        return b.toString();
    }

    /**
     * Prints {@link #summarize()} from world PE 0. Collective over the world: every PE syncs before and after. The
     * report is PE 0's, so arrays on groups without PE 0 do not appear.
     *
     * @param out where PE 0 prints (flushed after); the other PEs do not use it
     */
    public void summarize(final PrintStream out) {
        sync();
        if (nodeid() == 0) {
            out.print(summarize());
            out.flush();
        }
        sync();
    }
}
