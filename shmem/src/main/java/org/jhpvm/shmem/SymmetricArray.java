package org.jhpvm.shmem;

import java.util.Objects;

import org.jhpvm.fm.FmRegion;

/**
 * A symmetric data object: allocated collectively, it exists on every PE with the same id, type and length (on
 * every PE of its team, for the team allocation extension {@link Shmem#mallocDoubles(ShmemTeam, int)}), and
 * each PE's part is a plain Java array ({@code local()} of the typed subclasses). Remote operations name the PE and
 * element indices; every argument is checked on the calling PE before anything is sent, and again at the target.
 * <p>
 * Thread-safety: use from the owning PE's thread (thread level FUNNELED).
 */
public abstract sealed class SymmetricArray
    permits SymmetricBytes, IntAtomics, LongAtomics, SymmetricFloats, SymmetricDoubles {
    final Shmem shmem;
    final Engine engine;
    final int id;
    final Kind kind;
    final Object array;
    final int length;
    /** The protection key this object is registered under on every PE that holds it ({@link NicRequests#keyOf}). */
    final int key;
    /** This PE's registration of the array with its NIC, or null where this PE does not hold the object. */
    FmRegion region;
    volatile boolean freed;
    /** The team the object was allocated on (the world team for {@code malloc} without a team). */
    ShmemTeam team;
    /** Per world PE: whether it holds this object (null: every PE does). */
    boolean[] holders;
    /** The hints of {@code shmem_malloc_with_hints} (0 for other allocations). */
    long hints;
    /** Where this PE's next {@code test_any}/{@code wait_until_any} scan on the object starts (fairness). */
    int nextAny;

    /** Largest block of a block-strided transfer: one message's payload. */
    static final long MAX_BLOCK_BYTES = 1L << 30;

    SymmetricArray(final Shmem shmem, final int id, final Kind kind, final int length) {
        this.shmem = shmem;
        this.engine = shmem.engine;
        this.id = id;
        this.kind = kind;
        this.length = length;
        this.array = kind.newArray(length);
        this.key = NicRequests.keyOf(id);
    }

    /**
     * The object's length: the count it was allocated with, the same on every PE that holds it. Indices of remote
     * operations run from 0 to {@code length() - 1}.
     *
     * @return number of elements on each PE
     */
    public final int length() {
        return length;
    }

    /**
     * Whether {@link Shmem#free} (or {@link Shmem#realloc}, which frees the old object) has released this object.
     * After that every remote operation, wait or collective on it throws {@link IllegalStateException}; the array
     * {@code local()} returned stays a plain Java array, no longer reached by other PEs. Readable from any thread.
     *
     * @return true once freed (collectively)
     */
    public final boolean isFreed() {
        return freed;
    }

    /**
     * {@code shmem_addr_accessible}: whether this object on PE {@code pe} can be reached by this PE (it can, by
     * messages, for every PE of the job while the object is live). An object allocated on a team exists only on the
     * team's PEs: for any other PE the answer is false.
     *
     * @param pe a PE of the job
     * @return true if {@code pe} is a PE of the job and the object is live (and, for a team allocation, {@code pe} is
     *         a member of its team); never throws
     */
    public final boolean addrAccessible(final int pe) {
        return !freed && pe >= 0 && pe < engine.npes && (holders == null || holders[pe]);
    }

    /**
     * The usage hints the object was allocated with ({@code mallocLongsWithHints} and its siblings).
     *
     * @return a bitwise or of {@link Shmem#MALLOC_ATOMICS_REMOTE} and {@link Shmem#MALLOC_SIGNAL_REMOTE}, or 0
     */
    public final long hints() {
        return hints;
    }

    /**
     * The element type, as error messages name it.
     *
     * @return the element type's Java name: {@code "byte"}, {@code "int"}, {@code "long"}, {@code "float"} or
     *         {@code "double"}
     */
    public final String elementType() {
        return kind.javaName;
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + "#" + id + "[" + length + "] of PE " + engine.me
            + (freed ? " (freed)" : "");
    }

    /** The other PE's array for {@code ptr}, or null. */
    final Object peer(final int pe) {
        checkUsable();
        if (holders != null && pe >= 0 && pe < holders.length && !holders[pe]) {
            return null;
        }
        // shmem_ptr names world PEs whatever context is in use (it is not an operation on a context).
        if (pe < 0 || pe >= engine.npes) {
            throw new IndexOutOfBoundsException("PE " + pe + " outside 0.." + (engine.npes - 1));
        }
        final SymmetricArray s = engine.world.object(pe, id);
        return s == null ? null : s.array;
    }

    // ---------------------------------------------------------------- checks (before anything is sent)

    /**
     * Refuses an object that was freed. (Every object is registered in its PE's table at its allocation and taken out
     * only by {@code free}, after this flag is set: a look at the table on every call, as there was, said nothing
     * more and cost a put or get about 2 ns.)
     */
    final void checkUsable() {
        if (freed) {
            throw new IllegalStateException(this + " was freed");
        }
    }

    /**
     * Checks the target PE of a remote operation: a world PE number, or, while a context made from a team is in use
     * ({@link ShmemCtx#use()}), a rank of that team (OpenSHMEM numbers a team context's targets in its team).
     */
    final void checkPe(final int pe) {
        final int[] teamPes = engine.callerTeamPes();
        if (teamPes != null) {
            if (pe < 0 || pe >= teamPes.length) {
                throw new IndexOutOfBoundsException("PE " + pe + " outside 0.." + (teamPes.length - 1)
                    + " of the team of the context in use");
            }
            checkHolder(teamPes[pe]);
            return;
        }
        if (pe < 0 || pe >= engine.npes) {
            throw new IndexOutOfBoundsException("PE " + pe + " outside 0.." + (engine.npes - 1));
        }
        checkHolder(pe);
    }

    private void checkHolder(final int worldPe) {
        if (holders != null && !holders[worldPe]) {
            throw new IndexOutOfBoundsException("PE " + worldPe + " does not hold " + this + ": it was allocated on "
                + team);
        }
    }

    /** The world PE a checked target names: itself, or its team's PE while a team context is in use. */
    final int worldPe(final int pe) {
        final int[] teamPes = engine.callerTeamPes();
        return teamPes == null ? pe : teamPes[pe];
    }

    /** Checks elements {@code index, index+stride, ...} of this object. */
    final void checkRange(final int index, final int stride, final int count) {
        checkElements(this, length, index, stride, count);
    }

    /**
     * @param what the symmetric object, or a String naming the buffer: the message is built only on failure (this
     *             runs on every put and get)
     */
    static void checkElements(final Object what, final int length, final int index, final int stride,
        final int count) {
        checkElements(what, length, index, stride, count, -1);
    }

    /**
     * As {@link #checkElements(Object, int, int, int, int)}, for the copy of a symmetric object on PE
     * {@code targetPe} (named in the message; -1 for this PE's own).
     */
    static void checkElements(final Object what, final int length, final int index, final int stride,
        final int count, final int targetPe) {
        if (count < 0) {
            throw new IllegalArgumentException("count=" + count + " is negative");
        }
        if (stride < 1) {
            throw new IllegalArgumentException("stride=" + stride + " must be at least 1");
        }
        final long last = count == 0 ? index : index + (long) (count - 1) * stride;
        if (index < 0 || (count > 0 && last >= length) || (count == 0 && index > length)) {
            throw new IndexOutOfBoundsException("elements from " + index + " (stride " + stride + ", count " + count
                + ") outside " + describe(what, targetPe) + " of length " + length);
        }
    }

    /** "symmetric object SymmetricDoubles#0 on PE 3": the copy the operation aims at, not the caller's. */
    private static String describe(final Object what, final int targetPe) {
        if (what instanceof SymmetricArray s && targetPe >= 0) {
            return "symmetric object " + s.getClass().getSimpleName() + "#" + s.id + " on PE " + targetPe;
        }
        return what instanceof SymmetricArray ? "symmetric object " + what : String.valueOf(what);
    }

    /** Checks a block-strided transfer ({@code ibput}/{@code ibget}) on both sides. */
    final void checkBlocks(final int pe, final int index, final int stride, final Object buffer, final int bufIndex,
        final int bufStride, final int block, final int count) {
        Objects.requireNonNull(buffer, "buffer");
        checkUsable();
        checkPe(pe);
        if (block < 1) {
            throw new IllegalArgumentException("blockSize=" + block + " must be at least 1");
        }
        if ((long) block * kind.bytes > MAX_BLOCK_BYTES) {
            throw new IllegalArgumentException("blockSize=" + block + " " + kind.javaName + " elements exceeds "
                + MAX_BLOCK_BYTES + " bytes per block");
        }
        checkBlockRange(this, length, index, stride, block, count, pe);
        checkBlockRange("the local buffer", Kind.length(buffer), bufIndex, bufStride, block, count, -1);
    }

    private static void checkBlockRange(final Object what, final int length, final int index, final int stride,
        final int block, final int count, final int targetPe) {
        if (count < 0) {
            throw new IllegalArgumentException("nblocks=" + count + " is negative");
        }
        if (stride < 1) {
            throw new IllegalArgumentException("stride=" + stride + " must be at least 1");
        }
        final long last = count == 0 ? index : index + (long) (count - 1) * stride + block - 1;
        if (index < 0 || (count > 0 && last >= length) || (count == 0 && index > length)) {
            throw new IndexOutOfBoundsException(count + " blocks of " + block + " from " + index + " (stride " + stride
                + ") outside " + describe(what, targetPe) + " of length " + length);
        }
    }

    final void checkRma(final int pe, final int index, final int stride, final Object buffer, final int bufIndex,
        final int bufStride, final int count) {
        Objects.requireNonNull(buffer, "buffer");
        checkUsable();
        checkPe(pe);
        checkElements(this, length, index, stride, count, pe);
        checkElements("the local buffer", Kind.length(buffer), bufIndex, bufStride, count);
    }

    final void checkElement(final int pe, final int index) {
        checkUsable();
        checkPe(pe);
        checkElements(this, length, index, 1, 1, pe);
    }

    final void doPut(final int pe, final int index, final int stride, final Object src, final int si, final int ss,
        final int count) {
        checkRma(pe, index, stride, src, si, ss, count);
        engine.rma.put(this, worldPe(pe), index, stride, src, si, ss, count);
    }

    final void doGet(final int pe, final int index, final int stride, final Object dst, final int di, final int ds,
        final int count, final boolean nbi) {
        checkRma(pe, index, stride, dst, di, ds, count);
        engine.rma.get(this, worldPe(pe), index, stride, dst, di, ds, count, nbi);
    }

    // p and g are written out in each typed subclass on purpose. Shared through raw long bits they would store and
    // load the one-element scratch through Kind's switch and volatile access (a fence per remote p on x86) and sit
    // one call level deeper; typed, the scratch is a plain array store or load and the put or get is called from
    // p or g itself. They are the latency-critical single-element RMA, so they keep the typed copies.

    final long doAmo(final int pe, final int index, final int op, final long a, final long b, final boolean fetch) {
        checkElement(pe, index);
        return engine.atomics.amo(this, worldPe(pe), index, op, a, b, fetch);
    }

    /** Checks and starts a non-blocking fetching atomic whose old value lands in {@code fetch[fetchIndex]}. */
    final void doAmoNbi(final Object fetch, final int fetchIndex, final int pe, final int index, final int op,
        final long a, final long b) {
        Objects.requireNonNull(fetch, "fetch");
        checkElement(pe, index);
        checkElements("the fetch array", Kind.length(fetch), fetchIndex, 1, 1);
        engine.atomics.amoNbi(this, worldPe(pe), index, op, a, b, fetch, fetchIndex);
    }

    final void doAcc(final int pe, final int index, final int stride, final Object src, final int si, final int ss,
        final int count, final long alpha) {
        checkRma(pe, index, stride, src, si, ss, count);
        engine.accumulates.acc(this, worldPe(pe), index, stride, src, si, ss, count, alpha);
    }

    final void doPutSignal(final int pe, final int index, final Object src, final int si, final int count,
        final SymmetricLongs sig, final int sigIndex, final long signal, final SignalOp op) {
        Objects.requireNonNull(sig, "sig");
        Objects.requireNonNull(op, "op");
        checkRma(pe, index, 1, src, si, 1, count);
        sig.checkElement(pe, sigIndex);
        engine.rma.putSignal(this, worldPe(pe), index, src, si, count, MessageDescriptor.SIG_USER, sig.id, sigIndex,
            op.ordinal(), signal);
    }

    // ---------------------------------------------------------------- point-to-point synchronisation (int, long)

    final boolean testOne(final int index, final Cmp cmp, final long value) {
        return cmp.test(kind.getBits(array, index), value);
    }

    final void checkWait(final int index, final int count, final Cmp cmp, final int[] status) {
        Objects.requireNonNull(cmp, "cmp");
        checkUsable();
        checkRange(index, 1, count);
        if (status != null && status.length < count) {
            throw new IllegalArgumentException("status has " + status.length + " elements, fewer than count="
                + count);
        }
    }

    private static void checkValues(final Object values, final int count) {
        if (values != null && Kind.length(values) < count) {
            throw new IllegalArgumentException("values has " + Kind.length(values) + " elements, fewer than count="
                + count);
        }
    }

    final void doWaitUntil(final int index, final Cmp cmp, final long value) {
        checkWait(index, 1, cmp, null);
        engine.enter();
        try {
            shmem.waitFor(this, index, 1, null, null, cmp, value, null, Shmem.WAIT_ALL);
        } finally {
            engine.exit();
        }
    }

    final int waitMany(final int index, final int count, final int[] status, final Cmp cmp, final long value,
        final int mode, final int[] indices) {
        return waitMany(index, count, status, cmp, value, null, mode, indices);
    }

    /** As above; {@code values}, when not null, holds one compare value per element (the vector forms). */
    final int waitMany(final int index, final int count, final int[] status, final Cmp cmp, final long value,
        final Object values, final int mode, final int[] indices) {
        checkWait(index, count, cmp, status);
        checkValues(values, count);
        if (indices != null && indices.length < count) {
            throw new IllegalArgumentException("indices has " + indices.length + " elements, fewer than count="
                + count);
        }
        engine.enter();
        try {
            return shmem.waitFor(this, index, count, status, indices, cmp, value, values, mode);
        } finally {
            engine.exit();
        }
    }

    final int testMany(final int index, final int count, final int[] status, final int[] indices, final Cmp cmp,
        final long value, final int mode) {
        return testMany(index, count, status, indices, cmp, value, null, mode);
    }

    /** As above; {@code values}, when not null, holds one compare value per element (the vector forms). */
    final int testMany(final int index, final int count, final int[] status, final int[] indices, final Cmp cmp,
        final long value, final Object values, final int mode) {
        checkWait(index, count, cmp, status);
        checkValues(values, count);
        if (indices != null && indices.length < count) {
            throw new IllegalArgumentException("indices has " + indices.length + " elements, fewer than count="
                + count);
        }
        engine.enter();
        try {
            engine.poll();
            final int r = shmem.testNow(this, index, count, status, indices, cmp, value, values, mode);
            return r == -2 ? (mode == Shmem.WAIT_ANY ? -1 : 0) : r;
        } finally {
            engine.exit();
        }
    }
}
