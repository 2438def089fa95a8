package org.jhpvm.fabric.internal;

import java.util.concurrent.locks.LockSupport;

import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.CompletionQueue;
import org.jhpvm.fabric.QueuePair;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.FrameRejections;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fabric.NicHandler;
import org.jhpvm.fabric.RdmaCounters;
import org.jhpvm.fabric.WorkDescriptor;

/**
 * One emulated NIC: its host interface (pool, send ring, receive ring through its switch port) and its engine.
 */
final class MyrinetNic extends MyrinetNicPad1 implements Nic {
    static final int HOME_HOST = 0;
    static final int HOME_SPARE = 1;
    static final int HOME_SLOT = 2;

    private static final int SENT = 0;
    private static final int BYTES_SENT = 1;
    private static final int HOST_COUNTERS = 2;
    /** Released frames wait here until the host's next send, poll or progress call, at most this many. */
    static final int RELEASE_BATCH = 8;

    private final MyrinetFabric fabric;
    private final int id;
    private final int nicCount;
    private final int frameBytes;
    private final FramePool pool;
    private final FramePool spares;
    private final Ring sendRing;
    private final ReceivePort port;
    private final Lanai lanai;
    private final ViaEngine via;
    private final CounterBlock host = new CounterBlock(HOST_COUNTERS);
    private final BackoffIdleStrategy idle;
    /** The count of writes to this NIC's memory when {@code receive} last returned for one (host only). */
    private long seenMemoryEvents;
    /** Host only; used from index 16, padded against its heap neighbours. */
    private final Frame[] releases = new Frame[16 + RELEASE_BATCH + 16];

    MyrinetNic(final MyrinetFabric fabric, final int id, final FabricConfig config, final ReceivePort[] ports) {
        this.fabric = fabric;
        this.id = id;
        this.nicCount = config.nicCount();
        this.frameBytes = config.frameBytes();
        this.pool = new FramePool(fabric, id, HOME_HOST, config.headerBytes(), config.frameBytes(),
            config.poolFrames());
        this.spares = new FramePool(fabric, id, HOME_SPARE, config.headerBytes(), config.frameBytes(),
            config.spareFrames());
        this.sendRing = new Ring(config.sendRingCapacity());
        this.port = ports[id];
        this.lanai = new Lanai(id, ports, sendRing, pool, spares, config.faultPlan(), config.pumpBudget(),
            config.maxHoldNs());
        this.idle = config.newIdleStrategy();
        this.via = new ViaEngine(fabric, id, config, this);
    }

    /** A NIC wrote this NIC's registered memory: wake a host parked in {@link #receive}. */
    void memoryWritten() {
        port.memoryWritten();
    }

    /** @return this NIC's processor: registered memory, RDMA, NIC handlers, completions */
    ViaEngine via() {
        return via;
    }

    /** Gives a frame the host held (a NIC message the engine has carried) back to this NIC's pool. */
    void recycle(final Frame frame) {
        frame.setState(FrameDescriptor.STATE_FREE);
        pool.giveLocal(frame);
    }

    @Override
    public MemoryRegion register(final Object memory) {
        return via.register(memory);
    }

    @Override
    public MemoryRegion register(final Object memory, final int handle, final int key) {
        return via.register(memory, handle, key);
    }

    @Override
    public void deregister(final MemoryRegion region) {
        via.deregister(region);
    }

    @Override
    public boolean post(final WorkDescriptor descriptor) {
        return via.post(descriptor, via.completions);
    }

    @Override
    public CompletionQueue completionQueue() {
        return via.completionQueue();
    }

    @Override
    public QueuePair openQueuePair() {
        return via.openQueuePair();
    }

    @Override
    public void registerNicHandler(final int handlerId, final NicHandler handler) {
        via.registerNicHandler(handlerId, handler);
    }

