package org.jhpvm.fm.internal;

import java.lang.invoke.VarHandle;

import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.VirtualTime;

/**
 * Frames in: polls the NIC and runs every arrived frame through the protocol (checksum, the acknowledgement it
 * carries, its sequence number, ACK and NACK frames), keeps accepted data frames the PE is not extracting yet in the
 * {@link HostQueue} (held by reference; when it is full a frame is rejected back to its sender, FM 1.0's
 * return-to-sender, or over a lean fabric left in the fabric), and hands data frames in order to the
 * {@link InboundStream} of their sender, which runs the handler. Single-threaded, driven by the endpoint's extract
 * and waits; nothing here allocates but a peer's stream, on its first message.
 */
final class ReceivePath {
    private static final VarHandle INT = FmFrameDescriptor.INT;
    private static final long READ_AHEAD_WAIT_NS = 20_000;

    private final Endpoint ep;
    private final Nic nic;
    private final HostQueue queue;
    private final Counters counters;
    private final FrameChecksum checksum;
    private final Retransmitter retransmitter;
    private final Acknowledger acks;
    private final boolean lean;
    private final int pe;
    private final int drainBudget;
    private final int queueFrames;
    private final int frameBytes;
    private final InboundStream[] inbound;

    ReceivePath(final Endpoint ep, final Nic nic, final HostQueue queue, final Counters counters,
                final FrameChecksum checksum, final Retransmitter retransmitter, final Acknowledger acks,
                final boolean lean, final int drainBudget, final int queueFrames, final int frameBytes) {
        this.ep = ep;
        this.nic = nic;
        this.queue = queue;
        this.counters = counters;
        this.checksum = checksum;
        this.retransmitter = retransmitter;
        this.acks = acks;
        this.lean = lean;
        this.pe = ep.pe();
        this.drainBudget = drainBudget;
        this.queueFrames = queueFrames;
        this.frameBytes = frameBytes;
        this.inbound = new InboundStream[ep.pes()];
    }

    /**
     * Runs handlers on arrived messages: queued frames first, then frames straight from the NIC.
     *
     * @return bytes of message data handled (an empty frame counts as 1)
     */
    int dispatchLoop(final int maxBytes) {
        int done = 0;
        int frames = 0;
        while (done < maxBytes && frames < drainBudget) {
            Frame f = queue.poll();
            if (f == null && (f = pollAccepted()) == null) {
                break;
            }
            done += Math.max(1, f.length());
            frames++;
            dispatch(f);
        }
        return done;
    }

    /** Reads ahead into the queue (without rejecting) and tells whether the message from source is all there. */
    boolean readAheadHasLast(final int source, final int declaredBytes) {
        drainNic(false);
        if (queue.hasLastFrom(source)) {
            return true;
        }
        // A message that fits the queue usually has its other frames right behind the first: wait for them a
        // little (a few microseconds of copying) rather than hand the handler to a virtual thread.
        if (declaredBytes > (queueFrames - queue.count()) * frameBytes) {
            return false;
        }
        // On the fabric's clock: in virtual time each look costs the modelled machine a poll, and the wait ends after
        // as many looks whatever this machine's speed.
        final long deadline = VirtualTime.nanoTime() + READ_AHEAD_WAIT_NS;
        do {
            Thread.onSpinWait();
            if (drainNic(false) > 0 && queue.hasLastFrom(source)) {
                return true;
            }
        } while (!queue.isFull() && VirtualTime.nanoTime() - deadline < 0);
        return false;
    }

    private void dispatch(final Frame f) {
        final int src = f.source();
        InboundStream s = inbound[src];
        if (s == null) {
            s = new InboundStream(ep, src);
            inbound[src] = s;
        }
        s.onFrame(f, (int) INT.get(f.array(), f.headerOffset() + FmFrameDescriptor.WORD_OFFSET));
    }

    /** @return the next in-order data frame from the NIC, handling control frames and rejects on the way */
    private Frame pollAccepted() {
        for (int i = 0; i < drainBudget; i++) {
            final Frame f = nic.poll();
            if (f == null) {
                return null;
            }
            if (accept(f, false)) {
                return f;
            }
        }
        return null;
    }

