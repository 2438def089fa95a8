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
 * Thread-safety: as the job's thread level says ({@link #queryThread()}): by default FUNNELED, only the PE's own
 * thread calls and another thread gets an {@link IllegalStateException}; at MULTIPLE any thread, at any time.
 */
public final class Shmem extends TeamReductions {
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
    private static final int SHARED_TEAM_ID = 1;
    /** {@code SHMEM_MALLOC_ATOMICS_REMOTE}: the object will be the target of remote atomics. */
    public static final long MALLOC_ATOMICS_REMOTE = 1L;
    /** {@code SHMEM_MALLOC_SIGNAL_REMOTE}: the object will hold signals of put-with-signal. */
    public static final long MALLOC_SIGNAL_REMOTE = 1L << 1;


    // The point-to-point wait in progress (no capturing lambda per call).
    private SymmetricArray wSym;
    private int wIndex;
    private int wCount;
    private int[] wStatus;
    private int[] wIndices;
    private Cmp wCmp;
    private long wValue;
    private Object wValues;
    private int wMode;
    private int wResult;
    private final BooleanSupplier waitSatisfied = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            wResult = testNow(wSym, wIndex, wCount, wStatus, wIndices, wCmp, wValue, wValues, wMode);
            return wMode == WAIT_ALL ? wResult == 1 : wResult != -2;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            describePointToPoint(out);
        }
    };

    private final ShmemCtx defaultCtx;
    private final boolean[] domainUsed = new boolean[ShmemCtx.MAX_CONTEXTS + 1];
    private final ShmemTeam shared;
    private final ThreadLevel threadLevel;
    private int pcontrolLevel = 1;

    Shmem(final FastMessages fm, final World world, final long heapBytes, final ThreadLevel requested,
        final int[] sharedPes) {
        super(fm, world, heapBytes);
        this.threadLevel = requested;
        engine.anyThread = requested.compareTo(ThreadLevel.SERIALIZED) >= 0;
        engine.multiple = requested == ThreadLevel.MULTIPLE;
        this.defaultCtx = new ShmemCtx(this, 0, this.world, 0);
        domainUsed[0] = true;
        // Every PE's shared team has id 1: the shared teams of different processes are disjoint, so they never meet.
        this.shared = new ShmemTeam(this, SHARED_TEAM_ID, sharedPes, TeamConfig.DEFAULT);
        engine.teams.idAgreed(SHARED_TEAM_ID);
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

    /**
     * {@code SHMEM_TEAM_SHARED}: the PEs whose symmetric objects this PE can load and store directly
     * ({@link SymmetricLongs#ptr}): the PEs of this JVM. In a job of one JVM that is every PE (the same members as the
     * world team, another team); under {@code bin/jhpvm launch}, the PEs of this process. Its ranks follow the world
     * order. It cannot be destroyed.
     *
     * @return the shared team ({@code SHMEM_TEAM_SHARED})
     */
    public ShmemTeam teamShared() {
        return shared;
    }

    ShmemTeam newTeam(final int id, final int[] members, final TeamConfig config) {
        return new ShmemTeam(this, id, members, config);
    }

    // ---------------------------------------------------------------- threads, profiling, contexts

    /**
     * {@code shmem_query_thread}: the thread level this PE provides: the one the job asked for
     * ({@link ShmemJob.Builder#threadLevel}, default {@link ThreadLevel#FUNNELED}); every level is provided. Under
     * MULTIPLE any thread of the program may call this PE's SHMEM at any time (the calls take turns at the PE's
     * endpoint, and a thread waiting in {@code waitUntil}, a barrier, a collective or {@code setLock} lets the others
     * call meanwhile); under SERIALIZED any thread, one call at a time (the program orders them, e.g. by a lock);
     * under SINGLE and FUNNELED only the PE's own thread.
     *
     * @return the provided level
     */
    public ThreadLevel queryThread() {
        return threadLevel;
    }

    /**
     * {@code shmem_pcontrol}: the profiling level (0 off, 1 the default, 2 and up profiler-defined). jhpvm has no
     * profiling interface of its own to switch (FM's counters are always on), so this only records the level for a
     * tool that reads {@link #pcontrolLevel()}; it never changes results.
     *
     * @param level the level, 0 or more
     * @throws IllegalArgumentException if {@code level} is negative
     */
    public void pcontrol(final int level) {
        if (level < 0) {
            throw new IllegalArgumentException("pcontrol level " + level + " is negative");
        }
        pcontrolLevel = level;
    }

    /**
     * The level the last {@link #pcontrol} set.
     *
     * @return the profiling level (1 until {@code pcontrol} is called)
     */
    public int pcontrolLevel() {
        return pcontrolLevel;
    }

    /**
     * {@code SHMEM_CTX_DEFAULT}: the context that operations outside any {@link ShmemCtx#use()} scope, and
     * {@link #quiet()}, use. It cannot be destroyed.
     *
     * @return the default context
     */
    public ShmemCtx ctxDefault() {
        return defaultCtx;
    }

    /**
     * Whether the calling thread's operations go on the default context now: no {@link ShmemCtx#use()} scope of
     * another context is open on this thread. A read, for libraries built on SHMEM to check on every call (see
     * {@link #onDefaultContext}).
     *
     * @return true if the default context is in use
     */
    public boolean defaultContextInUse() {
        return engine.callerDomain() == 0;
    }

    /**
     * Runs {@code body} with the default context in use on the calling thread, whatever context the thread has in use,
     * then the thread's context as before: what SHMEM's own collectives do. For libraries built on SHMEM whose
     * operations must stay on the default context, in world PE numbers and completed by {@link #quiet()} (Global
     * Arrays), when their caller has a team's context in use. Not an OpenSHMEM routine.
     *
     * @param body the operations, on this PE's thread (or, at thread level SERIALIZED and MULTIPLE, the calling one)
     */
    public void onDefaultContext(final Runnable body) {
        engine.enterCollective();
        try {
            body.run();
        } finally {
            engine.exitCollective();
        }
    }

    /**
     * {@code shmem_ctx_create}: a new context on the world team, its own completion domain (see {@link ShmemCtx}).
     * Not collective.
     *
     * @param options a bitwise or of {@link ShmemCtx#SERIALIZED}, {@link ShmemCtx#PRIVATE},
     *                {@link ShmemCtx#NOSTORE}, or 0
     * @return the context, or null ({@code SHMEM_CTX_INVALID}) if this PE already has
     *         {@link ShmemCtx#MAX_CONTEXTS} live contexts (a failed creation is not an error in OpenSHMEM)
     * @throws IllegalArgumentException if {@code options} has other bits
     */
    public ShmemCtx ctxCreate(final long options) {
        return createCtx(world, options);
    }

    ShmemCtx createCtx(final ShmemTeam team, final long options) {
        ShmemCtx.checkOptions(options);
        collectives.checkTeam(team);
        engine.enter();
        try {
            if (team.config.numContexts() > 0 && team.liveContexts >= team.config.numContexts()) {
                return null;
            }
            for (int d = 1; d < domainUsed.length; d++) {
                if (!domainUsed[d]) {
                    engine.nic.openDomain(d);
                    domainUsed[d] = true;
                    team.liveContexts++;
                    return new ShmemCtx(this, d, team, options);
                }
            }
            return null;
        } finally {
            engine.exit();
        }
    }

    void releaseCtx(final ShmemCtx ctx, final ShmemTeam team) {
        engine.enter();
        try {
            engine.nic.closeDomain(ctx.domain);
            domainUsed[ctx.domain] = false;
            team.liveContexts--;
        } finally {
            engine.exit();
        }
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

    /**
     * {@code shmem_finalize}, at the end of the job body: completes the operations of every context, then a barrier
     * over all PEs.
     */
    void finish() {
        engine.enter();
        try {
            engine.nic.awaitAll();
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
        engine.enterCollective(); // locks use the default context and world PE numbers, whatever context is in use
        try {
            lock.checkElement(LOCK_HOME, index);
            if (lock.g(LOCK_HOME, index) == engine.me + 1) {
                throw new IllegalStateException("PE " + engine.me + " already holds the lock " + lock + "[" + index
                    + "] (locks are not reentrant)");
            }
            engine.locks.lock(lock, LOCK_HOME, index, MessageDescriptor.LOCK_ACQUIRE);
        } finally {
            engine.exitCollective();
        }
    }

    /**
     * {@code shmem_test_lock}: takes the lock if it is free, without waiting.
     *
     * @param lock  symmetric longs
     * @param index the lock's element
     * @return true if this call acquired the lock (OpenSHMEM's 0), false if it is held (OpenSHMEM's 1)
     */
    public boolean testLock(final SymmetricLongs lock, final int index) {
        engine.enterCollective();
        try {
            lock.checkElement(LOCK_HOME, index);
            final boolean acquired = engine.locks.lock(lock, LOCK_HOME, index, MessageDescriptor.LOCK_TRY) == 1;
            if (!acquired && engine.me == LOCK_HOME) {
                // A failed try at the home never left this PE: poll once, so that a home spinning on testLock
                // serves the lock messages (the holder's release among them) itself instead of starving its agent.
                engine.poll();
            }
            return acquired;
        } finally {
            engine.exitCollective();
        }
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
        engine.enterCollective();
        try {
            lock.checkElement(LOCK_HOME, index);
            engine.requests.quiet();
            engine.locks.lock(lock, LOCK_HOME, index, MessageDescriptor.LOCK_RELEASE);
        } finally {
            engine.exitCollective();
        }
    }

    // ---------------------------------------------------------------- point-to-point synchronisation

    /** A point-to-point wait in words: "SymmetricLongs#0[2] (now 0) EQ 7", "any of ... ", for the job's reports. */
    private void describePointToPoint(final StringBuilder out) {
        final SymmetricArray s = wSym;
        final Cmp cmp = wCmp;
        if (s == null || cmp == null) {
            out.append("a point-to-point condition");
            return;
        }
        final int count = wCount;
        if (count > 1) {
            out.append(wMode == WAIT_ALL ? "all" : wMode == WAIT_ANY ? "any" : "some").append(" of ").append(count)
                .append(" elements from ");
        }
        WaitCondition.element(out, s, wIndex);
        out.append(' ').append(cmp).append(' ').append(wValues == null ? String.valueOf(wValue) : "the values given");
    }

    int waitFor(final SymmetricArray s, final int index, final int count, final int[] status, final int[] indices,
        final Cmp cmp, final long value, final Object values, final int mode) {
        try {
            do {
                // Set again after each turn another thread of the PE took (thread level MULTIPLE).
                wSym = s;
                wIndex = index;
                wCount = count;
                wStatus = status;
                wIndices = indices;
                wCmp = cmp;
                wValue = value;
                wValues = values;
                wMode = mode;
            } while (!engine.awaitTurn(waitSatisfied));
            return wMode == WAIT_ALL ? 1 : wResult == -2 ? 0 : wResult;
        } finally {
            wSym = null;
            wStatus = null;
            wIndices = null;
            wValues = null;
        }
    }

    /**
     * One test: WAIT_ALL returns 1 if every included element compares true (or none is included), else 0;
     * WAIT_ANY returns the position of one that does, -1 if none is included, -2 if none does yet;
     * WAIT_SOME writes the positions that do and returns how many, 0 if none is included, -2 if none does yet.
     * Element {@code k} is compared against {@code values[k]} (the vector forms, an array of the object's type) or,
     * when {@code values} is null, against {@code value}.
     * <p>
     * WAIT_ANY is fair, as OpenSHMEM 1.5 requires of {@code test_any} and {@code wait_until_any}: the scan starts
     * after the position the object's last WAIT_ANY returned and wraps around, so repeated calls return, in turn,
     * every position that keeps comparing true (a program that clears each flag it is given visits them all, and one
     * that does not still sees the others).
     */
    int testNow(final SymmetricArray s, final int index, final int count, final int[] status, final int[] indices,
        final Cmp cmp, final long value, final Object values, final int mode) {
        int included = 0;
        int found = 0;
        final int start = mode == WAIT_ANY && count > 0 ? s.nextAny % count : 0;
        for (int j = 0; j < count; j++) {
            int k = start + j;
            if (k >= count) {
                k -= count;
            }
            if (status != null && status[k] != 0) {
                continue;
            }
            included++;
            final boolean ok = s.testOne(index + k, cmp, values == null ? value : s.kind.getBits(values, k));
            if (mode == WAIT_ALL) {
                if (!ok) {
                    return 0;
                }
            } else if (ok) {
                if (mode == WAIT_ANY) {
                    s.nextAny = k + 1;
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
