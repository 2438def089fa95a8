package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.AMO_ADD;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

import org.jhpvm.fm.FmHostMemory;

/**
 * The state of a {@link SymmetricSegment} and its transfers of bytes: blocking, non-blocking and with a signal, of
 * segments and of long, double and byte arrays; each a copy by the caller into or out of a part this PE maps, or an
 * RDMA transfer ({@link SegmentRequests}) with a part it does not. Documented on {@link SymmetricSegment}'s page (the
 * only subclass), as {@link SymmetricHeap} is on {@link Shmem}'s.
 * <p>
 * Thread-safety: as {@link SymmetricSegment}.
 */
abstract sealed class SegmentTransfers permits SymmetricSegment {
    static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    /** {@link #parts} of a PE this PE does not map: operations on it travel in messages. */
    static final MemorySegment NOT_MAPPED = MemorySegment.ofArray(new byte[0]);
    final Shmem shmem;
    final Engine engine;
    final int id;
    final int key;
    final long bytes;
    final MemorySegment local;
    /** Per world PE: its part as mapped here, {@link #NOT_MAPPED}, or null until first used. */
    final MemorySegment[] parts;
    /** How the parts are shared: the PE's host memory, or null (every other PE through messages). */
    final FmHostMemory host;
    volatile boolean freed;

    SegmentTransfers(final Shmem shmem, final int id, final long bytes, final FmHostMemory host,
        final MemorySegment local) {
        this.shmem = shmem;
        this.engine = shmem.engine;
        this.id = id;
        this.key = NicRequests.keyOf(id);
        this.bytes = bytes;
        this.host = host;
        this.local = local;
        this.parts = new MemorySegment[engine.npes];
        parts[engine.me] = local;
    }

    // ---------------------------------------------------------------- puts and gets

    /**
     * {@code shmem_putmem}: copies {@code src} into PE {@code pe}'s part from {@code dstOffset}; returns when
     * {@code src} may be reused.
     *
     * @param pe        the target PE
     * @param dstOffset first byte of the target's part
     * @param src       the bytes (any segment: heap, native or another symmetric part)
     */
    public void put(final int pe, final long dstOffset, final MemorySegment src) {
        Objects.requireNonNull(src, "src");
        transfer(true, pe, dstOffset, src, src, 0, src.byteSize(), true);
    }

    /**
     * {@code shmem_long_put} into host memory: {@code count} longs of {@code src} from {@code srcIndex}, in native
     * byte order, into PE {@code pe}'s part from {@code dstOffset}.
     *
     * @param pe        the target PE
     * @param dstOffset first byte of the target's part
     * @param src       the source array
     * @param srcIndex  its first element
     * @param count     elements
     */
    public void put(final int pe, final long dstOffset, final long[] src, final int srcIndex, final int count) {
        checkArray(src.length, srcIndex, count);
        transfer(true, pe, dstOffset, src, MemorySegment.ofArray(src), (long) srcIndex * Long.BYTES,
            (long) count * Long.BYTES, true);
    }

    /**
     * As {@link #put(int, long, long[], int, int)}, for doubles.
     *
     * @param pe        the target PE
     * @param dstOffset first byte of the target's part
     * @param src       the source array
     * @param srcIndex  its first element
     * @param count     elements
     */
    public void put(final int pe, final long dstOffset, final double[] src, final int srcIndex, final int count) {
        checkArray(src.length, srcIndex, count);
        transfer(true, pe, dstOffset, src, MemorySegment.ofArray(src), (long) srcIndex * Double.BYTES,
            (long) count * Double.BYTES, true);
    }

    /**
     * As {@link #put(int, long, long[], int, int)}, for bytes.
     *
     * @param pe        the target PE
     * @param dstOffset first byte of the target's part
     * @param src       the source array
     * @param srcIndex  its first element
     * @param count     bytes
     */
    public void put(final int pe, final long dstOffset, final byte[] src, final int srcIndex, final int count) {
        checkArray(src.length, srcIndex, count);
        transfer(true, pe, dstOffset, src, MemorySegment.ofArray(src), srcIndex, count, true);
    }

