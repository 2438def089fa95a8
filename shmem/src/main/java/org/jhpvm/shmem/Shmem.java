package org.jhpvm.shmem;

import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FastMessages;

/**
 * One PE's OpenSHMEM 1.5 library, given to the job body by {@link ShmemJob}: setup queries, collective symmetric
 * allocation, ordering ({@link #fence()}, {@link #quiet()}), barriers, teams, reductions, distributed locks and
 * {@link #globalExit}. RMA, atomics, signals and point-to-point synchronisation are methods of the symmetric objects
 * ({@link SymmetricLongs} and its siblings).
 * <p>
 * Progress is one-sided: a PE that computes without calling SHMEM still serves the puts, gets and atomics aimed at
 * it, through its progress agent (see the module README).
 * <p>
 * Thread-safety: thread level FUNNELED: only the PE's own thread calls; another thread gets an
 * {@link IllegalStateException}.
 */
public final class Shmem extends SymmetricHeap {
    /** OpenSHMEM major version implemented. */
    public static final int MAJOR_VERSION = 1;
    /** OpenSHMEM minor version implemented. */
    public static final int MINOR_VERSION = 5;
    /** The library's name ({@code SHMEM_VENDOR_STRING}). */
    public static final String VENDOR_STRING = "jhpvm SHMEM over Fast Messages";

    static final int WAIT_ALL = 0;
    static final int WAIT_ANY = 1;
    static final int WAIT_SOME = 2;

    private static final int LOCK_HOME = 0;


    // The point-to-point wait in progress (no capturing lambda per call).
    private SymmetricArray wSym;
    private int wIndex;
    private int wCount;
    private int[] wStatus;
    private int[] wIndices;
    private Cmp wCmp;
    private long wValue;
    private int wMode;
    private int wResult;
    private final BooleanSupplier waitSatisfied = () -> {
        wResult = testNow(wSym, wIndex, wCount, wStatus, wIndices, wCmp, wValue, wMode);
        return wMode == WAIT_ALL ? wResult == 1 : wResult != -2;
    };

    Shmem(final FastMessages fm, final World world, final long heapBytes) {
        super(fm, world, heapBytes);
    }

    // ---------------------------------------------------------------- setup and query

    /**
     * {@code shmem_my_pe}: this PE's number in the world team, fixed for the whole job.
     *
     * @return this PE's number ({@code shmem_my_pe}), {@code 0 .. nPes()-1}
     */
    public int myPe() {
        return engine.me;
    }

    /**
     * {@code shmem_n_pes}: how many PEs the job runs, the same on every PE.
     *
     * @return number of PEs in the job ({@code shmem_n_pes})
     */
    public int nPes() {
        return engine.npes;
    }

    /**
     * {@code shmem_pe_accessible}: whether {@code pe} can be the target of SHMEM operations. Every PE of the job
     * shares this JVM and is reached by messages, so this is a range check; it never throws.
     *
     * @param pe a PE number
     * @return whether it is a PE of this job ({@code shmem_pe_accessible})
     */
    public boolean peAccessible(final int pe) {
        return pe >= 0 && pe < engine.npes;
    }

    /**
     * {@code shmem_info_get_version}: the OpenSHMEM specification version this library implements, as
     * {@code "MAJOR.MINOR"} from {@link #MAJOR_VERSION} and {@link #MINOR_VERSION}.
     *
     * @return {@code "1.5"}, the OpenSHMEM version implemented ({@code shmem_info_get_version})
     */
    public String version() {
        return MAJOR_VERSION + "." + MINOR_VERSION;
    }

    /**
     * {@code shmem_info_get_name}: the vendor string, {@link #VENDOR_STRING}.
     *
     * @return the library's name ({@code shmem_info_get_name})
     */
    public String vendorName() {
        return VENDOR_STRING;
    }

    /**
     * {@code SHMEM_TEAM_WORLD}: the team of every PE of the job, its ranks equal to the PE numbers. It cannot be
     * destroyed.
     *
     * @return the world team ({@code SHMEM_TEAM_WORLD})
     */
    public ShmemTeam teamWorld() {
        return world;
    }

    /**
     * {@code shmem_global_exit}: ends the whole job with {@code status}, from any PE, without the others'
     * cooperation: it throws (unwinding this PE's body) and the launcher stops every PE and returns the status.
     *
     * @param status the job's exit status
     */
    public void globalExit(final int status) {
        throw new GlobalExit(engine.me, status);
    }

    ShmemTeam newTeam(final int id, final int[] members) {
        return new ShmemTeam(this, id, members);
    }

    // ---------------------------------------------------------------- ordering and synchronisation

