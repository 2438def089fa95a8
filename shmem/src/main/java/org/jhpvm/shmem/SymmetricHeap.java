package org.jhpvm.shmem;

import java.util.Objects;
import java.util.function.IntFunction;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHostMemory;

/**
 * One PE's symmetric heap: collective allocation ({@code shmem_malloc}, {@code shmem_calloc}, {@code shmem_free},
 * {@code shmem_realloc}) of the typed symmetric objects, over the world team or a team, and the heap's accounting.
 * The state {@link Shmem} is built on (the engine, the collectives, the world team) lives here too, so that this part
 * of the API can stand in its own file; {@link Shmem} is the only subclass, and the methods here are documented on
 * its page.
 * <p>
 * Thread-safety: as {@link Shmem}: the PE's own thread only.
 */
abstract sealed class SymmetricHeap permits TeamReductions {
    /** The type code of a segment in the allocation's agreement (after the element kinds'). */
    private static final int SEGMENT_TYPE = Kind.values().length;
    final Engine engine;
    final Collectives collectives;
    /** The world team ({@code SHMEM_TEAM_WORLD}). */
    final ShmemTeam world;
    private final long heapBytes;
    private long heapUsed;
    private int nextId;

    SymmetricHeap(final FastMessages fm, final World world, final long heapBytes) {
        this.engine = new Engine(fm, world);
        this.collectives = new Collectives(self());
        this.heapBytes = heapBytes;
        final int[] all = new int[fm.pes()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        this.world = new ShmemTeam(self(), 0, all, TeamConfig.DEFAULT);
    }

    /** This object as the {@link Shmem} it always is: the class is sealed to it. */
    private Shmem self() {
        return (Shmem) this;
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
        return alloc(world, Kind.BYTE, count, id -> new SymmetricBytes(self(), id, count));
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
        return alloc(team, Kind.BYTE, count, id -> new SymmetricBytes(self(), id, count));
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
        return alloc(world, Kind.INT, count, id -> new SymmetricInts(self(), id, count));
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
        return alloc(team, Kind.INT, count, id -> new SymmetricInts(self(), id, count));
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
        return alloc(world, Kind.LONG, count, id -> new SymmetricLongs(self(), id, count));
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
        return alloc(team, Kind.LONG, count, id -> new SymmetricLongs(self(), id, count));
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
        return alloc(world, Kind.FLOAT, count, id -> new SymmetricFloats(self(), id, count));
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
        return alloc(team, Kind.FLOAT, count, id -> new SymmetricFloats(self(), id, count));
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
        return alloc(world, Kind.DOUBLE, count, id -> new SymmetricDoubles(self(), id, count));
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
        return alloc(team, Kind.DOUBLE, count, id -> new SymmetricDoubles(self(), id, count));
    }

    /**
     * {@code shmem_malloc_with_hints} for byte: as {@link #mallocBytes(int)}, with usage hints
     * ({@link Shmem#MALLOC_ATOMICS_REMOTE}, {@link Shmem#MALLOC_SIGNAL_REMOTE}, or 0). Kept as given
     * ({@link SymmetricArray#hints()}), bits this implementation does not know included: OpenSHMEM says a hint an
     * implementation cannot use leaves the call as {@code shmem_malloc}. They change no placement: every symmetric object is already memory the NIC
     * is registered for and runs atomics and signals on, the fastest place there is here.
     *
     * @param count elements, at least 0
     * @param hints a bitwise or of the hint constants, or 0
     * @return the object
     * @throws IllegalArgumentException as {@link #mallocBytes(int)}
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricBytes mallocBytesWithHints(final int count, final long hints) {
        final SymmetricBytes s = mallocBytes(count);
        s.hints = hints;
        return s;
    }

    /**
     * {@code shmem_malloc_with_hints} for int: as {@link #mallocInts(int)}, with usage hints
     * ({@link Shmem#MALLOC_ATOMICS_REMOTE}, {@link Shmem#MALLOC_SIGNAL_REMOTE}, or 0). Kept as given
     * ({@link SymmetricArray#hints()}), bits this implementation does not know included: OpenSHMEM says a hint an
     * implementation cannot use leaves the call as {@code shmem_malloc}. They change no placement: every symmetric object is already memory the NIC
     * is registered for and runs atomics and signals on, the fastest place there is here.
     *
     * @param count elements, at least 0
     * @param hints a bitwise or of the hint constants, or 0
     * @return the object
     * @throws IllegalArgumentException as {@link #mallocInts(int)}
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricInts mallocIntsWithHints(final int count, final long hints) {
        final SymmetricInts s = mallocInts(count);
        s.hints = hints;
        return s;
    }

    /**
     * {@code shmem_malloc_with_hints} for long: as {@link #mallocLongs(int)}, with usage hints
     * ({@link Shmem#MALLOC_ATOMICS_REMOTE}, {@link Shmem#MALLOC_SIGNAL_REMOTE}, or 0). Kept as given
     * ({@link SymmetricArray#hints()}), bits this implementation does not know included: OpenSHMEM says a hint an
     * implementation cannot use leaves the call as {@code shmem_malloc}. They change no placement: every symmetric object is already memory the NIC
     * is registered for and runs atomics and signals on, the fastest place there is here.
     *
     * @param count elements, at least 0
     * @param hints a bitwise or of the hint constants, or 0
     * @return the object
     * @throws IllegalArgumentException as {@link #mallocLongs(int)}
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricLongs mallocLongsWithHints(final int count, final long hints) {
        final SymmetricLongs s = mallocLongs(count);
        s.hints = hints;
        return s;
    }

    /**
     * {@code shmem_malloc_with_hints} for float: as {@link #mallocFloats(int)}, with usage hints
     * ({@link Shmem#MALLOC_ATOMICS_REMOTE}, {@link Shmem#MALLOC_SIGNAL_REMOTE}, or 0). Kept as given
     * ({@link SymmetricArray#hints()}), bits this implementation does not know included: OpenSHMEM says a hint an
     * implementation cannot use leaves the call as {@code shmem_malloc}. They change no placement: every symmetric object is already memory the NIC
     * is registered for and runs atomics and signals on, the fastest place there is here.
     *
     * @param count elements, at least 0
     * @param hints a bitwise or of the hint constants, or 0
     * @return the object
     * @throws IllegalArgumentException as {@link #mallocFloats(int)}
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricFloats mallocFloatsWithHints(final int count, final long hints) {
        final SymmetricFloats s = mallocFloats(count);
        s.hints = hints;
        return s;
    }

    /**
     * {@code shmem_malloc_with_hints} for double: as {@link #mallocDoubles(int)}, with usage hints
     * ({@link Shmem#MALLOC_ATOMICS_REMOTE}, {@link Shmem#MALLOC_SIGNAL_REMOTE}, or 0). Kept as given
     * ({@link SymmetricArray#hints()}), bits this implementation does not know included: OpenSHMEM says a hint an
     * implementation cannot use leaves the call as {@code shmem_malloc}. They change no placement: every symmetric object is already memory the NIC
     * is registered for and runs atomics and signals on, the fastest place there is here.
     *
     * @param count elements, at least 0
     * @param hints a bitwise or of the hint constants, or 0
     * @return the object
     * @throws IllegalArgumentException as {@link #mallocDoubles(int)}
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricDoubles mallocDoublesWithHints(final int count, final long hints) {
        final SymmetricDoubles s = mallocDoubles(count);
        s.hints = hints;
        return s;
    }

    /**
     * {@code shmem_align}: {@link #mallocBytes(int)} with an alignment. The alignment is checked as OpenSHMEM says (a
     * power of two, a multiple of 8, the size of a pointer), but a Java array has no address a caller chooses: its
     * element 0 is where the JVM put it, and the object is the same as {@code mallocBytes(count)}.
     *
     * @param alignment a power of two, at least 8
     * @param count     bytes, at least 0
     * @return the object
     * @throws IllegalArgumentException if the alignment is not a power of two multiple of 8 (before anything is
     *                                  sent), or as {@link #mallocBytes(int)}
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted
     */
    public SymmetricBytes alignBytes(final long alignment, final int count) {
        if (alignment < Long.BYTES || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment " + alignment + " is not a power of two multiple of "
                + Long.BYTES);
        }
        return mallocBytes(count);
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
        engine.enterCollective();
        try {
            agreeFree(s.team, s.id);
            s.freed = true;
            engine.objects.unregister(s);
            engine.fm.deregister(s.region);
            s.region = null;
            heapUsed -= (long) s.length * s.kind.bytes;
        } finally {
            engine.exitCollective();
        }
    }

