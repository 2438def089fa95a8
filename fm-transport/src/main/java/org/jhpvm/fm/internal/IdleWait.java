package org.jhpvm.fm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.NicInterruptedException;
import org.jhpvm.fm.FmConfig;
import org.jhpvm.fm.Scheduling;

/**
 * How one PE's waits idle (FM-DCS's "spin, then block"): spin while no other PE wants the core, then yield, then give
 * the run slot up and sleep inside the NIC, which a delivery, a write of the PE's memory or an abort ends at once;
 * and the run slot taken back when the wait ends. A sleep that ends with nothing to do is followed by a longer one,
 * doubling from {@code idleSleepNs} up to {@code idleSleepMaxNs}, so that a PE that waits long (an idle job) wakes a
 * few times a second rather than fifty; the length only bounds how late a condition set without any of those events
 * is noticed (a plain store through {@code shmem_ptr}). Single-threaded, like its endpoint.
 * <p>
 * It also keeps what the job's {@link JobWatch} reads from another thread to tell a deadlock: what the PE waits for
 * while a wait idles (set on the wait's first idle pass, not on a wait that ends without idling), the thread that
 * waits, the idle passes made, and the idle waits ended.
 */
final class IdleWait {
    /** What a PE whose body has returned waits for: the end of the job (the exit barrier). */
    static final BooleanSupplier FINISHED = () -> false;
    /**
     * Passes that only spun before a wait looks at the clock again: {@code System.nanoTime()} costs about 24 ns here,
     * as much as the rest of a spinning pass, and what the clock decides while spinning (the spin's 1 s limit, the
     * machine's load every 50 ms, a run slot's quantum, the caller's deadline) does not mind a microsecond.
     */
    static final int CLOCK_SPINS = 16;

    private static final VarHandle LOOKS;
    private static final VarHandle ENDED;

