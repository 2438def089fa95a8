package org.jhpvm.fabric.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;

/**
 * A NIC's engine: the LANai control program of FM 1.0's "streamed" main loop, which takes frames from the host's
 * send ring and pushes them through the crossbar into destination receive rings, applying the fault plan on the
 * way.
 * <p>
 * It has no thread of its own. Its host runs it after each send and poll; while the engine is stalled
 * (back-pressure, a delay, a held frame) the host lets go of it, and a receiving host that drains the ring it is
 * stalled on may run it too. Ownership is biased towards the host: while the host owns the engine it runs it
 * with no atomic instruction at all (a locked instruction would wait for the host's frame writes to reach the
 * other core first); only the hand-over to and from a helper uses compare-and-set. The owner field thereby
 * passes the send ring's consumer role between threads safely; a turn is bounded by the pump budget and never
 * blocks.
 * <p>
 * Outside the rings an engine holds at most three frames (the one it is delivering, a duplicate of it, and one
 * held back for reordering): a fixed amount, whatever the number of NICs. The only state that grows is the
 * frame counter per path that fault decisions are keyed on, and only while a fault plan is active.
 */
final class Lanai {
    static final int DELIVERED = 0;
    static final int BYTES_DELIVERED = 1;
    static final int DROPPED = 2;
    static final int CORRUPTED = 3;
    static final int DUPLICATED = 4;
    static final int REORDERED = 5;
    static final int DELAYED = 6;
    static final int LINK_DOWN = 7;
    static final int BACK_PRESSURE = 8;
    static final int RECEIVER_STALLS = 9;
    private static final int COUNTERS = 10;

