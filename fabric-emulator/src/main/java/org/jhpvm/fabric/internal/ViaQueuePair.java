package org.jhpvm.fabric.internal;

import org.jhpvm.fabric.CompletionQueue;
import org.jhpvm.fabric.QueuePair;
import org.jhpvm.fabric.WorkDescriptor;

/** A queue pair of the emulated NIC: its engine's posts, with a completion ring of its own. */
final class ViaQueuePair implements QueuePair {
    private final ViaEngine engine;
    private final int nicId;
    private final CompletionRing ring;
    private boolean closed;

    ViaQueuePair(final ViaEngine engine, final int nicId, final CompletionRing ring) {
        this.engine = engine;
        this.nicId = nicId;
        this.ring = ring;
    }

    @Override
    public boolean post(final WorkDescriptor descriptor) {
        if (closed) {
            throw new IllegalStateException("post on a closed queue pair of NIC " + nicId);
        }
        return engine.post(descriptor, ring);
    }

    @Override
    public CompletionQueue completionQueue() {
        return ring;
    }

    @Override
    public void close() {
        if (closed) {
            throw new IllegalStateException("the queue pair of NIC " + nicId + " is already closed");
        }
        if (ring.size() > 0) {
            throw new IllegalStateException(ring.size() + " completions are waiting on the queue pair's queue: poll "
                + "them before closing it");
        }
        closed = true;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "QueuePair[NIC " + nicId + (closed ? ", closed]" : "]");
    }
}
