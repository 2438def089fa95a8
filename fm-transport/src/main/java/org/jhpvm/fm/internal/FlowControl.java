package org.jhpvm.fm.internal;

import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fm.FmConfig;

/**
 * The sender's flow control: a data frame goes only with a free slot in the send window (the retransmission store)
 * and a frame from the NIC's pool, and leaves only when the NIC's send ring has room. The common case is a check and
 * a {@code tryAcquire}; when something is short the PE waits here, keeping the protocol going (and, with
 * {@code extractWhileWaiting}, running handlers) so that the PEs it waits for, which may be waiting for it, can go
 * on. The receiver's half, rejecting what the host queue cannot take back to its sender, is in
 * {@link ReceivePath}. Single-threaded; the waits allocate nothing.
 */
final class FlowControl {
    private final Endpoint ep;
    private final Nic nic;
    private final FmConfig config;
    private final Counters counters;
    private final BackoffIdleStrategy idle;
    /** The PE's idle policy: whether another PE wants the core, whether a busy wait may spin. */
    private final IdleWait waits;
    private final Retransmitter retransmitter;
    private final Acknowledger acks;
    private final ReceivePath receive;
    private final boolean lean;
    private final int drainBudget;
    private final int frameBytes;
    /** The fabric keeps a virtual clock: a wait sleeps in the NIC ({@link #waitOnce}). */
    private final boolean virtual;

    FlowControl(final Endpoint ep, final Nic nic, final FmConfig config, final Counters counters,
                final BackoffIdleStrategy idle, final IdleWait waits, final Retransmitter retransmitter,
                final Acknowledger acks, final ReceivePath receive, final boolean lean, final int drainBudget,
                final int frameBytes) {
        this.ep = ep;
        this.nic = nic;
        this.config = config;
        this.counters = counters;
        this.idle = idle;
        this.waits = waits;
        this.retransmitter = retransmitter;
        this.acks = acks;
        this.receive = receive;
        this.lean = lean;
        this.drainBudget = drainBudget;
        this.frameBytes = frameBytes;
        this.virtual = ep.virtualClock();
    }

    /** A frame to fill for {@code dest}, with a retransmission slot free for it; waits for flow control. */
    Frame acquireDataFrame(final int dest) {
        if (lean) {
            final Frame f = nic.tryAcquire();
            return f != null ? f : acquireDataFrameSlow();
        }
        acks.refillControl();
        if (retransmitter.hasFree()) {
            final Frame f = nic.tryAcquire();
            if (f != null) {
                return f;
            }
        }
        return acquireDataFrameSlow();
    }

    private Frame acquireDataFrameSlow() {
        counters.increment(Counters.FLOW_WAITS);
        idle.reset();
        if (virtual) {
            VirtualTime.waiting(true); // the wait's CPU time is no computation of the PE's
            try {
                return acquireDataFrameWaiting();
            } finally {
                VirtualTime.waiting(false);
            }
        }
        return acquireDataFrameWaiting();
    }

    private Frame acquireDataFrameWaiting() {
        while (true) {
            waitOnce();
            if (lean) {
                final Frame f = nic.tryAcquire();
                if (f != null) {
                    return f;
                }
                continue;
            }
            acks.refillControl();
            if (retransmitter.hasFree()) {
                final Frame f = nic.tryAcquire();
                if (f != null) {
                    return f;
                }
            }
        }
    }

    /** Sends a stamped frame the NIC's send ring had no room for, waiting until it has. */
    void awaitSend(final Frame f) {
        counters.increment(Counters.FLOW_WAITS);
        idle.reset();
        if (virtual) {
            VirtualTime.waiting(true);
        }
        try {
            do {
                waitOnce();
            } while (!nic.trySend(f));
        } finally {
            if (virtual) {
                VirtualTime.waiting(false);
            }
        }
    }

    /** Starts a wait's idle strategy over (spins first). */
    void resetIdle() {
        idle.reset();
    }

    /**
     * One pass of a flow-control wait: keep the protocol going, idle (or let a PE that wants the core run), and notice
     * aborts. Outside handlers, and if configured, it extracts too: the PEs this one waits for may be waiting for it.
     */
    void waitOnce() {
        final int work = progressOnce();
        if (virtual) {
            if (work == 0) {
                // In virtual time a poll is a step of the simulation and a park in wall time stands still: sleep in
                // the NIC, whose clock goes straight to the next arrival (an acknowledgement, a credit) or to the
                // end of the sleep, when FM's timers are looked at again.
                receive.awaitFrame(ep.timerSleepNs());
            }
            return;
        }
        if (work > 0 || !waits.yieldIfContended()) {
            idle.idle(work);
        }
    }

    /**
     * One pass of a wait that expects its end within microseconds (a rendezvous whose receiver is copying): the same
     * work, then a spin where the PEs fit the cores (the spin policy of FM's waits), else a yield instead of the idle
     * strategy, which would park the PE and wake it late (a yield lets a receiver that shares this core copy).
     */
    void waitOnceBusy() {
        progressOnce();
        if (waits.busySpinFits(System.nanoTime())) {
            Thread.onSpinWait(); // a yield is a system call even alone on the core: it noticed the end late
        } else {
            Thread.yield();
        }
    }

    private int progressOnce() {
        int work = 0;
        if (config.extractWhileWaiting() && !ep.inHandler()) {
            work = receive.dispatchLoop(drainBudget * frameBytes);
        }
        work += ep.service(true);
        ep.checkUsable();
        return work;
    }
}
