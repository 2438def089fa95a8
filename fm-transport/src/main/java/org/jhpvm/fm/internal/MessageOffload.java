package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Arrays;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmCompletion;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmNicHandler;

/**
 * NIC messages and RDMA carried in FM's own messages, for fabrics whose NIC does neither (Aeron), or when
 * {@code fm.nicOffload=false}: the same requests, checks and completions as where the NIC does the work, served by
 * the target's extract instead of its NIC. A request travels in one message to one of FM's internal handlers; the
 * target answers with another (a reply, the read bytes, or the write's outcome), which the requester's extract turns
 * into a completion. The target's answers are queued while its handlers run and sent when extract is done with them
 * ({@link #flush()}): a handler that sent them itself could wait for flow control inside the handler.
 * <p>
 * The handlers of a write, a read's data and a reply read their header and receive the bytes straight into the region
 * ({@link InboundStream.SinkHandler}): they run inline on the first frame, and extract copies the later frames into the
 * region as they come, then completes the operation; a large transfer needs no virtual thread.
 * <p>
 * A request takes two frames when its bytes come near a frame's size, and then its handler may wait for the second
 * frame while extract serves requests of other senders ({@link InboundStream}): each sender's request is therefore
 * received into that sender's own buffer, never into one they share.
 * <pre>
 *   NIC_REQUEST  int handler, int slot, int replyCapacity, int length, request bytes
 *   NIC_REPLY    int slot, int status, int length, reply bytes
 *   RDMA_WRITE   int slot, int handle, int key, long offset, long length, bytes
 *   RDMA_DONE    int slot, int status
 *   RDMA_READ    int slot, int handle, int key, long offset, long length
 *   RDMA_DATA    int slot, int status, long length, bytes
 *   STAGED_WRITE int slot, int handle, int key, long offset, long length, long pieceOffset, int pieceLength,
 *                int ring, int ringSlot
 *   STAGED_DATA  int slot, long length, long pieceOffset, int pieceLength, int ring, int ringSlot
 *   REPORT       (nothing)
 *   DONES        int count
 * </pre>
 * With deferred completions on ({@link DeferredCompletions}), a NIC message with no reply capacity and a write in
 * frames carry {@link DeferredCompletions#FLAG} in their slot: the target counts their success instead of answering
 * it, and reports the count in a DONES when the requester sends REPORT, when it owes
 * {@link DeferredCompletions#REPORT_EVERY}, or just before the NIC_REPLY or RDMA_DONE of a failed one (whose slot
 * keeps the flag).
 * Between two PEs of one host the bytes of a write or read of at least {@code fm.hostStagingBytes} go through host
 * memory instead ({@link StagedTransfers}): a write is a STAGED_WRITE per piece, each checked against the whole
 * write's range so that a write that fails its checks changes nothing, and the last piece's handler answers with
 * RDMA_DONE; a read is answered with a STAGED_DATA per piece, the last of which completes it (a read that fails its
 * checks is answered with RDMA_DATA and its status, as before).
 * The endpoint's thread only.
 */
final class MessageOffload {
    static final int H_NIC_REQUEST = FastMessages.MAX_HANDLERS;
    static final int H_NIC_REPLY = FastMessages.MAX_HANDLERS + 1;
    static final int H_RDMA_WRITE = FastMessages.MAX_HANDLERS + 2;
    static final int H_RDMA_DONE = FastMessages.MAX_HANDLERS + 3;
    static final int H_RDMA_READ = FastMessages.MAX_HANDLERS + 4;
    static final int H_RDMA_DATA = FastMessages.MAX_HANDLERS + 5;
    static final int H_STAGED_WRITE = FastMessages.MAX_HANDLERS + 6;
    static final int H_STAGED_DATA = FastMessages.MAX_HANDLERS + 7;
    static final int H_REPORT = FastMessages.MAX_HANDLERS + 8;
    static final int H_DONES = FastMessages.MAX_HANDLERS + 9;
    /** Internal handlers this class registers, from {@link FastMessages#MAX_HANDLERS}. */
    static final int HANDLERS = 10;

