package org.jhpvm.ga;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jhpvm.shmem.ReduceOp;
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
public final class GlobalArrays {
    final Shmem shmem;
    final GaGroup world;
    private final List<GlobalArray> live = new ArrayList<>();
    private int nextArrayId = 1;
    private SymmetricLongs mutexes;
    private long nbIssued;
    private long nbCompleted;
    private long[] bits = new long[0];

    /**
     * {@code GA_Initialize} on a SHMEM PE. Not collective (no communication).
     *
     * @param shmem the PE's SHMEM
     */
    public GlobalArrays(final Shmem shmem) {
        this.shmem = Objects.requireNonNull(shmem, "shmem");
        final int n = shmem.nPes();
        final int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        this.world = new GaGroup(this, shmem.teamWorld(), all);
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

    // ---------------------------------------------------------------- global operations on local data

    /**
     * {@code GA_Dgop} over the world: {@code x} is replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * the world; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final double[] x, final GopOp op) {
        gop(world, x, op);
    }

    /**
     * {@code GA_Lgop} over the world: {@code x} is replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * the world; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final long[] x, final GopOp op) {
        gop(world, x, op);
    }

    /**
     * {@code GA_Igop} over the world: {@code x} is replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * the world; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final int[] x, final GopOp op) {
        gop(world, x, op);
    }

    /**
     * {@code GA_Fgop} over the world: {@code x} is replaced, on every PE, by the element-wise result: element i becomes
     * the reduction with {@code op} of every PE's element i (ABSMAX and ABSMIN of the absolute values). Collective over
     * the world; every PE gets the same bits (a fixed reduction tree).
     *
     * @param x  values, replaced by the result; an array of the same length on every PE
     * @param op operation
     */
    public void gop(final float[] x, final GopOp op) {
        gop(world, x, op);
    }

    /**
     * {@code GA_Pgroup_dgop}: collective over the group; every member gets the same bits (a fixed reduction tree).
     * Element i of {@code x} becomes the reduction with {@code op} of every member's element i (ABSMAX and ABSMIN of
     * the absolute values).
     *
     * @param group the group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final double[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    /**
     * {@code GA_Pgroup_lgop}: the long form of {@link #gop(GaGroup, double[], GopOp)}. Collective over the group;
     * element i of {@code x} becomes the reduction with {@code op} of every member's element i, the same bits on every
     * member.
     *
     * @param group group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final long[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    /**
     * {@code GA_Pgroup_igop}: the int form of {@link #gop(GaGroup, double[], GopOp)}. Collective over the group;
     * element i of {@code x} becomes the reduction with {@code op} of every member's element i, the same bits on every
     * member.
     *
     * @param group group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final int[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    /**
     * {@code GA_Pgroup_fgop}: the float form of {@link #gop(GaGroup, double[], GopOp)}. Collective over the group;
     * element i of {@code x} becomes the reduction with {@code op} of every member's element i, the same bits on every
     * member.
     *
     * @param group group
     * @param x     values, replaced by the result; the same length on every member
     * @param op    operation
     * @throws IllegalArgumentException if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException    if the caller is not a member of {@code group}, or it was destroyed
     */
    public void gop(final GaGroup group, final float[] x, final GopOp op) {
        checkGroup(group);
        if (op == GopOp.ABSMAX || op == GopOp.ABSMIN) {
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.abs(x[i]);
            }
        }
        shmem.reduce(group.team, reduceOp(op), x, x, x.length);
    }

    private static ReduceOp reduceOp(final GopOp op) {
        Objects.requireNonNull(op, "op");
        return switch (op) {
            case SUM -> ReduceOp.SUM;
            case PROD -> ReduceOp.PROD;
            case MAX, ABSMAX -> ReduceOp.MAX;
            case MIN, ABSMIN -> ReduceOp.MIN;
        };
    }

    void checkGroup(final GaGroup group) {
        Objects.requireNonNull(group, "group");
        if (group.ga != this) {
            throw new IllegalArgumentException("group " + group + " belongs to another PE's GlobalArrays");
        }
        group.checkMember();
    }

    /**
     * {@code GA_Brdcst} over the world: every PE's {@code buf[0..len)} becomes the root's. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements, the same on every PE
     * @param root world PE whose data is broadcast
     */
    public void brdcst(final byte[] buf, final int len, final int root) {
        brdcst(world, buf, len, root);
    }