    /**
     * {@code shmem_getmem}: copies PE {@code pe}'s part from {@code srcOffset} into {@code dst}; the bytes are there
     * when it returns.
     *
     * @param pe        the PE holding the source
     * @param srcOffset first byte of its part
     * @param dst       where the bytes go ({@code dst.byteSize()} of them)
     */
    public void get(final int pe, final long srcOffset, final MemorySegment dst) {
        Objects.requireNonNull(dst, "dst");
        transfer(false, pe, srcOffset, dst, dst, 0, dst.byteSize(), true);
    }

    /**
     * {@code shmem_long_get} from host memory: {@code count} longs of PE {@code pe}'s part from {@code srcOffset}
     * into {@code dst} from {@code dstIndex}.
     *
     * @param pe        the PE holding the source
     * @param srcOffset first byte of its part
     * @param dst       the destination array
     * @param dstIndex  its first element
     * @param count     elements
     */
    public void get(final int pe, final long srcOffset, final long[] dst, final int dstIndex, final int count) {
        checkArray(dst.length, dstIndex, count);
        transfer(false, pe, srcOffset, dst, MemorySegment.ofArray(dst), (long) dstIndex * Long.BYTES,
            (long) count * Long.BYTES, true);
    }

    /**
     * As {@link #get(int, long, long[], int, int)}, for doubles.
     *
     * @param pe        the PE holding the source
     * @param srcOffset first byte of its part
     * @param dst       the destination array
     * @param dstIndex  its first element
     * @param count     elements
     */
    public void get(final int pe, final long srcOffset, final double[] dst, final int dstIndex, final int count) {
        checkArray(dst.length, dstIndex, count);
        transfer(false, pe, srcOffset, dst, MemorySegment.ofArray(dst), (long) dstIndex * Double.BYTES,
            (long) count * Double.BYTES, true);
    }

    /**
     * As {@link #get(int, long, long[], int, int)}, for bytes.
     *
     * @param pe        the PE holding the source
     * @param srcOffset first byte of its part
     * @param dst       the destination array
     * @param dstIndex  its first element
     * @param count     bytes
     */
    public void get(final int pe, final long srcOffset, final byte[] dst, final int dstIndex, final int count) {
        checkArray(dst.length, dstIndex, count);
        transfer(false, pe, srcOffset, dst, MemorySegment.ofArray(dst), dstIndex, count, true);
    }

    // ---------------------------------------------------------------- non-blocking, and with a signal

    /**
     * {@code shmem_putmem_nbi}: as {@link #put(int, long, MemorySegment)}, but {@code src} may be reused only after
     * {@link Shmem#quiet()}: to a PE this PE maps the copy is made at once (and the call is complete), to any other it is
     * an RDMA write that completes at the quiet.
     *
     * @param pe        the target PE
     * @param dstOffset first byte of the target's part
     * @param src       the bytes
     */
    public void putNbi(final int pe, final long dstOffset, final MemorySegment src) {
        Objects.requireNonNull(src, "src");
        transfer(true, pe, dstOffset, src, src, 0, src.byteSize(), false);
    }

    /**
     * {@code shmem_long_put_nbi} into host memory: as {@link #putNbi(int, long, MemorySegment)}, from {@code count}
     * longs of {@code src} from {@code srcIndex}.
     *
     * @param pe        the target PE
     * @param dstOffset first byte of the target's part
     * @param src       the source array (not to be changed before the quiet)
     * @param srcIndex  its first element
     * @param count     elements
     */
    public void putNbi(final int pe, final long dstOffset, final long[] src, final int srcIndex, final int count) {
        checkArray(src.length, srcIndex, count);
        transfer(true, pe, dstOffset, src, MemorySegment.ofArray(src), (long) srcIndex * Long.BYTES,
            (long) count * Long.BYTES, false);
    }