    /** An answer owed to another PE, queued by a handler and sent by {@link #flush()}. */
    private static final class Answer {
        final byte[] bytes;
        final MemorySegment segment;
        int dest;
        int handler;
        int slot;
        int status;
        int length;
        MemorySegment data;
        long dataOffset;
        long dataLength;

        Answer(final int frameBytes) {
            this.bytes = new byte[frameBytes];
            this.segment = MemorySegment.ofArray(bytes);
        }
    }

    private final Endpoint ep;
    private final NicOffload offload;
    private final int frameBytes;
    /** Transfers between PEs of one host through host memory, or null. */
    private final StagedTransfers staged;
    private final MemorySegment requestStaging;
    /** Per sender, the request being received (allocated at its first request): see the class comment. */
    private final byte[][] served;
    private final MemorySegment[] servedSegment;
    private final NicMessageView view = new NicMessageView();
    private final ArrayDeque<Answer> answers = new ArrayDeque<>();
    private final ArrayDeque<Answer> spareAnswers = new ArrayDeque<>();
    private boolean flushing;
    /** A reply's or a read's bytes have landed in the requester's region: its completion (slot, length). */
    private final InboundStream.SinkDone landed = (context, slot, length) -> complete((int) slot, FmCompletion.OK,
        length);
    /** A write's bytes have landed in the target's region: its answer goes. */
    private final InboundStream.SinkDone written = (context, a, b) -> answers.add((Answer) context);
    /** A deferred write's bytes have landed: its success is counted for the requester ({@code a}). */
    private final InboundStream.SinkDone writtenDeferred = (context, requester, b) -> succeeded((int) requester);
    /** Completions held back, both as requester and as target. */
    final DeferredCompletions deferred;
    // requests of this PE waiting for their answer, by slot
    private int[] slotOp = new int[16];
    private RegionImpl[] slotRegion = new RegionImpl[16];
    private long[] slotOffset = new long[16];
    private long[] slotLength = new long[16];
    private long[] slotContext = new long[16];
    private int[] slotQueue = new int[16];
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int nextSlot;

    MessageOffload(final Endpoint ep, final NicOffload offload, final int frameBytes, final StagedTransfers staged) {
        this.ep = ep;
        this.offload = offload;
        this.frameBytes = frameBytes;
        this.staged = staged;
        this.requestStaging = MemorySegment.ofArray(new byte[frameBytes]);
        this.served = new byte[ep.pes()][];
        this.servedSegment = new MemorySegment[ep.pes()];
        this.deferred = new DeferredCompletions(ep.pes());
        ep.registerInternal(H_NIC_REQUEST, (in, sender) -> onRequest(in, sender));
        ep.registerInternal(H_NIC_REPLY, (InboundStream.SinkHandler) (in, sender) -> onReply(in, sender));
        ep.registerInternal(H_RDMA_WRITE, (InboundStream.SinkHandler) (in, sender) -> onWrite(in, sender));
        ep.registerInternal(H_RDMA_DONE, (in, sender) -> onDone(in, sender));
        ep.registerInternal(H_RDMA_READ, (in, sender) -> onRead(in, sender));
        ep.registerInternal(H_RDMA_DATA, (InboundStream.SinkHandler) (in, sender) -> onData(in));
        ep.registerInternal(H_STAGED_WRITE, (in, sender) -> onStagedWrite(in, sender));
        ep.registerInternal(H_STAGED_DATA, (in, sender) -> onStagedData(in, sender));
        ep.registerInternal(H_REPORT, (in, sender) -> report(sender));
        ep.registerInternal(H_DONES, (in, sender) -> onDones(in, sender));
    }

    /** The PE leaves the job: the host memory rings go (see {@link StagedTransfers#close}). */
    void close() {
        if (staged != null) {
            staged.close();
        }
    }

