package org.jhpvm.fm.internal;

import java.lang.invoke.VarHandle;
import java.util.Arrays;

import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fm.FmConfig;

/**
 * The receiver's half of FM's reliability: the sequence number expected next from each sender, the cumulative
 * acknowledgements owed to them (an explicit ACK at once after {@code ackEveryFrames} unacknowledged frames or a
 * duplicate, else after {@code ackDelayNs} unless a data frame carried it first), NACKs naming a gap or a rejected
 * frame (at most one per gap per {@code rtoMinNs/2}), and the control frames kept back to send them. Over a lean
 * fabric it only counts accepted frames. Single-threaded, driven by the endpoint; nothing here allocates.
 */
final class Acknowledger {
    private static final VarHandle INT = FmFrameDescriptor.INT;
    private static final int CONTROL_FRAMES = 2;

    private final Nic nic;
    private final FmConfig config;
    private final Counters counters;
    private final FrameChecksum checksum;
    private final boolean lean;
    private final int ackEvery;
    private final Frame[] control = new Frame[CONTROL_FRAMES];
    private int controlCount;

    // Per source.
    private final int[] expectedSeq;
    private final int[] ackSentSeq;
    private final int[] nackedSeq;
    private final long[] nackedAtNs;
    private final long[] ackSinceNs;
    private final boolean[] ackForced;
    private final boolean[] ackListed;
    private final int[] ackList;
    private int ackListCount;
    /** The fabric keeps a virtual clock: the timers run on it ({@link FmTime}). */
    private final boolean virtualClock;

    Acknowledger(final Nic nic, final FmConfig config, final Counters counters, final FrameChecksum checksum,
                 final boolean lean, final int ackEvery, final int pes, final boolean virtualClock) {
        this.nic = nic;
        this.virtualClock = virtualClock;
        this.config = config;
        this.counters = counters;
        this.checksum = checksum;
        this.lean = lean;
        this.ackEvery = ackEvery;
        expectedSeq = new int[pes];
        ackSentSeq = new int[pes];
        nackedSeq = new int[pes];
        Arrays.fill(nackedSeq, RetransmitStore.NONE);
        nackedAtNs = new long[pes];
        ackSinceNs = new long[pes];
        ackForced = new boolean[pes];
        ackListed = new boolean[pes];
        ackList = new int[pes];
    }

    /** @return the sequence number of the next data frame this PE will accept from {@code src} */
    int expected(final int src) {
        return expectedSeq[src];
    }

    /** A data frame to {@code peer} carries the acknowledgement {@code ack}: no explicit ACK is owed up to it. */
    void piggybacked(final int peer, final int ack) {
        ackSentSeq[peer] = ack;
    }

    /** @return sources owed an acknowledgement (waiting for a data frame to ride on, or for ackDelayNs) */
    int owed() {
        return ackListCount;
    }

    /**
     * How long until an owed acknowledgement is due (its {@code ackDelayNs} from when it was first owed, or at once
     * if forced).
     *
     * @param now the clock of the timers
     * @return nanoseconds (0 or less: due already), {@code Long.MAX_VALUE} if none is owed
     */
    long untilNextAckNs(final long now) {
        long until = Long.MAX_VALUE;
        for (int i = 0; i < ackListCount; i++) {
            final int p = ackList[i];
            if (ackForced[p]) {
                return 0;
            }
            until = Math.min(until, ackSinceNs[p] == 0 ? config.ackDelayNs() : ackSinceNs[p] + config.ackDelayNs()
                - now);
        }
        return until;
    }

    /** @return control frames held in reserve */
    int controlFrames() {
        return controlCount;
    }

    /** A data frame accepted (queued or handed to extract): acknowledge it soon, or at once every ackEvery. */
    void accepted(final int src) {
        final int accepted = ++expectedSeq[src];
        if (lean) {
            return;
        }
        if (accepted - ackSentSeq[src] >= ackEvery && sendControl(src, FmFrameDescriptor.TYPE_ACK, 0, 0)) {
            counters.increment(Counters.ACKS_SENT);
            return;
        }
        listAck(src);
    }

