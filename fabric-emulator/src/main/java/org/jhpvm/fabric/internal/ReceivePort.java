package org.jhpvm.fabric.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import org.jctools.queues.SpscArrayQueue;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;

/**
 * The switch's output port to one NIC, and that NIC's receive ring behind it. A crossbar output carries one
 * frame at a time: a sender's engine takes the port lock, puts the frame into the ring (as its single producer
 * while it holds the lock), and lets go. A sender that finds the ring full stalls (link-level back-pressure) and
 * registers here; the receiving host, when it finds its ring empty, gives the stalled engines a turn, as a freed
 * Myrinet link lets a blocked worm move on.
 * <p>
 * Small frames (payload up to {@code inlineBytes}) are copied at the switch into one of the port's own receive
 * slots, as FM 1.0 wrote small messages into LANai memory with programmed I/O; the sender's frame goes straight
 * back to its pool, and no cache line of it ever reaches the receiving core. Larger frames travel by reference
 * (the DMA path): the receiver reads the sender's frame and releases it to the sender's pool. The slots come
 * back from the receiving host through a second JCTools SPSC queue; the port keeps a few in a stash so that a
 * sender reads that queue once per several frames.
 */
final class ReceivePort extends ReceivePortPad3 {
    static final int RECEIVED = 0;
    static final int BYTES_RECEIVED = 1;
    private static final int COUNTERS = 2;

    /** {@link #tryDeliver} outcome: back-pressure, nothing delivered. */
    static final int STALLED = 0;
    /** {@link #tryDeliver} outcome: copied into a receive slot; the sender's frame is free again. */
    static final int COPIED = 1;
    /** {@link #tryDeliver} outcome: the frame itself is in the receive ring. */
    static final int BY_REFERENCE = 2;

    private static final int STASH = 8;
    private static final int STASH_BASE = 16;