    private static final long MIN_STALL_BACKOFF_NS = 100;
    private static final long MAX_STALL_BACKOFF_NS = 2_000;
    private static final int PENDING_SLOTS = 4;
    private static final int PENDING_MASK = PENDING_SLOTS - 1;
    private static final int OWNER_HOST = 0;
    private static final int OWNER_FREE = 1;
    private static final int OWNER_HELPER = 2;
    private static final VarHandle OWNER;
    private static final VarHandle STALLED;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(Lanai.class, "owner", int.class);
            STALLED = lookup.findVarHandle(Lanai.class, "stalled", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int nic;
    private final ReceivePort[] ports;
    private final Ring sendRing;
    private final FramePool hostPool;
    private final FramePool spares;
    private final FaultPlan plan;
    private final int budget;
    private final long maxHoldNs;
    private final CounterBlock counters = new CounterBlock(COUNTERS);

    @SuppressWarnings("unused") // accessed through OWNER
    private volatile int owner = OWNER_HOST;
    @SuppressWarnings("unused") // accessed through STALLED
    private volatile int stalled;
    /** Next engine in a port's stalled list; written before the list's CAS publishes it. */
    Lanai nextStalled;

    // Owned by whoever owns the engine.
    private boolean blocked;
    private ReceivePort waitingOn;
    private boolean runningAsHost;
    private long retryNotBeforeNs;
    private long stallBackoffNs;
    private final Frame[] pending = new Frame[PENDING_SLOTS];
    private final long[] pendingNotBeforeNs = new long[PENDING_SLOTS];
    private int pendingHead;
    private int pendingCount;
    private Frame held;
    private long heldUntilNs;
    private Frame spare;
    private Frame lastStalled;
    private final IntLongHashMap pathFrames;

    Lanai(final int nic, final ReceivePort[] ports, final Ring sendRing, final FramePool hostPool,
          final FramePool spares, final FaultPlan plan, final int budget, final long maxHoldNs) {
        this.nic = nic;
        this.ports = ports;
        this.sendRing = sendRing;
        this.hostPool = hostPool;
        this.spares = spares;
        this.plan = plan.isNone() ? null : plan;
        this.budget = budget;
        this.maxHoldNs = maxHoldNs;
        this.pathFrames = plan.isNone() ? null : new IntLongHashMap();
    }

    /**
     * The host's turn: runs the engine unless a helper is running it.
     *
     * @return frames moved (delivered, dropped or taken in for a fault)
     */
    int hostPump() {
        final int current = (int) OWNER.getOpaque(this);
        if (current != OWNER_HOST) {
            // Back off after a stall: retrying at once would only pull the destination ring's cache lines away
            // from the host that is draining it. (blocked and the deadline are read racily: a hint; the CAS
            // decides.)
            if (current != OWNER_FREE || blocked && System.nanoTime() - retryNotBeforeNs < 0
                || !OWNER.compareAndSet(this, OWNER_FREE, OWNER_HOST)) {
                return 0;
            }
        }
        runningAsHost = true;
        final int moved = pump();
        if (blocked) {
            offerToHelpers();
        }
        return moved;
    }

    /**
     * Stalled: lets go of the engine and registers it at the port it waits for, so that the receiving host can
     * move the frames on while this engine's host is away. Registering only after letting go means a helper that
     * finds the registration can always take the engine.
     */
    private void offerToHelpers() {
        // Read before letting go: once the engine is free, its fields belong to whoever takes it next.
        final ReceivePort port = waitingOn;
        OWNER.setRelease(this, OWNER_FREE);
        if (port != null) {
            port.addStalled(this);
        }
    }

    /**
     * The host's cut-through: with nothing queued, no fault plan and the engine in the host's hands, a frame goes
     * straight into the switch without passing through the send ring (the streamed LANai loop moves a frame at
     * once when the channel is free).
     *
     * @return true if delivered; false if the caller must queue the frame and call {@link #afterQueued()}
     */
    boolean sendDirect(final Frame frame) {
        if (plan != null || blocked || (int) OWNER.getOpaque(this) != OWNER_HOST) {
            return false;
        }
        runningAsHost = true;
        if (!deliver(frame)) {
            blocked = true;
            return false;
        }
        return true;
    }

    /** The host queued a frame in the send ring: run the engine, or hand it to helpers if it is stalled. */
    int afterQueued() {
        // The queued frame before the look at the owner, as a helper lets go of the engine before its look at the
        // ring (helperPump): one of the two sees the other, so a frame queued while a helper runs the engine is never
        // left behind by both.
        VarHandle.fullFence();
        if (blocked && (int) OWNER.getOpaque(this) == OWNER_HOST) {
            offerToHelpers();
            return 0;
        }
        return hostPump();
    }

    /**
     * A helper's turn (a receiving host that drained the ring this engine was stalled on).
     *
     * @return frames moved
     */
    int helperPump() {
        int moved = 0;
        while ((int) OWNER.getOpaque(this) == OWNER_FREE && OWNER.compareAndSet(this, OWNER_FREE, OWNER_HELPER)) {
            runningAsHost = false;
            try {
                moved += pump();
            } catch (final RuntimeException | Error e) {
                OWNER.setRelease(this, OWNER_FREE);
                throw e;
            }
            if (blocked) {
                offerToHelpers();
                return moved;
            }
            OWNER.setRelease(this, OWNER_FREE);
            // A frame its host queued after the pump's last look, finding the engine taken, was left to us, and that
            // host may have gone (its last send): look again, after letting go (see afterQueued), and take it on.
            VarHandle.fullFence();
            if (sendRing.isEmpty()) {
                return moved;
            }
        }
        return moved;
    }

    private int pump() {
        blocked = false;
        waitingOn = null;
        int moved = 0;
        while (moved < budget) {
            if (pendingCount > 0) {
                if (!deliverPending()) {
                    blocked = true;
                    break;
                }
                moved++;
                continue;
            }
            if (held != null && System.nanoTime() - heldUntilNs >= 0) {
                push(held, 0);
                held = null;
                continue;
            }
            final Frame frame = sendRing.peek();
            if (frame == null) {
                break;
            }
            if (plan == null) {
                if (!deliver(frame)) {
                    blocked = true;
                    break;
                }
                sendRing.poll();
            } else if (!admit(frame)) {
                blocked = true;
                break;
            }
            moved++;
        }
        if (held != null && pendingCount == 0) {
            // Nothing else moves it: its destination's host should give this engine a turn.
            waitingOn = ports[held.destination()];
            blocked = true;
        }
        return moved;
    }

    /** Fault-free path and final step of every path: one frame through the crossbar. */
    private boolean deliver(final Frame frame) {
        final ReceivePort port = ports[frame.destination()];
        final int lengthBytes = frame.length();
        final int outcome = port.tryDeliver(frame);
        if (outcome == ReceivePort.STALLED) {
            stall(frame, port);
            return false;
        }
        if (outcome == ReceivePort.COPIED) {
            recycle(frame);
        }
        counters.increment(DELIVERED);
        counters.add(BYTES_DELIVERED, lengthBytes);
        lastStalled = null;
        stallBackoffNs = 0;
        return true;
    }

    /**
     * A frame the fabric is done with (its bytes copied at the switch, or dropped) goes back to its pool, without
     * a round trip if possible.
     */
    private void recycle(final Frame frame) {
        frame.setState(FrameDescriptor.STATE_FREE);
        if (frame.home() == MyrinetNic.HOME_SPARE) {
            spares.giveLocal(frame); // the engine is the spare pool's taker
        } else if (runningAsHost) {
            hostPool.giveLocal(frame); // the host is the host pool's taker
        } else {
            hostPool.give(frame);
        }
    }

    private void stall(final Frame frame, final ReceivePort port) {
        if (frame != lastStalled) {
            lastStalled = frame;
            counters.increment(BACK_PRESSURE);
        }
        stallBackoffNs = Math.min(MAX_STALL_BACKOFF_NS, Math.max(MIN_STALL_BACKOFF_NS, stallBackoffNs << 1));
        retryNotBeforeNs = System.nanoTime() + stallBackoffNs;
        waitingOn = port;
    }

    private boolean deliverPending() {
        final Frame frame = pending[pendingHead];
        final long notBeforeNs = pendingNotBeforeNs[pendingHead];
        if (notBeforeNs != 0 && System.nanoTime() - notBeforeNs < 0) {
            waitingOn = ports[frame.destination()];
            return false;
        }
        if (!deliver(frame)) {
            return false;
        }
        pending[pendingHead] = null;
        pendingHead = (pendingHead + 1) & PENDING_MASK;
        pendingCount--;
        return true;
    }

    private void push(final Frame frame, final long notBeforeNs) {
        final int slot = (pendingHead + pendingCount) & PENDING_MASK;
        pending[slot] = frame;
        pendingNotBeforeNs[slot] = notBeforeNs;
        pendingCount++;
    }

    /**
     * Takes the send ring's head through the fault plan: drop it, or move it into the pending slots (corrupted,
     * duplicated, delayed) or the reorder slot. Called only with no pending frames, so the slots have room.
     *
     * @return false if the frame must wait (it needs a spare frame for its duplicate and none is free)
     */
    private boolean admit(final Frame frame) {
        final int dst = frame.destination();
        final long frameNumber = pathFrames.get(dst);
        final int decision = plan.decide(nic, dst, frameNumber, 0);
        final boolean lost = (decision & (FaultPlan.DROP | FaultPlan.LINK_DOWN)) != 0;
        if (!lost && (decision & FaultPlan.DUPLICATE) != 0 && spare == null) {
            spare = spares.take();
            if (spare == null) {
                return false;
            }
        }
        pathFrames.put(dst, frameNumber + 1);
        sendRing.poll();
        if (lost) {
            counters.increment(DROPPED);
            if ((decision & FaultPlan.LINK_DOWN) != 0) {
                counters.increment(LINK_DOWN);
            }
            recycle(frame);
            return true;
        }
        final long nowNs = System.nanoTime();
        if ((decision & FaultPlan.CORRUPT) != 0 && corrupt(frame, dst, frameNumber, 0)) {
            counters.increment(CORRUPTED);
        }
        if ((decision & FaultPlan.STALL) != 0) {
            ports[dst].stallUntil(nowNs + plan.stallNs());
            counters.increment(RECEIVER_STALLS);
        }
        long notBeforeNs = 0;
        if ((decision & FaultPlan.DELAY) != 0) {
            notBeforeNs = (nowNs + plan.delayNs()) | 1;
            counters.increment(DELAYED);
        }
        Frame duplicate = null;
        if ((decision & FaultPlan.DUPLICATE) != 0) {
            duplicate = spare;
            spare = null;
            duplicate.copyFrom(frame);
            duplicate.setState(FrameDescriptor.STATE_IN_FABRIC);
            if ((plan.decide(nic, dst, frameNumber, 1) & FaultPlan.CORRUPT) != 0
                && corrupt(duplicate, dst, frameNumber, 1)) {
                counters.increment(CORRUPTED);
            }
            counters.increment(DUPLICATED); // one more frame in flight until the copy is delivered
        }
        if ((decision & FaultPlan.REORDER) != 0 && held == null) {
            held = frame;
            heldUntilNs = nowNs + maxHoldNs;
        } else {
            push(frame, notBeforeNs);
            if (held != null && held.destination() == dst) {
                push(held, 0);
                held = null;
                counters.increment(REORDERED);
            }
        }
        if (duplicate != null) {
            push(duplicate, notBeforeNs);
        }
        return true;
    }

    /** Flips 1 to 3 distinct bits of the opaque header and payload, as the plan chooses them. */
    private boolean corrupt(final Frame frame, final int dst, final long frameNumber, final int attempt) {
        return plan.corrupt(frame, nic, dst, frameNumber, attempt);
    }

    boolean markStalled() {
        return (int) STALLED.getOpaque(this) == 0 && STALLED.compareAndSet(this, 0, 1);
    }

    void clearStalled() {
        STALLED.setRelease(this, 0);
    }

    /** @return frames this engine is done with: delivered or dropped, a duplicate's copy not counted */
    long retired() {
        return counters.get(DELIVERED) + counters.get(DROPPED) - counters.get(DUPLICATED);
    }

    long counter(final int counter) {
        return counters.get(counter);
    }

    long footprintBytes() {
        return 128 + HeapFootprint.refArray(PENDING_SLOTS) + HeapFootprint.longArray(PENDING_SLOTS)
            + counters.footprintBytes();
    }
}