    /**
     * {@code shmem_fence}: puts, atomics and puts-with-signal to each PE are delivered in order. They already are:
     * a NIC request is carried out in the order posted, an RDMA transfer that a later request depends on is complete
     * before that request goes, and without NIC offload FM delivers each pair in order and runs one sender's handlers
     * in order. So this costs nothing.
     */
    public void fence() {
        engine.enter();
        engine.exit();
    }

    /**
     * {@code shmem_quiet}: every put, non-blocking put or get, accumulate, non-fetching atomic and put-with-signal
     * this PE issued is complete and visible at its target: waits for the completion of every NIC request and RDMA
     * transfer still outstanding (with NIC offload most have completed when they were posted; without it a
     * completion is an answer from the target, which FM's per-pair order makes mean "everything before it was
     * handled").
     */
    public void quiet() {
        engine.requests.quiet();
    }

    /** {@code shmem_barrier_all}: {@link #quiet()} then a dissemination barrier over all PEs. */
    public void barrierAll() {
        engine.enter();
        try {
            engine.requests.quiet();
            collectives.sync(world);
        } finally {
            engine.exit();
        }
    }

    /** {@code shmem_sync_all}: a barrier over all PEs without the quiet. */
    public void syncAll() {
        collectives.sync(world);
    }

    /**
     * {@code shmem_team_sync}: a barrier over the team's PEs (no quiet: OpenSHMEM's team barrier is quiet + sync).
     *
     * @param team the team
     */
    public void sync(final ShmemTeam team) {
        collectives.sync(team);
    }

    // ---------------------------------------------------------------- reductions (team, deterministic)

    /**
     * Team reduction ({@code shmem_TYPE_OP_reduce}): {@code dest[i] = src[i] OP ... } over the team's PEs for
     * {@code i < count}, combined on a fixed tree so every PE, and every run, gets the same bits. {@code dest} and
     * {@code src} may be the same array, or any arrays (a symmetric object's {@code local()} included).
     * <p>
     * Every {@link ReduceOp} applies to long; SUM and PROD wrap on overflow, as Java's long arithmetic does. The
     * local checks below run before anything is sent.
     *
     * @param team  the team
     * @param op    the operator
     * @param dest  result
     * @param src   this PE's contribution
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative or {@code team} is another PE's; a member that
     *                                   receives a different count from another throws it too, naming both counts
     *                                   (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final long[] dest, final long[] src, final int count) {
        collectives.reduce(team, op, Kind.LONG, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}, on int arrays ({@code shmem_int_OP_reduce}):
     * every {@link ReduceOp} applies, and SUM and PROD wrap on overflow as Java's int arithmetic does.
     *
     * @param team  team (every member calls)
     * @param op    op, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative or {@code team} is another PE's; a member that
     *                                   receives a different count from another throws it too, naming both counts
     *                                   (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final int[] dest, final int[] src, final int count) {
        collectives.reduce(team, op, Kind.INT, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}, on byte arrays, with OpenSHMEM's
     * {@code int8} semantics: bytes are signed, so MAX and MIN order them {@code -128 .. 127}, and SUM and PROD wrap
     * to a byte. Every {@link ReduceOp} applies.
     *
     * @param team  team (every member calls)
     * @param op    op, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative or {@code team} is another PE's; a member that
     *                                   receives a different count from another throws it too, naming both counts
     *                                   (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final byte[] dest, final byte[] src, final int count) {
        collectives.reduce(team, op, Kind.BYTE, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}; no AND/OR/XOR. On double arrays
     * ({@code shmem_double_OP_reduce}): MAX, MIN, SUM and PROD. The fixed combining tree gives the same bits on
     * every member and in every run, though a sum may differ in its last bits from a left-to-right sequential one.
     *
     * @param team  team (every member calls)
     * @param op    op: MAX, MIN, SUM or PROD, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative, {@code op} is AND, OR or XOR, or {@code team} is
     *                                   another PE's; a member that receives a different count from another throws
     *                                   it too, naming both counts (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final double[] dest, final double[] src,
        final int count) {
        collectives.reduce(team, op, Kind.DOUBLE, dest, src, count);
    }

    /**
     * As {@link #reduce(ShmemTeam, ReduceOp, long[], long[], int)}; no AND/OR/XOR. On float arrays
     * ({@code shmem_float_OP_reduce}): MAX, MIN, SUM and PROD, each step rounded to float. The fixed combining tree
     * gives the same bits on every member and in every run, though a sum may differ in its last bits from a
     * left-to-right sequential one.
     *
     * @param team  team (every member calls)
     * @param op    op: MAX, MIN, SUM or PROD, the same on every member
     * @param dest  result: its first {@code count} elements, written with the same values on every member
     * @param src   contribution: this PE's first {@code count} elements (may be {@code dest} itself)
     * @param count elements, the same on every member
     * @throws NullPointerException      if {@code team}, {@code op}, {@code dest} or {@code src} is null (a PE outside
     *                                   a split team holds null for it)
     * @throws IllegalArgumentException  if {@code count} is negative, {@code op} is AND, OR or XOR, or {@code team} is
     *                                   another PE's; a member that receives a different count from another throws
     *                                   it too, naming both counts (which aborts the job)
     * @throws IndexOutOfBoundsException if {@code src} or {@code dest} has fewer than {@code count} elements
     * @throws IllegalStateException     if {@code team} was destroyed
     */
    public void reduce(final ShmemTeam team, final ReduceOp op, final float[] dest, final float[] src,
        final int count) {
        collectives.reduce(team, op, Kind.FLOAT, dest, src, count);
    }