    /**
     * {@code shmem_getmem_nbi}: as {@link #get(int, long, MemorySegment)}, but the bytes are certain to be in
     * {@code dst} only after {@link Shmem#quiet()}.
     *
     * @param pe        the PE holding the source
     * @param srcOffset first byte of its part
     * @param dst       where the bytes go
     */
    public void getNbi(final int pe, final long srcOffset, final MemorySegment dst) {
        Objects.requireNonNull(dst, "dst");
        transfer(false, pe, srcOffset, dst, dst, 0, dst.byteSize(), false);
    }

    /**
     * {@code shmem_long_get_nbi} from host memory: as {@link #getNbi(int, long, MemorySegment)}, into {@code count}
     * longs of {@code dst} from {@code dstIndex}.
     *
     * @param pe        the PE holding the source
     * @param srcOffset first byte of its part
     * @param dst       the destination array
     * @param dstIndex  its first element
     * @param count     elements
     */
    public void getNbi(final int pe, final long srcOffset, final long[] dst, final int dstIndex, final int count) {
        checkArray(dst.length, dstIndex, count);
        transfer(false, pe, srcOffset, dst, MemorySegment.ofArray(dst), (long) dstIndex * Long.BYTES,
            (long) count * Long.BYTES, false);
    }

    /**
     * {@code shmem_putmem_signal}: puts {@code src} into PE {@code pe}'s part from {@code dstOffset}, then updates the
     * 8-byte signal word at {@code sigOffset} of the same part ({@link SignalOp#SET} or {@link SignalOp#ADD},
     * atomically), so that a PE that sees the signal ({@link SymmetricSegment#waitUntil}) sees the data. Returns when
     * {@code src} may be reused.
     *
     * @param pe        the target PE
     * @param dstOffset first byte of the data in the target's part
     * @param src       the data
     * @param sigOffset the signal word's offset, a multiple of 8
     * @param signal    the value set or added
     * @param op        how the signal is updated
     * @throws IllegalArgumentException if the signal word is misaligned (nothing is sent)
     */
    public void putSignal(final int pe, final long dstOffset, final MemorySegment src, final long sigOffset,
        final long signal, final SignalOp op) {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(op, "op");
        checkLive();
        checkPe(pe);
        checkRange(dstOffset, src.byteSize());
        checkWord(pe, sigOffset);
        final int amo = op == SignalOp.SET ? AMO_SET : AMO_ADD;
        final MemorySegment m = part(pe);
        if (m != NOT_MAPPED) {
            // The data first, its release fence ordering the signal after it; one wake-up, after the signal (the
            // waiter waits for the signal, not the data).
            if (src.byteSize() > 0) {
                storeDirect(m, dstOffset, src, 0, src.byteSize());
            }
            SegmentRequests.apply(m, sigOffset, amo, signal, 0);
            wrote(pe);
        } else {
            // The RDMA write's completion orders the signal after the data.
            transfer(true, pe, dstOffset, src, src, 0, src.byteSize(), true);
            SegmentRequests.amo(this, pe, sigOffset, amo, signal, 0, false);
        }
    }

    // ---------------------------------------------------------------- the paths

    /**
     * A put ({@code write}) or get of {@code length} bytes at {@code offset} of PE {@code pe}'s part, checked: a copy
     * when this PE maps the part, else an RDMA transfer, waited for or (not {@code wait}) left to the quiet.
     */
    final void transfer(final boolean write, final int pe, final long offset, final Object buffer,
        final MemorySegment bufferSegment, final long bufferOffset, final long length, final boolean wait) {
        checkLive();
        checkPe(pe);
        checkRange(offset, length);
        engine.checkCaller();
        if (length == 0) {
            return;
        }
        final MemorySegment m = part(pe);
        if (m != NOT_MAPPED) {
            if (write) {
                storeDirect(m, offset, bufferSegment, bufferOffset, length);
                wrote(pe);
            } else {
                pollIfVirtualSelf(pe);
                VarHandle.acquireFence();
                MemorySegment.copy(m, offset, bufferSegment, bufferOffset, length);
            }
            return;
        }
        SegmentRequests.transfer(this, write, pe, offset, buffer, bufferOffset, length, wait);
    }

