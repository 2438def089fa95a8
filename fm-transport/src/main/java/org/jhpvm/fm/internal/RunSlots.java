package org.jhpvm.fm.internal;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import org.jhpvm.fm.Scheduling;

/**
 * The run slots of one job's PE threads in this process: FM-DCS. A PE thread holds a slot while it runs and gives it
 * up when it blocks in an FM wait; under {@link Scheduling#DCS} and {@link Scheduling#GANG} at most {@code cores}
 * slots are held, and a thread that wants one waits for it (parked), so the PEs that run are not time-sliced against
 * each other by the operating system. Under {@link Scheduling#NONE} nothing waits for a slot: the count of running PE
 * threads only tells a spinning waiter whether another PE wants its core.
 * <p>
 * Order of the grants (DCS): a waiter that has waited a whole quantum first (no PE starves, whether it computes or
 * communicates), then the PEs woken by a message, then the others, first come first served. A waiter that waits
 * longer than the starvation bound (two quanta under DCS, a whole round of the gangs under GANG) runs anyway, beyond
 * the cores: a slot holder that never blocks (a PE computing, or blocked outside FM) cannot stall the others for
 * longer. A holder that has kept its slot longer than the bound adds a slot while it keeps it, so that the PEs that
 * go on communicating beside it do not each wait the bound again. An abort of the job lets every waiter go at once.
 * <p>
 * Coscheduling (DCS): while every PE of a job holds a slot, a PE that waits keeps its slot and spins ({@link #keeps})
 * for the rest of its quantum, since the PEs it waits for are running: a job whose PEs run together goes on
 * together, instead of handing its slots to another job's PEs at every barrier (a hand-over wakes a thread, and the
 * PE that gave its slot up then waits for one to run the next phase). Once its quantum is over it gives its slot up
 * at its next wait if another PE waits for one.
 * <p>
 * Thread-safe: slots are granted under one lock, taken only on the way into and out of a block (the fast paths of a
 * running PE read two fields).
 */
public final class RunSlots {
    /**
     * PE threads of every job of this JVM, from their start to their end, blocked or not: a wait spins on only while
     * they fit the cores ({@link #jvmFits}), as Open MPI's processes spin only while the node is not oversubscribed.
     */
    private static final AtomicInteger JVM_PE_THREADS = new AtomicInteger();

    /** Longest park of a waiter between looks at the time (starvation, gang turns) and the job's abort. */
    private static final long WAITER_PARK_NS = 1_000_000;

    private final Scheduling policy;
    private final int cores;
    private final long quantumNs;
    private final ReentrantLock lock = new ReentrantLock();
    /** PE threads holding a slot (beyond {@link #cores} only after over-admission; under NONE: not blocked). */
    private final AtomicInteger running = new AtomicInteger();
    /** Threads queued for a slot. */
    private volatile int waiting;
    /** Every slot made, to find the holders that have not blocked for longer than the starvation bound. */
    private final java.util.ArrayList<Slot> all = new java.util.ArrayList<>();
    private final ArrayDeque<Slot> wokenQueue = new ArrayDeque<>();
    private final ArrayDeque<Slot> otherQueue = new ArrayDeque<>();
    /** The PEs of each job sharing the slots, by the job's identity. */
    private final IdentityHashMap<Object, Crew> crews = new IdentityHashMap<>();
    /** The job of the slots made without one ({@link #newSlot(BooleanSupplier)}). */
    private final Object unnamedJob = new Object();
    private int gangsMade;
    /** Gangs of the PEs that hold slots now (GANG: the PEs entered, {@code cores} to a gang). */
    private volatile int gangs = 1;
    private volatile int currentGang;
    private volatile long turnStartNs = System.nanoTime();
    private final AtomicLong grants = new AtomicLong();
    private final AtomicLong overAdmissions = new AtomicLong();

    /** The PEs of one job: how many have slots made, how many hold one, its last gang (written under the lock). */
    private static final class Crew {
        private int size;
        private volatile int held;
        private int gang = -1;
        private int inGang;
    }