    /**
     * A symmetric object in host memory ({@link SymmetricSegment}): each PE's part is {@code bytes} of memory that the
     * PEs of its host map, so that puts, gets, atomics and waits between them are loads and stores with no message (a
     * jhpvm extension: OpenSHMEM's symmetric heap is such memory in C, a Java array cannot be). Collective over the
     * world team, with the checks of {@link #mallocBytes(int)}; zeroed; counts against {@link #heapBytes()}.
     *
     * @param bytes each part's length, at least 0
     * @return the object
     * @throws IllegalArgumentException on every PE if the PEs asked for different lengths or allocated in different
     *                                  orders; on this PE alone, before anything is sent, if {@code bytes} is negative
     * @throws IllegalStateException    on every PE if the symmetric heap of some PE is exhausted, or the host memory
     *                                  of some PE could not be made (the first PE's reason is on its standard error)
     */
    public SymmetricSegment mallocSegment(final long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes=" + bytes + " is negative");
        }
        engine.enterCollective();
        try {
            final int id = agree(world, bytes, SEGMENT_TYPE, "bytes of host memory", bytes);
            final FmHostMemory host = engine.directHostMemory ? engine.fm.hostMemory().orElse(null) : null;
            SymmetricSegment s = null;
            RuntimeException failure = null;
            try {
                s = SymmetricSegment.create(self(), id, bytes, host);
            } catch (RuntimeException e) {
                failure = e;
            }
            // Instead of the allocation's barrier: every part exists before any PE reaches one, or all fail.
            final long[] failed = {failure == null ? 0 : 1};
            collectives.allreduceMax(world, failed);
            if (failed[0] != 0) {
                if (s != null) {
                    s.release();
                }
                if (failure != null) {
                    throw failure;
                }
                throw new IllegalStateException("host memory for segment " + id + " (" + bytes + " bytes) could not "
                    + "be made on another PE");
            }
            nextId = id + 1;
            heapUsed += bytes;
            return s;
        } finally {
            engine.exitCollective();
        }
    }

    /**
     * {@code shmem_free} of a segment: collective over the world team; completes this PE's operations and synchronises
     * so that none is in flight anywhere, then gives back the parts this PE mapped and its own.
     *
     * @param s the object
     * @throws IllegalStateException    if it was already freed (nothing is sent)
     * @throws IllegalArgumentException on every PE if the PEs free different objects
     */
    public void free(final SymmetricSegment s) {
        Objects.requireNonNull(s, "symmetric segment");
        if (s.freed) {
            throw new IllegalStateException(s + " was already freed");
        }
        if (s.shmem != this) {
            throw new IllegalArgumentException(s + " is not a symmetric object of PE " + engine.me);
        }
        engine.enterCollective();
        try {
            agreeFree(world, s.id);
            s.release();
            heapUsed -= s.byteSize();
        } finally {
            engine.exitCollective();
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
        engine.enterCollective();
        try {
            System.arraycopy(s.array, 0, n.array, 0, Math.min(s.length, count));
        } finally {
            engine.exitCollective();
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
        engine.enterCollective();
        try {
            final long bytes = (long) count * kind.bytes;
            final int id = agree(team, count, kind.ordinal(), kind.javaName + " elements", bytes);
            final T s = make.apply(id);
            s.team = team;
            if (team != world) {
                final boolean[] holders = new boolean[engine.npes];
                for (final int pe : team.members) {
                    holders[pe] = true;
                }
                s.holders = holders;
            }
            engine.objects.register(s);
            s.region = engine.fm.register(s.array, id, s.key); // before the sync: peers may write at once
            nextId = id + 1;
            heapUsed += bytes;
            collectives.syncEntered(team);
            return s;
        } finally {
            engine.exitCollective();
        }
    }

    /**
     * The agreement of a collective allocation: one max-reduction checks count, type and room on every member and
     * gives the object's id (the largest next id of the members, so ids stay unique on each PE whatever teams it
     * allocated on).
     */
    private int agree(final ShmemTeam team, final long count, final int type, final String what, final long bytes) {
        final boolean fits = heapUsed + bytes <= heapBytes;
        final long[] v = {nextId, count, -count, type, -type, fits ? 0 : 1};
        collectives.allreduceMax(team, v);
        if (v[1] != -v[2] || v[3] != -v[4]) {
            throw new IllegalArgumentException("collective allocation mismatch: PE " + engine.me + " asked for "
                + count + " " + what + "; the PEs asked for " + (-v[2]) + ".." + v[1]
                + " elements of " + (v[3] == -v[4] ? "one type" : "different types")
                + " (or allocated in different orders)");
        }
        if (v[5] != 0) {
            throw new IllegalStateException("symmetric heap exhausted: " + bytes + " bytes wanted, "
                + (heapBytes - heapUsed) + " of heapBytes=" + heapBytes + " free on PE " + engine.me
                + (fits ? " (another PE ran out)" : "") + "; raise the option shmem.heapBytes");
        }
        return (int) v[0];
    }

    /** The agreement of a collective free: completes this PE's operations, then checks every member frees {@code id}. */
    private void agreeFree(final ShmemTeam team, final int id) {
        engine.requests.quiet();
        final long[] v = {id, -id};
        collectives.allreduceMax(team, v);
        if (v[0] != -v[1]) {
            throw new IllegalArgumentException("collective free mismatch: the PEs freed different symmetric "
                + "objects (ids " + (-v[1]) + ".." + v[0] + ")");
        }
    }
}
