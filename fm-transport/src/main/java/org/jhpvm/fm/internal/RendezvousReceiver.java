package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

import org.jhpvm.fabric.Bytes;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmInputStream;

/**
 * The receiving side of a rendezvous message ({@link RendezvousSender}): FM's own handler for the request to send,
 * and the input stream the message's handler reads. The request, one FM message:
 * <pre>
 *  0       4       8       12              20      24      28      32
 *  +-------+-------+-------+---------------+-------+-------+-------+
 *  |handler|declard| length| token         | done  | done  | pieces|  then per piece:
 *  |       |       |       |               | handle| key   |       |  handle, key, offset (long), length: 20 bytes
 *  +-------+-------+-------+---------------+-------+-------+-------+
 * </pre>
 * The handler runs at once, on the extracting thread, and receives as it would from frames (layer interleaving): a
 * large contiguous receive is one RDMA read per piece it spans, from the sender's array straight into the caller's
 * (registered through a {@link RegistrationCache}); small, strided and scalar receives are served from a registered
 * staging array filled by RDMA reads of up to {@link #STAGE_BYTES}. When the handler returns, the token is written by
 * RDMA into the sender's {@code done} slot for this PE: the sender may reuse its arrays.
 * <p>
 * The endpoint's thread only; nothing is allocated per message.
 */
final class RendezvousReceiver implements FmHandler, FmInputStream {
    /** FM's own handler id for the request to send. */
    static final int H_RENDEZVOUS = FastMessages.MAX_HANDLERS + MessageOffload.HANDLERS;
    /** Receives at least this long go straight into the caller's array. */
    static final int DIRECT_MIN_BYTES = 2048;
    /** The staging array for small, strided and scalar receives. */
    static final int STAGE_BYTES = 16 << 10;
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final Endpoint ep;
    private final NicOffload offload;
    private final RegistrationCache cache;
    private final int[] handle;
    private final int[] key;
    private final long[] offset;
    private final int[] length;
    private final byte[] stage = new byte[STAGE_BYTES];
    private final MemorySegment stageSegment = MemorySegment.ofArray(stage);
    private final MemoryRegion stageRegion;
    /** The token written back to each sender, a slot each so that a write never reuses memory still being sent. */
    private final long[] finished;
    private final MemoryRegion finishedRegion;
    private long transfers;
    // the message being handled
    private boolean active;
    private Thread thread;
    private int source;
    private int handlerId;
    private int declared;
    private int total;
    private int pieces;
    private int received;
    /** Where the next byte not yet pulled is: piece and offset in it. */
    private int piece;
    private int pieceOffset;
    private int stagePos;
    private int stageLimit;

    RendezvousReceiver(final Endpoint ep, final Nic nic, final NicOffload offload, final int maxPieces) {
        this.ep = ep;
        this.offload = offload;
        this.cache = new RegistrationCache(nic, RendezvousSender.CACHED_ARRAYS);
        this.handle = new int[maxPieces];
        this.key = new int[maxPieces];
        this.offset = new long[maxPieces];
        this.length = new int[maxPieces];
        this.stageRegion = nic.register(stage);
        this.finished = new long[ep.pes()];
        this.finishedRegion = nic.register(finished);
    }

    /** The request to send: reads it, runs the message's handler on it, then tells the sender it is done. */
    @Override
    public void onMessage(final FmInputStream in, final int sender) throws Exception {
        final int userHandler = in.receiveInt();
        final int declaredBytes = in.receiveInt();
        final int totalBytes = in.receiveInt();
        final long token = in.receiveLong();
        final int doneHandle = in.receiveInt();
        final int doneKey = in.receiveInt();
        final int n = in.receiveInt();
        if (n < 0 || n > handle.length) {
            throw new IllegalStateException("rendezvous request from PE " + sender + " names " + n + " pieces");
        }
        for (int i = 0; i < n; i++) {
            handle[i] = in.receiveInt();
            key[i] = in.receiveInt();
            offset[i] = in.receiveLong();
            length[i] = in.receiveInt();
        }
        final int requestBytes = in.receivedBytes();
        final FmHandler h = ep.handler(userHandler);
        source = sender;
        handlerId = userHandler;
        declared = declaredBytes;
        total = totalBytes;
        pieces = n;
        received = 0;
        piece = 0;
        pieceOffset = 0;
        stagePos = 0;
        stageLimit = 0;
        thread = Thread.currentThread();
        active = true;
        try {
            if (h == null || userHandler >= FastMessages.MAX_HANDLERS) {
                throw new IllegalStateException("message from PE " + sender + " names handler " + userHandler
                    + ", which is not registered on PE " + ep.pe() + "; the message was discarded");
            }
            h.onMessage(this, sender);
        } finally {
            active = false;
            // Pieces the handler did not pull are simply left at the sender; the sender waits for this write.
            finished[sender] = token;
            offload.postInternal(true, finishedRegion, (long) sender * Long.BYTES, sender, doneHandle, doneKey,
                (long) ep.pe() * Long.BYTES, Long.BYTES);
            ep.counters.add(Counters.BYTES_RECEIVED, received - requestBytes);
        }
    }

    @Override
    public int sender() {
        return source;
    }

    @Override
    public int handler() {
        return handlerId;
    }

    @Override
    public int declaredLength() {
        return declared;
    }

    @Override
    public int receivedBytes() {
        return received;
    }

    @Override
    public void receive(final byte[] dst, final int off, final int lengthBytes) {
        checkActive();
        Objects.checkFromIndexSize(off, lengthBytes, dst.length);
        checkDeclared(lengthBytes);
        if (lengthBytes > total - received) {
            throw endedEarly(lengthBytes);
        }
        receiveContiguous(dst, off, lengthBytes);
    }