    /** A duplicate arrived from {@code src}: our acknowledgement was lost, so send one at the next timer pass. */
    void forceAck(final int src) {
        ackForced[src] = true;
        listAck(src);
    }

    private void listAck(final int src) {
        if (!ackListed[src]) {
            ackListed[src] = true;
            ackSinceNs[src] = 0;
            ackList[ackListCount++] = src;
        }
    }

    /** Tells {@code src} which frame this PE is missing from it (rate-limited to one per gap per rtoMin/2). */
    void nack(final int src, final int flags) {
        final long now = FmTime.now(virtualClock);
        if (nackedSeq[src] == expectedSeq[src] && now - nackedAtNs[src] < config.rtoMinNs() / 2) {
            return;
        }
        if (sendControl(src, FmFrameDescriptor.TYPE_NACK, flags, expectedSeq[src])) {
            nackedSeq[src] = expectedSeq[src];
            nackedAtNs[src] = now;
            counters.increment(Counters.NACKS_SENT);
        }
    }

    /**
     * Sends the acknowledgements that are due (forced, or owed for ackDelayNs); keeps the others listed.
     *
     * @return ACKs sent
     */
    int flushAcks(final long now) {
        int sent = 0;
        int kept = 0;
        for (int i = 0; i < ackListCount; i++) {
            final int p = ackList[i];
            boolean done = expectedSeq[p] == ackSentSeq[p] && !ackForced[p];
            if (!done) {
                if (ackSinceNs[p] == 0 && !ackForced[p]) {
                    ackSinceNs[p] = now;
                } else if ((ackForced[p] || now - ackSinceNs[p] >= config.ackDelayNs())
                    && sendControl(p, FmFrameDescriptor.TYPE_ACK, 0, 0)) {
                    counters.increment(Counters.ACKS_SENT);
                    sent++;
                    done = true;
                }
            }
            if (done) {
                ackListed[p] = false;
                ackForced[p] = false;
            } else {
                ackList[kept++] = p;
            }
        }
        ackListCount = kept;
        return sent;
    }

    /**
     * Frames kept back for acknowledgements, taken before any data frame: data frames held in other PEs' receive
     * queues can empty the pool, and acknowledgements must still flow or those PEs' senders would wait forever.
     */
    void refillControl() {
        Frame f;
        while (controlCount < CONTROL_FRAMES && (f = nic.tryAcquire()) != null) {
            control[controlCount++] = f;
        }
    }

    /** Sends an ACK or NACK if a frame and ring room are free; acknowledges every frame accepted from the peer. */
    private boolean sendControl(final int peer, final int type, final int flags, final int seq) {
        final Frame f = controlCount > 0 ? control[--controlCount] : nic.tryAcquire();
        if (f == null) {
            return false;
        }
        final byte[] a = f.array();
        final int h = f.headerOffset();
        final int ack = expectedSeq[peer];
        INT.set(a, h + FmFrameDescriptor.WORD_OFFSET, FmFrameDescriptor.word(type, flags, 0));
        INT.set(a, h + FmFrameDescriptor.SEQ_OFFSET, seq);
        INT.set(a, h + FmFrameDescriptor.ACK_OFFSET, ack);
        INT.set(a, h + FmFrameDescriptor.LENGTH_OFFSET, 0);
        INT.set(a, h + FmFrameDescriptor.DECLARED_OFFSET, 0);
        FrameChecksum.clearSpareHeader(f);
        INT.set(a, h + FmFrameDescriptor.CRC_OFFSET, checksum.valueFor(f, 0));
        f.setDestination(peer).setLength(0);
        if (!nic.trySend(f)) {
            if (controlCount < CONTROL_FRAMES) {
                control[controlCount++] = f;
            } else {
                nic.release(f);
            }
            return false;
        }
        ackSentSeq[peer] = ack;
        return true;
    }
}
