package org.jhpvm.shmem;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

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
public final class Shmem {
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

    final Engine engine;
    final Collectives collectives;
    private final ShmemTeam world;
    private final long heapBytes;
    private long heapUsed;
    private int nextId;

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
        this.engine = new Engine(fm, world);
        this.collectives = new Collectives(this);
        this.heapBytes = heapBytes;
        final int[] all = new int[fm.pes()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        this.world = new ShmemTeam(this, 0, all);
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
     * The capacity of each PE's symmetric heap: an allocation that would take a PE's live objects beyond it fails on
     * every PE with {@link IllegalStateException}.
     *
     * @return the symmetric heap size of each PE in bytes (option {@code shmem.heapBytes})
     */
    public long heapBytes() {
        return heapBytes;
    }

    /**
     * How much of this PE's symmetric heap its live objects hold: each object's length times its element size,
     * added by the allocation and given back by {@link #free}. Objects of teams this PE is not in do not count.
     *
     * @return bytes of the symmetric heap in use on this PE
     */
    public long heapUsedBytes() {
        return heapUsed;
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

    // ---------------------------------------------------------------- symmetric memory (collective)

    /**
     * {@code shmem_malloc} for bytes: collective over the world team; every PE must ask for the same count, in the
     * same order of allocations. The memory is zeroed (so this is also {@code shmem_calloc}).
     *
     * @param count elements, at least 0
     * @return the symmetric object
     * @throws IllegalArgumentException on every PE if the PEs asked for different counts or types; on this PE alone,
     *                                  before anything is sent, if {@code count} is negative
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricBytes mallocBytes(final int count) {
        return alloc(world, Kind.BYTE, count, id -> new SymmetricBytes(this, id, count));
    }

    /**
     * Team allocation (a jhpvm extension, as ARMCI_Malloc_group under Global Arrays' processor groups): as
     * {@link #mallocBytes(int)}, collective over {@code team} only; the object exists on the team's PEs, and remote
     * operations name those PEs by their world numbers.
     *
     * @param team  the team (every member calls, in the same order of allocations)
     * @param count elements, at least 0
     * @return the symmetric object
     */
    public SymmetricBytes mallocBytes(final ShmemTeam team, final int count) {
        collectives.checkTeam(team);
        return alloc(team, Kind.BYTE, count, id -> new SymmetricBytes(this, id, count));
    }

    /**
     * As {@link #mallocBytes}, for int ({@code shmem_malloc}). Collective over the world team: every PE asks for the
     * same count, in the same order of allocations; the memory is zeroed and takes {@code count * 4} bytes of each
     * PE's symmetric heap.
     *
     * @param count elements, at least 0
     * @return the object
     * @throws IllegalArgumentException on every PE if the PEs asked for different counts or types; on this PE alone,
     *                                  before anything is sent, if {@code count} is negative
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricInts mallocInts(final int count) {
        return alloc(world, Kind.INT, count, id -> new SymmetricInts(this, id, count));
    }

    /**
     * Team allocation (a jhpvm extension, as ARMCI_Malloc_group under Global Arrays' processor groups): as
     * {@link #mallocInts(int)}, collective over {@code team} only; the object exists on the team's PEs, and remote
     * operations name those PEs by their world numbers.
     *
     * @param team  the team (every member calls, in the same order of allocations)
     * @param count elements, at least 0
     * @return the symmetric object
     */
    public SymmetricInts mallocInts(final ShmemTeam team, final int count) {
        collectives.checkTeam(team);
        return alloc(team, Kind.INT, count, id -> new SymmetricInts(this, id, count));
    }

    /**
     * As {@link #mallocBytes}, for long ({@code shmem_malloc}). Collective over the world team: every PE asks for the
     * same count, in the same order of allocations; the memory is zeroed and takes {@code count * 8} bytes of each
     * PE's symmetric heap.
     *
     * @param count elements, at least 0
     * @return the object
     * @throws IllegalArgumentException on every PE if the PEs asked for different counts or types; on this PE alone,
     *                                  before anything is sent, if {@code count} is negative
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricLongs mallocLongs(final int count) {
        return alloc(world, Kind.LONG, count, id -> new SymmetricLongs(this, id, count));
    }

    /**
     * Team allocation (a jhpvm extension, as ARMCI_Malloc_group under Global Arrays' processor groups): as
     * {@link #mallocLongs(int)}, collective over {@code team} only; the object exists on the team's PEs, and remote
     * operations name those PEs by their world numbers.
     *
     * @param team  the team (every member calls, in the same order of allocations)
     * @param count elements, at least 0
     * @return the symmetric object
     */
    public SymmetricLongs mallocLongs(final ShmemTeam team, final int count) {
        collectives.checkTeam(team);
        return alloc(team, Kind.LONG, count, id -> new SymmetricLongs(this, id, count));
    }

    /**
     * As {@link #mallocBytes}, for float ({@code shmem_malloc}). Collective over the world team: every PE asks for the
     * same count, in the same order of allocations; the memory is zeroed and takes {@code count * 4} bytes of each
     * PE's symmetric heap.
     *
     * @param count elements, at least 0
     * @return the object
     * @throws IllegalArgumentException on every PE if the PEs asked for different counts or types; on this PE alone,
     *                                  before anything is sent, if {@code count} is negative
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricFloats mallocFloats(final int count) {
        return alloc(world, Kind.FLOAT, count, id -> new SymmetricFloats(this, id, count));
    }

    /**
     * Team allocation (a jhpvm extension, as ARMCI_Malloc_group under Global Arrays' processor groups): as
     * {@link #mallocFloats(int)}, collective over {@code team} only; the object exists on the team's PEs, and remote
     * operations name those PEs by their world numbers.
     *
     * @param team  the team (every member calls, in the same order of allocations)
     * @param count elements, at least 0
     * @return the symmetric object
     */
    public SymmetricFloats mallocFloats(final ShmemTeam team, final int count) {
        collectives.checkTeam(team);
        return alloc(team, Kind.FLOAT, count, id -> new SymmetricFloats(this, id, count));
    }

    /**
     * As {@link #mallocBytes}, for double ({@code shmem_malloc}). Collective over the world team: every PE asks for the
     * same count, in the same order of allocations; the memory is zeroed and takes {@code count * 8} bytes of each
     * PE's symmetric heap.
     *
     * @param count elements, at least 0
     * @return the object
     * @throws IllegalArgumentException on every PE if the PEs asked for different counts or types; on this PE alone,
     *                                  before anything is sent, if {@code count} is negative
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricDoubles mallocDoubles(final int count) {
        return alloc(world, Kind.DOUBLE, count, id -> new SymmetricDoubles(this, id, count));
    }

    /**
     * Team allocation (a jhpvm extension, as ARMCI_Malloc_group under Global Arrays' processor groups): as
     * {@link #mallocDoubles(int)}, collective over {@code team} only; the object exists on the team's PEs, and remote
     * operations name those PEs by their world numbers.
     *
     * @param team  the team (every member calls, in the same order of allocations)
     * @param count elements, at least 0
     * @return the symmetric object
     */
    public SymmetricDoubles mallocDoubles(final ShmemTeam team, final int count) {
        collectives.checkTeam(team);
        return alloc(team, Kind.DOUBLE, count, id -> new SymmetricDoubles(this, id, count));
    }

    /**
     * {@code shmem_calloc}: the same as {@link #mallocLongs} (allocations are always zeroed). Collective over the
     * world team, with the same checks. Only long, double and int have a {@code calloc} form; the {@code malloc}
     * of any type zeroes too.
     *
     * @param count elements
     * @return the object, every element 0
     * @throws IllegalArgumentException as {@link #mallocLongs(int)}: mismatched counts or types, negative count
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricLongs callocLongs(final int count) {
        return mallocLongs(count);
    }

    /**
     * {@code shmem_calloc}: the same as {@link #mallocDoubles}. Collective over the world team, with the same checks;
     * the memory is zeroed, as every allocation's is.
     *
     * @param count elements
     * @return the object, every element 0.0
     * @throws IllegalArgumentException as {@link #mallocDoubles(int)}: mismatched counts or types, negative count
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricDoubles callocDoubles(final int count) {
        return mallocDoubles(count);
    }

    /**
     * {@code shmem_calloc}: the same as {@link #mallocInts}. Collective over the world team, with the same checks;
     * the memory is zeroed, as every allocation's is.
     *
     * @param count elements
     * @return the object, every element 0
     * @throws IllegalArgumentException as {@link #mallocInts(int)}: mismatched counts or types, negative count
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricInts callocInts(final int count) {
        return mallocInts(count);
    }

    /**
     * {@code shmem_free}: collective; completes this PE's outstanding operations and synchronises, so that no
     * operation on the object is in flight anywhere when it goes.
     *
     * @param s the object
     * @throws IllegalStateException    if it was already freed (nothing is sent)
     * @throws IllegalArgumentException on every PE if the PEs free different objects
     */
    public void free(final SymmetricArray s) {
        checkOwn(s);
        s.team.check(); // the collective runs on the object's team
        engine.enter();
        try {
            engine.requests.quiet();
            final long[] v = {s.id, -s.id};
            collectives.allreduceMax(s.team, v);
            if (v[0] != -v[1]) {
                throw new IllegalArgumentException("collective free mismatch: the PEs freed different symmetric "
                    + "objects (ids " + (-v[1]) + ".." + v[0] + ")");
            }
            s.freed = true;
            engine.unregister(s);
            heapUsed -= (long) s.length * s.kind.bytes;
        } finally {
            engine.exit();
        }
    }

    /**
     * {@code shmem_realloc}: a new object of {@code count} elements holding the old one's first elements; the old
     * one is freed. Collective.
     *
     * @param s     the object
     * @param count new length
     * @param <T>   its type
     * @return the new object
     */
    @SuppressWarnings("unchecked")
    public <T extends SymmetricArray> T realloc(final T s, final int count) {
        checkOwn(s);
        final ShmemTeam t = s.team;
        final SymmetricArray n = switch (s.kind) {
            case BYTE -> mallocBytes(t, count);
            case INT -> mallocInts(t, count);
            case LONG -> mallocLongs(t, count);
            case FLOAT -> mallocFloats(t, count);
            case DOUBLE -> mallocDoubles(t, count);
        };
        engine.enter();
        try {
            System.arraycopy(s.array, 0, n.array, 0, Math.min(s.length, count));
        } finally {
            engine.exit();
        }
        free(s);
        return (T) n;
    }

    private void checkOwn(final SymmetricArray s) {
        Objects.requireNonNull(s, "symmetric object");
        if (s.freed) {
            throw new IllegalStateException(s + " was already freed");
        }
        if (s.shmem != this) {
            throw new IllegalArgumentException(s + " is not a symmetric object of PE " + engine.me);
        }
    }

    /**
     * Collective allocation over {@code team}: one max-reduction checks count, type and room on every member and
     * agrees on the object's id (the largest next id of the members, so ids stay unique on each PE whatever teams
     * it allocated on), then every member registers it and a team barrier makes sure no member can put into it
     * before every other has registered it.
     */
    private <T extends SymmetricArray> T alloc(final ShmemTeam team, final Kind kind, final int count,
        final IntFunction<T> make) {
        if (count < 0) {
            throw new IllegalArgumentException("count=" + count + " is negative");
        }
        engine.enter();
        try {
            final long bytes = (long) count * kind.bytes;
            final boolean fits = heapUsed + bytes <= heapBytes;
            final long[] v = {nextId, count, -count, kind.ordinal(), -kind.ordinal(), fits ? 0 : 1};
            collectives.allreduceMax(team, v);
            if (v[1] != -v[2] || v[3] != -v[4]) {
                throw new IllegalArgumentException("collective allocation mismatch: PE " + engine.me + " asked for "
                    + count + " " + kind.javaName + " elements; the PEs asked for " + (-v[2]) + ".." + v[1]
                    + " elements of " + (v[3] == -v[4] ? "one type" : "different types")
                    + " (or allocated in different orders)");
            }
            if (v[5] != 0) {
                throw new IllegalStateException("symmetric heap exhausted: " + bytes + " bytes wanted, "
                    + (heapBytes - heapUsed) + " of heapBytes=" + heapBytes + " free on PE " + engine.me
                    + (fits ? " (another PE ran out)" : "") + "; raise the option shmem.heapBytes");
            }
            final int id = (int) v[0];
            final T s = make.apply(id);
            s.team = team;
            if (team != world) {
                final boolean[] holders = new boolean[engine.npes];
                for (final int pe : team.members) {
                    holders[pe] = true;
                }
                s.holders = holders;
            }
            engine.register(s);
            nextId = id + 1;
            heapUsed += bytes;
            collectives.syncEntered(team);
            return s;
        } finally {
            engine.exit();
        }
    }

    // ---------------------------------------------------------------- ordering and synchronisation

    /**
     * {@code shmem_fence}: puts, atomics and puts-with-signal to each PE are delivered in order. FM delivers each
     * sender-receiver pair in order and runs one sender's handlers in order, so this costs nothing.
     */
    public void fence() {
        engine.enter();
        engine.exit();
    }

    /**
     * {@code shmem_quiet}: every put, non-blocking put or get, accumulate, non-fetching atomic and put-with-signal
     * this PE issued is complete and visible at its target: one small round trip to each PE written to since the
     * last quiet (FM's per-pair order makes the answer mean "everything before it was handled").
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
