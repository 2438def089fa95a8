package org.jhpvm.fabric.aeron;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import io.aeron.ControlledFragmentAssembler;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.ReservedValueSupplier;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.jctools.queues.MpscArrayQueue;
import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.FabricClosedException;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.FrameRejections;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fabric.NicInterruptedException;

/**
 * A NIC of this process on the Aeron fabric. Frames to a NIC of the same process go by reference through the
 * destination's inbox (an MPSC ring of the receive ring's size: back-pressure when full) and come back to the
 * sender's pool through its returns queue when released. Frames to a NIC of another process are offered, header and
 * payload in one message, on an exclusive publication to that NIC's stream (IPC on one host, UDP between hosts) and
 * the frame goes back to the pool at once: the transport holds the bytes now. Arrived messages are copied into
 * frames of this NIC's receive pool; when that pool is empty the message stays in Aeron's log, which back-pressures
 * the sender.
 * <p>
 * Thread-safety: the host interface is used by one thread at a time (see {@link Nic}); counters may be read from
 * any thread.
 */
final class AeronNic implements Nic {
    static final int HOME_SEND = 0;
    static final int HOME_RECEIVE = 1;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int SENT = 0;
    private static final int BYTES_SENT = 1;
    private static final int DELIVERED = 2;
    private static final int RECEIVED = 3;
    private static final int BYTES_RECEIVED = 4;
    private static final int DROPPED = 5;
    private static final int STALLS = 6;
    private static final int RECEIVER_STALLS = 7;
    private static final int FRAGMENT_LIMIT = 16;
    /**
     * A sleep (the host has spun and yielded already) that has seen no frame for this long parks {@link #LONG_PARK_NS}
     * at a time instead of at most the idle strategy's 100 us: nothing can wake a thread across processes, so a
     * sleeping PE looks; an idle PE now looks 1,000 times a second instead of 10,000.
     */
    static final long LONG_SLEEP_NS = 10_000_000;
    /** The park of a long sleep. */
    static final long LONG_PARK_NS = 1_000_000;
    /**
     * The longest sleep on the bell: what bounds how late a sleeping PE sees an interrupt that nothing rang for (an
     * interrupt wakes a park but not a thread asleep in the kernel on a futex). An aborting job rings its PEs' bells
     * after interrupting them ({@link ControlBell#ringLocalNics}), so this bounds only other interrupts, at 5 wake-ups
     * a second of an idle PE.
     */
    static final long BELL_SLEEP_NS = 200_000_000;
    /** A sleep that has seen no frame for this long (an idle job) parks {@link #IDLE_PARK_NS} at a time. */
    static final long IDLE_SLEEP_NS = 1_000_000_000;
    /** The park of an idle job's sleep: 250 looks a second (about 0.7% of a core here). */
    static final long IDLE_PARK_NS = 4_000_000;
    /** Sleeps this close together, with no frame between, are one idle spell. */
    static final long SLEEP_GAP_NS = 1_000_000;

