package org.jhpvm.shmem;

import java.util.concurrent.locks.LockSupport;

import org.jhpvm.fm.FmAbortException;
import org.jhpvm.fm.FmClosedException;

/**
 * The progress agent of one PE: while the PE's thread is outside SHMEM (computing), it takes the FM endpoint for
 * short non-blocking passes, runs the handlers of whatever arrived and sends their replies, so puts, gets and
 * atomics aimed at a busy PE complete (one-sided progress). With nothing to do it backs off to parking (a few
 * spins, then parks growing from {@code minParkNs} to {@code maxParkNs}), so an idle agent costs a wake-up per
 * {@code maxParkNs}, not a core. While the PE's thread is inside SHMEM (waiting in a barrier, say) it drives progress
 * itself and the agent sleeps until the PE leaves, whose exit wakes it.
 */
final class ProgressAgent implements Runnable {
    /** The longest sleep while the PE is inside SHMEM. */
    static final long INSIDE_SLEEP_NS = 20_000_000;

    private final Engine engine;
    private final long minParkNs;
    private final long maxParkNs;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    ProgressAgent(final Engine engine, final long minParkNs, final long maxParkNs) {
        this.engine = engine;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.thread = Thread.ofPlatform().name("jhpvm-shmem-progress-" + engine.me).daemon(true).unstarted(this);
    }

    void start() {
        thread.start();
    }

    /** Stops the agent and waits for it; rethrows nothing (a failure is reported through {@link #failure()}). */
    /**
     * Stops the agent and waits (up to 5 s) until its thread has ended, even if the PE thread is interrupted meanwhile
     * (an aborting job interrupts its PEs): the job must not return with an agent still running. The interrupt is kept
     * for the caller.
     */
    void stop() {
        running = false;
        LockSupport.unpark(thread);
        final long deadline = System.nanoTime() + 5_000_000_000L;
        boolean interrupted = false;
        while (thread.isAlive()) {
            final long leftMs = (deadline - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0) {
                break;
            }
            try {
                thread.join(leftMs);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * While the PE's thread is inside SHMEM it drives progress itself: sleep until it leaves (its exit wakes the
     * agent), at most {@link #INSIDE_SLEEP_NS} (a wake-up that races with the PE leaving is bounded by that).
     */
    private void insideSleep() {
        engine.agentSleeping(thread);
        try {
            if (running && engine.peInside()) {
                LockSupport.parkNanos(this, Math.max(maxParkNs, INSIDE_SLEEP_NS));
            }
        } finally {
            engine.agentSleeping(null);
        }
    }

    Throwable failure() {
        return failure;
    }

    @Override
    public void run() {
        long parkNs = minParkNs;
        int idle = 0;
        try {
            while (running) {
                final int work = engine.agentPass();
                if (work > 0) {
                    parkNs = minParkNs;
                    idle = 0;
                    continue;
                }
                if (work == 0 && ++idle < 20) {
                    Thread.onSpinWait();
                    continue;
                }
                if (work < 0 && parkNs >= maxParkNs && engine.peInside()) {
                    // Inside for a while (the parks have grown to their longest): not a short wait whose exit would
                    // pay for waking the agent.
                    insideSleep();
                    if (!engine.peInside()) {
                        parkNs = minParkNs; // the PE left, maybe to compute: look again soon
                    }
                    continue;
                }
                LockSupport.parkNanos(this, parkNs);
                parkNs = Math.min(parkNs * 2, maxParkNs);
            }
        } catch (FmAbortException | FmClosedException e) {
            // The job is ending: the PE thread reports it.
        } catch (Throwable t) {
            failure = t;
            engine.agentFailed(t);
        }
    }
}
