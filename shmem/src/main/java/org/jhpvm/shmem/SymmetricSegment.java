package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.AMO_ADD;
import static org.jhpvm.shmem.MessageDescriptor.AMO_AND;
import static org.jhpvm.shmem.MessageDescriptor.AMO_CSWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_FETCH;
import static org.jhpvm.shmem.MessageDescriptor.AMO_OR;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SET;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_XOR;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

import org.jhpvm.fm.FmHostMemory;
import org.jhpvm.fm.FmRegion;

/**
 * A symmetric object in host memory ({@link Shmem#mallocSegment(long)}): each PE's part is a {@link MemorySegment} of
 * the same length, which every PE of the same host maps. An operation on a PE of this host is a load, store or atomic
 * straight on that PE's memory, by the calling thread: no message, no thread of the target involved, one copy (what
 * native OpenSHMEM does between the processes of a node). An operation on a PE of another host (or where the fabric has
 * no host memory, or with {@code shmem.hostMemory=messages}) is an RDMA transfer or a NIC message, with the same
 * checks and results. {@link #ptr(int)} says which path a PE takes.
 * <p>
 * Offsets are in bytes from the start of a part. The 8-byte operations (the {@code Long} and {@code Double} forms,
 * atomics and waits) need an offset that is a multiple of 8: such a word is never torn. Every argument is checked on
 * the calling PE before anything is touched or sent ({@link IndexOutOfBoundsException} naming the range).
 * <p>
 * <b>Ordering and completion</b>, as OpenSHMEM's: a blocking put returns when the source may be reused, a
 * non-blocking one ({@code putNbi}, {@code getNbi}) is complete after {@link Shmem#quiet()}; a put is visible at its
 * target at the latest after {@code quiet} (or a barrier), and {@code putSignal}'s data before its signal. A direct put is visible at once, and
 * this PE's direct stores become visible in the order it made them (each ends with a release fence), so
 * {@link Shmem#fence()} orders them too; {@code quiet} adds a full fence. Operations on PEs of other hosts go on the
 * default context whatever context is in use, complete at {@link Shmem#quiet()}, and name world PEs (as Global Arrays
 * does); teams allocate no segments.
 * <p>
 * A wait ({@link #waitUntil}) ends when the word compares true, however it was written. A PE that waits long sleeps
 * (FM's idle policy); a put, atomic or signal of this object's calls into its part wakes it, as a message would (the
 * fabric's host memory counts the store and rings the PE's NIC where it sleeps). A plain store through {@link #ptr}
 * wakes nobody: a sleeping waiter sees it at its next look. While the job's PEs fit the cores, waits spin and see
 * any store at once.
 * <p>
 * Thread-safety: the owning PE's thread (thread level FUNNELED), or any thread at SERIALIZED and MULTIPLE.
 */
public final class SymmetricSegment extends SegmentTransfers {
    /** Owns {@link #local} where it is not host memory (no host memory, or {@code shmem.hostMemory=messages}). */
    private final Arena ownArena;
    /** This PE's registration of its part, for the operations of PEs that do not map it. */
    private FmRegion region;
    /** This object's waits on its own part. */
    private final SegmentWait waits;

    private SymmetricSegment(final Shmem shmem, final int id, final long bytes, final FmHostMemory host,
        final Arena ownArena) {
        super(shmem, id, bytes, host, ownArena == null ? host.create(id, bytes) : ownArena.allocate(bytes, Long.BYTES));
        this.ownArena = ownArena; // its segment is zeroed, as a new host memory segment is
        this.waits = new SegmentWait(engine, local, id);
    }

    /**
     * Makes this PE's part and registers it with the NIC; the allocation's synchronisation comes after, so no PE
     * reaches a part before it exists.
     *
     * @param shmem the PE
     * @param id    the object's id (agreed)
     * @param bytes each part's length
     * @param host  the PE's host memory, or null to reach every other PE by messages
     * @return the object
     */
    static SymmetricSegment create(final Shmem shmem, final int id, final long bytes, final FmHostMemory host) {
        final Arena own = host == null ? Arena.ofShared() : null;
        final SymmetricSegment s;
        try {
            s = new SymmetricSegment(shmem, id, bytes, host, own);
        } catch (RuntimeException | Error e) {
            if (own != null) {
                own.close();
            }
            throw e;
        }
        try {
            s.region = s.engine.fm.register(s.local, id, s.key);
        } catch (RuntimeException | Error e) {
            s.release();
            throw e;
        }
        return s;
    }

