package org.jhpvm.fm.internal;

import java.util.Optional;
import java.util.function.BooleanSupplier;

import org.jhpvm.fabric.HostMemory;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmCompletion;
import org.jhpvm.fm.FmHostMemory;
import org.jhpvm.fm.FmNicHandler;
import org.jhpvm.fm.FmOutputStream;
import org.jhpvm.fm.FmRegion;

/**
 * The half of an endpoint's {@link FastMessages} API that talks to the NIC as a processor: registered memory, NIC
 * handlers and messages, RDMA and completions, each checked here and carried out by {@link NicOffload}; and the
 * host memory the fabric shares between the processes of a host. The
 * {@link Endpoint} is the rest (handlers, streams, extract, the protocol); it sets {@link #offload} when its parts
 * exist. Single-threaded, like the endpoint.
 */
abstract class EndpointNicApi implements FastMessages {
    final int pe;
    final int pes;
    /** Set once the PE has sent or extracted: handlers can no longer be registered. */
    boolean started;
    NicOffload offload;
    /** The fabric's host memory as this PE sees it, if the fabric has any. */
    private final Optional<FmHostMemory> hostMemory;

    EndpointNicApi(final int pe, final int pes, final Optional<HostMemory> fabricHostMemory) {
        this.pe = pe;
        this.pes = pes;
        this.hostMemory = fabricHostMemory.map(h -> new HostMemoryView(h, pe));
    }

    @Override
    public Optional<FmHostMemory> hostMemory() {
        return hostMemory;
    }

    @Override
    public void awaitArrival(final BooleanSupplier lastLook, final long timeoutNs) {
        offload.awaitArrival(lastLook, timeoutNs);
    }

    /** Checks the endpoint can be used: not closed, job not aborted. */
    abstract void checkUsable();

    /** @return true while an FM message is open on this endpoint (NIC requests must wait for its end) */
    abstract boolean messageOpen();

    @Override
    public boolean nicOffload() {
        return offload.offload();
    }

    @Override
    public boolean rdmaWriteSourceFreeOnReturn() {
        return !offload.offload(); // MessageOffload.rdma copies the bytes into frames or a ring before it returns
    }

    @Override
    public int maxNicMessageBytes() {
        return offload.maxMessageBytes();
    }

    @Override
    public FmRegion register(final Object memory) {
        checkUsable();
        return offload.register(memory);
    }

    @Override
    public FmRegion register(final Object memory, final int handle, final int key) {
        checkUsable();
        return offload.register(memory, handle, key);
    }

    @Override
    public void deregister(final FmRegion region) {
        checkUsable();
        offload.deregister(region);
    }

    @Override
    public void registerNicHandler(final int id, final FmNicHandler handler) {
        checkUsable();
        if (started) {
            throw new IllegalStateException("PE " + pe + " has already communicated: register NIC handlers before the "
                + "first send or extract");
        }
        offload.registerNicHandler(id, handler);
    }

    @Override
    public FmOutputStream beginNicMessage(final int dest, final int lengthBytes, final int handler,
                                          final FmRegion replyTo, final long replyOffsetBytes,
                                          final int replyCapacityBytes, final long context) {
        return beginNicMessage(0, dest, lengthBytes, handler, replyTo, replyOffsetBytes, replyCapacityBytes, context);
    }

    @Override
    public FmOutputStream beginNicMessage(final int queue, final int dest, final int lengthBytes, final int handler,
                                          final FmRegion replyTo, final long replyOffsetBytes,
                                          final int replyCapacityBytes, final long context) {
        checkRequest(dest);
        offload.queues.check(queue);
        started = true;
        return offload.begin(queue, dest, lengthBytes, handler, replyTo, replyOffsetBytes, replyCapacityBytes,
            context);
    }

    @Override
    public void rdmaWrite(final FmRegion local, final long localOffsetBytes, final int dest, final int remoteHandle,
                          final int remoteKey, final long remoteOffsetBytes, final long lengthBytes,
                          final long context) {
        rdmaWrite(0, local, localOffsetBytes, dest, remoteHandle, remoteKey, remoteOffsetBytes, lengthBytes, context);
    }

    @Override
    public void rdmaWrite(final int queue, final FmRegion local, final long localOffsetBytes, final int dest,
                          final int remoteHandle, final int remoteKey, final long remoteOffsetBytes,
                          final long lengthBytes, final long context) {
        checkRequest(dest);
        offload.queues.check(queue);
        started = true;
        offload.rdma(queue, true, local, localOffsetBytes, dest, remoteHandle, remoteKey, remoteOffsetBytes,
            lengthBytes, context);
    }

    @Override
    public void rdmaRead(final FmRegion local, final long localOffsetBytes, final int dest, final int remoteHandle,
                         final int remoteKey, final long remoteOffsetBytes, final long lengthBytes,
                         final long context) {
        rdmaRead(0, local, localOffsetBytes, dest, remoteHandle, remoteKey, remoteOffsetBytes, lengthBytes, context);
    }

    @Override
    public void rdmaRead(final int queue, final FmRegion local, final long localOffsetBytes, final int dest,
                         final int remoteHandle, final int remoteKey, final long remoteOffsetBytes,
                         final long lengthBytes, final long context) {
        checkRequest(dest);
        offload.queues.check(queue);
        started = true;
        offload.rdma(queue, false, local, localOffsetBytes, dest, remoteHandle, remoteKey, remoteOffsetBytes,
            lengthBytes, context);
    }

    @Override
    public int openQueue() {
        checkUsable();
        return offload.queues.open();
    }

    @Override
    public void closeQueue(final int queue) {
        checkUsable();
        offload.queues.close(queue);
    }

    @Override
    public boolean pollCompletion(final FmCompletion into) {
        checkUsable();
        return offload.pollCompletion(into);
    }

    @Override
    public boolean pollCompletion(final int queue, final FmCompletion into) {
        checkUsable();
        if (queue == 0) {
            return offload.pollCompletion(into);
        }
        offload.queues.check(queue);
        return offload.queues.poll(queue, into);
    }

    @Override
    public void deferCompletions(final boolean on) {
        checkUsable();
        offload.deferCompletions(on);
    }

    @Override
    public void requestCompletions() {
        checkUsable();
        offload.requestCompletions();
    }

    @Override
    public boolean awaitCompletion(final FmCompletion into, final long timeoutNs) {
        checkUsable();
        return offload.awaitCompletion(into, timeoutNs);
    }

    private void checkRequest(final int dest) {
        checkUsable();
        if (dest < 0 || dest >= pes) {
            throw new IndexOutOfBoundsException("destination PE " + dest + " outside 0.." + (pes - 1));
        }
        if (messageOpen() || offload.messageOpen()) {
            throw new IllegalStateException("a message is open on PE " + pe + ": endMessage it first");
        }
    }
}
