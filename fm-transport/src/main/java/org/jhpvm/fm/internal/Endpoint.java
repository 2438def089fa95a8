package org.jhpvm.fm.internal;

import java.util.Objects;
import java.util.function.BooleanSupplier;

import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricCapabilities;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.Fm1Handler;
import org.jhpvm.fm.FmClosedException;
import org.jhpvm.fm.FmConfig;
import org.jhpvm.fm.FmCounters;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmOutputStream;

/**
 * One PE's FM endpoint over one NIC: the {@link FastMessages} API, the launcher's hooks (exit barrier, close,
 * footprint, hang report) and the progress engine that drives the protocol (see the module README). The work is done
 * by parts, one per concern:
 * <ul>
 *   <li>send path: {@link OutboundStream} gathers a message's pieces into frames, {@link SendPath} stamps FM's header
 *       on each and hands it to the NIC;
 *   <li>flow control: {@link FlowControl} gives out data frames within the send window and waits, keeping the
 *       protocol going, when the window, the frame pool or the send ring is full;
 *   <li>receive path: {@link ReceivePath} takes frames from the NIC through the protocol into the {@link HostQueue}
 *       (rejecting overflow back to the sender, FM 1.0's return-to-sender) or straight to the {@link InboundStream}
 *       of their sender, which runs the handler;
 *   <li>reliability: {@link Retransmitter} (per-pair sequence numbers, copies of unacknowledged frames, go-back-N on
 *       timeout or negative acknowledgement) for what this PE sends, {@link Acknowledger} (cumulative
 *       acknowledgements of accepted frames, riding on data frames or sent explicitly, NACKs) for what it receives,
 *       and {@link FrameChecksum} (CRC32C) where the fabric may corrupt;
 *   <li>waiting: {@link IdleWait} spins, yields, then gives the run slot up and sleeps in the NIC.
 * </ul>
 * Single-threaded, like the NIC's host interface, and so are its parts.
 */
public final class Endpoint extends EndpointNicApi {
    private static final int SERVICE_EVERY_MASK = 31;

    private final Nic nic;
    /** Whether the fabric keeps a virtual clock: waits then tell it their spinning is no computation. */
    private final boolean virtualClock;
    private final FmConfig config;
    private final JobControl job;
    private final int windowFrames;
    private final int queueFrames;
    private final FrameChecksum checksum;
    /**
     * The fabric delivers every frame once, intact, in order, with back-pressure and a deep buffer (Aeron): no
     * acknowledgements, retransmission copies, timers or rejections; frames the receive queue cannot take stay in
     * the fabric.
     */
    private final boolean lean;
    private final FmHandler[] handlers = new FmHandler[RendezvousReceiver.H_RENDEZVOUS + 1];
    private final BackoffIdleStrategy idle;
    private final IdleWait waits;
    final Counters counters = new Counters();
    final HostQueue queue;
    private final Retransmitter retransmitter;
    private final Acknowledger acks;
    private final ReceivePath receive;
    private final OutboundStream out;
    private final OutboundStream nested;
    /** Messages of at least {@code rendezvousBytes} where the NIC does RDMA, else null. */
    private final RendezvousSender rendezvous;
    private int servicePasses;
    private boolean inHandler;
    private volatile boolean closed;

