package org.jhpvm.shmem;

import java.util.concurrent.locks.LockSupport;

import org.jhpvm.fm.FmAbortException;
import org.jhpvm.fm.FmClosedException;

/**
 * The progress agent of one PE: while the PE's thread is outside SHMEM (computing), it takes the FM endpoint for
 * short non-blocking passes, runs the handlers of whatever arrived and sends their replies, so requests aimed at a
 * busy PE that its NIC does not serve complete (one-sided progress). With nothing to do it backs off to parking (a
 * few spins, then parks doubling from {@code minParkNs}): up to {@code maxParkNs} while the PE stays away from SHMEM
 * (a request waits at most that long), and up to {@link #ACTIVE_MAX_PARK_NS} while the PE drives progress itself
 * (it is inside SHMEM, or has been since the agent's last look). So an agent whose PE calls SHMEM often, as a
 * bulk-synchronous code does between its phases, wakes about 20 times a second, not at every call: each wake-up
 * takes a core from some PE for a moment, and in a code that synchronises often every PE waits for that one.
 */
final class ProgressAgent implements Runnable {
    /**
     * The agents' own thread group, outside every job's: a job's deadlock test takes a thread of the job's group that
     * sleeps with a deadline for a thread of the program that may yet end a wait, which an agent never does alone.
     */
    private static final ThreadGroup AGENTS = new ThreadGroup(rootGroup(), "jhpvm-progress-agents");

    /** {@link #pass}: the PE thread has extracted since the agent's last look: it drives progress itself. */
    static final int PE_DRIVES = -1;
    /**
     * {@link #pass}: the PE thread held the endpoint through the agent's tries, inside calls that do not
     * extract (a PE spinning on local atomics or {@code g} of its own memory): it drives no progress, so the agent
     * must try again soon.
     */
    static final int ENDPOINT_BUSY = -2;

    /** Tries of the agent at an endpoint the PE thread holds, between which the PE may leave its short call. */
    private static final int TRIES = 64;
    /** The longest park while the PE drives progress itself (at least {@code maxParkNs}). */
    static final long ACTIVE_MAX_PARK_NS = 50_000_000;
    /**
     * The longest sleep while the PE stays in one wait (its end wakes the agent at once): a bound, should a wake-up be
     * lost, not a period.
     */
    static final long WAIT_MAX_PARK_NS = 1_000_000_000L;

    private final Engine engine;
    private final long minParkNs;
    private final long maxParkNs;
    private final long activeMaxParkNs;
    private final Thread thread;
    private volatile boolean running = true;
    /** The agent sleeps until its PE's wait ends ({@link #peLeftWait()} wakes it). */
    private volatile boolean sleepsThroughWait;
    private volatile Throwable failure;
    /** The PE thread's count of extracts ({@code Engine.ENTERS}) at the agent's last pass. */
    private long entersSeen;
    /** The look before a wait for an arrival: a pass that leaves an open batch of puts alone, as any pass between parks. */
    private final java.util.function.BooleanSupplier lastLook;

    ProgressAgent(final Engine engine, final long minParkNs, final long maxParkNs) {
        this.engine = engine;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.activeMaxParkNs = Math.max(maxParkNs, ACTIVE_MAX_PARK_NS);
        this.lastLook = () -> pass(false) > 0;
        this.thread = Thread.ofPlatform().group(AGENTS).name("jhpvm-shmem-progress-" + engine.me).daemon(true).unstarted(this);
    }

    private static ThreadGroup rootGroup() {
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        while (g.getParent() != null) {
            g = g.getParent();
        }
        return g;
    }

    /**
     * One pass of the progress agent: if the PE thread is not inside SHMEM, extract what has arrived and send the
     * replies it produced.
     *
     * @param lookAtBatch the agent has parked since its last pass: an open batch of small puts that no entry joined
     *                    since the previous look is sent ({@link PutBatch#flushIfIdleSinceLastLook()})
     * @return work done, {@link ProgressAgent#PE_DRIVES} if the PE thread has extracted since the last pass, or
     *     {@link ProgressAgent#ENDPOINT_BUSY} if it held the endpoint through every try
     */
    int pass(final boolean lookAtBatch) {
        engine.agentPasses++;
        // A PE thread that extracted since the last pass drives progress itself: leave the endpoint to it (an agent
        // competing for it would only slow it down, and take a core from it).
        final long e = (long) Engine.ENTERS.getOpaque(engine);
        if (e != entersSeen) {
            entersSeen = e;
            return PE_DRIVES;
        }
        if ((boolean) Engine.IN_WAIT.getOpaque(engine)) {
            return PE_DRIVES; // inside a wait the PE thread extracts itself
        }
        if (!takeEndpoint()) {
            return ENDPOINT_BUSY; // inside short calls that do not extract: it needs the agent
        }
        try {
            if (lookAtBatch) {
                engine.batch.flushIfIdleSinceLastLook();
            }
            int work = 0;
            // Bounded: give the endpoint back soon if the PE thread wants it, but after one pass at least: a PE
            // that calls SHMEM in a loop wants it back at once, and a hand-over that served nothing would leave the
            // requests waiting for the agent's next knock, a park later.
            for (int i = 0; i < 8 && (i == 0 || !engine.agentWanted); i++) {
                final int w = engine.fm.extract(1 << 20) + engine.replies.send();
                if (w == 0) {
                    break;
                }
                work += w;
            }
            return work;
        } finally {
            Engine.OWNER.setRelease(engine, 0);
        }
    }

