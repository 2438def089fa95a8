package org.jhpvm.mpi.internal;

/**
 * The operations of finished requests, kept for the next non-blocking send or receive: a window of {@code iSend}s or
 * {@code iRecv}s completed by {@code waitAll} made an operation per message, three quarters of an 8-byte stream's
 * allocation, and a young collection every few hundred thousand messages whose pause set off FM's retransmission
 * timers. An operation comes back only through {@link Engine#release}, which the API calls when a request lets go of
 * its finished operation (nothing else refers to it then: matching, the rendezvous ids and the RDMA reads have dropped
 * it before completing it). Operations that never come back (those of collectives, {@code sendRecv}, buffered sends,
 * a request freed before it finished) are left to the collector.
 * <p>
 * It also keeps the operation of the rank's last blocking receive, done and in no queue, for its next one: a blocking
 * {@code recv} returns only once its operation is done and read, so one operation serves them all (a new one was
 * about 100 bytes a message, three quarters of an 8-byte ping-pong's allocation). A receive whose wait an abort ended
 * may still be posted, and is not kept. Single-threaded, like the engine.
 */
final class OpPool {
    /** Operations of each kind kept at most. */
    static final int KEEP = 1024;

    private final RecvOp[] receives = new RecvOp[KEEP];
    private final SendOp[] sends = new SendOp[KEEP];
    private int receiveCount;
    private int sendCount;
    private RecvOp spare;

    /** @return the last blocking receive's operation, cleared, or a new one (never one of the pool's) */
    RecvOp spareReceive() {
        final RecvOp r = spare;
        if (r == null) {
            return new RecvOp();
        }
        spare = null;
        r.clear();
        return r;
    }

    /** Keeps a blocking receive's operation for the next one, if it is done. */
    void giveSpare(final RecvOp r) {
        if (r.done && !r.pooled) {
            spare = r;
        }
    }

    /** @return a cleared receive, marked as the pool's */
    RecvOp receive() {
        final RecvOp r;
        if (receiveCount > 0) {
            r = receives[--receiveCount];
            receives[receiveCount] = null;
        } else {
            r = new RecvOp();
        }
        r.pooled = true;
        return r;
    }

    /** @return a cleared send, marked as the pool's */
    SendOp send() {
        final SendOp s;
        if (sendCount > 0) {
            s = sends[--sendCount];
            sends[sendCount] = null;
        } else {
            s = new SendOp();
        }
        s.pooled = true;
        return s;
    }

    /**
     * Takes back a finished operation this pool gave out; anything else (not the pool's, not done, or given back
     * already) is ignored.
     *
     * @param p the operation
     */
    void give(final Pending p) {
        if (!p.pooled || !p.done) {
            return;
        }
        p.pooled = false;
        if (p instanceof RecvOp r) {
            if (receiveCount < KEEP) {
                r.clear();
                receives[receiveCount++] = r;
            }
        } else if (p instanceof SendOp s && sendCount < KEEP) {
            s.clear();
            sends[sendCount++] = s;
        }
    }

    /** @return operations kept now (receives and sends) */
    int kept() {
        return receiveCount + sendCount;
    }
}
