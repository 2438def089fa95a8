package org.jhpvm.fabric.internal;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The NICs' virtual clocks as the other NICs see them, and the horizon each NIC may run to: the conservative rule of
 * a parallel discrete-event simulation. A NIC publishes its clock after every fabric call; no frame it sends later
 * can arrive anywhere before that clock plus the model's lookahead (the least latency of any frame). A NIC that has
 * polled up to time t has therefore seen every frame that arrives by t once every other NIC's published clock plus
 * the lookahead is past t.
 * <p>
 * Which NICs take part: a NIC takes part from the moment the fabric gives it out ({@code Fabric.nic(id)}), as the
 * thread that asked for it; its host is then whichever thread called it last. A NIC stops taking part when that
 * thread has ended (it cannot send again). A NIC whose host is the calling thread itself is never waited for (the
 * thread cannot run it while it waits): its clock is brought forward instead, so a thread that drives several NICs
 * makes one host of them.
 * <p>
 * A NIC that waits in a {@code receive} also publishes a promise: it will not send before that time (its deadline,
 * the next arrival it knows of) unless a frame reaches it first, and a sender that hands it a frame lowers the
 * promise to that frame's earliest arrival. To the others a waiting NIC counts at its promise, not its clock: NICs
 * that all wait do not creep towards each other by one lookahead at a time, they go straight to the earliest
 * promise (the lower bound on the time of the next event, as conservative simulators compute it).
 */
final class VirtualClocks {
    /** One clock per 64-byte line. */
    private static final int STRIDE = 8;
    /** A NIC that does not take part: it constrains no one. */
    static final long GONE = Long.MAX_VALUE / 4;

    /** No promise: the NIC is not waiting. */
    static final long NONE = -1;
    /**
     * The NIC is about to promise: it is reading its inbox to learn what it must promise, and counts at its clock
     * meanwhile. A sender that hands it a frame then marks it {@link #DIRTY}.
     */
    static final long OPEN = -2;
    /** A frame came while the promise was {@link #OPEN}: the NIC reads its inbox again before it promises. */
    static final long DIRTY = -3;

    private final AtomicLongArray published;
    private final AtomicLongArray promises;
    private final AtomicReferenceArray<Thread> hosts;
    private final long lookaheadPs;
    /** Looks parked on a NIC's clock, when the NICs outnumber the cores; null otherwise. */
    private final ClockWatchers watchers;

    /**
     * @param parkLooks whether looks that wait park on the NIC holding them back, to be woken when it reaches their
     *                  time (when the NICs' threads outnumber the cores), rather than spin and yield
     */
    VirtualClocks(final int nics, final long lookaheadPs, final boolean parkLooks) {
        this.watchers = parkLooks ? new ClockWatchers(this, nics) : null;
        this.published = new AtomicLongArray((nics + 2) * STRIDE);
        this.promises = new AtomicLongArray((nics + 2) * STRIDE);
        this.hosts = new AtomicReferenceArray<>(nics);
        this.lookaheadPs = lookaheadPs;
        for (int i = 0; i < nics; i++) {
            published.setRelease(index(i), GONE);
            promises.set(index(i), NONE);
        }
    }

    private static int index(final int nic) {
        return (nic + 1) * STRIDE;
    }

    int nics() {
        return hosts.length();
    }

    /** @return the least time from any frame's departure to its arrival, picoseconds */
    long lookaheadPs() {
        return lookaheadPs;
    }

    /** The NIC is given out to {@code thread}: it takes part from now at clock {@code clockPs}, if it did not. */
    void join(final int nic, final Thread thread, final long clockPs) {
        if (hosts.compareAndSet(nic, null, thread)) {
            published.setRelease(index(nic), clockPs);
        }
    }

    /** The NIC's host is now {@code thread}. */
    void host(final int nic, final Thread thread) {
        if (hosts.getPlain(nic) != thread) {
            hosts.set(nic, thread);
        }
    }

    /** @return the thread that last hosted the NIC, or null if it was never given out */
    Thread hostOf(final int nic) {
        return hosts.get(nic);
    }

    void publish(final int nic, final long clockPs) {
        published.setRelease(index(nic), clockPs);
        if (watchers != null) {
            watchers.changed(nic, effective(nic));
        }
    }

    /** The NIC takes no further part (its host ended, or the fabric closed). */
    void leave(final int nic) {
        published.setRelease(index(nic), GONE);
        if (watchers != null) {
            watchers.changed(nic, GONE);
        }
    }

    /** @return whether looks that wait park on the NIC holding them back ({@link #watch}) */
    boolean parksLooks() {
        return watchers != null;
    }

    /**
     * The calling thread's look (NIC {@code watcher}) is about to park until every other NIC has reached {@code t};
     * NIC {@code nic} holds the least clock. The look reads that clock again after this, and parks only if it is
     * still short (see {@link ClockWatchers}).
     */
    void watch(final int nic, final int watcher, final long t) {
        watchers.watch(nic, watcher, t);
    }

