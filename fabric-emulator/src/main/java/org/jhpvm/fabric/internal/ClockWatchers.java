package org.jhpvm.fabric.internal;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Looks of a virtual-time fabric parked on the NIC that holds them back, when the NICs' threads outnumber the cores:
 * there a look that waits by spinning or yielding takes the core from a thread it waits for, and one that parks for
 * a while wakes mostly to find nothing changed (with a hundred NICs and more, a simulation's wall time went into
 * those yields and timed parks).
 * <p>
 * A look waiting for every other NIC to reach its time t registers with the NIC holding the least clock. When that
 * NIC's host moves its clock (or promise) to t or beyond, it reads every clock for the look: if all have reached t it
 * wakes the look, otherwise it moves the registration to the NIC now holding the least clock, without waking the
 * look (a wake and a park cost this machine about 8 us; a look of a hundred NICs met three or four holders in turn).
 * <p>
 * The watcher registers, then reads the watched NIC's clock; the NIC's host publishes its clock, then reads whether
 * anyone watches. With a full fence between the write and the read on both sides, one of them sees the other: a
 * look never stays parked past the moment its time was reached. A registration is good for one park: it names the
 * watcher's generation, which the watcher moves on when it stops waiting, and registrations of an older one are
 * dropped wherever they are found. A look parks with a time out all the same ({@link #FIRST_TIMEOUT_NS} growing to
 * {@link #BACKSTOP_NS}), so that it also sees the job end and a watched NIC's thread die.
 */
final class ClockWatchers {
    /**
     * A parked look wakes after this long (wall time) at first, and after twice as long each time up to
     * {@link #BACKSTOP_NS}, to look at the job and at whether a NIC's thread has ended.
     */
    static final long FIRST_TIMEOUT_NS = 1_000_000;
    /** A parked look wakes at least this often (wall time). */
    static final long BACKSTOP_NS = 50_000_000;

    /** Registrations: watcher, its generation, its time (as parallel arrays; growable). */
    private static final class Registrations {
        int[] ids = new int[4];
        long[] generations = new long[4];
        long[] times = new long[4];
        int size;

        void add(final int id, final long generation, final long t) {
            if (size == ids.length) {
                final int n = size * 2;
                ids = Arrays.copyOf(ids, n);
                generations = Arrays.copyOf(generations, n);
                times = Arrays.copyOf(times, n);
            }
            ids[size] = id;
            generations[size] = generation;
            times[size] = t;
            size++;
        }

        void removeAt(final int i) {
            final int last = --size;
            ids[i] = ids[last];
            generations[i] = generations[last];
            times[i] = times[last];
        }
    }

    /** The looks registered with one NIC. */
    private final class Watched {
        /** How many registrations (some may be stale): read by the NIC's host after every change of its clock. */
        volatile int count;
        private final Registrations registrations = new Registrations();

        synchronized void add(final int id, final long generation, final long t) {
            final Registrations r = registrations;
            if (r.size == r.ids.length) {
                for (int i = r.size - 1; i >= 0; i--) {
                    if (stale(r.ids[i], r.generations[i])) {
                        r.removeAt(i);
                    }
                }
            }
            r.add(id, generation, t);
            count = r.size;
        }

        /** Takes out the registrations whose time {@code ps} has reached, and stale ones; the good ones go to due. */
        synchronized void takeReached(final long ps, final Registrations due) {
            final Registrations r = registrations;
            for (int i = r.size - 1; i >= 0; i--) {
                final boolean stale = stale(r.ids[i], r.generations[i]);
                if (stale || r.times[i] <= ps) {
                    if (!stale) {
                        due.add(r.ids[i], r.generations[i], r.times[i]);
                    }
                    r.removeAt(i);
                }
            }
            count = r.size;
        }
    }

    private final VirtualClocks clocks;
    private final Watched[] watched;
    /** Per watcher: its current generation (odd while it is parked on a registration). */
    private final AtomicLongArray generations;
    /** Per watcher: the thread to wake. */
    private final Thread[] threads;
    private final ThreadLocal<Registrations> due = ThreadLocal.withInitial(Registrations::new);
    private final ThreadLocal<long[]> scratch;

    ClockWatchers(final VirtualClocks clocks, final int nics) {
        this.clocks = clocks;
        this.watched = new Watched[nics];
        for (int i = 0; i < nics; i++) {
            watched[i] = new Watched();
        }
        this.generations = new AtomicLongArray(nics);
        this.threads = new Thread[nics];
        this.scratch = ThreadLocal.withInitial(() -> new long[nics + 1]);
    }

    private boolean stale(final int id, final long generation) {
        return generations.get(id) != generation;
    }

    /**
     * The calling thread's look (NIC {@code watcher}) is about to park until every other NIC has reached {@code t};
     * it registers with NIC {@code nic}, which holds the least clock. Fenced: the caller reads that clock again after
     * this, and parks only if it is still short.
     */
    void watch(final int nic, final int watcher, final long t) {
        threads[watcher] = Thread.currentThread();
        final long generation = generations.incrementAndGet(watcher);
        watched[nic].add(watcher, generation, t);
        VarHandle.fullFence();
    }

    /** The look of NIC {@code watcher} no longer waits: whatever registration it left is stale. */
    void unwatch(final int watcher) {
        generations.incrementAndGet(watcher);
    }

    /**
     * NIC {@code nic}'s clock or promise has changed to {@code effective} (called by whoever changed it, after the
     * change is visible): the looks registered with it whose time it has reached wake, or move to the NIC that holds
     * them back now.
     */
    void changed(final int nic, final long effective) {
        VarHandle.fullFence();
        final Watched w = watched[nic];
        if (w.count == 0) {
            return;
        }
        final Registrations d = due.get();
        d.size = 0;
        w.takeReached(effective, d);
        if (d.size == 0) {
            return;
        }
        // One read of every clock serves them all (with hundreds of NICs, a holder's move often frees or moves
        // hundreds of looks): the least clock of all NICs is no later than the least of a look's others.
        final long[] s = scratch.get();
        final long least = clocks.othersMin(-1, null, false, s);
        final int holder = (int) s[s.length - 1];
        for (int i = 0; i < d.size; i++) {
            final int id = d.ids[i];
            final long generation = d.generations[i];
            final long t = d.times[i];
            if (least >= t) {
                wake(id, generation);
            } else if (holder == id || holder < 0 || clocks.hostOf(holder) == threads[id]
                || !register(holder, id, generation, t)) {
                settle(id, generation, t); // the least is the look's own (or its thread's), or moved on meanwhile
            }
        }
        d.size = 0;
    }

    private void wake(final int id, final long generation) {
        if (!stale(id, generation)) {
            LockSupport.unpark(threads[id]);
        }
    }

    /**
     * Registers the look with NIC {@code holder}, whose clock is short of t.
     *
     * @return false if the holder reached t meanwhile (it may not have seen the registration: settle again)
     */
    private boolean register(final int holder, final int id, final long generation, final long t) {
        watched[holder].add(id, generation, t);
        VarHandle.fullFence();
        return clocks.effective(holder) < t;
    }

    /** Wakes the look if every other NIC has reached its time, else registers it with the one that holds it back. */
    private void settle(final int id, final long generation, final long t) {
        final long[] s = scratch.get();
        while (!stale(id, generation)) {
            final Thread thread = threads[id];
            final long min = clocks.othersMin(id, thread, false, s);
            final int holder = (int) s[s.length - 1];
            if (min >= t || holder < 0) {
                LockSupport.unpark(thread);
                return;
            }
            if (register(holder, id, generation, t)) {
                return; // the holder's host will see the registration when it moves on
            }
            // The holder moved on meanwhile and may not have seen the registration: settle again (a duplicate it did
            // see is harmless, the look is woken or moved twice).
        }
    }
}