    /** One PE's claim on a run slot; its PE thread is the only one that takes or gives it. */
    public static final class Slot {
        private final int gang;
        private final Crew crew;
        private final BooleanSupplier abandoned;
        private volatile Thread thread;
        private volatile boolean held;
        private boolean woken;
        private long sinceNs;
        private volatile long heldSinceNs;

        private Slot(final int gang, final Crew crew, final BooleanSupplier abandoned) {
            this.gang = gang;
            this.crew = crew;
            this.abandoned = abandoned;
        }

        /** Under the lock: the slot is now held or not, and its job's count of holders follows. */
        private void hold(final boolean h, final long now) {
            if (h) {
                heldSinceNs = now;
            }
            if (h != held) {
                crew.held += h ? 1 : -1;
            }
            held = h;
        }

        /**
         * Tells whether {@code t} is the PE thread of this slot.
         *
         * @param t a thread
         * @return true if {@code t} entered with this slot and has not left
         */
        public boolean isThread(final Thread t) {
            return thread == t;
        }

        /** @return true while the PE thread holds a run slot */
        public boolean held() {
            return held;
        }
    }

    /**
     * Makes the slots of a job.
     *
     * @param policy    the policy
     * @param cores     cores given to the PE threads, 0 for the machine's
     * @param quantumNs after a quantum a waiter goes first, after two it runs anyway (DCS); a gang's turn (GANG)
     */
    public RunSlots(final Scheduling policy, final int cores, final long quantumNs) {
        this.cores = cores > 0 ? cores : Runtime.getRuntime().availableProcessors();
        this.policy = policy;
        this.quantumNs = quantumNs;
    }

    /** @return the policy */
    public Scheduling policy() {
        return policy;
    }

    /** @return the cores the slots stand for */
    public int cores() {
        return cores;
    }

    /** @return slots granted from the queue so far (a measure of hand-overs) */
    public long grants() {
        return grants.get();
    }

    /** @return waiters that ran beyond the cores because they waited longer than the starvation bound */
    public long overAdmissions() {
        return overAdmissions.get();
    }

    /** @return threads waiting for a slot now */
    public int waiting() {
        return waiting;
    }

    /** @return PE threads running now (holding a slot) */
    public int running() {
        return running.get();
    }

    /**
     * Whether the PE threads of every job of this JVM, running or waiting, fit {@code cores}: then a waiting PE takes
     * no core another PE wants now or when its message comes.
     *
     * @param cores the cores this process may count on
     * @return true if they fit
     */
    public static boolean jvmFits(final int cores) {
        return JVM_PE_THREADS.get() <= cores;
    }


    /**
     * Makes the next PE's slot, all such slots being of one job (see {@link #newSlot(Object, BooleanSupplier)}).
     *
     * @param abandoned true once the PE's job is aborted: its PE stops waiting for a slot
     * @return a slot nobody has entered
     */
    public Slot newSlot(final BooleanSupplier abandoned) {
        return newSlot(unnamedJob, abandoned);
    }