    MemorySegment requestStaging() {
        return requestStaging;
    }

    // ---------------------------------------------------------------- the requester

    void sendRequest(final int queue, final int dest, final int handler, final int length, final RegionImpl replyTo,
                     final long replyOffset, final int replyCapacity, final long context) {
        final int slot = slot(queue, FmCompletion.NIC_MESSAGE, replyTo, replyOffset, replyCapacity, context);
        final OutboundStream out = ep.beginInternal(dest, 16 + length, H_NIC_REQUEST);
        out.sendInt(handler);
        out.sendInt(replyCapacity == 0 && deferred.on() ? deferred.posted(dest, slot) : slot);
        out.sendInt(replyCapacity);
        out.sendInt(length);
        out.sendSegment(requestStaging, 0, length);
        out.endMessage();
    }

    void rdma(final int queue, final boolean write, final RegionImpl local, final long localOffset, final int dest,
              final int handle, final int key, final long remoteOffset, final long length, final long context) {
        final int op = write ? FmCompletion.RDMA_WRITE : FmCompletion.RDMA_READ;
        if (offload.regions.lookup(local.handle) != local) {
            offload.queues.log(queue).add(op, FmCompletion.ERR_NOT_REGISTERED, 0, context);
            return;
        }
        if (!local.contains(localOffset, length)) {
            offload.queues.log(queue).add(op, FmCompletion.ERR_OUT_OF_BOUNDS, 0, context);
            return;
        }
        final int slot = slot(queue, op, local, localOffset, length, context);
        if (write && staged != null && staged.applies(dest, length)) {
            stagedWrite(slot, dest, handle, key, remoteOffset, local.segment, localOffset, length);
            return;
        }
        final OutboundStream out = ep.beginInternal(dest, 28 + (write ? (int) Math.min(Integer.MAX_VALUE - 28, length)
            : 0), write ? H_RDMA_WRITE : H_RDMA_READ);
        out.sendInt(write && deferred.on() ? deferred.posted(dest, slot) : slot);
        out.sendInt(handle);
        out.sendInt(key);
        out.sendLong(remoteOffset);
        out.sendLong(length);
        if (write) {
            out.sendSegment(local.segment, localOffset, length);
        }
        out.endMessage();
    }

    /** A write's pieces through the ring to {@code dest}: the source is free when this returns. */
    private void stagedWrite(final int slot, final int dest, final int handle, final int key, final long remoteOffset,
                             final MemorySegment src, final long srcOffset, final long length) {
        long done = 0;
        do {
            final int piece = (int) Math.min(StagedTransfers.PIECE_BYTES, length - done);
            final int ringSlot = staged.stage(dest, src, srcOffset + done, piece);
            final OutboundStream out = ep.beginInternal(dest, 48, H_STAGED_WRITE);
            out.sendInt(slot);
            out.sendInt(handle);
            out.sendInt(key);
            out.sendLong(remoteOffset);
            out.sendLong(length);
            out.sendLong(done);
            out.sendInt(piece);
            out.sendInt(staged.ringName(dest));
            out.sendInt(ringSlot);
            out.endMessage();
            done += piece;
        } while (done < length);
    }

    private void onStagedData(final FmInputStream in, final int sender) {
        final int slot = in.receiveInt();
        final long length = in.receiveLong();
        final long pieceOffset = in.receiveLong();
        final int piece = in.receiveInt();
        final int ring = in.receiveInt();
        final int ringSlot = in.receiveInt();
        staged.unstage(sender, ring, ringSlot, slotRegion[slot].segment, slotOffset[slot] + pieceOffset, piece);
        if (pieceOffset + piece == length) {
            complete(slot, FmCompletion.OK, length);
        }
    }

