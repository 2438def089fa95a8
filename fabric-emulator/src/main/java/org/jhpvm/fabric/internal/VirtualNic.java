package org.jhpvm.fabric.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.IdentityHashMap;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.FrameRejections;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fabric.timing.TimingModel;

/**
 * A NIC of a virtual-time fabric: frames carry the times the {@link TimingModel} gives them, and the host sees a
 * frame only once its own clock has reached the frame's arrival.
 * <p>
 * Its clock advances by the host's work on each call (a send's overhead, a received frame's dispatch, an empty
 * poll), by the CPU time its thread spent between calls (when compute is measured) or by what the program declares
 * ({@link VirtualTime#charge}), and, in a waiting receive, to the arrival that ends the wait. A look at time t first
 * waits (in wall time) until every other NIC's clock has reached t, so that every frame that left before t is in
 * its inbox; it then times, in the order their first bytes reach its switch port, every frame whose first bytes
 * reach the port before t plus the send lookahead (no frame not yet sent can come before them), and delivers the
 * first one that has arrived by t. What a host sees and when depends only on the virtual clocks, not on how the
 * operating system runs the threads.
 */
final class VirtualNic implements Nic, VirtualTime.Host {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final ThreadLocal<ThreadClock> THREAD = ThreadLocal.withInitial(ThreadClock::new);
    private static final int SENT = 0;
    private static final int BYTES_SENT = 1;
    private static final int RECEIVED = 2;
    private static final int BYTES_RECEIVED = 3;
    private static final int SLOTS_ADDED = 4;
    private static final int DROPPED = 5;
    private static final int CORRUPTED = 6;

    /** A thread's own clock: a thread that drives several NICs is one host, and its CPU time is its own. */
    private static final class ThreadClock {
        Object fabric;
        long clockPs;
        long cpuNs = -1;
        /** Waits the thread is in (nested): their CPU time is spinning, not computation. */
        int waits;
        /**
         * What an interval between two calls costs with nothing in it (the reads of the CPU clock, the fabric's own
         * steps): the least interval seen, starting from twice a read's cost as measured alone.
         */
        long overheadNs = -1;
    }

    private final VirtualFabric fabric;
    private final int id;
    private final TimingModel model;
    private final VirtualClocks clocks;
    private final boolean measured;
    private final double cpuScale;
    /** {@code fabric.cpu=measured} (whatever the scale; {@link #measured} is false on a machine that counts none). */
    private final boolean measuredSetting;
    private final int nicCount;
    private final int frameBytes;
    private final long sendLookaheadPs;
    private final long lookaheadPs;

    /** The clock, picoseconds; written by the host thread. */
    private long clockPs;
    private long sequence;
    private final TimingModel.Timeline timeline = new TimingModel.Timeline();
    private final Frame[] pool;
    private int poolSize;
    private final MpmcArrayQueue<VirtualArrival> freeSlots;
    private final MpscUnboundedArrayQueue<VirtualArrival> inbox = new MpscUnboundedArrayQueue<>(256);
    private final PriorityQueue<VirtualArrival> pending = new PriorityQueue<>(64, VirtualArrival.PORT_ORDER);
    /** Timed frames in order of arrival (frames to this NIC itself join here at once, on the loopback). */
    private final PriorityQueue<VirtualArrival> ready = new PriorityQueue<>(64, VirtualArrival.ARRIVAL_ORDER);
    /** The loopback's receive side: frames to this NIC itself turn at the switch without its port's queue. */
    private final TimingModel.Timeline loopback = new TimingModel.Timeline();
    /** The times of a dropped frame, thrown away. */
    private final TimingModel.Flight dropped = new TimingModel.Flight();
    /** Whether this NIC has a promise out: it waits in a receive (host thread only). */
    private boolean waiting;
    /** The least clock (or promise) of the other NICs at the last look, picoseconds. */
    private long othersMinPs;
    /** For {@link VirtualClocks#othersMin}: host thread only. */
    /** How this NIC waits for the others' clocks. */
    private final OthersWait waits;
    private final long receiveLookaheadPs;
    private final IdentityHashMap<Frame, VirtualArrival> delivered = new IdentityHashMap<>();
    private final CounterBlock counters = new CounterBlock(7);
    /** The fault plan's drops and corruptions of this NIC's frames, or null without faults. */
    private final VirtualFaults faults;
    /** Frames of this NIC that receivers have delivered to their hosts (written by the receivers). */
    private final AtomicLong retired = new AtomicLong();
    private final AtomicLong retiredBytes = new AtomicLong();