    // ---------------------------------------------------------------- locks

    /**
     * {@code shmem_set_lock}: acquires the distributed lock in element {@code index} of the symmetric long
     * {@code lock} (initially 0 on every PE). The lock's home is PE 0: it keeps the holder (PE + 1) in its copy of
     * the element and queues waiters first come, first served, answering each when the lock is handed to it, so
     * waiters do not poll and none starves. Not reentrant.
     *
     * @param lock  symmetric longs
     * @param index the lock's element
     * @throws IllegalStateException if this PE already holds the lock (it would wait for itself forever)
     */
    public void setLock(final SymmetricLongs lock, final int index) {
        lock.checkElement(LOCK_HOME, index);
        if (lock.g(LOCK_HOME, index) == engine.me + 1) {
            throw new IllegalStateException("PE " + engine.me + " already holds the lock " + lock + "[" + index
                + "] (locks are not reentrant)");
        }
        engine.locks.lock(lock, LOCK_HOME, index, MessageDescriptor.LOCK_ACQUIRE);
    }

    /**
     * {@code shmem_test_lock}: takes the lock if it is free, without waiting.
     *
     * @param lock  symmetric longs
     * @param index the lock's element
     * @return true if this call acquired the lock (OpenSHMEM's 0), false if it is held (OpenSHMEM's 1)
     */
    public boolean testLock(final SymmetricLongs lock, final int index) {
        lock.checkElement(LOCK_HOME, index);
        return engine.locks.lock(lock, LOCK_HOME, index, MessageDescriptor.LOCK_TRY) == 1;
    }

    /**
     * {@code shmem_clear_lock}: completes this PE's outstanding operations ({@link #quiet()}, as OpenSHMEM 1.5
     * says) and hands the lock to the next waiter.
     *
     * @param lock  symmetric longs
     * @param index the lock's element
     * @throws IllegalStateException if this PE does not hold the lock (the lock is unchanged)
     */
    public void clearLock(final SymmetricLongs lock, final int index) {
        lock.checkElement(LOCK_HOME, index);
        engine.enter();
        try {
            engine.requests.quiet();
            engine.locks.lock(lock, LOCK_HOME, index, MessageDescriptor.LOCK_RELEASE);
        } finally {
            engine.exit();
        }
    }

    // ---------------------------------------------------------------- point-to-point synchronisation

    int waitFor(final SymmetricArray s, final int index, final int count, final int[] status, final int[] indices,
        final Cmp cmp, final long value, final int mode) {
        wSym = s;
        wIndex = index;
        wCount = count;
        wStatus = status;
        wIndices = indices;
        wCmp = cmp;
        wValue = value;
        wMode = mode;
        try {
            engine.await(waitSatisfied);
            return wMode == WAIT_ALL ? 1 : wResult == -2 ? 0 : wResult;
        } finally {
            wSym = null;
            wStatus = null;
            wIndices = null;
        }
    }

    /**
     * One test: WAIT_ALL returns 1 if every included element compares true (or none is included), else 0;
     * WAIT_ANY returns the position of the first that does, -1 if none is included, -2 if none does yet;
     * WAIT_SOME writes the positions that do and returns how many, 0 if none is included, -2 if none does yet.
     */
    int testNow(final SymmetricArray s, final int index, final int count, final int[] status, final int[] indices,
        final Cmp cmp, final long value, final int mode) {
        int included = 0;
        int found = 0;
        for (int k = 0; k < count; k++) {
            if (status != null && status[k] != 0) {
                continue;
            }
            included++;
            final boolean ok = s.testOne(index + k, cmp, value);
            if (mode == WAIT_ALL) {
                if (!ok) {
                    return 0;
                }
            } else if (ok) {
                if (mode == WAIT_ANY) {
                    return k;
                }
                indices[found++] = k;
            }
        }
        if (mode == WAIT_ALL) {
            return 1;
        }
        if (included == 0) {
            return mode == WAIT_ANY ? -1 : 0;
        }
        return found > 0 ? found : -2;
    }

    @Override
    public String toString() {
        return "Shmem{pe=" + engine.me + ", pes=" + engine.npes + "}";
    }
}