    /**
     * Opens PE {@code pe}'s endpoint on the fabric's NIC of the same number.
     *
     * @param fabric the fabric
     * @param pe     this PE
     * @param config FM settings (sizes of 0 are derived from the fabric)
     * @param job    the job's shared control
     * @throws IllegalArgumentException if the fabric's frames have too little header room, or a size does not fit
     *                                  the fabric
     */
    public Endpoint(final Fabric fabric, final int pe, final FmConfig config, final JobControl job) {
        super(pe, fabric.nicCount(), fabric.hostMemory());
        this.config = Objects.requireNonNull(config, "config");
        this.job = Objects.requireNonNull(job, "job");
        if (pe < 0 || pe >= pes) {
            throw new IndexOutOfBoundsException("pe=" + pe + " outside 0.." + (pes - 1));
        }
        if (fabric.headerBytes() < FmFrameDescriptor.HEADER_BYTES) {
            throw new IllegalArgumentException("fabric headerBytes=" + fabric.headerBytes() + ": FM needs at least "
                + FmFrameDescriptor.HEADER_BYTES);
        }
        if (fabric.receiveRingCapacity() < 2) {
            throw new IllegalArgumentException("fabric receiveRingCapacity=" + fabric.receiveRingCapacity()
                + ": FM needs at least 2");
        }
        this.nic = fabric.nic(pe);
        this.virtualClock = fabric.virtualClock();
        final int frameBytes = fabric.frameBytes();
        final int pool = fabric.poolFrames();
        this.windowFrames = config.windowFrames() == 0 ? Math.min(32, Math.max(2, pool / 4)) : config.windowFrames();
        if (windowFrames > Math.max(1, pool / 2)) {
            throw new IllegalArgumentException("windowFrames=" + windowFrames + " exceeds half the fabric's poolFrames="
                + pool + " (frames for acknowledgements and retransmissions would run out)");
        }
        this.queueFrames = config.receiveQueueFrames() == 0 ? Math.max(1, fabric.receiveRingCapacity() / 2)
            : config.receiveQueueFrames();
        if (queueFrames > fabric.receiveRingCapacity() / 2) {
            throw new IllegalArgumentException("receiveQueueFrames=" + queueFrames + " exceeds half the fabric's "
                + "receiveRingCapacity=" + fabric.receiveRingCapacity() + " (acknowledgements could not get in)");
        }
        final int ackEvery = config.ackEveryFrames() == 0 ? Math.max(1, windowFrames / 2) : config.ackEveryFrames();
        final int drainBudget = 2 * fabric.receiveRingCapacity();
        final FabricCapabilities caps = fabric.capabilities();
        this.checksum = new FrameChecksum(config.alwaysChecksum() || !caps.reliable());
        this.lean = caps.endToEndReliable();
        this.idle = new BackoffIdleStrategy(config.idleSpins(), config.idleYields(), config.minParkNs(),
            config.maxParkNs());
        this.queue = new HostQueue(queueFrames);
        this.retransmitter = new Retransmitter(nic, config, counters, pes, windowFrames, frameBytes,
            virtualClock);
        this.acks = new Acknowledger(nic, config, counters, checksum, lean, ackEvery, pes, virtualClock);
        this.receive = new ReceivePath(this, nic, queue, counters, checksum, retransmitter, acks, lean, drainBudget,
            queueFrames, frameBytes);
        final RunSlots slots = job.slots();
        this.waits = new IdleWait(this, receive, queue, config, lean, idle, slots, slots.newSlot(job, job::isAborted));
        final FlowControl flow = new FlowControl(this, nic, config, counters, idle, waits, retransmitter, acks, receive,
            lean, drainBudget, frameBytes);
        final SendPath send = new SendPath(nic, counters, checksum, retransmitter, acks, flow, lean);
        this.out = new OutboundStream(this, flow, send, frameBytes);
        this.nested = new OutboundStream(this, flow, send, frameBytes);
        this.offload = new NicOffload(this, nic, config.nicOffload() && caps.remoteDma() && caps.nicHandlers(),
            frameBytes, System.nanoTime() ^ (long) pe << 32, config.hostStagingBytes(), flow);
        if (offload.offload() && config.rendezvousBytes() > 0 && config.extractWhileWaiting()
            && RendezvousSender.fits(frameBytes)) {
            this.rendezvous = new RendezvousSender(this, nic, flow, retransmitter, frameBytes);
            registerInternal(RendezvousReceiver.H_RENDEZVOUS, new RendezvousReceiver(this, nic, offload,
                (frameBytes - RendezvousSender.HEADER_BYTES) / RendezvousSender.PIECE_BYTES));
        } else {
            this.rendezvous = null;
        }
        job.register(this);
    }

    // ---------------------------------------------------------------- API

    @Override
    public int pe() {
        return pe;
    }

    @Override
    public int pes() {
        return pes;
    }

    @Override
    public void register(final int id, final FmHandler handler) {
        Objects.requireNonNull(handler, "handler");
        checkUsable();
        if (id < 0 || id >= MAX_HANDLERS) {
            throw new IllegalArgumentException("handler id=" + id + " outside 0.." + (MAX_HANDLERS - 1));
        }
        if (started) {
            throw new IllegalStateException("PE " + pe + " has already communicated: register handlers before the "
                + "first send or extract");
        }
        if (handlers[id] != null) {
            throw new IllegalArgumentException("handler id=" + id + " is already registered on PE " + pe);
        }
        handlers[id] = handler;
    }

    @Override
    public void register(final int id, final Fm1Handler handler) {
        Objects.requireNonNull(handler, "handler");
        register(id, new Fm1Adapter(handler, config.maxFm1MessageBytes()));
    }