    VirtualNic(final VirtualFabric fabric, final int id, final FabricConfig config, final TimingModel model,
               final VirtualClocks clocks, final boolean measured) {
        this.fabric = fabric;
        this.id = id;
        this.model = model;
        this.clocks = clocks;
        // A machine whose cpu_scale is 0 counts none of this machine's CPU time: no need to read it.
        this.measured = measured && model.machine().cpuScale() > 0;
        this.measuredSetting = measured;
        this.cpuScale = model.machine().cpuScale();
        this.nicCount = config.nicCount();
        this.frameBytes = config.frameBytes();
        this.sendLookaheadPs = model.sendLookaheadPs();
        this.lookaheadPs = model.lookaheadPs();
        this.receiveLookaheadPs = lookaheadPs - sendLookaheadPs;
        this.waits = new OthersWait(fabric, id, config.nicCount(), clocks, inbox);
        this.faults = config.faultPlan().isNone() ? null : new VirtualFaults(config.faultPlan(), id, config.nicCount());
        this.pool = new Frame[config.poolFrames()];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = new Frame(fabric, id, MyrinetNic.HOME_HOST, config.headerBytes(), frameBytes);
            pool[i].setState(FrameDescriptor.STATE_FREE);
        }
        this.poolSize = pool.length;
        this.freeSlots = new MpmcArrayQueue<>(Math.max(2, config.receiveRingCapacity() * 2));
        for (int i = 0; i < config.receiveRingCapacity(); i++) {
            freeSlots.offer(new VirtualArrival(fabric, id, config.headerBytes(), frameBytes));
        }
    }

    // ---------------------------------------------------------------- the clock

    /** Counts the calling thread's time since its last call and makes this NIC its clock. */
    private ThreadClock enter() {
        fabric.checkOpen();
        return account();
    }

    /** {@link #enter()} without the check that the fabric is open. */
    private ThreadClock account() {
        final Thread thread = Thread.currentThread();
        final ThreadClock tc = THREAD.get();
        if (tc.fabric != fabric) {
            tc.fabric = fabric;
            tc.clockPs = 0;
            tc.cpuNs = -1;
            tc.waits = 0;
            tc.overheadNs = measured ? 2 * CpuClockCost.NS : 0;
        }
        if (!thread.isVirtual()) {
            clocks.host(id, thread);
        }
        VirtualTime.bind(this);
        long c = Math.max(clockPs, tc.clockPs);
        if (measured) {
            final long cpu = CPU.getCurrentThreadCpuTime();
            // Less what an interval costs with nothing in it: about one read of the CPU clock (the end of the read at
            // the last call's exit, the start of this one's) and the fabric's own steps, which are the measurement's
            // cost, not the PE's computation (a read takes 1.5-2 us on some virtual machines, where a program making
            // many fabric calls would compute for seconds more). The least interval seen is at most that.
            if (cpu >= 0 && tc.cpuNs >= 0) {
                final long interval = cpu - tc.cpuNs;
                if (interval < tc.overheadNs) {
                    tc.overheadNs = Math.max(0, interval);
                }
                final long computed = interval - tc.overheadNs;
                if (computed > 0 && tc.waits == 0) {
                    c += Math.round(computed * 1000.0 * cpuScale);
                }
            }
            tc.cpuNs = cpu;
        }
        if (c != clockPs) {
            // Published at once: a look about to wait holds the others back only to its own time, never to an older
            // one (two NICs each waiting for the other's last published clock would wait for ever).
            clockPs = c;
            clocks.publish(id, c);
        }
        return tc;
    }

    /** Ends a call: the thread's time from here counts again, and the others see this NIC's clock. */
    private void exit(final ThreadClock tc) {
        tc.clockPs = clockPs;
        if (measured) {
            tc.cpuNs = CPU.getCurrentThreadCpuTime();
        }
        clocks.publish(id, clockPs);
        if (waiting) {
            // After the clock, so that the others see the clock this NIC acts from before the promise goes. A least
            // clock they read earlier still holds: the frame that ended the wait lowered the promise to its arrival
            // before its sender published a later clock, and this NIC acts no sooner than that arrival.
            waiting = false;
            clocks.clearPromise(id);
        }
    }

    @Override
    public long nowPs() {
        final ThreadClock tc = account();
        exit(tc);
        return clockPs;
    }

    @Override
    public void waiting(final boolean begins) {
        final ThreadClock tc = account(); // the computation before the wait counts; the wait's spinning does not
        tc.waits = Math.max(0, tc.waits + (begins ? 1 : -1));
        exit(tc);
    }

    @Override
    public double cost(final String key) {
        return model.machine().layers().getOrDefault(key, 0.0);
    }

    @Override
    public boolean computeMeasured() {
        return measuredSetting;
    }

    @Override
    public double cpuScale() {
        return cpuScale;
    }

    @Override
    public boolean live() {
        return !fabric.isClosed();
    }

    @Override
    public void chargePs(final long ps) {
        final ThreadClock tc = enter();
        clockPs += ps;
        exit(tc);
    }

    /** @return this NIC's clock as its host last left it, picoseconds (any thread; may lag) */
    long clockPs() {
        return clocks.published(id);
    }

    // ---------------------------------------------------------------- sending

    @Override
    public int id() {
        return id;
    }

    @Override
    public Frame tryAcquire() {
        fabric.checkOpen();
        VirtualTime.bind(this);
        if (poolSize == 0) {
            return null;
        }
        final Frame frame = pool[--poolSize];
        pool[poolSize] = null;
        frame.setState(FrameDescriptor.STATE_HOST);
        frame.setLength(0);
        return frame;
    }

    @Override
    public Frame acquire() {
        while (true) {
            final Frame frame = tryAcquire();
            if (frame != null) {
                return frame;
            }
            // Frames come back only as this host releases or sends them: another thread of the host must.
            Thread.yield();
            checkWaitGoesOn("acquire");
        }
    }

    @Override
    public boolean trySend(final Frame frame) {
        final int dst = frame.destination();
        final int length = frame.length();
        if (frame.origin() != fabric || frame.owner() != id || frame.home() != MyrinetNic.HOME_HOST
            || frame.state() != FrameDescriptor.STATE_HOST || dst < 0 || dst >= nicCount || length < 0
            || length > frameBytes) {
            throw FrameRejections.send(frame, fabric, id, MyrinetNic.HOME_HOST, nicCount, frameBytes);
        }
        final ThreadClock tc = enter();
        try {
            final long departure = clockPs;
            clockPs = departure + model.hostSendPs(length);
            frame.stampSource(id);
            final int fault = faults == null ? 0 : faults.next(dst);
            counters.increment(SENT);
            counters.add(BYTES_SENT, length);
            if ((fault & FaultPlan.DROP) != 0) {
                // Lost on the way: it took the sender's time and resources, and never reaches the port.
                model.send(timeline, departure, length, dropped);
                counters.increment(DROPPED);
                retired.incrementAndGet();
                frame.setState(FrameDescriptor.STATE_FREE);
                pool[poolSize++] = frame;
                return true;
            }
            final VirtualArrival a = fabric.nicUnchecked(dst).takeSlot();
            a.frame.copyFrom(frame);
            a.frame.setState(FrameDescriptor.STATE_IN_FABRIC);
            a.source = id;
            a.sequence = sequence++;
            model.send(timeline, departure, length, a.flight);
            if ((fault & FaultPlan.CORRUPT) != 0) {
                faults.corrupt(a.frame, dst);
                counters.increment(CORRUPTED);
            }
            if (dst == id) {
                // On the loopback: timed at once, on this thread, so that it never waits for the port order.
                a.arrivalPs = model.receive(loopback, a.flight, length);
                ready.add(a);
            } else {
                final VirtualNic receiver = fabric.nicUnchecked(dst);
                receiver.inbox.offer(a);
                // A receiver waiting with a later promise may now act sooner: at this frame's arrival.
                clocks.lowerPromise(dst, a.flight.headAtSwitchPs + receiveLookaheadPs);
                receiver.waits.wakeForFrame(); // after lowerPromise's fence
            }
            frame.setState(FrameDescriptor.STATE_FREE);
            pool[poolSize++] = frame;
            return true;
        } finally {
            exit(tc);
        }
    }

    @Override
    public void send(final Frame frame) {
        trySend(frame);
    }

    /** A receive slot for a sender's frame (any sender thread); a new one when all are out. */
    private VirtualArrival takeSlot() {
        final VirtualArrival a = freeSlots.poll();
        if (a != null) {
            return a;
        }
        counters.increment(SLOTS_ADDED);
        return new VirtualArrival(fabric, id, fabric.headerBytes(), frameBytes);
    }

    // ---------------------------------------------------------------- receiving

    @Override
    public Frame poll() {
        final ThreadClock tc = enter();
        try {
            final long t = clockPs;
            final Frame frame = look(t);
            if (frame == null) {
                // Every frame that arrives by t + poll is timed already (the poll costs less than the lookahead),
                // so the clock lands on such an arrival exactly, whether the host polls or waits.
                final VirtualArrival next = ready.peek();
                clockPs = next == null ? t + model.pollPs() : Math.min(t + model.pollPs(), next.arrivalPs);
            }
            return frame;
        } finally {
            exit(tc);
        }
    }

    @Override
    public Frame receive(final long timeoutNs) {
        final ThreadClock tc = enter();
        try {
            final long deadline = clockPs + Math.min(Math.max(0, timeoutNs), Long.MAX_VALUE / 4000) * 1000;
            while (true) {
                final long t = clockPs;
                final Frame frame = look(t);
                if (frame != null) {
                    return frame;
                }
                if (t >= deadline) {
                    return null;
                }
                // Promise to send nothing before the next event this NIC knows of, and keep the promise there
                // (keepPromise). It is worked out from the inbox as read after the promise is opened (counted at the
                // clock meanwhile), and refused if a frame came in between. A promise made before the inbox was read
                // could miss a frame whose sender saw no promise to lower: a NIC waiting for this one's answer to that
                // frame would then run on to this one's deadline (a fetch-add took a whole idle sleep, 20 ms, on a
                // busy machine).
                waiting = true;
                long others = waits.othersMin();
                admit(others);
                keepPromise(deadline);
                long to = reach(deadline, others);
                final long aim = aim(deadline);
                if (to < aim) {
                    // Held back by the others, not by an event of this NIC's: wait (wall time) until they let it go
                    // straight to that event, or until a frame comes, rather than step one lookahead behind the least
                    // clock each time it moves (with hundreds of NICs, most of a wait's steps were of that kind).
                    others = waits.await(aim, true);
                    admit(others);
                    keepPromise(deadline);
                    to = reach(deadline, others);
                }
                clockPs = Math.max(t, to);
                clocks.publish(id, clockPs);
                checkWaitGoesOn("receive");
            }
        } finally {
            exit(tc);
        }
    }

    /**
     * Looks at time t: waits until every frame that left before t is in the inbox, times the frames whose turn at
     * the switch port has come, and delivers the first if it has arrived by t.
     *
     * @return the frame, its dispatch added to the clock, or null
     */
    private Frame look(final long t) {
        othersMinPs = waits.await(t, false);
        admit(othersMinPs);
        final VirtualArrival a = ready.peek();
        if (a == null || a.arrivalPs > t) {
            return null;
        }
        ready.poll();
        final int length = a.frame.length();
        clockPs = t + model.hostRecvPs(length);
        a.frame.setState(FrameDescriptor.STATE_DELIVERED);
        delivered.put(a.frame, a);
        counters.increment(RECEIVED);
        counters.add(BYTES_RECEIVED, length);
        final VirtualNic sender = fabric.nicUnchecked(a.source);
        sender.retired.incrementAndGet();
        sender.retiredBytes.addAndGet(length);
        return a.frame;
    }

    /**
     * Takes what the inbox holds and times, in the port's order, every frame whose first bytes reach the port before
     * the others' least clock (or promise) plus the send lookahead: all of them have left their senders, so the
     * port's order up to there is known.
     *
     * @param othersMin the others' least clock or promise, as last read
     * @return whether the inbox held anything
     */
    private boolean admit(final long othersMin) {
        final boolean any = drainInbox();
        VirtualArrival a;
        final long bound = othersMin + sendLookaheadPs;
        while ((a = pending.peek()) != null && a.flight.headAtSwitchPs < bound) {
            pending.poll();
            a.arrivalPs = model.receive(timeline, a.flight, a.frame.length());
            ready.add(a);
        }
        return any;
    }

    /** @return whether the inbox held anything, now among the frames pending their turn at the port */
    private boolean drainInbox() {
        VirtualArrival a;
        boolean any = false;
        while ((a = inbox.poll()) != null) {
            pending.add(a);
            any = true;
        }
        return any;
    }

    /** The earliest this waiting NIC can act: its deadline, the next arrival it has timed, or a frame not yet timed. */
    private long nextEvent(final long deadline) {
        return earliest(deadline, receiveLookaheadPs);
    }

    /**
     * Keeps a waiting NIC's promise at its next event. Senders bring it down as frames come; it goes up when a frame
     * timed at the port turns out to arrive later than the earliest its sender could promise. A NIC that waits does
     * not move its clock towards the others' (it waits for the event it aims at), so its promise alone tells them
     * how far it lets them go: one left at a frame's earliest arrival while the frame comes later would hold back a
     * NIC whose look this one waits for. Raised as it was first set: opened, the inbox read, then set unless a frame
     * came meanwhile.
     */
    private void keepPromise(final long deadline) {
        long next = nextEvent(deadline);
        while (clocks.promiseOf(id) != next) {
            clocks.openPromise(id);
            drainInbox();
            next = nextEvent(deadline);
            if (clocks.promise(id, next)) {
                return;
            }
        }
    }

    /**
     * How far a waiting NIC's clock may go now: to its deadline or the next arrival it has timed, but no further than
     * the others' least clock plus the lookahead (a frame not yet seen can arrive no sooner).
     */
    private long reach(final long deadline, final long others) {
        final VirtualArrival next = ready.peek();
        final long to = Math.min(deadline, others + lookaheadPs);
        return next == null ? to : Math.min(to, next.arrivalPs);
    }

    /**
     * The least clock of the others at which a waiting NIC learns something: its deadline or next timed arrival can
     * be reached, or the first frame pending its turn at the port can be timed (the others' least clock plus the send
     * lookahead passes its first bytes' time at the port).
     */
    private long aim(final long deadline) {
        return earliest(deadline, 1 - sendLookaheadPs);
    }

    /** @return the least of the deadline, the next timed arrival, and the first pending frame's time at the port plus
     * {@code pendingPs} */
    private long earliest(final long deadline, final long pendingPs) {
        long w = deadline;
        final VirtualArrival r = ready.peek();
        if (r != null) {
            w = Math.min(w, r.arrivalPs);
        }
        final VirtualArrival p = pending.peek();
        if (p != null) {
            w = Math.min(w, p.flight.headAtSwitchPs + pendingPs);
        }
        return w;
    }

    /** Ends a waiting call on close or interrupt. */
    private void checkWaitGoesOn(final String call) {
        WaitEnds.check(call, id, fabric);
    }

    @Override
    public void release(final Frame frame) {
        final VirtualArrival a = frame.origin() == fabric && frame.state() == FrameDescriptor.STATE_DELIVERED
            ? delivered.remove(frame) : null;
        if (a != null) {
            frame.setState(FrameDescriptor.STATE_FREE);
            freeSlots.offer(a); // full: a slot added when all were out goes to the garbage collector
            return;
        }
        if (frame.origin() == fabric && frame.owner() == id && frame.home() == MyrinetNic.HOME_HOST
            && frame.state() == FrameDescriptor.STATE_HOST) {
            frame.setState(FrameDescriptor.STATE_FREE);
            pool[poolSize++] = frame;
            return;
        }
        throw FrameRejections.release(frame, fabric, id);
    }

    @Override
    public int progress() {
        final ThreadClock tc = enter();
        exit(tc);
        return 0;
    }

    @Override
    public long pendingFrames() {
        return counters.get(SENT) - retired.get();
    }

    @Override
    public NicCounters counters() {
        final long sent = counters.get(SENT);
        return new NicCounters(sent, counters.get(BYTES_SENT), retired.get(), retiredBytes.get(), counters.get(RECEIVED),
            counters.get(BYTES_RECEIVED), counters.get(DROPPED), counters.get(CORRUPTED), 0, 0, 0, 0, 0,
            counters.get(SLOTS_ADDED));
    }
}
