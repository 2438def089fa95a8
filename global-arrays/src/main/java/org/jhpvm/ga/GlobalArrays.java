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
public final class GlobalArrays extends GlobalOperations {
    private final List<GlobalArray> live = new ArrayList<>();
    private int nextArrayId = 1;
    private SymmetricLongs mutexes;
    private long nbIssued;
    private long nbCompleted;

    /**
     * {@code GA_Initialize} on a SHMEM PE. Not collective (no communication).
     *
     * @param shmem the PE's SHMEM
     */
    public GlobalArrays(final Shmem shmem) {
        super(shmem);
    }

    /**
     * {@code GA_Nodeid}: this PE's number in the world, the numbering {@link #pgroupCreate} lists and the world
     * {@code brdcst} roots use, and the ranks of arrays on the world group. No communication.
     *
     * @return this PE's world number, 0 to {@code nnodes()-1}
     */
    public int nodeid() {
        return shmem.myPe();
    }

    /**
     * {@code GA_Nnodes}: the number of PEs in the job. No communication.
     *
     * @return the number of PEs
     */
    public int nnodes() {
        return shmem.nPes();
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
     * {@code GA_Pgroup_create}: a group of the listed world PEs, in that order. Collective over the world (every PE
     * passes the same list); non-members get a handle they cannot use.
     *
     * @param list distinct world PEs
     * @return the group
     * @throws IllegalArgumentException for an empty list, a repeated or unknown PE, or lists that differ
     */
    public GaGroup pgroupCreate(final int[] list) {
        Objects.requireNonNull(list, "list");
        final ShmemTeam team = shmem.teamWorld().split(list);
        return new GaGroup(this, team, list.clone());
    }

    // ---------------------------------------------------------------- synchronisation

    /** {@code GA_Sync}: completes every outstanding operation of every PE, then a world barrier. Collective. */
    public void sync() {
        world.sync();
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

    // ---------------------------------------------------------------- matrix multiply

    /**
     * {@code GA_Dgemm}: {@code C = alpha * op(A) * op(B) + beta * C} on the leading {@code m x n} patch of C, with
     * {@code op(X)} X or its transpose ({@code 'N'} or {@code 'T'}, either case). Collective over the arrays' group;
     * A, B, C are 2-D double arrays of one group and C is distinct from A and B. Each PE computes its own block of C
     * from row panels of op(A) and column panels of op(B) fetched one-sidedly in k-chunks, the next chunk's gets in
     * flight while the current one is multiplied (the get-based SUMMA of GA's SRUMMA): per PE
     * {@code (m_local + n_local) * k} elements move, which scales with a 2-D block distribution.
     *
     * @param transA 'N' or 'T'
     * @param transB 'N' or 'T'
     * @param m      rows of op(A) and C
     * @param n      columns of op(B) and C
     * @param k      columns of op(A), rows of op(B)
     * @param alpha  scale of the product
     * @param a      A
     * @param b      B
     * @param beta   scale of C
     * @param c      C (updated)
     */
    public void dgemm(final char transA, final char transB, final int m, final int n, final int k, final double alpha,
        final GlobalArray a, final GlobalArray b, final double beta, final GlobalArray c) {
        Gemm.dgemm(this, transA, transB, m, n, k, alpha, a, b, beta, c);
    }

    // ---------------------------------------------------------------- debugging

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