    static {
        try {
            final MethodHandles.Lookup l = MethodHandles.lookup();
            LOOKS = l.findVarHandle(IdleWait.class, "looks", long.class);
            ENDED = l.findVarHandle(IdleWait.class, "ended", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Endpoint ep;
    private final ReceivePath receive;
    private final HostQueue queue;
    private final FmConfig config;
    private final boolean lean;
    private final BackoffIdleStrategy idle;
    private final RunSlots slots;
    private final RunSlots.Slot slot;
    /** Sleeps in a row of the current wait that ran their whole length with nothing arriving. */
    private int emptySleeps;
    /** When the current stretch of the wait with nothing to do began, 0 while it has not. */
    private long idleSinceNs;
    // The wait's clock (extractUntil): its deadline, taken at its first idle pass (a wait whose message is in already
    // reads no clock), the clock as last read, and the passes since that only spun.
    private boolean timed;
    private long deadlineNs;
    private long clockNs;
    private int spinsSinceClock;
    private final JobControl job;
    /** The fabric keeps a virtual clock: a spin buys nothing, so a wait sleeps in the NIC at once. */
    private final boolean virtual;
    /** The current wait's condition, until its first idle pass publishes it in {@link #idleFor}. */
    private BooleanSupplier waitFor;
    /** What the PE waits for while a wait of it idles, else null (read by the job's watch). */
    private volatile BooleanSupplier idleFor;
    /** The thread of that wait. */
    private volatile Thread idleThread;
    /** Idle passes made (opaque: the watch only needs to see it move). */
    private long looks;
    /** Waits that idled and then ended (opaque). */
    private long ended;

    IdleWait(final Endpoint ep, final ReceivePath receive, final HostQueue queue, final FmConfig config,
             final boolean lean, final BackoffIdleStrategy idle, final RunSlots slots, final RunSlots.Slot slot) {
        this.ep = ep;
        this.receive = receive;
        this.queue = queue;
        this.config = config;
        this.lean = lean;
        this.idle = idle;
        this.slots = slots;
        this.slot = slot;
        this.job = ep.job();
        this.virtual = ep.virtualClock();
    }

    /**
     * A wait starts: spins first, and its sleeps start at {@code idleSleepNs}.
     *
     * @param condition what it waits for ({@link #FINISHED} for the exit barrier), published on its first idle pass
     */
    void start(final BooleanSupplier condition) {
        idle.reset();
        emptySleeps = 0;
        idleSinceNs = 0;
        waitFor = condition;
        timed = false;
        spinsSinceClock = 0;
    }

    /** The wait has ended (whether or not it idled). */
    void end() {
        waitFor = null;
        if (idleFor != null) {
            idleFor = null;
            idleThread = null;
            ENDED.setOpaque(this, ended + 1); // only this PE's waiting thread writes
        }
    }

    /** @return what the PE waits for while one of its waits idles, else null (any thread) */
    BooleanSupplier idleFor() {
        return idleFor;
    }

    /** @return the thread of the idling wait, or null (any thread) */
    Thread idleThread() {
        return idleThread;
    }

    /** @return idle passes made so far (any thread) */
    long looks() {
        return (long) LOOKS.getOpaque(this);
    }

    /** @return waits that idled and then ended, so far (any thread) */
    long waitsEnded() {
        return (long) ENDED.getOpaque(this);
    }

    /** Work was done in the wait: spin again first next time. */
    void worked(final int work) {
        idle.idle(work);
        emptySleeps = 0;
        idleSinceNs = 0;
        spinsSinceClock = 0;
    }

    /**
     * One idle pass of a wait that may last {@code timeoutNs} from its first idle pass ({@link #idleOnce}), reading
     * the clock only every {@link #CLOCK_SPINS} passes while they only spin.
     *
     * @param timeoutNs the wait's longest idle time
     * @param sleepNs   the longest sleep of this pass (before the deadline caps it)
     * @return false if the wait's time is up (nothing was done), true after the pass
     */
    boolean idleUntil(final long timeoutNs, final long sleepNs) {
        if (spinsSinceClock == 0) {
            clockNs = System.nanoTime();
        }
        if (!timed) {
            deadlineNs = clockNs + timeoutNs;
            timed = true;
        }
        final long left = deadlineNs - clockNs;
        if (left <= 0) {
            return false;
        }
        final boolean spun = idleOnce(Math.min(left, sleepNs), clockNs);
        spinsSinceClock = spun && spinsSinceClock + 1 < CLOCK_SPINS ? spinsSinceClock + 1 : 0;
        return true;
    }

    /**
     * The longest sleep of a wait while FM has no timer running: {@code idleSleepNs}, doubled for each sleep in a row
     * that ran its whole length with nothing arriving, up to {@code idleSleepMaxNs}; never under {@code maxParkNs}.
     */
    long idleSleepNs() {
        final long grown = config.idleSleepNs() << Math.min(emptySleeps, 20);
        return Math.max(config.maxParkNs(), Math.min(grown, config.idleSleepMaxNs()));
    }

    /**
     * One pass of the idle wait of {@code extractUntil} and the exit barrier. The PE spins while no other PE wants its
     * core, then yields; then it looks at the timers, gives its run slot up and parks inside the NIC, so that a
     * delivery wakes it at once. When another PE wants its core it does not spin: it yields at once (the PE it waits
     * for may be the one that takes the core, and a yield costs far less than a wake-up), or under run slots gives
     * its slot up at once, unless every PE of its job holds a slot and its quantum is not over
     * ({@link RunSlots#keeps}): then it spins. Once blocked it stays blocked (no spinning without a slot) until a frame
     * arrives while a slot is free, or its wait ends ({@link #resume}).
     *
     * @param sleepNs the longest sleep: {@code maxParkNs} while FM has timers running (or for the exit barrier, whose
     *                end other threads decide), {@link #idleSleepNs()} otherwise, never beyond the caller's deadline
     * @param nowNs   {@code System.nanoTime()} as the caller last read it (a look at the clock less per pass; after a
     *                pass that only spun it may be a few spins old, see {@link #CLOCK_SPINS})
     * @return true if the pass only spun (the caller may skip its next look at the clock), false if it yielded,
     *         slept or gave its run slot up
     */
    boolean idleOnce(final long sleepNs, final long nowNs) {
        if (idleFor == null && waitFor != null) {
            idleThread = Thread.currentThread();
            idleFor = waitFor;
        }
        LOOKS.setOpaque(this, looks + 1);
        final boolean peThread = slot.isThread(Thread.currentThread());
        final boolean blocked = peThread && !slot.held();
        final boolean contended = peThread && !blocked && slots.contended(slot);
        // In virtual time the clock lands on the arrival whether the PE polls or sleeps, and every poll is a step of
        // the simulation that waits for the other PEs' clocks: no spinning, straight to the sleep in the NIC.
        if (!virtual && !blocked && !contended && spinsOn(nowNs)) {
            Thread.onSpinWait(); // the PEs that run fit the cores: no core is taken from one, no wake-up paid
            ep.checkUsable();
            return true;
        }
        if (contended && idle.spinning()) {
            idle.skipSpins(); // no spinning on a core another PE wants: yield it (the PE waited for may take it)
        }
        if (!virtual && peThread && !blocked && slots.keeps(slot, nowNs)) {
            Thread.onSpinWait(); // DCS: the job's PEs all run, so what this one waits for comes soon
            ep.checkUsable();
            return true;
        } else if (lean && queue.isFull()) {
            idle.idle(0); // frames wait in the fabric: the queue must drain first
        } else if (virtual || blocked || idle.nextIdleParks() || contended && slots.policy() != Scheduling.NONE) {
            ep.serviceTimers();
            if (peThread && !blocked) {
                slots.release(slot);
            }
            // Park inside the NIC so that a delivery wakes us at once.
            final boolean arrived;
            try {
                arrived = receive.awaitFrame(sleepNs);
            } catch (NicInterruptedException e) {
                ep.checkUsable();
                throw e;
            }
            if (arrived) {
                emptySleeps = 0;
                if (!peThread || slots.tryAcquire(slot)) {
                    idle.idle(1); // traffic, and a core for us: spin again first next time
                }
            } else if (System.nanoTime() - nowNs >= sleepNs) {
                // Slept it all: sleep longer next time. (Not the short sleeps of FM's timers, which say nothing of
                // how long the wait has been idle.)
                emptySleeps += sleepNs >= config.idleSleepNs() ? 1 : 0;
            } else {
                emptySleeps = 0; // woken without a frame (a write of its memory): something is going on
            }
        } else {
            idle.idle(0);
        }
        ep.checkUsable();
        return false;
    }

    /**
     * Whether the wait goes on spinning (scheduling NONE): the PE threads of every job of this JVM, running or
     * waiting, fit this process's cores, the machine's runnable threads fit its cores
     * ({@link MachineLoad}: other processes too), and the wait has had nothing to do for less than {@code spinWaitNs}.
     * A wait of seconds (an idle job) then sleeps as before, and a job whose PEs outnumber the cores never spins.
     */
    private boolean spinsOn(final long nowNs) {
        if (!fitsCores(nowNs)) {
            return false;
        }
        if (idleSinceNs == 0) {
            idleSinceNs = nowNs;
        }
        return nowNs - idleSinceNs < config.spinWaitNs();
    }

    /** The spin policy's machine part: no run slots, this JVM's PE threads and the machine's runnable ones fit. */
    private boolean fitsCores(final long nowNs) {
        return config.spinWaitNs() != 0 && slots.policy() == Scheduling.NONE && RunSlots.jvmFits(job.hostCores())
            && !MachineLoad.oversubscribed(nowNs);
    }

    /**
     * Whether a wait that expects its end within microseconds (a rendezvous's sender waiting for its receiver's copy)
     * may spin rather than yield: on the PE thread holding its run slot, no other PE wanting the core, and the PEs
     * fitting the cores as {@link #spinsOn} requires. A yield is a system call, and its return a microsecond late.
     *
     * @param nowNs {@code System.nanoTime()}, recent
     * @return true to spin
     */
    boolean busySpinFits(final long nowNs) {
        return !virtual && slot.isThread(Thread.currentThread()) && slot.held() && !slots.contended(slot)
            && fitsCores(nowNs);
    }

    /** The PE thread's wait has ended: it takes its run slot back, ahead of PEs that were not woken by a message. */
    void resume() {
        end();
        if (!slot.held() && slot.isThread(Thread.currentThread())) {
            slots.acquire(slot, true);
        }
    }

    /**
     * A flow-control wait found nothing to do: if another PE wants this PE's core, let it run (true), else false and
     * the caller idles.
     */
    boolean yieldIfContended() {
        if (slot.held() && slots.contended(slot) && slot.isThread(Thread.currentThread())) {
            slots.yieldSlot(slot);
            return true;
        }
        return false;
    }

    /** The launcher's PE thread starts: it takes its run slot (waiting for one under DCS and GANG). */
    void enterRunSlot() {
        slots.enter(slot);
    }

    /** The launcher's PE thread ends: its run slot goes to the next PE. */
    void leaveRunSlot() {
        slots.leave(slot);
    }
}