    @Override
    public void send4(final int dest, final int handler, final int i0, final int i1, final int i2, final int i3) {
        final FmOutputStream o = beginMessage(dest, 16, handler);
        o.sendInt(i0);
        o.sendInt(i1);
        o.sendInt(i2);
        o.sendInt(i3);
        o.endMessage();
    }

    @Override
    public void send(final int dest, final int handler, final byte[] buffer, final int offset,
                     final int lengthBytes) {
        Objects.checkFromIndexSize(offset, lengthBytes, buffer.length);
        if (lengthBytes > config.maxFm1MessageBytes()) {
            throw new IllegalArgumentException("length=" + lengthBytes + " exceeds maxFm1MessageBytes="
                + config.maxFm1MessageBytes() + " (use beginMessage for longer messages)");
        }
        final FmOutputStream o = beginMessage(dest, lengthBytes, handler);
        o.sendPiece(buffer, offset, lengthBytes);
        o.endMessage();
    }

    @Override
    public FmOutputStream beginMessage(final int dest, final int lengthBytes, final int handler) {
        checkUsable();
        if (dest < 0 || dest >= pes) {
            throw new IndexOutOfBoundsException("destination PE " + dest + " outside 0.." + (pes - 1));
        }
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("length=" + lengthBytes + " is negative");
        }
        if (handler < 0 || handler >= MAX_HANDLERS || handlers[handler] == null) {
            throw new IllegalArgumentException("handler id=" + handler + " is not registered on PE " + pe);
        }
        if (rendezvous != null && rendezvous.isOpen() && (!inHandler || dest == rendezvous.dest())) {
            throw new IllegalStateException("a message to PE " + rendezvous.dest() + " is open on PE " + pe
                + ": endMessage it first" + (inHandler ? " (a handler may not send to that PE meanwhile)" : ""));
        }
        // A message to this PE itself always travels in frames: a rendezvous endMessage waits for its handler, which
        // here would run inside the send, before the caller's own extract loop (send, then extract until handled).
        if (rendezvous != null && lengthBytes >= config.rendezvousBytes() && dest != pe && !inHandler
            && !out.isOpen() && !rendezvous.isOpen()) {
            started = true;
            return rendezvous.begin(dest, lengthBytes, handler);
        }
        OutboundStream o = out;
        if (out.isOpen()) {
            // A handler run while this PE waits inside a send may send too, to another PE (frames of two messages
            // on one pair would interleave).
            if (!inHandler || nested.isOpen() || dest == out.dest()) {
                throw new IllegalStateException("a message to PE " + out.dest() + " is open on PE " + pe
                    + ": endMessage it first" + (inHandler ? " (a handler may not send to that PE meanwhile)" : ""));
            }
            o = nested;
        }
        started = true;
        o.begin(dest, lengthBytes, handler);
        return o;
    }

    @Override
    public int extract() {
        return extract(Integer.MAX_VALUE);
    }

    @Override
    public int extract(final int maxBytes) {
        checkUsable();
        if (inHandler) {
            throw new IllegalStateException("extract called from inside a handler on PE " + pe);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes=" + maxBytes + " must be at least 1");
        }
        started = true;
        int done = receive.dispatchLoop(maxBytes);
        service(false);
        if (!out.isOpen() && !nested.isOpen() && !offload.messageOpen()) {
            done += offload.flushDeferred(); // answers FM's message path owes, sent outside the handlers
        }
        return done;
    }

    @Override
    public boolean extractUntil(final BooleanSupplier done, final long timeoutNs) {
        checkUsable();
        if (inHandler) {
            throw new IllegalStateException("extractUntil called from inside a handler on PE " + pe);
        }
        waits.start(done);
        if (virtualClock) {
            VirtualTime.waiting(true); // in virtual time, the loop's own CPU time is no computation of the PE's
        }
        try {
            while (!done.getAsBoolean()) {
                final int work = extract(Integer.MAX_VALUE);
                if (work == 0) {
                    if (done.getAsBoolean()) {
                        return true;
                    }
                    if (!waits.idleUntil(timeoutNs, timersRunning() ? timerSleepNs() : waits.idleSleepNs())) {
                        return false;
                    }
                } else {
                    waits.worked(work);
                }
            }
            return true;
        } finally {
            if (virtualClock) {
                VirtualTime.waiting(false);
            }
            waits.resume();
        }
    }

    @Override
    public boolean flush(final long timeoutNs) {
        // Over a lean fabric a frame handed to the NIC is the fabric's to deliver: nothing waits for acknowledgement.
        return extractUntil(() -> retransmitter.used() == 0, timeoutNs);
    }

    @Override
    boolean messageOpen() {
        return out.isOpen() || nested.isOpen() || rendezvous != null && rendezvous.isOpen();
    }

    @Override
    public FmCounters counters() {
        return counters.snapshot();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- launcher support

    /** Called by the launcher when the PE's body has returned: keeps extracting until every PE is done. */
    public void exitBarrier() {
        if (messageOpen()) {
            throw new IllegalStateException("PE " + pe + "'s body returned with a message still open (endMessage was "
                + "not called)");
        }
        job.bodyDone();
        waits.start(IdleWait.FINISHED);
        if (virtualClock) {
            VirtualTime.waiting(true);
        }
        try {
            while (!job.allDone()) {
                checkUsable();
                final int work = extract(Integer.MAX_VALUE);
                if (work == 0) {
                    // The end is other PEs' doing: look every maxParkNs (sooner for FM's timers in virtual time).
                    waits.idleOnce(timerSleepNs(), System.nanoTime());
                } else {
                    waits.worked(work);
                }
            }
            offload.leave();
        } finally {
            if (virtualClock) {
                VirtualTime.waiting(false);
            }
            waits.end();
        }
    }

    /** @return whether the fabric keeps a virtual clock */
    boolean virtualClock() {
        return virtualClock;
    }

    /** @return the job's shared control */
    JobControl job() {
        return job;
    }

    /** @return frames waiting in this PE's NIC (any thread) */
    long nicPendingFrames() {
        return nic.pendingFrames();
    }

    /** @return this PE's waits, as the job's watch reads them */
    IdleWait waits() {
        return waits;
    }

    /** Closes the endpoint: later calls fail, and suspended handlers end. Idempotent. */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        receive.wakeForClose();
    }

    long framesSentAcquire() {
        return counters.getAcquire(Counters.FRAMES_SENT);
    }

    long framesConsumedAcquire() {
        return counters.getAcquire(Counters.FRAMES_CONSUMED);
    }

    /** @return bytes of buffers this endpoint holds (queue, retransmission store, per-peer state) */
    public long footprintBytes() {
        return queue.footprintBytes() + retransmitter.footprintBytes() + counters.footprintBytes()
            + perPeerBytes() * pes;
    }

    /** @return bytes of protocol state kept per peer (counters and list heads, no buffers) */
    public static long perPeerBytes() {
        // 9 ints, 6 longs, 2 booleans, one reference: the Retransmitter's 5 ints and 4 longs, the Acknowledger's
        // 4 ints, 2 longs and 2 booleans, the ReceivePath's inbound stream (created on a peer's first message)
        return 9 * 4 + 6 * 8 + 2 + 4;
    }

    /** @return true if this endpoint runs without FM's own acknowledgements and retransmission (see the README) */
    public boolean lean() {
        return lean;
    }

    /** @return the send window in frames, as derived from the config and the fabric */
    public int windowFrames() {
        return windowFrames;
    }

    /** @return the receive queue in frames, as derived from the config and the fabric */
    public int receiveQueueFrames() {
        return queueFrames;
    }

    // ---------------------------------------------------------------- used by the streams and the flow-control waits

    FmHandler handler(final int id) {
        return id >= 0 && id < handlers.length ? handlers[id] : null;
    }

    /** Registers one of FM's own handlers (ids from {@code MAX_HANDLERS}), at construction. */
    void registerInternal(final int id, final FmHandler handler) {
        handlers[id] = handler;
    }

    /** Opens a message to one of FM's own handlers (FM's message path for NIC messages and RDMA). */
    OutboundStream beginInternal(final int dest, final int lengthBytes, final int handler) {
        checkUsable();
        OutboundStream o = out;
        if (out.isOpen()) {
            if (nested.isOpen() || dest == out.dest()) {
                throw new IllegalStateException("PE " + pe + " has a message to PE " + out.dest() + " open");
            }
            o = nested;
        }
        started = true;
        o.begin(dest, lengthBytes, handler);
        return o;
    }

    boolean inlineWholeMessages() {
        return config.inlineWholeMessages();
    }

    void enterHandler() {
        inHandler = true;
    }

    void leaveHandler() {
        inHandler = false;
    }

    /** @return true while a handler runs (inline, or on its virtual thread while extract waits for it) */
    boolean inHandler() {
        return inHandler;
    }

    void messageSent(final int bytes) {
        counters.increment(Counters.MESSAGES_SENT);
        counters.add(Counters.BYTES_SENT, bytes);
    }

    void messageHandled(final int bytes) {
        counters.increment(Counters.MESSAGES_HANDLED);
        counters.add(Counters.BYTES_RECEIVED, bytes);
    }

    @Override
    void checkUsable() {
        if (job.isAborted()) {
            throw job.abortException();
        }
        if (closed) {
            throw new FmClosedException(pe);
        }
    }

    /** A frame finished with by a handler (or discarded): release it and count it for the exit barrier. */
    void consume(final Frame f) {
        final int src = f.source();
        nic.release(f);
        counters.incrementRelease(Counters.FRAMES_CONSUMED);
    }

    /** Reads ahead into the queue (without rejecting) and tells whether the message from source is all there. */
    boolean readAheadHasLast(final int source, final int declaredBytes) {
        return receive.readAheadHasLast(source, declaredBytes);
    }

    // ---------------------------------------------------------------- progress

    /**
     * The protocol's background work: arrived frames (with {@code drain}), due acknowledgements, retransmission
     * timeouts, resends.
     *
     * @return work done
     */
    int service(final boolean drain) {
        final int work = drain ? receive.drainNic(true) : 0;
        // Timers and delayed acknowledgements need a clock, which costs more than an empty extract: look at them on
        // every 32nd pass only (a few microseconds apart while spinning, far below ackDelayNs and rtoMinNs; a wait
        // that is about to park looks at them first).
        if ((++servicePasses & SERVICE_EVERY_MASK) != 0 && !drain) {
            return work;
        }
        return work + serviceTimers();
    }

    /** Due acknowledgements, retransmission timeouts and resends. */
    int serviceTimers() {
        if (acks.owed() == 0 && retransmitter.used() == 0) {
            return 0;
        }
        int work = 0;
        final long now = FmTime.now(virtualClock);
        if (acks.owed() > 0) {
            work += acks.flushAcks(now);
        }
        if (retransmitter.used() > 0) {
            work += retransmitter.timersAndResends(now);
        }
        return work;
    }

    /**
     * Whether a sleep must end in time for FM's timers: frames not yet acknowledged (their retransmission timer) or
     * acknowledgements owed (their delay). Over a lean fabric FM has no timers.
     */
    private boolean timersRunning() {
        return !lean && (retransmitter.used() > 0 || acks.owed() > 0);
    }

    /**
     * The longest sleep of a wait while FM's timers run: {@code maxParkNs} on a wall clock (a timer fires up to that
     * late, which a wall clock's timeouts of milliseconds allow for); on a virtual clock until the earliest timer is
     * due, at least 1 us, so that a delayed acknowledgement (20 us) or a timeout fires at its own time of the model,
     * not up to {@code maxParkNs} (1 ms) late.
     *
     * @return nanoseconds, of the fabric's clock
     */
    long timerSleepNs() {
        if (!virtualClock || lean) {
            return config.maxParkNs();
        }
        final long now = FmTime.now(true);
        final long until = Math.min(retransmitter.untilNextTimerNs(now), acks.untilNextAckNs(now));
        return Math.max(1_000, Math.min(config.maxParkNs(), until));
    }

    /** The launcher's PE thread starts: it takes its run slot (waiting for one under DCS and GANG). */
    public void enterRunSlot() {
        waits.enterRunSlot();
        // The PE thread becomes its NIC's host from its first step: on a virtual-time fabric its clock (what
        // VirtualTime reads) is the NIC's from here, not from its first message.
        nic.progress();
    }

    /** The launcher's PE thread ends: its run slot goes to the next PE. */
    public void leaveRunSlot() {
        waits.leaveRunSlot();
    }

    /** @return the protocol state worth knowing when a job hangs: unacknowledged frames, resends, suspended handlers */
    public String describe() {
        final StringBuilder b = new StringBuilder("PE ").append(pe).append(": queue=").append(queue.count())
            .append(" window used=").append(retransmitter.used()).append('/').append(windowFrames)
            .append(" control=").append(acks.controlFrames()).append(" acksOwed=").append(acks.owed())
            .append(" nicPending=").append(nic.pendingFrames()).append(" nic=").append(nic.counters());
        for (int p = 0; p < pes; p++) {
            final boolean suspended = receive.handlerSuspended(p);
            if (retransmitter.hasPending(p) || suspended) {
                b.append("\n  peer ").append(p).append(':');
                retransmitter.describeWindow(b, p);
                b.append(" accepted=").append(acks.expected(p));
                retransmitter.describeTimer(b, p);
                b.append(suspended ? " handler suspended" : "");
            }
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return "Endpoint{pe=" + pe + ", pes=" + pes + ", window=" + windowFrames + ", checksums=" + checksum.enabled()
            + ", lean=" + lean + '}';
    }
}
