package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

import org.jhpvm.fabric.Bytes;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fm.FmOutputStream;

/**
 * The sending side of a rendezvous message: a message declared at least {@code rendezvousBytes} long, where the NIC
 * does RDMA, is not copied into frames. Its pieces are only noted: a large contiguous piece as (region, offset,
 * length) of the caller's own array, registered through the {@link RegistrationCache}; small, strided and scalar
 * pieces gathered into a staging array (registered too). {@link #endMessage()} sends one small FM message, the
 * request to send, that names the pieces ({@link RendezvousReceiver} describes its layout); the receiver's handler
 * pulls each piece by RDMA straight into the array it receives into, and, when the handler has returned, writes the
 * message's token into this endpoint's registered {@code done} slot for it. {@code endMessage} waits for that (the
 * caller's arrays may change only then), keeping the protocol going and extracting meanwhile as a flow-control wait
 * does, so two PEs sending rendezvous messages to each other both get served.
 * <p>
 * FM's guarantees carry over: the request is an ordinary message, so it is delivered exactly once and in order with
 * the sender's other messages to that PE, and the fabric's RDMA is reliable. Reused for every message; the
 * endpoint's thread only; nothing is allocated per message once the staging array has grown to its need.
 */
final class RendezvousSender implements FmOutputStream {
    /** Contiguous pieces at least this long are pulled from the caller's array; shorter ones are staged. */
    static final int DIRECT_MIN_BYTES = 2048;
    /** Bytes of the request before its pieces. */
    static final int HEADER_BYTES = 32;
    /** Bytes per piece in the request: handle, key, offset, length. */
    static final int PIECE_BYTES = 20;
    /** The shortest busy wait for a receiver's word that a message is in. */
    private static final long BUSY_WAIT_MIN_NS = 50_000;
    /** Caller's arrays kept registered between messages. */
    static final int CACHED_ARRAYS = 16;
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final VarHandle DONE = MethodHandles.arrayElementVarHandle(long[].class);

    private final Endpoint ep;
    private final Nic nic;
    private final FlowControl flow;
    private final Retransmitter retransmitter;
    private final RegistrationCache cache;
    private final int maxPieces;
    /** Where receivers write the token of the message they finished, one slot per receiver. */
    private final long[] done;
    private final MemoryRegion doneRegion;
    private final int[] handle;
    private final int[] key;
    private final long[] offset;
    private final int[] length;
    private final byte[] scratch = new byte[8];
    private final MemorySegment scratchSegment = MemorySegment.ofArray(scratch);
    private byte[] staging = new byte[0];
    private MemorySegment stagingSegment = MemorySegment.ofArray(staging);
    private MemoryRegion stagingRegion;
    private int staged;
    private int pieces;
    /** The last piece is in the staging array and ends at {@link #staged}: staged bytes extend it. */
    private boolean lastStaged;
    private long nextToken;
    private boolean open;
    private int dest;
    private int handler;
    private int declared;
    private int written;

    RendezvousSender(final Endpoint ep, final Nic nic, final FlowControl flow, final Retransmitter retransmitter,
                     final int frameBytes) {
        this.ep = ep;
        this.nic = nic;
        this.flow = flow;
        this.retransmitter = retransmitter;
        this.cache = new RegistrationCache(nic, CACHED_ARRAYS);
        this.maxPieces = (frameBytes - HEADER_BYTES) / PIECE_BYTES;
        this.done = new long[ep.pes()];
        this.doneRegion = nic.register(done);
        this.handle = new int[maxPieces];
        this.key = new int[maxPieces];
        this.offset = new long[maxPieces];
        this.length = new int[maxPieces];
    }

    /** @return whether a frame can carry a request naming two pieces (one direct, one staged) */
    static boolean fits(final int frameBytes) {
        return frameBytes >= HEADER_BYTES + 2 * PIECE_BYTES;
    }

    boolean isOpen() {
        return open;
    }

    int dest() {
        return dest;
    }

    FmOutputStream begin(final int to, final int lengthBytes, final int handlerId) {
        dest = to;
        declared = lengthBytes;
        handler = handlerId;
        written = 0;
        staged = 0;
        pieces = 0;
        lastStaged = false;
        open = true;
        return this;
    }

    @Override
    public int lengthBytes() {
        return written;
    }

    @Override
    public void sendPiece(final byte[] src, final int off, final int lengthBytes) {
        checkOpen();
        Objects.checkFromIndexSize(off, lengthBytes, src.length);
        checkRoom(lengthBytes);
        if (lengthBytes < DIRECT_MIN_BYTES || !addDirect(src, off, lengthBytes)) {
            Bytes.copy(MemorySegment.ofArray(src), off, stageRoom(lengthBytes), staged, lengthBytes);
            addStaged(lengthBytes);
        }
    }

    @Override
    public void sendBytes(final byte[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.BYTE, index, stride, count);
    }

    @Override
    public void sendInts(final int[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.INT, index, stride, count);
    }

    @Override
    public void sendLongs(final long[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.LONG, index, stride, count);
    }

    @Override
    public void sendFloats(final float[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.FLOAT, index, stride, count);
    }

    @Override
    public void sendDoubles(final double[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.DOUBLE, index, stride, count);
    }

    /**
     * Typed gather. A contiguous run long enough is pulled from the array itself: its memory holds the elements in
     * the wire's little-endian order where the machine's order is little endian; otherwise (strides, short runs, a
     * big-endian machine) the elements are staged in wire order.
     */
    private void sendElements(final Object src, final int arrayLength, final ValueLayout layout, final int index,
                              final int stride, final int count) {
        checkOpen();
        final int eb = (int) layout.byteSize();
        final long bytes = Elements.check(arrayLength, index, stride, count, eb);
        checkRoom((int) Math.min(Integer.MAX_VALUE, bytes));
        final int n = (int) bytes;
        if (stride == 1 && n >= DIRECT_MIN_BYTES && (NATIVE_LITTLE_ENDIAN || eb == 1)
            && addDirect(src, (long) index * eb, n)) {
            return;
        }
        Elements.toSegment(src, index, stride, count, stageRoom(n), layout, staged);
        addStaged(n);
    }