    private final AeronFabric fabric;
    private final int id;
    private final int nicCount;
    private final int frameBytes;
    private final int wireHeaderBytes;
    private final Frame[] sendPool;
    private int sendFree;
    private final Frame[] receivePool;
    private int receiveFree;
    private final Frame[] ready;
    private int readyHead;
    private int readyCount;
    final MpscArrayQueue<Frame> inbox;
    final MpscArrayQueue<Frame> returns;
    private final ExclusivePublication[] publications;
    private final Subscription[] subscriptions;
    private final ControlledFragmentAssembler assembler;
    private final Int2IntHashMap authorized = new Int2IntHashMap(-1);
    private final Hello hello;
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[0]);
    /** Writes the sending process's job number into each message's reserved header field (see onMessage). */
    private final ReservedValueSupplier jobStamp;
    private final AtomicLongArray counters = new AtomicLongArray(8);
    private final BackoffIdleStrategy idle = new BackoffIdleStrategy(200, 20, 1_000, 100_000);
    private int nextSubscription;
    /** The host's doorbells, or null; {@link #ringable}[d]: a frame to NIC d rings its bell. */
    private final Doorbells bells;
    private final boolean[] ringable;
    /** Whether this NIC sleeps on its bell (every frame it can receive rings it). */
    private final boolean sleepsOnBell;
    /** The timeout of a sleep on the bell (made once, for the host thread that sleeps; the agent's own). */
    private final MemorySegment timespec;
    private final MemorySegment agentTimespec;
    /** Sleeps on the bell that a ring ended (or that began after one), for tests: the host's, an agent's. */
    private long rungSleeps;
    private volatile long rungAwaits;
    // The host thread's idle spell (see sleep): when it began (0: none), and when its last sleep ran out.
    private long idleSinceNs;
    private long lastSleepEndNs;
    /** The stores into this NIC's host memory counted on its bell when a wait last returned for them. */
    private long seenStores;

    AeronNic(final AeronFabric fabric, final int id, final int ring, final int pool, final Hello hello,
             final ExclusivePublication[] publications, final Subscription[] subscriptions) {
        this.fabric = fabric;
        this.id = id;
        this.nicCount = fabric.nicCount();
        this.frameBytes = fabric.frameBytes();
        this.wireHeaderBytes = FrameDescriptor.FABRIC_HEADER_BYTES + fabric.headerBytes();
        this.hello = hello;
        this.publications = publications;
        this.subscriptions = subscriptions;
        this.sendPool = new Frame[pool];
        for (int i = 0; i < pool; i++) {
            sendPool[i] = new Frame(fabric, id, HOME_SEND, fabric.headerBytes(), frameBytes);
        }
        this.sendFree = pool;
        this.receivePool = new Frame[ring];
        for (int i = 0; i < ring; i++) {
            receivePool[i] = new Frame(fabric, id, HOME_RECEIVE, fabric.headerBytes(), frameBytes);
        }
        this.receiveFree = ring;
        this.ready = new Frame[ring];
        this.inbox = new MpscArrayQueue<>(Math.max(2, ring));
        this.returns = new MpscArrayQueue<>(Math.max(2, pool));
        this.assembler = new ControlledFragmentAssembler(this::onMessage);
        this.jobStamp = (buffer, offset, length) -> fabric.currentJob();
        this.bells = fabric.doorbells();
        this.ringable = new boolean[nicCount];
        for (int d = 0; d < nicCount; d++) {
            ringable[d] = fabric.rings(d);
        }
        this.sleepsOnBell = fabric.allRing();
        this.timespec = sleepsOnBell ? bells.timespec() : null;
        this.agentTimespec = sleepsOnBell ? bells.timespec() : null;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public Frame tryAcquire() {
        fabric.checkOpen();
        if (sendFree == 0) {
            takeReturns();
            if (sendFree == 0) {
                return null;
            }
        }
        final Frame f = sendPool[--sendFree];
        sendPool[sendFree] = null;
        f.setState(FrameDescriptor.STATE_HOST);
        f.setLength(0);
        return f;
    }

    private void takeReturns() {
        Frame f;
        while ((f = returns.relaxedPoll()) != null) {
            sendPool[sendFree++] = f;
        }
    }

    @Override
    public Frame acquire() {
        idle.reset();
        Frame f;
        while ((f = tryAcquire()) == null) {
            waitTurn("acquire");
        }
        return f;
    }

    @Override
    public boolean trySend(final Frame frame) {
        fabric.checkOpen();
        final int dst = frame.destination();
        final int length = frame.length();
        if (frame.origin() != fabric || frame.owner() != id || frame.home() != HOME_SEND
            || frame.state() != FrameDescriptor.STATE_HOST || dst < 0 || dst >= nicCount || length < 0
            || length > frameBytes) {
            throw FrameRejections.send(frame, fabric, id, HOME_SEND, nicCount, frameBytes);
        }
        frame.stampSource(id);
        final ExclusivePublication p = publications[dst];
        if (p == null) {
            frame.setState(FrameDescriptor.STATE_IN_FABRIC);
            if (!fabric.localNic(dst).inbox.offer(frame)) {
                frame.setState(FrameDescriptor.STATE_HOST);
                counters.lazySet(STALLS, counters.get(STALLS) + 1);
                return false;
            }
        } else {
            sendBuffer.wrap(frame.array());
            final long r = p.offer(sendBuffer, frame.frameOffset(), wireHeaderBytes + length, jobStamp);
            if (r < 0) {
                if (r == Publication.CLOSED || r == Publication.MAX_POSITION_EXCEEDED) {
                    fabric.checkOpen();
                    throw new IllegalStateException("publication to NIC " + dst + " is "
                        + (r == Publication.CLOSED ? "closed" : "at its maximum position"));
                }
                counters.lazySet(STALLS, counters.get(STALLS) + 1);
                return false;
            }
            frame.setState(FrameDescriptor.STATE_FREE);
            sendPool[sendFree++] = frame;
        }
        counters.lazySet(SENT, counters.get(SENT) + 1);
        counters.lazySet(BYTES_SENT, counters.get(BYTES_SENT) + length);
        counters.lazySet(DELIVERED, counters.get(DELIVERED) + 1);
        if (ringable[dst]) {
            bells.ring(dst);
        }
        return true;
    }

    @Override
    public void send(final Frame frame) {
        idle.reset();
        while (!trySend(frame)) {
            waitTurn("send");
        }
    }

    @Override
    public Frame poll() {
        fabric.checkOpen();
        if (readyCount == 0) {
            final Frame local = inbox.relaxedPoll();
            if (local != null) {
                return delivered(local);
            }
            pollTransport();
            if (readyCount == 0) {
                return null;
            }
        }
        final Frame f = ready[readyHead];
        ready[readyHead] = null;
        readyHead = readyHead + 1 == ready.length ? 0 : readyHead + 1;
        readyCount--;
        return f;
    }

    private Frame delivered(final Frame f) {
        f.setState(FrameDescriptor.STATE_DELIVERED);
        counters.lazySet(RECEIVED, counters.get(RECEIVED) + 1);
        counters.lazySet(BYTES_RECEIVED, counters.get(BYTES_RECEIVED) + f.length());
        return f;
    }

    /** Moves arrived messages into receive frames, as far as free frames allow. */
    private int pollTransport() {
        int n = 0;
        for (int i = 0; i < subscriptions.length && receiveFree > 0; i++) {
            final Subscription s = subscriptions[nextSubscription];
            nextSubscription = nextSubscription + 1 == subscriptions.length ? 0 : nextSubscription + 1;
            n += s.controlledPoll(assembler, Math.min(FRAGMENT_LIMIT, Math.max(1, receiveFree)));
        }
        return n;
    }

    private ControlledFragmentHandler.Action onMessage(final DirectBuffer buffer, final int offset, final int length,
                                                       final Header header) {
        final int session = header.sessionId();
        final int src = authorized.get(session);
        if (src < 0) {
            final int who = hello.verify(buffer, offset, length, session, Hello.KIND_DATA, id);
            if (who >= 0 && who < nicCount) {
                authorized.put(session, who);
            } else {
                dropped();
            }
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        final int payload = length - wireHeaderBytes;
        if (payload < 0 || payload > frameBytes
            || buffer.getInt(offset + FrameDescriptor.LENGTH_OFFSET, LE) != payload
            || buffer.getInt(offset + FrameDescriptor.SOURCE_OFFSET, LE) != src
            || buffer.getInt(offset + FrameDescriptor.DESTINATION_OFFSET, LE) != id) {
            dropped();
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        // Jobs run one after another on the same streams. A process leaves a job when it learns of the job-wide end,
        // which its peers may learn first and begin the next job: a message of that job waits in its stream until
        // this process begins it too (its PEs are still in the exit barrier of the last one, whose FM streams would
        // take it for theirs). A message of a job this process has left is a straggler and goes.
        final long job = header.reservedValue();
        final int mine = fabric.currentJob();
        if (job != mine) {
            if (job > mine) {
                fabric.earlyJobPoll();
                return ControlledFragmentHandler.Action.ABORT;
            }
            counters.lazySet(DROPPED, counters.get(DROPPED) + 1);
            fabric.staleJobMessage();
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        if (receiveFree == 0) {
            counters.lazySet(RECEIVER_STALLS, counters.get(RECEIVER_STALLS) + 1);
            return ControlledFragmentHandler.Action.ABORT;
        }
        final Frame f = receivePool[--receiveFree];
        receivePool[receiveFree] = null;
        buffer.getBytes(offset, f.array(), f.frameOffset(), length);
        int tail = readyHead + readyCount;
        if (tail >= ready.length) {
            tail -= ready.length;
        }
        ready[tail] = delivered(f);
        readyCount++;
        return ControlledFragmentHandler.Action.CONTINUE;
    }

    private void dropped() {
        counters.lazySet(DROPPED, counters.get(DROPPED) + 1);
        fabric.rejected();
    }

    @Override
    public Frame receive(final long timeoutNs) {
        final long deadline = System.nanoTime() + timeoutNs;
        idle.reset();
        while (true) {
            final Frame f = poll();
            if (f != null) {
                return f;
            }
            if (storedSinceLastLook() || System.nanoTime() - deadline >= 0) {
                return null;
            }
            waitTurn("receive");
        }
    }

    /**
     * Sleeps (the host has spun and yielded already) until a frame comes, a thread of the host stores into this NIC's
     * host memory ({@link Doorbells#written}), or the timeout passes. For the first
     * {@link #LONG_SLEEP_NS} of an idle spell (counted across sleeps that follow each other within
     * {@link #SLEEP_GAP_NS} without a frame) it looks between the idle strategy's parks of up to 100 us: a ping-pong's
     * answer comes within that, and a look costs less than a wake-up. Then it sleeps on its bell where it has one
     * (every frame it can receive rings it: see {@link Doorbells}), up to {@link #BELL_SLEEP_NS} at a time; else it
     * looks between parks of {@link #LONG_PARK_NS}, and {@link #IDLE_PARK_NS} once idle for {@link #IDLE_SLEEP_NS}.
     */
    @Override
    public Frame sleep(final long timeoutNs) {
        final long entered = System.nanoTime();
        final long deadline = entered + timeoutNs;
        if (idleSinceNs == 0 || entered - lastSleepEndNs > SLEEP_GAP_NS) {
            idleSinceNs = entered; // a new idle spell, not the next sleep of the same one
        }
        final long start = idleSinceNs;
        idle.reset();
        while (true) {
            final Frame f = poll();
            if (f != null) {
                idleSinceNs = 0;
                return f;
            }
            final long now = System.nanoTime();
            if (storedSinceLastLook()) {
                idleSinceNs = 0; // traffic, as a frame is: the next wait polls before it sleeps on the bell
                return null;
            }
            if (now - deadline >= 0) {
                lastSleepEndNs = now;
                return null;
            }
            if (now - start < LONG_SLEEP_NS) {
                waitTurn("sleep");
            } else if (sleepsOnBell) {
                final Frame g = sleepOnBell(deadline - now);
                if (g != null) {
                    idleSinceNs = 0;
                    return g;
                }
            } else {
                if (Thread.currentThread().isInterrupted()) {
                    throw new NicInterruptedException("NIC " + id + " interrupted in sleep");
                }
                LockSupport.parkNanos(this, Math.min(now - start < IDLE_SLEEP_NS ? LONG_PARK_NS : IDLE_PARK_NS,
                    deadline - now));
                fabric.checkOpen();
            }
        }
    }

    /**
     * One sleep on this NIC's bell, at most {@code leftNs} and {@link #BELL_SLEEP_NS}: counted in as a sleeper, one
     * more look (a frame sent before the count was seen rang nobody), then the sleep, which a frame's sender ends.
     *
     * @return a frame the last look found, or null after the sleep
     */
    private Frame sleepOnBell(final long leftNs) {
        if (Thread.currentThread().isInterrupted()) {
            throw new NicInterruptedException("NIC " + id + " interrupted in sleep");
        }
        final int word = bells.enter(id);
        try {
            final Frame f = poll();
            if (f != null || bells.stores(id) != seenStores) {
                return f; // a store ends the sleep too: the caller's next look at the count returns
            }
            bells.sleep(id, word, Math.min(leftNs, BELL_SLEEP_NS), timespec);
            if (bells.word(id) != word) {
                rungSleeps++;
            }
        } finally {
            bells.leave(id);
        }
        fabric.checkOpen();
        return null;
    }

    /**
     * Whether another thread of the host stored into this NIC's host memory ({@link Doorbells#written}) since a wait
     * last returned for that reason: counted from that return, not from this wait's start, so a store that lands
     * between the host's look at its memory and its wait still ends the wait at once.
     */
    private boolean storedSinceLastLook() {
        if (bells == null) {
            return false;
        }
        final long stores = bells.stores(id);
        if (stores == seenStores) {
            return false;
        }
        seenStores = stores;
        return true;
    }

    /**
     * Where this NIC sleeps on its bell, a waiting agent does too: counted in, its last look, then the sleep, which a
     * frame's sender ends (the PE thread may sleep on the same bell: a ring wakes both).
     */
    @Override
    public void awaitArrival(final java.util.function.BooleanSupplier lastLook, final long timeoutNs) {
        if (!sleepsOnBell) {
            Nic.super.awaitArrival(lastLook, timeoutNs);
            return;
        }
        final int word = bells.enterForRings(id); // a store into this NIC's memory needs no agent
        try {
            if (!lastLook.getAsBoolean()) {
                bells.sleep(id, word, timeoutNs, agentTimespec);
                if (bells.word(id) != word) {
                    rungAwaits++;
                }
            }
        } finally {
            bells.leaveForRings(id);
        }
    }

    /** @return whether this NIC sleeps on its bell */
    boolean sleepsOnBell() {
        return sleepsOnBell;
    }

    /** @return agents' waits ({@link #awaitArrival}) that a ring ended */
    long rungAwaits() {
        return rungAwaits;
    }

    /** @return sleeps on the bell that a ring ended (read by the sleeping thread, or after it) */
    long rungSleeps() {
        return rungSleeps;
    }

    private void waitTurn(final String what) {
        if (Thread.currentThread().isInterrupted()) {
            throw new NicInterruptedException("NIC " + id + " interrupted in " + what);
        }
        idle.idle(0);
        fabric.checkOpen();
    }

    @Override
    public void release(final Frame frame) {
        final int state = frame.state();
        if (frame.origin() != fabric
            || (state == FrameDescriptor.STATE_DELIVERED ? frame.destination() : frame.owner()) != id
            || state != FrameDescriptor.STATE_DELIVERED && state != FrameDescriptor.STATE_HOST) {
            throw FrameRejections.release(frame, fabric, id);
        }
        frame.setState(FrameDescriptor.STATE_FREE);
        if (frame.owner() != id) {
            fabric.localNic(frame.owner()).returns.offer(frame);
        } else if (frame.home() == HOME_RECEIVE) {
            receivePool[receiveFree++] = frame;
        } else {
            sendPool[sendFree++] = frame;
        }
    }

    @Override
    public int progress() {
        fabric.checkOpen();
        return receiveFree > 0 ? pollTransport() : 0;
    }

    @Override
    public long pendingFrames() {
        return 0;
    }

    @Override
    public NicCounters counters() {
        return new NicCounters(counters.get(SENT), counters.get(BYTES_SENT), counters.get(DELIVERED),
            counters.get(BYTES_SENT), counters.get(RECEIVED), counters.get(BYTES_RECEIVED), counters.get(DROPPED), 0,
            0, 0, 0, 0, counters.get(STALLS), counters.get(RECEIVER_STALLS));
    }

    /** Sends this NIC's hellos (the opening thread, before any host thread uses the NIC). */
    boolean sendHellos(final UnsafeBuffer scratch, final long deadlineNs) {
        for (int d = 0; d < publications.length; d++) {
            final ExclusivePublication p = publications[d];
            if (p == null) {
                continue;
            }
            final int len = hello.write(scratch, Hello.KIND_DATA, id, d, p.sessionId());
            long r;
            while ((r = p.offer(scratch, 0, len)) < 0) {
                if (r == Publication.CLOSED || System.nanoTime() - deadlineNs > 0) {
                    return false;
                }
                Thread.onSpinWait();
            }
        }
        return true;
    }

    /** @return the publication to {@code dst}, or null if that NIC is in this process */
    ExclusivePublication publication(final int dst) {
        return publications[dst];
    }
}