    /**
     * {@code GA_Brdcst} of doubles over the world: every PE's {@code buf[0..len)} becomes the root's, bit for bit;
     * elements from {@code len} on are left alone. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements (GA's {@code lenbuf} counts bytes), the same on every PE
     * @param root the root PE, whose data is broadcast
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   PE
     */
    public void brdcst(final double[] buf, final int len, final int root) {
        brdcst(world, buf, len, root);
    }

    /**
     * {@code GA_Brdcst} of longs over the world: every PE's {@code buf[0..len)} becomes the root's, bit for bit;
     * elements from {@code len} on are left alone. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements (GA's {@code lenbuf} counts bytes), the same on every PE
     * @param root the root PE, whose data is broadcast
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   PE
     */
    public void brdcst(final long[] buf, final int len, final int root) {
        brdcst(world, buf, len, root);
    }

    /**
     * {@code GA_Brdcst} of ints over the world: every PE's {@code buf[0..len)} becomes the root's, bit for bit;
     * elements from {@code len} on are left alone. Collective.
     *
     * @param buf  data (the root's is sent, the others' overwritten)
     * @param len  elements (GA's {@code lenbuf} counts bytes), the same on every PE
     * @param root the root PE, whose data is broadcast
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   PE
     */
    public void brdcst(final int[] buf, final int len, final int root) {
        brdcst(world, buf, len, root);
    }

    /**
     * {@code GA_Pgroup_brdcst}: a bitwise-or reduction in which only the root contributes its bits, so the data arrives
     * exactly (NaN payloads and -0.0 included) without a symmetric staging buffer. Collective over the group: every
     * member's {@code buf[0..len)} becomes the root's.
     *
     * @param group the group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final byte[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (group.nodeid() != root) {
            java.util.Arrays.fill(buf, 0, len, (byte) 0);
        }
        shmem.reduce(group.team, ReduceOp.OR, buf, buf, len);
    }

    /**
     * {@code GA_Pgroup_brdcst} of ints: every member's {@code buf[0..len)} becomes the root's, bit for bit. Collective
     * over the group.
     *
     * @param group group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank of the root in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final int[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (group.nodeid() != root) {
            java.util.Arrays.fill(buf, 0, len, 0);
        }
        shmem.reduce(group.team, ReduceOp.OR, buf, buf, len);
    }

    /**
     * {@code GA_Pgroup_brdcst} of longs: every member's {@code buf[0..len)} becomes the root's, bit for bit. Collective
     * over the group.
     *
     * @param group group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank of the root in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final long[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (group.nodeid() != root) {
            java.util.Arrays.fill(buf, 0, len, 0L);
        }
        shmem.reduce(group.team, ReduceOp.OR, buf, buf, len);
    }

    /**
     * {@code GA_Pgroup_brdcst} of doubles: every member's {@code buf[0..len)} becomes the root's, bit for bit (NaN
     * payloads and -0.0 included). Collective over the group.
     *
     * @param group group
     * @param buf   data (the root's is sent, the others' overwritten)
     * @param len   elements, the same on every member
     * @param root  rank of the root in the group
     * @throws IndexOutOfBoundsException if {@code len} is negative or longer than {@code buf}, or {@code root} is not a
     *                                   rank of the group
     * @throws IllegalArgumentException  if {@code group} belongs to another PE's {@code GlobalArrays}
     * @throws IllegalStateException     if the caller is not a member of {@code group}, or it was destroyed
     */
    public void brdcst(final GaGroup group, final double[] buf, final int len, final int root) {
        checkBrdcst(group, buf == null ? -1 : buf.length, len, root);
        if (bits.length < len) {
            bits = new long[len];
        }
        final boolean isRoot = group.nodeid() == root;
        for (int i = 0; i < len; i++) {
            bits[i] = isRoot ? Double.doubleToRawLongBits(buf[i]) : 0;
        }
        shmem.reduce(group.team, ReduceOp.OR, bits, bits, len);
        for (int i = 0; i < len; i++) {
            buf[i] = Double.longBitsToDouble(bits[i]);
        }
    }

    private void checkBrdcst(final GaGroup group, final int bufLength, final int len, final int root) {
        checkGroup(group);
        if (bufLength < 0) {
            throw new NullPointerException("buf");
        }
        if (len < 0 || len > bufLength) {
            throw new IndexOutOfBoundsException("len=" + len + " outside the buffer of " + bufLength);
        }
        if (root < 0 || root >= group.nnodes()) {
            throw new IndexOutOfBoundsException("root " + root + " outside the group's 0.." + (group.nnodes() - 1));
        }
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