    /**
     * Ends this PE's part of the object (the free, after its synchronisation): gives back the parts it mapped, its
     * registration and its own part.
     */
    synchronized void release() {
        freed = true;
        for (int pe = 0; pe < parts.length; pe++) {
            final MemorySegment m = parts[pe];
            if (pe != engine.me && m != null && m != NOT_MAPPED) {
                host.unmap(pe, id);
            }
            parts[pe] = null;
        }
        if (region != null) {
            engine.fm.deregister(region);
            region = null;
        }
        if (host != null) {
            host.remove(id);
        } else {
            ownArena.close();
        }
    }

    /**
     * The length of each PE's part.
     *
     * @return bytes
     */
    public long byteSize() {
        return bytes;
    }

    /**
     * This PE's part: host memory the other PEs of its host load and store directly.
     *
     * @return the segment (valid until {@link Shmem#free(SymmetricSegment)})
     */
    public MemorySegment local() {
        checkLive();
        return local;
    }

    /**
     * {@code shmem_ptr}: PE {@code pe}'s part, if this PE maps it (a PE of the same host, this PE included), for direct
     * loads and stores; otherwise null, and operations on that PE travel in messages.
     *
     * @param pe a PE of the job
     * @return the part, or null
     * @throws IndexOutOfBoundsException if {@code pe} is not a PE of the job
     */
    public MemorySegment ptr(final int pe) {
        checkLive();
        checkPe(pe);
        final MemorySegment m = part(pe);
        return m == NOT_MAPPED ? null : m;
    }

    /**
     * Whether {@link Shmem#free(SymmetricSegment)} released it.
     *
     * @return true once freed
     */
    public boolean isFreed() {
        return freed;
    }

    /**
     * {@code shmem_long_p}: stores one long (8-byte aligned offset) in PE {@code pe}'s part.
     *
     * @param pe     the target PE
     * @param offset the word's offset, a multiple of 8
     * @param value  the value
     */
    public void putLong(final int pe, final long offset, final long value) {
        checkWord(pe, offset);
        final MemorySegment m = part(pe);
        if (m != NOT_MAPPED) {
            WORD.setRelease(m, offset, value);
            engine.directStores = true;
            wrote(pe);
            return;
        }
        final long[] one = (long[]) engine.one(Kind.LONG);
        one[0] = value;
        SegmentRequests.transfer(this, true, pe, offset, one, 0, Long.BYTES, true);
    }

    /**
     * {@code shmem_long_g}: loads one long (8-byte aligned offset) of PE {@code pe}'s part.
     *
     * @param pe     the PE holding it
     * @param offset the word's offset, a multiple of 8
     * @return the value
     */
    public long getLong(final int pe, final long offset) {
        checkWord(pe, offset);
        final MemorySegment m = part(pe);
        if (m != NOT_MAPPED) {
            pollIfVirtualSelf(pe);
            return (long) WORD.getAcquire(m, offset);
        }
        final long[] one = (long[]) engine.one(Kind.LONG);
        SegmentRequests.transfer(this, false, pe, offset, one, 0, Long.BYTES, true);
        return one[0];
    }

    /**
     * {@code shmem_double_p}: as {@link #putLong}, for a double.
     *
     * @param pe     the target PE
     * @param offset the word's offset, a multiple of 8
     * @param value  the value
     */
    public void putDouble(final int pe, final long offset, final double value) {
        putLong(pe, offset, Double.doubleToRawLongBits(value));
    }

    /**
     * {@code shmem_double_g}: as {@link #getLong}, for a double.
     *
     * @param pe     the PE holding it
     * @param offset the word's offset, a multiple of 8
     * @return the value
     */
    public double getDouble(final int pe, final long offset) {
        return Double.longBitsToDouble(getLong(pe, offset));
    }

    // ---------------------------------------------------------------- atomics (8-byte words)

    /**
     * {@code shmem_atomic_fetch}.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @return its value
     */
    public long atomicFetch(final int pe, final long offset) {
        return amo(pe, offset, AMO_FETCH, 0, 0, true);
    }

    /**
     * {@code shmem_atomic_set}.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @param value  the new value
     */
    public void atomicSet(final int pe, final long offset, final long value) {
        amo(pe, offset, AMO_SET, value, 0, false);
    }

    /**
     * {@code shmem_atomic_swap}.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @param value  the new value
     * @return the old value
     */
    public long atomicSwap(final int pe, final long offset, final long value) {
        return amo(pe, offset, AMO_SWAP, value, 0, true);
    }