    /**
     * Asks every PE holding deferred requests of this PE that it has not asked since to report them: one REPORT
     * message to each.
     *
     * @return REPORTs sent
     */
    int requestCompletions() {
        final int n = deferred.unaskedTargets();
        for (int i = 0; i < n; i++) {
            ep.beginInternal(deferred.unaskedTarget(i), 0, H_REPORT).endMessage();
        }
        deferred.asked();
        return n;
    }

    /** A count of deferred requests that succeeded at {@code sender}: the oldest it holds complete. */
    private void onDones(final FmInputStream in, final int sender) {
        final int count = in.receiveInt();
        for (int i = 0; i < count; i++) {
            final int slot = deferred.take(sender, -1);
            complete(slot, FmCompletion.OK, slotOp[slot] == FmCompletion.RDMA_WRITE ? slotLength[slot] : 0);
        }
    }

    /** The slot an answer names: a deferred one (a failure) is the oldest {@code sender} holds. */
    private int answered(final int field, final int sender) {
        return (field & DeferredCompletions.FLAG) == 0 ? field
            : deferred.take(sender, field & ~DeferredCompletions.FLAG);
    }

    private void onReply(final FmInputStream in, final int sender) {
        final int slot = answered(in.receiveInt(), sender);
        final int status = in.receiveInt();
        final int length = in.receiveInt();
        if (status == FmCompletion.OK && length > 0) {
            ((InboundStream) in).receiveSegmentThen(slotRegion[slot].segment, slotOffset[slot], length, landed, null,
                slot, length);
        } else {
            complete(slot, status, status == FmCompletion.OK ? length : 0);
        }
    }

    private void onDone(final FmInputStream in, final int sender) {
        final int slot = answered(in.receiveInt(), sender);
        final int status = in.receiveInt();
        complete(slot, status, status == FmCompletion.OK ? slotLength[slot] : 0);
    }

    private void onData(final FmInputStream in) {
        final int slot = in.receiveInt();
        final int status = in.receiveInt();
        final long length = in.receiveLong();
        if (status == FmCompletion.OK) {
            ((InboundStream) in).receiveSegmentThen(slotRegion[slot].segment, slotOffset[slot], length, landed, null,
                slot, length);
        } else {
            complete(slot, status, 0);
        }
    }

    private int slot(final int queue, final int op, final RegionImpl region, final long offset, final long length,
                     final long ctx) {
        final int slot;
        if (freeCount > 0) {
            slot = freeSlots[--freeCount];
        } else {
            slot = nextSlot++;
            if (slot == slotOp.length) {
                final int n = slotOp.length * 2;
                slotOp = Arrays.copyOf(slotOp, n);
                slotRegion = Arrays.copyOf(slotRegion, n);
                slotOffset = Arrays.copyOf(slotOffset, n);
                slotLength = Arrays.copyOf(slotLength, n);
                slotContext = Arrays.copyOf(slotContext, n);
                slotQueue = Arrays.copyOf(slotQueue, n);
                freeSlots = Arrays.copyOf(freeSlots, n);
            }
        }
        slotOp[slot] = op;
        slotRegion[slot] = region;
        slotOffset[slot] = offset;
        slotLength[slot] = length;
        slotContext[slot] = ctx;
        slotQueue[slot] = queue;
        offload.queues.sent(queue);
        return slot;
    }

    private void complete(final int slot, final int status, final long length) {
        final int queue = slotQueue[slot];
        offload.queues.answered(queue);
        offload.queues.log(queue).add(slotOp[slot], status, length, slotContext[slot]);
        slotRegion[slot] = null;
        freeSlots[freeCount++] = slot;
    }

    // ---------------------------------------------------------------- the target