    /** The look parked by {@link #watch} goes on. */
    void unwatch(final int watcher) {
        watchers.unwatch(watcher);
    }

    long published(final int nic) {
        return published.getAcquire(index(nic));
    }

    /**
     * The NIC is about to wait: until {@link #promise} it counts at its clock. Then it reads its inbox (a volatile
     * write before those reads: a sender that offered a frame before this saw no promise, and the reads find it).
     */
    void openPromise(final int nic) {
        promises.set(index(nic), OPEN);
    }

    /**
     * The NIC waits: it sends nothing before {@code ps} unless a frame reaches it first. Refused if a frame came
     * since {@link #openPromise} (the promise may not know it): the NIC reads its inbox again and opens anew.
     *
     * @return whether the promise is out
     */
    boolean promise(final int nic, final long ps) {
        if (!promises.compareAndSet(index(nic), OPEN, ps)) {
            return false;
        }
        if (watchers != null) {
            watchers.changed(nic, effective(nic));
        }
        return true;
    }

    /** @return the NIC's promise, or {@link #NONE}, {@link #OPEN} or {@link #DIRTY} */
    long promiseOf(final int nic) {
        return promises.get(index(nic));
    }

    /** The NIC no longer waits (its published clock is its bound again). */
    void clearPromise(final int nic) {
        promises.set(index(nic), NONE);
    }

    /**
     * A frame is on its way to a NIC that may be waiting: its promise comes down to the frame's earliest arrival.
     * Called by the sender after it has queued the frame, before it publishes a later clock.
     */
    void lowerPromise(final int nic, final long ps) {
        // The frame was offered with a release store: fenced, so that either this read sees the receiver's opened
        // promise or the receiver's reads of its inbox after opening it see the frame.
        VarHandle.fullFence();
        final int i = index(nic);
        while (true) {
            final long w = promises.get(i);
            if (w == OPEN) {
                if (promises.compareAndSet(i, OPEN, DIRTY)) {
                    return;
                }
            } else if (w < 0 || w <= ps || promises.compareAndSet(i, w, ps)) {
                return; // not waiting, already told, or already as low
            }
        }
    }

    /**
     * The least published clock of the NICs other than {@code self} that take part, NICs hosted by the calling thread
     * left out. Looks at whether a NIC's host has ended only if {@code checkHosts} (the caller has waited a while).
     *
     * @param scratch {@code nics() + 1} longs of the caller's; the NIC that holds the least clock is left in the last
     *                one (-1 if no other NIC takes part)
     * @return picoseconds, {@link #GONE} if no other NIC takes part
     */
    long othersMin(final int self, final boolean checkHosts, final long[] scratch) {
        return othersMin(self, Thread.currentThread(), checkHosts, scratch);
    }

    /**
     * {@link #othersMin(int, boolean, long[])} for a look of NIC {@code self} made by thread {@code me}; with
     * {@code self} -1 and {@code me} null, the least of every NIC that takes part.
     */
    long othersMin(final int self, final Thread me, final boolean checkHosts, final long[] scratch) {
        final int n = hosts.length();
        // Every clock first, then every promise: a sender lowers its receiver's promise before it publishes a later
        // clock, so a clock read here that is past a send comes with a promise read after it that knows the frame.
        for (int q = 0; q < n; q++) {
            scratch[q] = published.getAcquire(index(q));
        }
        long min = GONE;
        int holder = -1;
        for (int q = 0; q < n; q++) {
            if (q == self) {
                continue;
            }
            final long w = promises.get(index(q));
            final long c = w < 0 ? scratch[q] : Math.max(scratch[q], w); // no promise yet: the clock
            if (c >= min) {
                continue;
            }
            final Thread host = hosts.get(q);
            if (host == me) {
                continue; // brought forward by the caller (see the class comment)
            }
            if (checkHosts && host != null && !host.isAlive()) {
                leave(q);
                continue;
            }
            min = c;
            holder = q;
        }
        scratch[n] = holder;
        return min;
    }

    /**
     * NIC {@code q}'s clock, or its promise if it waits and that is later: what it holds the others to. A look held
     * back by q reads this alone while it stays short of the look's time (the least of all can be no later).
     *
     * @return picoseconds
     */
    long effective(final int q) {
        final long c = published.getAcquire(index(q));
        final long w = promises.get(index(q));
        return w < 0 ? c : Math.max(c, w);
    }

    /** @return a NIC whose clock (or promise, if it waits) is at most {@code min}, for reports, or -1 */
    int holder(final int self, final long min) {
        for (int q = 0; q < hosts.length(); q++) {
            final long w = promises.get(index(q));
            final long c = published.getAcquire(index(q));
            if (q != self && (w < 0 ? c : Math.max(c, w)) <= min) {
                return q;
            }
        }
        return -1;
    }
}