    @Override
    public void sendInt(final int value) {
        checkOpen();
        checkRoom(Integer.BYTES);
        FmFrameDescriptor.INT.set(scratch, 0, value);
        Bytes.copy(scratchSegment, 0, stageRoom(Integer.BYTES), staged, Integer.BYTES);
        addStaged(Integer.BYTES);
    }

    @Override
    public void sendLong(final long value) {
        checkOpen();
        checkRoom(Long.BYTES);
        FmFrameDescriptor.LONG.set(scratch, 0, value);
        Bytes.copy(scratchSegment, 0, stageRoom(Long.BYTES), staged, Long.BYTES);
        addStaged(Long.BYTES);
    }

    /**
     * Notes a piece pulled from the caller's array, if the request has room for it (its last slot is kept for staged
     * bytes) and the array is or can be registered without evicting one this message names.
     *
     * @return false if the piece must be staged instead
     */
    private boolean addDirect(final Object array, final long byteOffset, final int bytes) {
        if (pieces >= maxPieces - 1) {
            return false;
        }
        final MemoryRegion r = cache.regionOf(array, nextToken + 1);
        if (r == null) {
            return false;
        }
        handle[pieces] = r.handle();
        key[pieces] = r.key();
        offset[pieces] = byteOffset;
        length[pieces] = bytes;
        pieces++;
        lastStaged = false;
        written += bytes;
        return true;
    }

    /** The staging array's memory, grown (and registered again) so that {@code bytes} more fit after what it holds. */
    private MemorySegment stageRoom(final int bytes) {
        final int need = staged + bytes;
        if (need > staging.length) {
            final byte[] old = staging;
            final MemoryRegion oldRegion = stagingRegion;
            staging = Arrays.copyOf(old, Math.max(need, Math.min(declared, Math.max(4096, 2 * old.length))));
            stagingSegment = MemorySegment.ofArray(staging);
            if (oldRegion != null) {
                nic.deregister(oldRegion);
            }
            stagingRegion = nic.register(staging);
            for (int i = 0; i < pieces; i++) {
                if (oldRegion != null && handle[i] == oldRegion.handle() && key[i] == oldRegion.key()) {
                    handle[i] = stagingRegion.handle();
                    key[i] = stagingRegion.key();
                }
            }
        }
        return stagingSegment;
    }

    /** Notes {@code bytes} just staged: they extend the last piece if it is staged too, else start a new one. */
    private void addStaged(final int bytes) {
        if (bytes == 0) {
            return;
        }
        if (lastStaged) {
            length[pieces - 1] += bytes;
        } else {
            // Direct pieces leave the request's last slot free (see directRoom), so a staged piece always fits.
            handle[pieces] = stagingRegion.handle();
            key[pieces] = stagingRegion.key();
            offset[pieces] = staged;
            length[pieces] = bytes;
            pieces++;
            lastStaged = true;
        }
        staged += bytes;
        written += bytes;
    }

    @Override
    public void endMessage() {
        checkOpen();
        final long token = ++nextToken;
        final int requestBytes = HEADER_BYTES + pieces * PIECE_BYTES;
        final OutboundStream o = ep.beginInternal(dest, requestBytes, RendezvousReceiver.H_RENDEZVOUS);
        o.sendInt(handler);
        o.sendInt(declared);
        o.sendInt(written);
        o.sendLong(token);
        o.sendInt(doneRegion.handle());
        o.sendInt(doneRegion.key());
        o.sendInt(pieces);
        for (int i = 0; i < pieces; i++) {
            o.sendInt(handle[i]);
            o.sendInt(key[i]);
            o.sendLong(offset[i]);
            o.sendInt(length[i]);
        }
        o.endMessage();
        ep.counters.add(Counters.BYTES_SENT, written - requestBytes); // the message's bytes, not the request's
        ep.counters.increment(Counters.RENDEZVOUS_SENT);
        open = false;
        if ((long) DONE.getAcquire(done, dest) != token) {
            awaitDone(token);
        }
    }

    /**
     * Waits for the receiver's word that the message is in: busy while a receiver that is extracting would still be
     * copying (the time to copy the message at a modest 1 GB/s, at least {@link #BUSY_WAIT_MIN_NS}), then, after a
     * tail-loss probe, with the idle strategy (a receiver that is not extracting may take long).
     */
    private void awaitDone(final long token) {
        ep.counters.increment(Counters.FLOW_WAITS);
        final long busyUntil = System.nanoTime() + Math.max(BUSY_WAIT_MIN_NS, written);
        do {
            flow.waitOnceBusy();
            if ((long) DONE.getAcquire(done, dest) == token) {
                return;
            }
        } while (System.nanoTime() - busyUntil < 0);
        // Still no word: if the request itself may be lost, resend it now (nothing after it would reveal the loss).
        retransmitter.probe(dest);
        flow.resetIdle();
        do {
            flow.waitOnce();
        } while ((long) DONE.getAcquire(done, dest) != token);
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("no message is open on PE " + ep.pe() + " (endMessage was called, or "
                + "beginMessage was not)");
        }
        ep.checkUsable();
    }

    private void checkRoom(final int bytes) {
        if (bytes > declared - written) {
            throw new IllegalArgumentException("piece of " + bytes + " bytes after " + written
                + " would exceed the declared length=" + declared + " of the message to PE " + dest);
        }
    }
}
