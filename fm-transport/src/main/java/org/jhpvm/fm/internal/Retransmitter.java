package org.jhpvm.fm.internal;

import java.util.Arrays;

import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fm.FmConfig;

/**
 * The sender's half of FM's reliability: sequence numbers per destination, a copy of every data frame not yet
 * acknowledged (in the {@link RetransmitStore}, linked per destination in sequence order), cumulative
 * acknowledgements that free them, and go-back-N: on a negative acknowledgement, or when the oldest frame of a pair
 * has waited its timeout (from {@code rtoMinNs}, doubling up to {@code rtoMaxNs}, reset by progress), the copies
 * are resent from the missing one on. The store's slots are the send window. Over a lean fabric only the sequence
 * numbers are used. Single-threaded, driven by the endpoint; nothing here allocates.
 */
final class Retransmitter {
    private static final int NONE = RetransmitStore.NONE;
    private static final long TIMER_UNSET = Long.MIN_VALUE;

    private final Nic nic;
    private final FmConfig config;
    private final Counters counters;
    private final RetransmitStore store;

    // Per destination.
    private final int[] nextSeq;
    private final int[] head;
    private final int[] tail;
    private final int[] resendCursor;
    private final int[] lastResendSeq;
    private final long[] deadlineNs;
    private final long[] rtoNs;
    private final long[] resendNotBeforeNs;
    private final long[] lastResendNs;
    /** The fabric keeps a virtual clock: the timers run on it ({@link FmTime}). */
    private final boolean virtualClock;

    Retransmitter(final Nic nic, final FmConfig config, final Counters counters, final int pes,
                  final int windowFrames, final int frameBytes, final boolean virtualClock) {
        this.nic = nic;
        this.virtualClock = virtualClock;
        this.config = config;
        this.counters = counters;
        this.store = new RetransmitStore(windowFrames, frameBytes);
        nextSeq = new int[pes];
        head = filled(pes);
        tail = filled(pes);
        resendCursor = filled(pes);
        lastResendSeq = new int[pes];
        deadlineNs = new long[pes];
        rtoNs = new long[pes];
        Arrays.fill(rtoNs, config.rtoMinNs());
        resendNotBeforeNs = new long[pes];
        lastResendNs = new long[pes];
    }

    private static int[] filled(final int n) {
        final int[] a = new int[n];
        Arrays.fill(a, NONE);
        return a;
    }

    /** @return the sequence number of the next data frame to {@code dest}, now taken */
    int nextSeq(final int dest) {
        return nextSeq[dest]++;
    }

    /** @return true if the send window has room for one more unacknowledged frame */
    boolean hasFree() {
        return store.hasFree();
    }

    /** @return unacknowledged frames held */
    int used() {
        return store.used();
    }

    long footprintBytes() {
        return store.footprintBytes();
    }

    /** Keeps a copy of a data frame just stamped for {@code dest} until it is acknowledged; needs a free slot. */
    void keepCopy(final Frame f, final int dest, final int seq, final int lengthBytes) {
        final int slot = store.take();
        final byte[] copy = store.data[slot];
        System.arraycopy(f.array(), f.headerOffset(), copy, 0, FmFrameDescriptor.HEADER_BYTES);
        System.arraycopy(f.array(), f.payloadOffset(), copy, FmFrameDescriptor.HEADER_BYTES, lengthBytes);
        store.peer[slot] = dest;
        store.seq[slot] = seq;
        store.length[slot] = lengthBytes;
        store.next[slot] = NONE;
        if (head[dest] == NONE) {
            head[dest] = slot;
            // The timer starts at the next timer pass (a clock read per send would cost more than it buys).
            deadlineNs[dest] = TIMER_UNSET;
        } else {
            store.next[tail[dest]] = slot;
        }
        tail[dest] = slot;
    }

    /** {@code peer} has accepted our frames with sequence numbers below {@code ack}: free their copies. */
    void onAck(final int peer, final int ack) {
        int s = head[peer];
        if (s == NONE || store.seq[s] - ack >= 0 || ack - nextSeq[peer] > 0) {
            return;
        }
        do {
            final int next = store.next[s];
            if (resendCursor[peer] == s) {
                resendCursor[peer] = next;
            }
            store.give(s);
            s = next;
        } while (s != NONE && store.seq[s] - ack < 0);
        head[peer] = s;
        rtoNs[peer] = config.rtoMinNs();
        if (s == NONE) {
            tail[peer] = NONE;
        } else {
            deadlineNs[peer] = TIMER_UNSET;
        }
    }

    /** {@code peer} is missing our frame {@code missing}: go back to it (after a pause if it was rejected). */
    void onNack(final int peer, final int missing, final boolean rejected) {
        int s = head[peer];
        while (s != NONE && store.seq[s] != missing) {
            s = store.next[s];
        }
        if (s == NONE || resendCursor[peer] != NONE) {
            return;
        }
        final long now = FmTime.now(virtualClock);
        if (lastResendSeq[peer] == missing && now - lastResendNs[peer] < config.rtoMinNs() / 2) {
            return;
        }
        startResend(peer, s, now, rejected ? now + config.rejectBackoffNs() : now);
    }