    private void onRequest(final FmInputStream in, final int sender) {
        final int handler = in.receiveInt();
        final int slot = in.receiveInt();
        final int capacity = in.receiveInt();
        final int length = in.receiveInt();
        if (served[sender] == null) {
            served[sender] = new byte[frameBytes];
            servedSegment[sender] = MemorySegment.ofArray(served[sender]);
        }
        // May wait for the request's second frame, while extract runs other senders' requests: not a shared buffer.
        in.receive(served[sender], 0, length);
        final FmNicHandler h = handler >= 0 && handler < FastMessages.MAX_NIC_HANDLERS ? offload.handlers[handler]
            : null;
        final Answer a = answer(sender, H_NIC_REPLY, slot);
        if (h == null) {
            a.status = FmCompletion.ERR_NO_HANDLER;
        } else {
            view.bindMessage(sender, servedSegment[sender], length, offload.regions, a.segment, capacity);
            try {
                h.onMessage(view);
            } catch (final IndexOutOfBoundsException e) {
                if (!view.overflowed()) {
                    throw e;
                }
            } finally {
                view.unbind();
            }
            a.status = view.rejected() ? FmCompletion.ERR_REJECTED
                : view.overflowed() ? FmCompletion.ERR_OUT_OF_BOUNDS : FmCompletion.OK;
            a.length = a.status == FmCompletion.OK ? (int) view.replyLength() : 0;
        }
        answer(a, sender, slot);
    }

    /** Queues answer {@code a} to a request whose slot on the wire is {@code field}; a deferred success is counted. */
    private void answer(final Answer a, final int sender, final int field) {
        if ((field & DeferredCompletions.FLAG) == 0) {
            answers.add(a);
        } else if (a.status == FmCompletion.OK) {
            spareAnswers.add(a);
            succeeded(sender);
        } else {
            report(sender); // the successes before it go first: the requester takes its deferred slots in order
            answers.add(a);
        }
    }

    private void succeeded(final int requester) {
        if (deferred.succeeded(requester)) {
            report(requester);
        }
    }

    /** Queues a DONES with the successes owed to {@code requester}, if any. */
    private void report(final int requester) {
        final int n = deferred.report(requester);
        if (n > 0) {
            final Answer a = answer(requester, H_DONES, 0);
            a.length = n;
            answers.add(a);
        }
    }

    private void onWrite(final FmInputStream in, final int sender) {
        final int slot = in.receiveInt();
        final int handle = in.receiveInt();
        final int key = in.receiveInt();
        final long offset = in.receiveLong();
        final long length = in.receiveLong();
        final RegionImpl r = offload.regions.lookup(handle);
        final int status = check(r, key, offset, length);
        if (status == FmCompletion.OK && (slot & DeferredCompletions.FLAG) != 0) {
            ((InboundStream) in).receiveSegmentThen(r.segment, offset, length, writtenDeferred, null, sender, 0);
            return;
        }
        final Answer a = answer(sender, H_RDMA_DONE, slot);
        a.status = status;
        if (status == FmCompletion.OK) {
            ((InboundStream) in).receiveSegmentThen(r.segment, offset, length, written, a, 0, 0);
        } else {
            answer(a, sender, slot);
        }
    }

    private void onStagedWrite(final FmInputStream in, final int sender) {
        final int slot = in.receiveInt();
        final int handle = in.receiveInt();
        final int key = in.receiveInt();
        final long offset = in.receiveLong();
        final long length = in.receiveLong();
        final long pieceOffset = in.receiveLong();
        final int piece = in.receiveInt();
        final int ring = in.receiveInt();
        final int ringSlot = in.receiveInt();
        final RegionImpl r = offload.regions.lookup(handle);
        final int status = check(r, key, offset, length);
        staged.unstage(sender, ring, ringSlot, status == FmCompletion.OK ? r.segment : null, offset + pieceOffset,
            piece);
        if (pieceOffset + piece == length) {
            final Answer a = answer(sender, H_RDMA_DONE, slot);
            a.status = status;
            answers.add(a);
        }
    }