    private static final VarHandle LOCK;
    private static final VarHandle STALLED_HEAD;
    private static final VarHandle WAITER;
    private static final VarHandle STALLED_UNTIL;
    private static final VarHandle MEMORY_EVENTS;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            LOCK = lookup.findVarHandle(ReceivePortSender.class, "lock", int.class);
            STALLED_HEAD = lookup.findVarHandle(ReceivePortFields.class, "stalledHead", Lanai.class);
            WAITER = lookup.findVarHandle(ReceivePortFields.class, "waiter", Thread.class);
            STALLED_UNTIL = lookup.findVarHandle(ReceivePortFields.class, "stalledUntilNs", long.class);
            MEMORY_EVENTS = lookup.findVarHandle(ReceivePortEvents.class, "memoryEvents", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int nic;
    private final int inlineBytes;
    private final Ring ring;
    private final SpscArrayQueue<Frame> freeSlots;
    private final int slots;
    private final CounterBlock counters = new CounterBlock(COUNTERS);
    /** Guarded by the port lock; used from index {@link #STASH_BASE}, padded against its heap neighbours. */
    private final Frame[] stash = new Frame[STASH_BASE + STASH + 16];

    ReceivePort(final Object fabric, final int nic, final FabricConfig config) {
        this.nic = nic;
        this.inlineBytes = config.inlineBytes();
        this.ring = new Ring(config.receiveRingCapacity());
        this.slots = inlineBytes == 0 ? 0 : config.receiveRingCapacity();
        this.freeSlots = new SpscArrayQueue<>(Math.max(1, slots));
        for (int i = 0; i < slots; i++) {
            freeSlots.offer(new Frame(fabric, nic, MyrinetNic.HOME_SLOT, config.headerBytes(), inlineBytes));
        }
    }

    /**
     * Puts a frame through the port. Called by a sender's engine.
     *
     * @return {@link #COPIED}, {@link #BY_REFERENCE}, or {@link #STALLED} on back-pressure (ring full, no free
     *     slot, port busy, receiver stalled)
     */
    int tryDeliver(final Frame frame) {
        if (stallActive && stalled()) {
            return STALLED;
        }
        if (!lockPort()) {
            return STALLED;
        }
        final int lengthBytes = frame.length();
        final int outcome;
        try {
            outcome = slots > 0 && lengthBytes <= inlineBytes ? copyIntoSlot(frame) : passReference(frame);
            if (outcome != STALLED) {
                counters.increment(RECEIVED);
                counters.add(BYTES_RECEIVED, lengthBytes);
            }
        } finally {
            LOCK.setRelease(this, 0);
        }
        if (outcome != STALLED) {
            // A full fence between publishing the frame and reading the waiter, the other half of the receiver's
            // volatile setWaiter before its last look at the ring: without it the read may be served before the
            // frame is visible (store-load reordering, which x86 does), so that this sees no waiter while the
            // receiver, registered, sees no frame and sleeps out its whole timeout. (Seen once in a CI run of the
            // contract's lost-wake-up test.)
            VarHandle.fullFence();
            final Thread t = (Thread) WAITER.getAcquire(this);
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        return outcome;
    }

    private int copyIntoSlot(final Frame frame) {
        if (stashCount == 0 && refillStash() == 0) {
            return STALLED;
        }
        final Frame slot = stash[STASH_BASE + --stashCount];
        slot.copyFrom(frame);
        slot.setState(FrameDescriptor.STATE_DELIVERED);
        if (!ring.offer(slot)) {
            stashCount++;
            return STALLED;
        }
        stash[STASH_BASE + stashCount] = null;
        return COPIED;
    }

    /** Slow path, once per several frames: takes up to {@link #STASH} free slots at once. */
    private int refillStash() {
        Frame slot;
        while (stashCount < STASH && (slot = freeSlots.relaxedPoll()) != null) {
            stash[STASH_BASE + stashCount++] = slot;
        }
        return stashCount;
    }

    private int passReference(final Frame frame) {
        // The receiver may read the frame the moment it is in the ring: mark it first, undo on failure.
        frame.setState(FrameDescriptor.STATE_DELIVERED);
        if (ring.offer(frame)) {
            return BY_REFERENCE;
        }
        frame.setState(FrameDescriptor.STATE_IN_FABRIC);
        return STALLED;
    }

    /** Receiving host only: a receive slot comes back after its host released it. */
    void freeSlot(final Frame slot) {
        if (!freeSlots.offer(slot)) {
            throw new IllegalStateException("receive slots overflow at NIC " + nic + ": a slot was freed twice");
        }
    }

    private boolean lockPort() {
        for (int i = 0; i < 16; i++) {
            if ((int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, 1)) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    /** Receiving host only. */
    Frame poll() {
        return ring.poll();
    }

    /** Starts (or extends) a receiver stall: the port accepts nothing until {@code untilNs}. */
    void stallUntil(final long untilNs) {
        long current;
        do {
            current = (long) STALLED_UNTIL.getVolatile(this);
            if (untilNs - current <= 0 && stallActive) {
                return;
            }
        } while (!STALLED_UNTIL.compareAndSet(this, current, untilNs));
        stallActive = true;
    }

    private boolean stalled() {
        if (System.nanoTime() - (long) STALLED_UNTIL.getVolatile(this) < 0) {
            return true;
        }
        stallActive = false;
        return false;
    }

    /** Registers an engine that could not deliver here; it gets a turn when the host next drains. */
    void addStalled(final Lanai engine) {
        if (!engine.markStalled()) {
            return;
        }
        Lanai head;
        do {
            head = (Lanai) STALLED_HEAD.getVolatile(this);
            engine.nextStalled = head;
        } while (!STALLED_HEAD.compareAndSet(this, head, engine));
        // The receiving host may have looked at this list just before and gone to sleep: wake it to help. (The CAS
        // orders the registration before this read, as its volatile setWaiter orders its look after its own.) When
        // the host registers the engine itself, helping it while it waits, wake() leaves it alone.
        wake();
    }

    /**
     * Receiving host: gives every engine stalled on this port a turn.
     *
     * @return frames those engines moved
     */
    int helpStalled() {
        if ((Lanai) STALLED_HEAD.getAcquire(this) == null) {
            return 0;
        }
        Lanai engine = (Lanai) STALLED_HEAD.getAndSet(this, (Lanai) null);
        int moved = 0;
        while (engine != null) {
            final Lanai next = engine.nextStalled;
            engine.nextStalled = null;
            engine.clearStalled();
            moved += engine.helperPump();
            engine = next;
        }
        return moved;
    }

    void setWaiter(final Thread thread) {
        WAITER.setVolatile(this, thread);
    }

    /**
     * Wakes the host asleep at this port, unless it is the caller: a thread never needs waking from its own sleep,
     * and the permit an unpark of itself leaves would end its next park at once. (A host helping a stalled engine
     * while it waits re-registers it, still blocked on the slots that host holds; waking itself turned its sleep
     * into a spin until it freed one.)
     */
    void wake() {
        final Thread t = (Thread) WAITER.getVolatile(this);
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t);
        }
    }

    /**
     * A NIC wrote this NIC's registered memory (an RDMA write, a NIC handler): counted, and a host parked in
     * {@code receive} is woken to look at it, as a NIC's interrupt would. The wake is one-shot: the writer that wakes
     * the host also clears its registration, so the writes that land before the host sleeps again (and registers
     * again) cost no further unpark; a stream of puts into a PE asleep in a barrier had paid one per put. No wake-up is
     * lost: the count goes up before the registration is cleared, and the host looks at the count before every sleep
     * and returns when it has moved.
     */
    void memoryWritten() {
        MEMORY_EVENTS.getAndAdd(this, 1L);
        final Thread t = (Thread) WAITER.getVolatile(this);
        if (t != null && WAITER.compareAndSet(this, t, null)) {
            LockSupport.unpark(t);
        }
    }

    /** @return how many times a NIC wrote this NIC's memory (changes are what matter) */
    long memoryEvents() {
        return (long) MEMORY_EVENTS.getVolatile(this);
    }

    long received() {
        return counters.get(RECEIVED);
    }

    long bytesReceived() {
        return counters.get(BYTES_RECEIVED);
    }

    /** @return heap bytes of the port, its ring, the slot queue and the receive slots (for the memory estimate) */
    long footprintBytes(final int slotArrayBytes) {
        // A padded object with two more lines of padding (around memoryEvents).
        return HeapFootprint.PADDED_OBJECT + 2 * 128 + HeapFootprint.queue(ring.slots()) + HeapFootprint.queue(
            freeSlots.capacity()) + HeapFootprint.frames(slots, slotArrayBytes) + counters.footprintBytes()
            + HeapFootprint.refArray(stash.length);
    }
}

/** Written by the sender holding the port lock, on every frame: the lock and the slot stash. */
abstract class ReceivePortSender extends CacheLinePadding {
    volatile int lock;
    int stashCount;
}

/** Padding between the senders' fields and the fields the receiving host reads on every poll. */
abstract class ReceivePortPad1 extends ReceivePortSender {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;
}

/** Fields read on every poll and written rarely (stalls, waiters). */
abstract class ReceivePortFields extends ReceivePortPad1 {
    volatile Lanai stalledHead;
    volatile Thread waiter;
    volatile long stalledUntilNs;
    volatile boolean stallActive;
}

/** Padding between the fields read on every poll and the count of writes into the NIC's memory. */
abstract class ReceivePortPad2 extends ReceivePortFields {
    long r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15, r16;
}

/**
 * Written at every RDMA write, NIC handler and store into the NIC's host memory segments, by the writers; read by the
 * receiving host only in its waits: a line of its own, so that a stream of stores into a PE's memory does not take
 * the lines its polls read.
 */
abstract class ReceivePortEvents extends ReceivePortPad2 {
    volatile long memoryEvents;
}

/** Padding between the count of writes and the port's own fields. */
abstract class ReceivePortPad3 extends ReceivePortEvents {
    long s01, s02, s03, s04, s05, s06, s07, s08, s09, s10, s11, s12, s13, s14, s15, s16;
}
