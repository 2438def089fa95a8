package org.jhpvm.fm.internal;

import java.util.Arrays;

/**
 * Both halves of the completions FM's message path holds back ({@code FastMessages.deferCompletions}): requests that
 * want nothing back but their outcome (an RDMA write in frames, a NIC message with no reply capacity) are not answered
 * one by one when they succeed. The target counts them per requester and reports a count ({@code DONES}) when the
 * requester asks ({@code REPORT}), when it owes {@link #REPORT_EVERY}, or just before it answers a failed one. FM's
 * message path is ordered between two PEs, so a count completes the requester's oldest deferred requests to that
 * target, and a failed one's answer names the oldest left.
 * <p>
 * The requester keeps, per target, its deferred requests' slots oldest first, and the targets that hold requests it
 * has not yet asked about. The endpoint's thread only; the per-target slot lists grow by doubling and are kept.
 */
final class DeferredCompletions {
    /** Set in a request's slot number on the wire: the target counts its success instead of answering it. */
    static final int FLAG = 1 << 30;
    /** A target reports on its own once it owes a requester this many: bounds the requester's slots. */
    static final int REPORT_EVERY = 64;

    private boolean on;
    // The requester: per target, a ring of the deferred requests' slots, oldest first.
    private final int[][] slots;
    private final int[] head;
    private final int[] held;
    /** Per target, deferred requests posted since this PE last asked it. */
    private final int[] unasked;
    private final int[] unaskedTargets;
    private int unaskedCount;
    // The target: per requester, successes counted and not yet reported.
    private final int[] owed;

    DeferredCompletions(final int pes) {
        slots = new int[pes][];
        head = new int[pes];
        held = new int[pes];
        unasked = new int[pes];
        unaskedTargets = new int[pes];
        owed = new int[pes];
    }

    void turn(final boolean on) {
        this.on = on;
    }

    /** @return whether this PE's new requests that want only their outcome are deferred */
    boolean on() {
        return on;
    }

    // ---------------------------------------------------------------- the requester

    /**
     * A deferred request to {@code target} is posted in {@code slot}.
     *
     * @return the slot number to send (with {@link #FLAG})
     */
    int posted(final int target, final int slot) {
        int[] ring = slots[target];
        final int n = held[target];
        if (ring == null || n == ring.length) {
            final int[] grown = new int[ring == null ? 16 : ring.length * 2];
            for (int i = 0; i < n; i++) {
                grown[i] = ring[(head[target] + i) & (ring.length - 1)];
            }
            ring = grown;
            slots[target] = ring;
            head[target] = 0;
        }
        ring[(head[target] + n) & (ring.length - 1)] = slot;
        held[target] = n + 1;
        if (unasked[target]++ == 0) {
            unaskedTargets[unaskedCount++] = target;
        }
        return slot | FLAG;
    }

    /**
     * Takes the oldest deferred request held by {@code target}: a count reported, or a failed one answered.
     *
     * @param target   the PE that reported
     * @param expected the slot its answer names, or -1 for a count
     * @return the slot
     * @throws IllegalStateException if {@code target} holds none, or its answer names another slot (a protocol
     *                               error: FM's path between two PEs is ordered)
     */
    int take(final int target, final int expected) {
        final int n = held[target];
        final int[] ring = slots[target];
        if (n == 0 || expected >= 0 && ring[head[target]] != expected) {
            throw new IllegalStateException("PE " + target + " answered deferred request "
                + (expected < 0 ? "(a count)" : String.valueOf(expected)) + " but holds "
                + (n == 0 ? "none of this PE's" : "slot " + ring[head[target]] + " as its oldest"));
        }
        final int slot = ring[head[target]];
        head[target] = (head[target] + 1) & (ring.length - 1);
        held[target] = n - 1;
        return slot;
    }

    /** @return targets holding deferred requests this PE has not asked about since they were posted */
    int unaskedTargets() {
        return unaskedCount;
    }

    /** @return the {@code i}th of them */
    int unaskedTarget(final int i) {
        return unaskedTargets[i];
    }

    /** This PE has asked every target listed: the list starts again. */
    void asked() {
        for (int i = 0; i < unaskedCount; i++) {
            unasked[unaskedTargets[i]] = 0;
        }
        unaskedCount = 0;
    }

    /** @return deferred requests held by {@code target} (tests and descriptions) */
    int held(final int target) {
        return held[target];
    }

    // ---------------------------------------------------------------- the target

    /**
     * A deferred request of {@code requester} succeeded.
     *
     * @return true if this PE now owes it {@link #REPORT_EVERY} and should report
     */
    boolean succeeded(final int requester) {
        return ++owed[requester] >= REPORT_EVERY;
    }

    /** @return the successes owed to {@code requester}, now reported (0 if none) */
    int report(final int requester) {
        final int n = owed[requester];
        owed[requester] = 0;
        return n;
    }

    @Override
    public String toString() {
        return "DeferredCompletions{on=" + on + ", held=" + Arrays.toString(held) + ", owed=" + Arrays.toString(owed)
            + '}';
    }
}