    private void onRead(final FmInputStream in, final int sender) {
        final int slot = in.receiveInt();
        final int handle = in.receiveInt();
        final int key = in.receiveInt();
        final long offset = in.receiveLong();
        final long length = in.receiveLong();
        final RegionImpl r = offload.regions.lookup(handle);
        final Answer a = answer(sender, H_RDMA_DATA, slot);
        a.status = check(r, key, offset, length);
        if (a.status == FmCompletion.OK) {
            // The bytes go when the answer goes, straight from the region (a read sees memory during the operation).
            a.data = r.segment;
            a.dataOffset = offset;
            a.dataLength = length;
        }
        answers.add(a);
    }

    private static int check(final RegionImpl r, final int key, final long offset, final long length) {
        return r == null ? FmCompletion.ERR_NOT_REGISTERED : r.key != key ? FmCompletion.ERR_BAD_KEY
            : !r.contains(offset, length) ? FmCompletion.ERR_OUT_OF_BOUNDS : FmCompletion.OK;
    }

    /** A read's bytes through the ring to the requester, a piece at a time. */
    private void sendStaged(final Answer a) {
        long done = 0;
        do {
            final int piece = (int) Math.min(StagedTransfers.PIECE_BYTES, a.dataLength - done);
            final int ringSlot = staged.stage(a.dest, a.data, a.dataOffset + done, piece);
            final OutboundStream out = ep.beginInternal(a.dest, 32, H_STAGED_DATA);
            out.sendInt(a.slot);
            out.sendLong(a.dataLength);
            out.sendLong(done);
            out.sendInt(piece);
            out.sendInt(staged.ringName(a.dest));
            out.sendInt(ringSlot);
            out.endMessage();
            done += piece;
        } while (done < a.dataLength);
    }

    private Answer answer(final int dest, final int handler, final int slot) {
        final Answer a = spareAnswers.isEmpty() ? new Answer(frameBytes) : spareAnswers.poll();
        a.dest = dest;
        a.handler = handler;
        a.slot = slot;
        a.status = FmCompletion.OK;
        a.length = 0;
        a.data = null;
        a.dataOffset = 0;
        a.dataLength = 0;
        return a;
    }

    /**
     * Sends the queued answers. Sending may wait for flow control and run handlers meanwhile, which may queue more
     * answers: they go in the same call.
     *
     * @return answers sent
     */
    int flush() {
        if (flushing || answers.isEmpty()) {
            return 0;
        }
        flushing = true;
        int sent = 0;
        try {
            Answer a;
            while ((a = answers.poll()) != null) {
                switch (a.handler) {
                    case H_NIC_REPLY -> {
                        final OutboundStream out = ep.beginInternal(a.dest, 12 + a.length, H_NIC_REPLY);
                        out.sendInt(a.slot);
                        out.sendInt(a.status);
                        out.sendInt(a.length);
                        out.sendSegment(a.segment, 0, a.length);
                        out.endMessage();
                    }
                    case H_RDMA_DONE -> {
                        final OutboundStream out = ep.beginInternal(a.dest, 8, H_RDMA_DONE);
                        out.sendInt(a.slot);
                        out.sendInt(a.status);
                        out.endMessage();
                    }
                    case H_DONES -> {
                        final OutboundStream out = ep.beginInternal(a.dest, 4, H_DONES);
                        out.sendInt(a.length);
                        out.endMessage();
                    }
                    default -> {
                        if (a.data != null && staged != null && staged.applies(a.dest, a.dataLength)) {
                            sendStaged(a);
                            a.data = null;
                            spareAnswers.add(a);
                            sent++;
                            continue;
                        }
                        final int length = (int) Math.min(Integer.MAX_VALUE - 16, a.dataLength);
                        final OutboundStream out = ep.beginInternal(a.dest, 16 + length, H_RDMA_DATA);
                        out.sendInt(a.slot);
                        out.sendInt(a.status);
                        out.sendLong(a.dataLength);
                        if (a.data != null) {
                            out.sendSegment(a.data, a.dataOffset, a.dataLength);
                        }
                        out.endMessage();
                    }
                }
                a.data = null;
                spareAnswers.add(a);
                sent++;
            }
        } finally {
            flushing = false;
        }
        return sent;
    }
}
