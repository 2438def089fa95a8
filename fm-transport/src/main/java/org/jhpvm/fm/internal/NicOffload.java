package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.BooleanSupplier;

import org.jhpvm.fabric.Completion;
import org.jhpvm.fabric.CompletionQueue;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.WorkDescriptor;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmCompletion;
import org.jhpvm.fm.FmNicHandler;
import org.jhpvm.fm.FmOutputStream;

/**
 * An endpoint's NIC messages, RDMA and registered memory. Where the fabric's NIC runs handlers and moves RDMA bytes
 * ({@code offload}), requests are work descriptors posted to it: a NIC message's request is written straight into a
 * frame, the target NIC runs the handler, and the completion comes from the NIC's queue. Elsewhere (Aeron, or
 * {@code fm.nicOffload=false}) FM carries the same requests in its own messages ({@link MessageOffload}) and serves
 * them inside the target's extract, with the same checks and results.
 * <p>
 * The endpoint's thread only.
 */
final class NicOffload {
    /** The context of FM's own transfers: negative, which users may not give. */
    private static final long INTERNAL_CONTEXT = -1;
    private final Endpoint ep;
    private final Nic nic;
    private final boolean offload;
    private final int frameBytes;
    final FmRegionTable regions;
    final FmNicHandler[] handlers = new FmNicHandler[FastMessages.MAX_NIC_HANDLERS];
    final CompletionLog log = new CompletionLog();
    final CompletionQueues queues;
    private final NicRequestWriter writer = new NicRequestWriter(this);
    private final MessageOffload messages;
    // where the NIC does the work
    private final WorkDescriptor descriptor = new WorkDescriptor();
    private final Completion nicCompletion = new Completion();
    private final CompletionQueue nicQueue;
    /** FM's own RDMA transfers posted and not yet complete. */
    private int internalPending;
    // the open NIC message
    private int queue;
    private int dest;
    private int handler;
    private RegionImpl replyTo;
    private long replyOffset;
    private int replyCapacity;
    private long context;
    private Frame frame;
    // awaitCompletion without a lambda per call
    private FmCompletion awaitInto;
    private final BooleanSupplier completed = () -> pollCompletion(awaitInto);

    NicOffload(final Endpoint ep, final Nic nic, final boolean offload, final int frameBytes, final long keySeed,
               final int hostStagingBytes, final FlowControl flow) {
        this.ep = ep;
        this.nic = nic;
        this.offload = offload;
        this.frameBytes = frameBytes;
        this.regions = new FmRegionTable(nic, offload, keySeed);
        this.nicQueue = offload ? nic.completionQueue() : null;
        this.queues = new CompletionQueues(ep.pe(), nic, offload, log);
        this.messages = offload ? null : new MessageOffload(ep, this, frameBytes,
            hostStagingBytes == 0 || ep.virtualClock() || ep.hostMemory().isEmpty() ? null
                : new StagedTransfers(ep.hostMemory().get(), ep.pe(), ep.pes(), hostStagingBytes, flow));
    }

    /** {@link org.jhpvm.fm.FastMessages#awaitArrival}: the NIC's wait for an arrival (its bell, where it has one). */
    void awaitArrival(final java.util.function.BooleanSupplier lastLook, final long timeoutNs) {
        nic.awaitArrival(lastLook, timeoutNs);
    }

    boolean offload() {
        return offload;
    }

    int maxMessageBytes() {
        return frameBytes;
    }

    RegionImpl register(final Object memory) {
        return regions.register(Objects.requireNonNull(memory, "memory"));
    }

    RegionImpl register(final Object memory, final int handle, final int key) {
        return regions.register(Objects.requireNonNull(memory, "memory"), handle, key);
    }

    void deregister(final Object region) {
        if (!(region instanceof RegionImpl r)) {
            throw new IllegalArgumentException(region + " is not a region of this endpoint");
        }
        regions.deregister(r);
    }