    /**
     * Makes the next PE's slot. The gangs are each job's PEs in the order their slots are made, {@code cores} to a
     * gang: several jobs may share the slots, and a gang never mixes two jobs, so that a job of up to {@code cores}
     * PEs runs in one turn however its PEs' slots interleave with another job's (counted afresh once every PE has
     * left).
     *
     * @param job       the PE's job: its PEs coschedule ({@link #keeps})
     * @param abandoned true once the PE's job is aborted: its PE stops waiting for a slot
     * @return a slot nobody has entered
     */
    public Slot newSlot(final Object job, final BooleanSupplier abandoned) {
        lock.lock();
        try {
            final Crew crew = crews.computeIfAbsent(job, j -> new Crew());
            crew.size++;
            if (crew.gang < 0 || crew.inGang == cores) {
                crew.gang = gangsMade++;
                crew.inGang = 0;
            }
            crew.inGang++;
            final Slot s = new Slot(crew.gang, crew, abandoned);
            all.add(s);
            gangs = Math.max(gangs, s.gang + 1);
            return s;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: the longest a waiter waits before it runs anyway. */
    private long starvationNs() {
        return (policy == Scheduling.GANG ? gangs + 1 : 2) * quantumNs;
    }

    /**
     * The PE thread starts: it takes its slot, waiting for it if the policy says so.
     *
     * @param s the PE's slot
     */
    public void enter(final Slot s) {
        JVM_PE_THREADS.incrementAndGet();
        s.thread = Thread.currentThread();
        acquire(s, false);
    }

    /**
     * The PE thread ends: its slot, if held, goes to the next waiter.
     *
     * @param s the PE's slot
     */
    public void leave(final Slot s) {
        if (s.held) {
            release(s);
        }
        s.thread = null;
        JVM_PE_THREADS.decrementAndGet();
        lock.lock();
        try {
            all.remove(s);
            if (--s.crew.size == 0) {
                crews.values().remove(s.crew);
            }
            if (all.isEmpty()) { // the jobs sharing the slots have ended: the next ones form their gangs anew
                gangsMade = 0;
                gangs = 1;
                currentGang = 0;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tells a waiting PE whether another PE wants its core, so that it blocks rather than spins.
     *
     * @param s the PE's slot
     * @return true if a thread waits for a slot, more PE threads run than there are cores, or (GANG) the PE's gang
     *         has had its turn
     */
    public boolean contended(final Slot s) {
        return switch (policy) {
            case NONE -> running.get() > cores;
            case GANG -> waiting > 0 || s.gang != currentGang || running.get() > cores;
            default -> waiting > 0 || running.get() > cores;
        };
    }

    /**
     * Tells a waiting PE to keep its slot and spin (DCS): every PE of its job holds a slot, so the PEs it waits for
     * are running, and its quantum is not over.
     *
     * @param s     the PE's slot
     * @param nowNs {@code System.nanoTime()}, recent
     * @return true if it should keep its slot through this wait
     */
    public boolean keeps(final Slot s, final long nowNs) {
        return policy == Scheduling.DCS && s.held && s.crew.held == s.crew.size && running.get() <= cores
            && nowNs - s.heldSinceNs < quantumNs;
    }

    /**
     * Gives the slot up: the PE is about to block.
     *
     * @param s the PE's slot, held
     */
    public void release(final Slot s) {
        if (policy == Scheduling.NONE) {
            s.held = false;
            running.decrementAndGet();
            return;
        }
        lock.lock();
        try {
            s.hold(false, 0);
            running.decrementAndGet();
            grantFree(System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the slot back without waiting, if one is free and nobody waits for it.
     *
     * @param s the PE's slot, not held
     * @return true if the PE now holds its slot
     */
    public boolean tryAcquire(final Slot s) {
        if (policy == Scheduling.NONE) {
            s.held = true;
            running.incrementAndGet();
            return true;
        }
        if (waiting > 0) {
            return false;
        }
        lock.lock();
        try {
            return takeFree(s, System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the slot, waiting (parked) until it is granted, the PE has waited longer than the starvation bound, or the
     * job is abandoned; the caller notices an abort itself.
     *
     * @param s     the PE's slot, not held
     * @param woken true if a message woke the PE (it goes before PEs that were not woken)
     */
    public void acquire(final Slot s, final boolean woken) {
        if (policy == Scheduling.NONE) {
            s.held = true;
            running.incrementAndGet();
            return;
        }
        lock.lock();
        try {
            final long now = System.nanoTime();
            nextTurnIfDue(now);
            if (takeFree(s, now)) {
                return;
            }
            s.woken = woken;
            s.sinceNs = now;
            (woken ? wokenQueue : otherQueue).addLast(s);
            waiting++;
            grantFree(now); // GANG: slots may be free for this gang while another's PEs wait
        } finally {
            lock.unlock();
        }
        while (!s.held) {
            LockSupport.parkNanos(this, Math.min(WAITER_PARK_NS, quantumNs));
            if (s.held) {
                return;
            }
            final boolean give = s.abandoned.getAsBoolean() || Thread.currentThread().isInterrupted();
            lock.lock();
            try {
                final long now = System.nanoTime();
                nextTurnIfDue(now);
                grantFree(now);
                if (!s.held && (give || now - s.sinceNs >= starvationNs())) {
                    (s.woken ? wokenQueue : otherQueue).remove(s);
                    waiting--;
                    running.incrementAndGet();
                    s.hold(true, now);
                    overAdmissions.incrementAndGet();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Lets a waiter run in this PE's place if one waits (the PE waits for flow control, which others' progress ends):
     * under NONE a yield of the core.
     *
     * @param s the PE's slot, held
     */
    public void yieldSlot(final Slot s) {
        if (policy == Scheduling.NONE) {
            Thread.yield();
        } else if (waiting > 0) {
            release(s);
            acquire(s, false);
        }
    }

    /** Under the lock: takes a free slot for {@code s} if the policy lets it run now and nobody waits before it. */
    private boolean takeFree(final Slot s, final long now) {
        if (waiting == 0 && running.get() < capacity(now) && (policy != Scheduling.GANG || s.gang == currentGang)) {
            running.incrementAndGet();
            s.hold(true, now);
            return true;
        }
        return false;
    }

    /**
     * Under the lock: the slots there are now, the cores and one more for each holder that has run longer than the
     * starvation bound without blocking (it computes, or blocks outside FM): the PEs beside it go on as if it had
     * left its core, and the operating system shares the cores between them.
     */
    private int capacity(final long now) {
        int c = cores;
        if (running.get() >= cores) {
            for (final Slot h : all) {
                if (h.held && now - h.heldSinceNs >= starvationNs()) {
                    c++;
                }
            }
        }
        return c;
    }

    /** Under the lock: hands the free slots to the waiters, in the policy's order. */
    private void grantFree(final long now) {
        while (running.get() < capacity(now)) {
            final Slot w = next(now);
            if (w == null) {
                return;
            }
            waiting--;
            running.incrementAndGet();
            grants.incrementAndGet();
            w.hold(true, now);
            LockSupport.unpark(w.thread);
        }
    }

    /** Under the lock: removes and returns the next waiter that may run, or null. */
    private Slot next(final long now) {
        if (policy == Scheduling.GANG) {
            final Slot w = firstOfGang(wokenQueue);
            return w != null ? w : firstOfGang(otherQueue);
        }
        final Slot oldest = otherQueue.peekFirst();
        if (oldest != null && now - oldest.sinceNs >= quantumNs) {
            return otherQueue.pollFirst();
        }
        final Slot w = wokenQueue.pollFirst();
        return w != null ? w : otherQueue.pollFirst();
    }

    private Slot firstOfGang(final ArrayDeque<Slot> q) {
        for (final Iterator<Slot> it = q.iterator(); it.hasNext(); ) {
            final Slot w = it.next();
            if (w.gang == currentGang) {
                it.remove();
                return w;
            }
        }
        return null;
    }

    /** Under the lock (GANG): the next gang's turn once the current one has had a quantum. */
    private void nextTurnIfDue(final long now) {
        if (policy == Scheduling.GANG && gangs > 1 && now - turnStartNs >= quantumNs) {
            // The next gang that still has a PE: a job that has ended leaves its gangs empty, and an empty turn would
            // leave the cores idle for a quantum.
            int next = currentGang;
            for (int k = 1; k <= gangs && next == currentGang; k++) {
                final int g = (currentGang + k) % gangs;
                for (final Slot s : all) {
                    if (s.gang == g) {
                        next = g;
                        break;
                    }
                }
            }
            currentGang = next;
            turnStartNs = now;
        }
    }

    @Override
    public String toString() {
        return "RunSlots{policy=" + policy + ", cores=" + cores + ", running=" + running.get()
            + ", waiting=" + waiting + ", grants=" + grants.get() + ", overAdmissions=" + overAdmissions.get() + '}';
    }
}