    /**
     * A tail-loss probe: resends the peer's unacknowledged frames now rather than at the timeout, for a sender that
     * waits on a reply to its last frame (a rendezvous request), where no later frame would reveal a loss to the
     * receiver. At most once per half {@code rtoMinNs} for the same frame, like a negative acknowledgement.
     */
    void probe(final int peer) {
        final int s = head[peer];
        if (s == NONE || resendCursor[peer] != NONE) {
            return;
        }
        final long now = FmTime.now(virtualClock);
        if (lastResendSeq[peer] == store.seq[s] && now - lastResendNs[peer] < config.rtoMinNs() / 2) {
            return;
        }
        startResend(peer, s, now, now);
    }

    private void startResend(final int peer, final int slot, final long now, final long notBeforeNs) {
        resendCursor[peer] = slot;
        resendNotBeforeNs[peer] = notBeforeNs;
        lastResendSeq[peer] = store.seq[slot];
        lastResendNs[peer] = now;
    }

    /**
     * How long until a timer of this PE's retransmission is due: a pair's timeout, or a paced resend.
     *
     * @param now the clock of the timers
     * @return nanoseconds (0 or less: due already), {@code Long.MAX_VALUE} if no timer runs
     */
    long untilNextTimerNs(final long now) {
        long until = Long.MAX_VALUE;
        for (int p = 0; p < deadlineNs.length; p++) {
            if (deadlineNs[p] != TIMER_UNSET) {
                until = Math.min(until, deadlineNs[p] - now);
            }
            if (resendCursor[p] != NONE) {
                until = Math.min(until, resendNotBeforeNs[p] - now);
            }
        }
        return until;
    }

    /**
     * Starts the timers of pairs whose oldest frame is not timed yet, goes back on those that expired, and resends
     * what is due.
     *
     * @return frames resent
     */
    int timersAndResends(final long now) {
        int work = 0;
        final int slots = store.slots();
        for (int s = 0; s < slots; s++) {
            final int p = store.peer[s];
            if (p == NONE) {
                continue;
            }
            if (head[p] == s && deadlineNs[p] == TIMER_UNSET) {
                deadlineNs[p] = now + rtoNs[p];
            }
            if (head[p] == s && resendCursor[p] == NONE && now - deadlineNs[p] >= 0) {
                counters.increment(Counters.TIMEOUTS);
                rtoNs[p] = Math.min(2 * rtoNs[p], config.rtoMaxNs());
                deadlineNs[p] = now + rtoNs[p];
                startResend(p, s, now, now);
            }
            if (resendCursor[p] == s && now - resendNotBeforeNs[p] >= 0) {
                work += resend(p);
            }
        }
        return work;
    }

    /** Sends copies from the peer's resend cursor on, as far as frames and the send ring allow. */
    private int resend(final int peer) {
        int n = 0;
        int s;
        while ((s = resendCursor[peer]) != NONE) {
            final Frame f = nic.tryAcquire();
            if (f == null) {
                break;
            }
            final byte[] copy = store.data[s];
            final int length = store.length[s];
            System.arraycopy(copy, 0, f.array(), f.headerOffset(), FmFrameDescriptor.HEADER_BYTES);
            FrameChecksum.clearSpareHeader(f);
            System.arraycopy(copy, FmFrameDescriptor.HEADER_BYTES, f.array(), f.payloadOffset(), length);
            f.setDestination(peer).setLength(length);
            if (!nic.trySend(f)) {
                nic.release(f);
                break;
            }
            counters.increment(Counters.RETRANSMITTED);
            resendCursor[peer] = store.next[s];
            n++;
        }
        if (n > 0) {
            deadlineNs[peer] = FmTime.now(virtualClock) + rtoNs[peer];
        }
        return n;
    }

    /** @return true if frames to {@code peer} wait for acknowledgement or a resend */
    boolean hasPending(final int peer) {
        return head[peer] != NONE || resendCursor[peer] != NONE;
    }

    /** Appends the pair's send state for a hang report: next sequence number, oldest unacknowledged, resend point. */
    void describeWindow(final StringBuilder b, final int p) {
        b.append(" next=").append(nextSeq[p]).append(" oldest=")
            .append(head[p] == NONE ? "-" : String.valueOf(store.seq[head[p]])).append(" resendAt=")
            .append(resendCursor[p] == NONE ? "-" : String.valueOf(store.seq[resendCursor[p]]));
    }

    /** Appends the pair's retransmission timer for a hang report. */
    void describeTimer(final StringBuilder b, final int p) {
        b.append(" deadlineInMs=").append(deadlineNs[p] == TIMER_UNSET ? "unset"
                : String.valueOf((deadlineNs[p] - FmTime.now(virtualClock)) / 1_000_000))
            .append(" rtoMs=").append(rtoNs[p] / 1_000_000);
    }
}