    void registerNicHandler(final int id, final FmNicHandler h) {
        Objects.requireNonNull(h, "handler");
        if (id < 0 || id >= FastMessages.MAX_NIC_HANDLERS) {
            throw new IllegalArgumentException("NIC handler id=" + id + " outside 0.."
                + (FastMessages.MAX_NIC_HANDLERS - 1));
        }
        if (handlers[id] != null) {
            throw new IllegalArgumentException("NIC handler id=" + id + " is already registered on PE " + ep.pe());
        }
        handlers[id] = h;
        if (offload) {
            nic.registerNicHandler(id, m -> {
                final NicMessageView v = NicMessageView.onNic();
                v.bindNic(m);
                try {
                    h.onMessage(v);
                } finally {
                    v.unbind();
                }
            });
        }
    }

    boolean messageOpen() {
        return writer.isOpen();
    }

    FmOutputStream begin(final int onQueue, final int to, final int lengthBytes, final int nicHandler,
                         final Object reply, final long replyOffsetBytes, final int replyCapacityBytes,
                         final long requestContext) {
        if (lengthBytes < 0 || lengthBytes > frameBytes) {
            throw new IllegalArgumentException("NIC message length=" + lengthBytes + " outside 0.." + frameBytes);
        }
        if (nicHandler < 0 || nicHandler >= FastMessages.MAX_NIC_HANDLERS) {
            throw new IllegalArgumentException("NIC handler id=" + nicHandler + " outside 0.."
                + (FastMessages.MAX_NIC_HANDLERS - 1));
        }
        checkContext(requestContext);
        final RegionImpl r = checkReply(reply, replyOffsetBytes, replyCapacityBytes);
        this.queue = onQueue;
        this.dest = to;
        this.handler = nicHandler;
        this.replyTo = r;
        this.replyOffset = replyOffsetBytes;
        this.replyCapacity = r == null ? 0 : replyCapacityBytes;
        this.context = requestContext;
        if (offload) {
            frame = acquireFrame();
            writer.begin(frame.segment(), frame.payloadOffset(), lengthBytes);
        } else {
            writer.begin(messages.requestStaging(), 0, lengthBytes);
        }
        return writer;
    }

    private RegionImpl checkReply(final Object reply, final long offset, final int capacity) {
        if (reply == null) {
            return null;
        }
        if (!(reply instanceof RegionImpl r) || regions.lookup(r.handle) != r) {
            throw new IllegalArgumentException(reply + " is not registered on PE " + ep.pe());
        }
        if (capacity < 0 || capacity > frameBytes || !r.contains(offset, capacity)) {
            throw new IllegalArgumentException("reply room of " + capacity + " bytes at " + offset + " outside "
                + r + " or above " + frameBytes + " (a reply is one frame)");
        }
        return r;
    }

    /** The request is written: send it. */
    void send(final int lengthBytes) {
        if (!offload) {
            messages.sendRequest(queue, dest, handler, lengthBytes, replyTo, replyOffset, replyCapacity, context);
            return;
        }
        final Frame f = frame;
        frame = null;
        f.setDestination(dest).setLength(lengthBytes);
        descriptor.nicMessage(f, handler, replyTo == null ? null : replyTo.nicRegion, replyOffset, replyCapacity,
            context);
        // No helper between: this chain runs a handler on the target's NIC, and every level counts against inlining.
        if (queue == 0) {
            post();
        } else {
            queues.post(queue, descriptor);
        }
    }