    /** Moves arrived frames into the queue; with {@code reject}, frames that do not fit are rejected. */
    int drainNic(final boolean rejectOverflow) {
        // Over a lean fabric nothing is rejected: what the queue cannot take waits in the fabric.
        final boolean reject = rejectOverflow && !lean;
        int n = 0;
        while (n < drainBudget && (reject || !queue.isFull())) {
            final Frame f = nic.poll();
            if (f == null) {
                break;
            }
            n++;
            if (accept(f, true)) {
                queue.add(f);
            }
        }
        return n;
    }

    /**
     * Runs an arrived frame through the protocol.
     *
     * @return true if it is the next data frame of its pair and the caller now owns it; false if it was a control
     *     frame or was rejected (it has been released)
     */
    private boolean accept(final Frame f, final boolean needRoom) {
        final int src = f.source();
        final byte[] a = f.array();
        final int h = f.headerOffset();
        final int length = f.length();
        if (!checksum.verify(f, length)) {
            counters.increment(Counters.CHECKSUM_REJECTS);
            nic.release(f);
            return false;
        }
        final int word = (int) INT.get(a, h + FmFrameDescriptor.WORD_OFFSET);
        final int type = FmFrameDescriptor.type(word);
        if (lean) {
            final int seq = (int) INT.get(a, h + FmFrameDescriptor.SEQ_OFFSET);
            if (type != FmFrameDescriptor.TYPE_DATA || seq != acks.expected(src)) {
                final int expected = acks.expected(src);
                nic.release(f);
                throw new IllegalStateException("PE " + pe + ": the fabric broke its guarantee of exactly-once, "
                    + "in-order delivery: frame type " + type + " seq " + seq + " from PE " + src + ", expected data "
                    + "seq " + expected);
            }
            acks.accepted(src);
            return true;
        }
        retransmitter.onAck(src, (int) INT.get(a, h + FmFrameDescriptor.ACK_OFFSET));
        if (type == FmFrameDescriptor.TYPE_DATA) {
            final int d = (int) INT.get(a, h + FmFrameDescriptor.SEQ_OFFSET) - acks.expected(src);
            if (d == 0 && !(needRoom && queue.isFull())) {
                acks.accepted(src);
                return true;
            }
            if (d < 0) {
                counters.increment(Counters.DUPLICATE_REJECTS);
                acks.forceAck(src);
            } else if (d > 0) {
                counters.increment(Counters.ORDER_REJECTS);
                acks.nack(src, 0);
            } else {
                counters.increment(Counters.BUFFER_REJECTS);
                acks.nack(src, FmFrameDescriptor.FLAG_REJECT);
            }
        } else if (type == FmFrameDescriptor.TYPE_NACK) {
            retransmitter.onNack(src, (int) INT.get(a, h + FmFrameDescriptor.SEQ_OFFSET),
                (FmFrameDescriptor.flags(word) & FmFrameDescriptor.FLAG_REJECT) != 0);
        }
        nic.release(f);
        return false;
    }

    /**
     * Parks inside the NIC for up to {@code timeoutNs} so that a delivery wakes the PE at once; a frame that arrives
     * is run through the protocol and queued.
     *
     * @return true if a frame arrived, false if the time ran out or the PE was woken without one
     */
    boolean awaitFrame(final long timeoutNs) {
        final Frame f = nic.sleep(timeoutNs); // the endpoint has spun and yielded already
        if (f != null && accept(f, true)) {
            queue.add(f);
        }
        return f != null;
    }

    /** @return true if a handler for a message from {@code source} is suspended, waiting for its next frame */
    boolean handlerSuspended(final int source) {
        final InboundStream s = inbound[source];
        return s != null && s.isSuspended();
    }

    /** Ends the suspended handlers at close. */
    void wakeForClose() {
        for (final InboundStream s : inbound) {
            if (s != null) {
                s.wakeForClose();
            }
        }
    }
}