    /**
     * The agent takes the endpoint: at once if it is free; else it knocks, and the PE thread hands it over at the end
     * of its current call (a PE that calls SHMEM in a loop without extracting holds it for short calls, and frees it
     * only for a few nanoseconds between them). The knock is withdrawn after {@link #TRIES} looks; a hand-over
     * that raced with the withdrawal is taken.
     */
    private boolean takeEndpoint() {
        if (Engine.OWNER.compareAndSet(engine, 0, 2)) {
            return true;
        }
        engine.agentKnocks = true;
        for (int i = 0; i < TRIES; i++) {
            if ((int) Engine.OWNER.getAcquire(engine) == 2 || Engine.OWNER.compareAndSet(engine, 0, 2)) {
                Engine.KNOCK.compareAndSet(engine, true, false); // unless the PE thread took it in handing over
                return true;
            }
            Thread.onSpinWait();
        }
        if (Engine.KNOCK.compareAndSet(engine, true, false)) {
            return false; // withdrawn before the PE thread saw it
        }
        // The PE thread took the knock: its hand-over is under way or done.
        while ((int) Engine.OWNER.getAcquire(engine) != 2) {
            Thread.onSpinWait();
        }
        return true;
    }

    void start() {
        engine.agent = this;
        thread.start();
    }

    /** @return whether the agent sleeps through its PE's wait now (tests wait for it) */
    boolean sleepsThroughWait() {
        return sleepsThroughWait;
    }

    /** The PE thread has left its wait (after a volatile write saying so): wakes the agent if it sleeps through it. */
    void peLeftWait() {
        if (sleepsThroughWait) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Sleeps while the PE stays in its wait, where it extracts itself and nothing needs the agent; the wait's end wakes
     * it. Its flag is set before it reads the PE's (both volatile, as the PE's are in the other order), so either it
     * sees the wait over or the PE sees it asleep.
     *
     * @return false if the wait had already ended
     */
    private boolean sleepThroughWait() {
        sleepsThroughWait = true;
        try {
            if (!engine.peInWait()) {
                return false;
            }
            LockSupport.parkNanos(this, WAIT_MAX_PARK_NS);
            return true;
        } finally {
            sleepsThroughWait = false;
        }
    }

    /**
     * Stops the agent and waits (up to 5 s) until its thread has ended, even if the PE thread is interrupted meanwhile
     * (an aborting job interrupts its PEs): the job must not return with an agent still running. The interrupt is kept
     * for the caller.
     */
    void stop() {
        requestStop();
        awaitStopped(System.nanoTime() + 5_000_000_000L);
    }

    /**
     * Tells the agent to stop after its current pass, without waiting: for a PE whose body failed, whose failure must
     * reach the job before anything waits for the agent. A pass can last while other PEs keep sending (replies it owes
     * wait for flow control, which extracts more requests); the job's abort ends it.
     */
    void requestStop() {
        running = false;
        LockSupport.unpark(thread);
    }

    /**
     * Waits until the agent's thread has ended, at most until {@code deadline} ({@link System#nanoTime()}), even if the
     * caller is interrupted meanwhile (the interrupt is kept).
     *
     * @param deadline when to give up
     */
    void awaitStopped(final long deadline) {
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

    Throwable failure() {
        return failure;
    }

    @Override
    public void run() {
        long parkNs = minParkNs;
        int idle = 0;
        boolean parked = false;
        boolean slept = false;
        long appendedAtPark = -1;
        try {
            while (running) {
                // The open batch of small puts is looked at only on the first pass after a park: two looks in a
                // row a park apart send it, two passes a few spins apart must not (that would cut a put stream).
                final int work = pass(parked);
                parked = false;
                final boolean needed = work != PE_DRIVES;
                if (work > 0) {
                    parkNs = minParkNs;
                    idle = 0;
                    continue;
                }
                if (work == 0 && ++idle < 20) {
                    Thread.onSpinWait();
                    continue;
                }
                if (engine.batch.pendingOpaque()) {
                    // An open batch of small puts that nothing joined since the last park was left open by its PE:
                    // look again soon, and send it then. One that grows is being filled: no extra looks (each would
                    // take the endpoint from the PE in the middle of its stream).
                    final long appended = engine.batch.appendedOpaque();
                    if (appended == appendedAtPark) {
                        parkNs = Math.min(parkNs, Math.max(minParkNs, engine.batch.delayNs()));
                    }
                    appendedAtPark = appended;
                }
                if (work == PE_DRIVES && parkNs >= activeMaxParkNs && !slept && sleepThroughWait()) {
                    // The PE sat in a wait through the longest parks: the agent slept until the wait ended (an idle
                    // job's agents then cost nothing), or for its longest sleep. It looks at once, then parks as
                    // before at least once: a PE that leaves a wait to compute is looked at within the longest park,
                    // and one that waits in a barrier every few microseconds does not wake it at every barrier.
                    parked = true;
                    slept = true;
                    continue;
                }
                slept = false;
                if (needed) {
                    // The PE computes, or holds the endpoint in calls that do not extract: a request may come. Where
                    // the fabric rings the NIC (the Aeron fabric between the processes of a host) its arrival ends
                    // the wait at once, after a last look; elsewhere this parks as below.
                    engine.fm.awaitArrival(lastLook, parkNs);
                } else {
                    LockSupport.parkNanos(this, parkNs);
                }
                parked = true;
                // Nothing to do: while the PE drives progress itself nothing can wait for the agent, so it backs off
                // further than while the PE computes (or holds the endpoint in calls that do not extract) and a
                // request may arrive.
                parkNs = Math.min(parkNs * 2, needed ? maxParkNs : activeMaxParkNs);
            }
        } catch (FmAbortException | FmClosedException e) {
            // The job is ending: the PE thread reports it.
        } catch (Throwable t) {
            failure = t;
            engine.rejections.agentFailed(t);
        }
    }
}