    @Override
    public RdmaCounters rdmaCounters() {
        return via.counters();
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public Frame tryAcquire() {
        fabric.checkOpen();
        Frame frame = pool.take();
        if (frame == null) {
            flushReleases();
            progress();
            frame = pool.take();
            if (frame == null) {
                return null;
            }
        }
        frame.setState(FrameDescriptor.STATE_HOST);
        frame.setLength(0);
        return frame;
    }

    @Override
    public Frame acquire() {
        idle.reset();
        while (true) {
            final Frame frame = tryAcquire();
            if (frame != null) {
                return frame;
            }
            waitTurn("acquire");
        }
    }

    @Override
    public boolean trySend(final Frame frame) {
        fabric.checkOpen();
        final int lengthBytes = checkSendable(frame);
        frame.stampSource(id);
        frame.setState(FrameDescriptor.STATE_IN_FABRIC);
        final boolean nothingQueued = !hasWork();
        // Count before the engine can retire it, so that pendingFrames() never goes negative.
        host.increment(SENT);
        host.add(BYTES_SENT, lengthBytes);
        if (!(nothingQueued && lanai.sendDirect(frame))) {
            if (!sendRing.offer(frame)) {
                lanai.hostPump();
                if (!sendRing.offer(frame)) {
                    host.add(SENT, -1);
                    host.add(BYTES_SENT, -lengthBytes);
                    frame.setState(FrameDescriptor.STATE_HOST);
                    return false;
                }
            }
            lanai.afterQueued();
        }
        flushReleases();
        return true;
    }

    /** @return the frame's length, after checking it may be sent: a few compares on the data path */
    private int checkSendable(final Frame frame) {
        final int dst = frame.destination();
        final int lengthBytes = frame.length();
        if (frame.origin() != fabric || frame.owner() != id || frame.home() != HOME_HOST
            || frame.state() != FrameDescriptor.STATE_HOST || dst < 0 || dst >= nicCount || lengthBytes < 0
            || lengthBytes > frameBytes) {
            throw FrameRejections.send(frame, fabric, id, HOME_HOST, nicCount, frameBytes);
        }
        return lengthBytes;
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
        flushReleases();
        if (hasWork()) {
            lanai.hostPump();
        }
        final Frame frame = port.poll();
        if (frame != null) {
            return frame;
        }
        // Nothing to read: give the senders stalled on this ring a turn (a sender that is busy pumping itself
        // needs no help, and helping it would only fight it for its engine).
        return port.helpStalled() > 0 ? port.poll() : null;
    }

    @Override
    public Frame receive(final long timeoutNs) {
        return receive(timeoutNs, false);
    }

    @Override
    public Frame sleep(final long timeoutNs) {
        return receive(timeoutNs, true);
    }

    /** {@link #receive}; {@code sleepAtOnce}: the caller has spun already, so skip to registering and sleeping. */
    private Frame receive(final long timeoutNs, final boolean sleepAtOnce) {
        final long deadlineNs = System.nanoTime() + Math.max(0, timeoutNs);
        idle.reset();
        boolean registered = false;
        try {
            while (true) {
                Frame frame = poll();
                if (frame != null) {
                    return frame;
                }
                if (memoryWrittenSinceLastLook() || System.nanoTime() - deadlineNs >= 0) {
                    return null;
                }
                if (!registered && (sleepAtOnce || idle.nextIdleParks())) {
                    // About to sleep: register to be woken by the next delivery, then look once more (a delivery
                    // after this look unparks us, so no wake-up is lost).
                    port.setWaiter(Thread.currentThread());
                    registered = true;
                    frame = port.poll();
                    if (frame != null) {
                        return frame;
                    }
                }
                if (registered && !hasWork() && progress() == 0) {
                    // Nothing of ours to move: sleep until a delivery, a write of our memory or a close wakes us, or
                    // the deadline, rather than waking on a doubling timer to look.
                    sleepUntil(deadlineNs);
                    continue;
                }
                waitTurn("receive");
            }
        } finally {
            if (registered) {
                port.setWaiter(null);
            }
        }
    }

    /**
     * Whether a NIC wrote this NIC's memory since {@code receive} last returned for that reason. Counted from the
     * last such return, not from this call's start, so a write that lands between the host's look at its memory and
     * its call to {@code receive} still ends that call at once: no wake-up is lost.
     */
    private boolean memoryWrittenSinceLastLook() {
        final long events = port.memoryEvents();
        if (events == seenMemoryEvents) {
            return false;
        }
        seenMemoryEvents = events;
        return true;
    }

    /** One park until {@code deadlineNs} (or an unpark), then the same checks as {@link #waitTurn}. */
    private void sleepUntil(final long deadlineNs) {
        final long left = deadlineNs - System.nanoTime();
        if (left > 0) {
            LockSupport.parkNanos(left);
        }
        endWaitIfClosedOrInterrupted("receive");
    }

    /** One step of a waiting call: give the NIC a turn, idle, and end the wait on close or interrupt. */
    private void waitTurn(final String call) {
        idle.idle(progress());
        endWaitIfClosedOrInterrupted(call);
    }

    private void endWaitIfClosedOrInterrupted(final String call) {
        WaitEnds.check(call, id, fabric);
    }

    @Override
    public void release(final Frame frame) {
        final int state = frame.state();
        if (frame.origin() != fabric
            || (state == FrameDescriptor.STATE_DELIVERED ? frame.destination() : frame.owner()) != id
            || state != FrameDescriptor.STATE_DELIVERED && state != FrameDescriptor.STATE_HOST) {
            throw FrameRejections.release(frame, fabric, id);
        }
        for (int i = 0; i < releaseCount; i++) {
            if (releases[16 + i] == frame) {
                throw new IllegalStateException("frame " + frame + " was already released");
            }
        }
        releases[16 + releaseCount++] = frame;
        if (releaseCount == RELEASE_BATCH) {
            giveBackReleased();
        }
    }

    /**
     * Gives released frames back to their pools. Deferred from {@link #release(Frame)} to the host's next send
     * (after the frame has gone), poll or progress call, because the hand-back writes to lines the other core
     * holds, and a send's locked instructions would otherwise wait for those writes: a host that answers a frame
     * releases it, sends its reply, and only then hands the frame back.
     */
    private void flushReleases() {
        if (releaseCount != 0) {
            giveBackReleased();
        }
    }

    private void giveBackReleased() {
        for (int i = 0; i < releaseCount; i++) {
            final Frame frame = releases[16 + i];
            releases[16 + i] = null;
            frame.setState(FrameDescriptor.STATE_FREE);
            if (frame.home() == HOME_SLOT) {
                port.freeSlot(frame); // a receive slot of this NIC's own port
            } else if (frame.owner() == id && frame.home() == HOME_HOST) {
                pool.giveLocal(frame); // this host is its own pool's taker
            } else {
                fabric.nicUnchecked(frame.owner()).giveBack(frame);
            }
        }
        releaseCount = 0;
    }

    private void giveBack(final Frame frame) {
        (frame.home() == HOME_SPARE ? spares : pool).give(frame);
    }

    @Override
    public int progress() {
        fabric.checkOpen();
        flushReleases();
        return lanai.hostPump() + port.helpStalled();
    }

    private boolean hasWork() {
        return host.get(SENT) != lanai.retired();
    }

    @Override
    public long pendingFrames() {
        return host.get(SENT) - lanai.retired();
    }

    @Override
    public NicCounters counters() {
        return new NicCounters(
            host.get(SENT),
            host.get(BYTES_SENT),
            lanai.counter(Lanai.DELIVERED),
            lanai.counter(Lanai.BYTES_DELIVERED),
            port.received(),
            port.bytesReceived(),
            lanai.counter(Lanai.DROPPED),
            lanai.counter(Lanai.CORRUPTED),
            lanai.counter(Lanai.DUPLICATED),
            lanai.counter(Lanai.REORDERED),
            lanai.counter(Lanai.DELAYED),
            lanai.counter(Lanai.LINK_DOWN),
            lanai.counter(Lanai.BACK_PRESSURE),
            lanai.counter(Lanai.RECEIVER_STALLS));
    }

    /** @return heap bytes this NIC holds, computed from its parts */
    long footprintBytes() {
        return HeapFootprint.frames((long) pool.frames() + spares.frames(),
            Frame.arrayBytes(fabric.headerBytes(), fabric.frameBytes()))
            + pool.footprintBytes() + spares.footprintBytes()
            + HeapFootprint.queue(sendRing.slots()) + HeapFootprint.PADDED_OBJECT
            + port.footprintBytes(Frame.arrayBytes(fabric.headerBytes(), fabric.inlineBytes()))
            + lanai.footprintBytes() + host.footprintBytes()
            + HeapFootprint.refArray(releases.length) + HeapFootprint.PADDED_OBJECT + via.footprintBytes();
    }
}

/** Written by the host on every release; other NICs' hosts read this NIC's pools when they give frames back. */
abstract class MyrinetNicHost extends CacheLinePadding {
    int releaseCount;
    int p17;
}

/** Padding after the host's mutable fields. */
abstract class MyrinetNicPad1 extends MyrinetNicHost {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;
}