    @Override
    public int receiveUpTo(final byte[] dst, final int off, final int lengthBytes) {
        checkActive();
        Objects.checkFromIndexSize(off, lengthBytes, dst.length);
        final int n = Math.min(lengthBytes, Math.min(declared, total) - received);
        receiveContiguous(dst, off, n);
        return n;
    }

    @Override
    public void receiveBytes(final byte[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.BYTE, index, stride, count);
    }

    @Override
    public void receiveInts(final int[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.INT, index, stride, count);
    }

    @Override
    public void receiveLongs(final long[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.LONG, index, stride, count);
    }

    @Override
    public void receiveFloats(final float[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.FLOAT, index, stride, count);
    }

    @Override
    public void receiveDoubles(final double[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.DOUBLE, index, stride, count);
    }

    @Override
    public int receiveInt() {
        checkActive();
        checkDeclared(Integer.BYTES);
        staged(Integer.BYTES);
        final int v = (int) FmFrameDescriptor.INT.get(stage, stagePos);
        consumeStaged(Integer.BYTES);
        return v;
    }

    @Override
    public long receiveLong() {
        checkActive();
        checkDeclared(Long.BYTES);
        staged(Long.BYTES);
        final long v = (long) FmFrameDescriptor.LONG.get(stage, stagePos);
        consumeStaged(Long.BYTES);
        return v;
    }

    /**
     * Typed scatter: a contiguous run long enough goes straight into the array where the machine's byte order is the
     * wire's (little endian); everything else through the staging array, element by element in wire order.
     */
    private void receiveElements(final Object dst, final int arrayLength, final ValueLayout layout, final int index,
                                 final int stride, final int count) {
        checkActive();
        final int eb = (int) layout.byteSize();
        final long bytes = Elements.check(arrayLength, index, stride, count, eb);
        checkDeclared(bytes);
        if (bytes > total - received) {
            throw endedEarly(bytes);
        }
        if (stride == 1 && (NATIVE_LITTLE_ENDIAN || eb == 1)) {
            receiveContiguous(dst, (long) index * eb, (int) bytes);
            return;
        }
        int i = index;
        int left = count;
        while (left > 0) {
            staged(eb);
            final int n = Math.min(left, (stageLimit - stagePos) / eb);
            Elements.fromSegment(stageSegment, layout, stagePos, dst, i, stride, n);
            i += n * stride;
            consumeStaged(n * eb);
            left -= n;
        }
    }

    /** Raw bytes into an array from a byte offset: staged bytes first, then straight from the sender or staged. */
    private void receiveContiguous(final Object dst, final long dstOffset, final int lengthBytes) {
        long at = dstOffset;
        int left = lengthBytes;
        final int fromStage = Math.min(left, stageLimit - stagePos);
        if (fromStage > 0) {
            Bytes.copy(stageSegment, stagePos, MemoryRegion.segmentOf(dst), at, fromStage);
            consumeStaged(fromStage);
            at += fromStage;
            left -= fromStage;
        }
        if (left >= DIRECT_MIN_BYTES) {
            final MemoryRegion r = cache.regionOf(dst, ++transfers);
            pull(r, at, left);
            received += left;
            return;
        }
        while (left > 0) {
            staged(1);
            final int n = Math.min(left, stageLimit - stagePos);
            Bytes.copy(stageSegment, stagePos, MemoryRegion.segmentOf(dst), at, n);
            consumeStaged(n);
            at += n;
            left -= n;
        }
    }


    /** Makes at least {@code need} bytes staged (the message has them): moves what is left to the front and pulls. */
    private void staged(final int need) {
        final int have = stageLimit - stagePos;
        if (have >= need) {
            return;
        }
        if (need - have > total - received - have) {
            throw endedEarly(need);
        }
        if (have > 0) {
            System.arraycopy(stage, stagePos, stage, 0, have);
        }
        stagePos = 0;
        stageLimit = have;
        final int n = Math.min(STAGE_BYTES - have, total - received - have);
        pull(stageRegion, have, n);
        stageLimit += n;
    }

    private void consumeStaged(final int bytes) {
        stagePos += bytes;
        received += bytes;
    }

    /** Pulls the next {@code bytes} of the message into a local region: one RDMA read per piece they span. */
    private void pull(final MemoryRegion local, final long localOffset, final int bytes) {
        long at = localOffset;
        int left = bytes;
        while (left > 0) {
            if (piece >= pieces) {
                throw new IllegalStateException("the rendezvous request from PE " + source + " names fewer bytes than "
                    + "its length " + total);
            }
            final int n = Math.min(left, length[piece] - pieceOffset);
            offload.postInternal(false, local, at, source, handle[piece], key[piece], offset[piece] + pieceOffset, n);
            at += n;
            left -= n;
            pieceOffset += n;
            if (pieceOffset == length[piece]) {
                piece++;
                pieceOffset = 0;
            }
        }
        offload.awaitInternal();
    }

    private void checkActive() {
        if (!active || Thread.currentThread() != thread) {
            throw new IllegalStateException("receive called outside the handler of this message");
        }
    }

    private void checkDeclared(final long bytes) {
        if (bytes > declared - received) {
            throw new IndexOutOfBoundsException("receive of " + bytes + " bytes after " + received
                + " goes beyond the declared length=" + declared + " of the message from PE " + source);
        }
    }

    private IllegalStateException endedEarly(final long wanted) {
        return new IllegalStateException("the message from PE " + source + " ended after " + total
            + " bytes; receive wanted " + wanted + " more after " + received);
    }
}
