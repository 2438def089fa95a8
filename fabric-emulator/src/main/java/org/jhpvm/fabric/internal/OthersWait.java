package org.jhpvm.fabric.internal;

import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a NIC of a virtual-time fabric waits, in wall time, for the other NICs' clocks: a look at time t goes on once
 * every other NIC that takes part has reached t (counted at its promise if it waits in a receive). One per NIC, used
 * by its host thread only (but {@link #wakeForFrame} by senders).
 * <p>
 * While the NICs' threads fit the cores a wait spins, then yields, then parks for 20 us doubling to 0.5 ms. With
 * more NICs than cores ({@code fabric.looks=auto}), or with {@code fabric.looks=park}, it yields a few times and then
 * parks on the NIC holding the least clock until that NIC wakes it ({@link ClockWatchers}): a waiter that spins or
 * yields there takes the core from a thread it waits for.
 */
final class OthersWait {
    /** Another NIC's clock standing still this long (wall time) while a look waits for it ends the job. */
    static final long STALL_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long CHECK_HOSTS_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /** This machine's cores: a look's wait spins only while the NICs' threads fit them. */
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private static final int SPINS = 200;
    private static final int YIELDS = 200;
    /**
     * Where looks park on the NIC holding them back, a look yields this often first: most waits end within a few
     * yields (hydro on 128 PEs: 5 yields 20.9 s, 0 yields 24.0 s, 20 yields 27.3 s of wall time).
     */
    private static final int PARK_YIELDS = 5;
    private static final long MIN_PARK_NS = 20_000;
    private static final long MAX_PARK_NS = 500_000;
    /** Every this many looks + 1 of a wait reads every clock, whatever the NIC that held it back shows. */
    private static final int FULL_LOOK_MASK = 63;

    private final VirtualFabric fabric;
    private final int id;
    private final int nicCount;
    private final VirtualClocks clocks;
    private final Queue<?> inbox;
    /** For {@link VirtualClocks#othersMin}: the host thread's. */
    private final long[] scratch;
    /** The host thread while a wait that a frame ends is parked (see {@link #parkOn}); else null. */
    private volatile Thread parked;

    OthersWait(final VirtualFabric fabric, final int id, final int nicCount, final VirtualClocks clocks,
               final Queue<?> inbox) {
        this.fabric = fabric;
        this.id = id;
        this.nicCount = nicCount;
        this.clocks = clocks;
        this.inbox = inbox;
        this.scratch = new long[nicCount + 1];
    }

    /** @return the least clock (or promise) of the other NICs that take part, now */
    long othersMin() {
        return clocks.othersMin(id, false, scratch);
    }

    /**
     * A sender has put a frame in this NIC's inbox and lowered its promise (whose fence orders the read here after
     * the offer): a wait parked until a frame comes goes on.
     */
    void wakeForFrame() {
        final Thread p = parked;
        if (p != null) {
            LockSupport.unpark(p);
        }
    }

    /**
     * Waits until every other NIC that takes part has its clock at t or beyond, or, with {@code untilFrame}, until a
     * frame is in the inbox.
     *
     * @return the least of the other NICs' clocks then (at least t, unless a frame ended the wait)
     * @throws IllegalStateException if the least clock stood still for {@link #STALL_NS}, naming its NIC
     */
    long await(final long t, final boolean untilFrame) {
        final long first = clocks.othersMin(id, false, scratch);
        if (first >= t) {
            return first;
        }
        final long startNs = System.nanoTime();
        // A stall is the others' least clock standing still, not a long wait: with many PEs on few cores a look may
        // wait long in wall time while the clocks it waits for keep moving.
        long seen = first; // the least clock as last read (or, between full looks, the holder's)
        long movedAtNs = startNs;
        final boolean parks = clocks.parksLooks();
        int spins = nicCount <= CORES && !parks ? 0 : SPINS;
        long parkNs = MIN_PARK_NS;
        long timeoutNs = ClockWatchers.FIRST_TIMEOUT_NS; // of a park on the holder
        // The NIC that held the least clock at the last full look: while it stays short of t, so does the least of
        // all, and one clock is read instead of every NIC's (with hundreds of NICs, most looks are of this kind).
        int holder = (int) scratch[nicCount];
        for (int looks = 1; ; looks++) {
            final long nowNs = System.nanoTime();
            long min;
            if (holder < 0 || (looks & FULL_LOOK_MASK) == 0 || (min = clocks.effective(holder)) >= t) {
                min = clocks.othersMin(id, nowNs - startNs > CHECK_HOSTS_AFTER_NS, scratch);
                if (min >= t) {
                    return min;
                }
                holder = (int) scratch[nicCount];
            }
            if (untilFrame && !inbox.isEmpty()) {
                return clocks.othersMin(id, false, scratch);
            }
            if (min != seen) {
                seen = min;
                movedAtNs = nowNs;
                parkNs = MIN_PARK_NS; // the clocks move: look again soon
            }
            if (parks && spins >= SPINS + PARK_YIELDS && holder >= 0) {
                parkOn(holder, t, untilFrame, timeoutNs);
                // Woken by the holder or by the time out: either way every clock is read next (a holder whose thread
                // has ended never wakes anyone; its end is seen only by such a read), and a longer time out follows.
                holder = -1;
                timeoutNs = Math.min(ClockWatchers.BACKSTOP_NS, timeoutNs * 2);
            } else if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
            } else if (spins < SPINS + YIELDS) {
                spins++;
                Thread.yield();
            } else {
                LockSupport.parkNanos(parkNs);
                // While the clocks stand still (their threads wait for a core), look less often, up to 0.5 ms.
                parkNs = Math.min(MAX_PARK_NS, parkNs * 2);
            }
            if (WaitEnds.ending(fabric)) {
                WaitEnds.check("a look", id, fabric, t);
            }
            if (nowNs - movedAtNs > STALL_NS) {
                throw stalled(t, min);
            }
        }
    }

    /**
     * Parks the look until NIC {@code holder} reaches t (or, with {@code untilFrame}, a frame comes), or for
     * {@code timeoutNs} at most.
     */
    private void parkOn(final int holder, final long t, final boolean untilFrame, final long timeoutNs) {
        if (untilFrame) {
            parked = Thread.currentThread();
        }
        clocks.watch(holder, id, t); // fenced: a sender that offered a frame before this is seen below, or sees this
        if (clocks.effective(holder) < t && !(untilFrame && !inbox.isEmpty())) {
            LockSupport.parkNanos(timeoutNs);
        }
        parked = null;
        clocks.unwatch(id);
    }

    private IllegalStateException stalled(final long t, final long min) {
        final int q = clocks.holder(id, min);
        final Thread host = q < 0 ? null : clocks.hostOf(q);
        return new IllegalStateException("virtual time: NIC " + id + " waits at " + t / 1000 + " ns for NIC " + q
            + ", whose clock has stood at " + min / 1000 + " ns for " + STALL_NS / 1_000_000_000 + " s (wall): its "
            + "host " + (host == null ? "was never given out" : "thread " + host.getName() + " is "
            + host.getState()) + " and has not called the fabric since (a NIC of a virtual-time fabric must be "
            + "used by a live thread until its job ends)");
    }
}