    void rdma(final int onQueue, final boolean write, final Object local, final long localOffset, final int to,
              final int remoteHandle, final int remoteKey, final long remoteOffset, final long lengthBytes,
              final long requestContext) {
        if (!(local instanceof RegionImpl r)) {
            throw new IllegalArgumentException("the local side of RDMA must be a region registered on PE " + ep.pe()
                + ", not " + local);
        }
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("lengthBytes=" + lengthBytes + " is negative");
        }
        checkContext(requestContext);
        if (!offload) {
            messages.rdma(onQueue, write, r, localOffset, to, remoteHandle, remoteKey, remoteOffset, lengthBytes,
                requestContext);
            return;
        }
        if (write) {
            descriptor.rdmaWrite(r.nicRegion, localOffset, to, remoteHandle, remoteKey, remoteOffset, lengthBytes,
                requestContext);
        } else {
            descriptor.rdmaRead(r.nicRegion, localOffset, to, remoteHandle, remoteKey, remoteOffset, lengthBytes,
                requestContext);
        }
        if (onQueue == 0) {
            post();
        } else {
            queues.post(onQueue, descriptor);
        }
    }

    private static void checkContext(final long requestContext) {
        if (requestContext < 0) {
            throw new IllegalArgumentException("context=" + requestContext + " is negative: negative contexts are "
                + "FM's own");
        }
    }

    // ---------------------------------------------------------------- FM's own RDMA (rendezvous)

    /**
     * Posts one of FM's own RDMA transfers between fabric regions: its completion is counted here, never shown to
     * the user (its context is negative).
     */
    void postInternal(final boolean write, final MemoryRegion local, final long localOffset, final int to,
                      final int remoteHandle, final int remoteKey, final long remoteOffset, final long lengthBytes) {
        if (write) {
            descriptor.rdmaWrite(local, localOffset, to, remoteHandle, remoteKey, remoteOffset, lengthBytes,
                INTERNAL_CONTEXT);
        } else {
            descriptor.rdmaRead(local, localOffset, to, remoteHandle, remoteKey, remoteOffset, lengthBytes,
                INTERNAL_CONTEXT);
        }
        internalPending++;
        post();
    }

    /** Waits until every one of FM's own transfers is complete, keeping the protocol going. */
    void awaitInternal() {
        drainNicQueue();
        while (internalPending > 0) {
            ep.checkUsable();
            ep.service(true);
            Thread.onSpinWait();
            drainNicQueue();
        }
    }

    /** Counts one of FM's own completions; a failed one ends this PE (the message it served cannot be delivered). */
    private void internalCompleted(final Completion c) {
        internalPending--;
        if (!c.ok()) {
            throw new IllegalStateException("PE " + ep.pe() + ": an RDMA transfer of a rendezvous message failed: "
                + c + " (the message cannot be delivered)");
        }
    }

    /** Posts the descriptor; a full NIC queue is emptied into the log first, so a post never has to wait. */
    private void post() {
        if (!nic.post(descriptor)) {
            drainNicQueue();
            if (!nic.post(descriptor)) {
                throw new IllegalStateException("the NIC refused a post with an empty completion queue");
            }
        }
    }

    private void drainNicQueue() {
        while (nicQueue.poll(nicCompletion)) {
            if (nicCompletion.context() < 0) {
                internalCompleted(nicCompletion);
            } else {
                log.add(nicCompletion.op(), nicCompletion.status(), nicCompletion.lengthBytes(),
                    nicCompletion.context());
            }
        }
    }

    private Frame acquireFrame() {
        Frame f = nic.tryAcquire();
        while (f == null) {
            // Every frame is out: the NIC's pool refills as receivers release frames; keep the protocol going.
            ep.checkUsable();
            ep.service(true);
            Thread.onSpinWait();
            f = nic.tryAcquire();
        }
        return f;
    }

    boolean pollCompletion(final FmCompletion into) {
        if (log.poll(into)) {
            return true;
        }
        while (offload && nicQueue.poll(nicCompletion)) {
            if (nicCompletion.context() < 0) {
                internalCompleted(nicCompletion);
                continue;
            }
            into.set(nicCompletion.op(), nicCompletion.status(), nicCompletion.lengthBytes(), nicCompletion.context());
            return true;
        }
        return false;
    }

    boolean awaitCompletion(final FmCompletion into, final long timeoutNs) {
        if (pollCompletion(into)) {
            return true;
        }
        requestCompletions();
        awaitInto = into;
        try {
            return ep.extractUntil(completed, timeoutNs);
        } finally {
            awaitInto = null;
        }
    }

    /** Sends what FM's message path owes other PEs (replies of requests it served); outside handlers only. */
    int flushDeferred() {
        return messages == null ? 0 : messages.flush();
    }

    /** Lets the targets of this PE's requests that want only their outcome hold back their successes (see FM). */
    void deferCompletions(final boolean on) {
        if (messages != null) {
            messages.deferred.turn(on);
        }
    }

    /** Asks the targets holding deferred completions of this PE to report them. */
    int requestCompletions() {
        return messages == null ? 0 : messages.requestCompletions();
    }

    MessageOffload messages() {
        return messages;
    }

    /** The PE has left the job with every PE done: what it keeps in host memory for FM's transfers goes. */
    void leave() {
        if (messages != null) {
            messages.close();
        }
    }
}