    /**
     * {@code shmem_atomic_compare_swap}: stores {@code value} if the word equals {@code cond}.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @param cond   the value compared against
     * @param value  the new value
     * @return the old value (equal to {@code cond} if the swap happened)
     */
    public long atomicCompareSwap(final int pe, final long offset, final long cond, final long value) {
        return amo(pe, offset, AMO_CSWAP, value, cond, true);
    }

    /**
     * {@code shmem_atomic_fetch_add}.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @param value  added
     * @return the old value
     */
    public long atomicFetchAdd(final int pe, final long offset, final long value) {
        return amo(pe, offset, AMO_ADD, value, 0, true);
    }

    /**
     * {@code shmem_atomic_add}.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @param value  added
     */
    public void atomicAdd(final int pe, final long offset, final long value) {
        amo(pe, offset, AMO_ADD, value, 0, false);
    }

    /**
     * {@code shmem_atomic_fetch_and}, {@code _or} and {@code _xor} as one call.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @param op     {@link ReduceOp#AND}, {@link ReduceOp#OR} or {@link ReduceOp#XOR}
     * @param value  the operand
     * @return the old value
     * @throws IllegalArgumentException for another operation
     */
    public long atomicFetchBitwise(final int pe, final long offset, final ReduceOp op, final long value) {
        return amo(pe, offset, bitwise(op), value, 0, true);
    }

    /**
     * {@code shmem_atomic_and}, {@code _or} and {@code _xor} as one call.
     *
     * @param pe     the PE holding the word
     * @param offset its offset, a multiple of 8
     * @param op     {@link ReduceOp#AND}, {@link ReduceOp#OR} or {@link ReduceOp#XOR}
     * @param value  the operand
     * @throws IllegalArgumentException for another operation
     */
    public void atomicBitwise(final int pe, final long offset, final ReduceOp op, final long value) {
        amo(pe, offset, bitwise(op), value, 0, false);
    }

    private static int bitwise(final ReduceOp op) {
        return switch (Objects.requireNonNull(op, "op")) {
            case AND -> AMO_AND;
            case OR -> AMO_OR;
            case XOR -> AMO_XOR;
            default -> throw new IllegalArgumentException(op + " is not a bitwise atomic (AND, OR, XOR)");
        };
    }

    // ---------------------------------------------------------------- point-to-point synchronisation

    /**
     * {@code shmem_long_wait_until} on this PE's part: waits, driving progress, until the word at {@code offset}
     * compares true against {@code value}.
     *
     * @param offset the word's offset, a multiple of 8
     * @param cmp    the comparison
     * @param value  compared against
     * @return the word's value that compared true
     */
    public long waitUntil(final long offset, final Cmp cmp, final long value) {
        checkWord(engine.me, offset);
        Objects.requireNonNull(cmp, "cmp");
        final long v = (long) WORD.getVolatile(local, offset);
        if (cmp.test(v, value)) {
            return v;
        }
        return waits.await(offset, cmp, value);
    }

    /**
     * {@code shmem_long_test}: whether the word at {@code offset} of this PE's part compares true now (after one pass
     * of progress).
     *
     * @param offset the word's offset, a multiple of 8
     * @param cmp    the comparison
     * @param value  compared against
     * @return true if it does
     */
    public boolean test(final long offset, final Cmp cmp, final long value) {
        checkWord(engine.me, offset);
        Objects.requireNonNull(cmp, "cmp");
        if (cmp.test((long) WORD.getVolatile(local, offset), value)) {
            return true;
        }
        engine.enter();
        try {
            engine.fm.extract();
        } finally {
            engine.exit();
        }
        return cmp.test((long) WORD.getVolatile(local, offset), value);
    }

    @Override
    public String toString() {
        return "SymmetricSegment[id=" + id + ", " + bytes + " bytes]";
    }

    // ---------------------------------------------------------------- the paths

    private long amo(final int pe, final long offset, final int op, final long a, final long b, final boolean fetch) {
        checkWord(pe, offset);
        final MemorySegment m = part(pe);
        if (m != NOT_MAPPED) {
            if (fetch) {
                pollIfVirtualSelf(pe);
            }
            final long old = SegmentRequests.apply(m, offset, op, a, b); // a volatile access: a full fence of its own
            if (op != AMO_FETCH) {
                wrote(pe);
            }
            return old;
        }
        return SegmentRequests.amo(this, pe, offset, op, a, b, fetch);
    }
}