    /**
     * A direct put's stores into a mapped part: the copy, then a release fence (this PE's direct stores become visible
     * in the order made), and the mark that the next quiet fences them.
     */
    private void storeDirect(final MemorySegment m, final long offset, final MemorySegment src, final long srcOffset,
        final long length) {
        MemorySegment.copy(src, srcOffset, m, offset, length);
        VarHandle.releaseFence();
        engine.directStores = true;
    }

    /**
     * After a direct store into PE {@code pe}'s part: a wait of that PE asleep in FM returns and looks at once
     * ({@link FmHostMemory#written}), as a put by message would wake it, instead of at its next look. Only stores made
     * through this object's calls ring; a plain store through {@link SymmetricSegment#ptr} does not.
     */
    final void wrote(final int pe) {
        if (host != null) {
            host.written(pe);
        }
    }

    /**
     * In virtual time a read of this PE's own part polls once, as the typed objects' reads do: a PE spinning on its
     * own memory serves the messages that will change it, at its own point in its program (there is no agent).
     */
    final void pollIfVirtualSelf(final int pe) {
        if (engine.virtualClock && pe == engine.me) {
            engine.enter();
            try {
                engine.pollIfVirtual();
            } finally {
                engine.exit();
            }
        }
    }

    /** PE {@code pe}'s part as this PE reaches it: mapped on first use, or {@link #NOT_MAPPED}. */
    final MemorySegment part(final int pe) {
        final MemorySegment m = parts[pe];
        return m != null ? m : mapPart(pe);
    }

    /** Cold: maps once even when threads of the PE (thread level MULTIPLE) ask for the same part at once. */
    private synchronized MemorySegment mapPart(final int pe) {
        MemorySegment m = parts[pe];
        if (m == null) {
            m = host != null && host.reaches(pe) ? host.map(pe, id) : NOT_MAPPED;
            if (m != NOT_MAPPED && m.byteSize() != bytes) {
                host.unmap(pe, id);
                throw new IllegalStateException("PE " + pe + "'s part of segment " + id + " maps " + m.byteSize()
                    + " bytes, not the " + bytes + " agreed");
            }
            parts[pe] = m;
        }
        return m;
    }

    // ---------------------------------------------------------------- checks

    final void checkLive() {
        if (freed) {
            throw new IllegalStateException(this + " was freed");
        }
    }

    final void checkPe(final int pe) {
        if (pe < 0 || pe >= engine.npes) {
            throw new IndexOutOfBoundsException("PE " + pe + " outside 0.." + (engine.npes - 1));
        }
    }

    final void checkRange(final long offset, final long length) {
        if (offset < 0 || length < 0 || offset > bytes - length) {
            throw new IndexOutOfBoundsException("bytes " + offset + ".." + (offset + length - 1) + " outside the "
                + bytes + " bytes of " + this);
        }
    }

    final void checkWord(final int pe, final long offset) {
        checkLive();
        checkPe(pe);
        checkRange(offset, Long.BYTES);
        if ((offset & (Long.BYTES - 1)) != 0) {
            throw new IllegalArgumentException("offset " + offset + " is not a multiple of 8: a word must be aligned");
        }
        engine.checkCaller();
    }

    static void checkArray(final int length, final int index, final int count) {
        if (index < 0 || count < 0 || index > length - count) {
            throw new IndexOutOfBoundsException("elements " + index + ".." + (index + count - 1) + " outside an array "
                + "of " + length);
        }
    }
}
