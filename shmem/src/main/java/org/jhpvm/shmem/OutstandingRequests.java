package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;

import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FmInputStream;

/**
 * This PE's requests to host handlers that wait for an answer (lock requests), and {@code quiet}. A request takes a
 * slot whose number travels in the request and comes back in the reply ({@link #onReply}) with a value. Remote
 * memory access is the NIC's ({@link NicRequests}); quiet waits for all of it to complete, and needs no probe of its
 * own: a NIC request completes only once the target's memory has it.
 * <p>
 * Used under the engine's ownership only. Struct of arrays with a free-slot stack: nothing is allocated per
 * request.
 */
final class OutstandingRequests {
    private static final int FREE = 0;
    static final int WAITING = 1;
    private static final int DONE = 2;
    private static final int SLOTS = 1024;

    private final Engine engine;
    private final int me;
    private final ReplyQueue replies;
    private final NicRequests nic;

    private final long[] slotValue = new long[SLOTS];
    private final int[] slotState = new int[SLOTS];
    private final int[] slotStatus = new int[SLOTS];
    private final int[] freeSlots = new int[SLOTS];
    private int freeTop;

    // Wait conditions without a capturing lambda per call.
    private int awaitSlot;
    private int awaitPe;
    private String awaitWhat;
    private final BooleanSupplier slotDone = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            return slotState[awaitSlot] != WAITING;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append("the answer of PE ").append(awaitPe).append(" to its ").append(awaitWhat);
        }
    };
    private final BooleanSupplier slotFree = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            return freeTop > 0;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append("a free request slot (all ").append(SLOTS).append(" wait for answers)");
        }
    };

    OutstandingRequests(final Engine engine, final ReplyQueue replies, final NicRequests nic) {
        this.engine = engine;
        this.me = engine.me;
        this.replies = replies;
        this.nic = nic;
        for (int i = 0; i < SLOTS; i++) {
            freeSlots[i] = SLOTS - 1 - i;
        }
        freeTop = SLOTS;
    }

    /** Takes a slot for a request waiting for a value, waiting (with progress) while all are in use. */
    int alloc() {
        if (freeTop == 0) {
            engine.await(slotFree);
        }
        final int slot = freeSlots[--freeTop];
        slotState[slot] = WAITING;
        slotStatus[slot] = STATUS_OK;
        return slot;
    }

    private void free(final int slot) {
        slotState[slot] = FREE;
        freeSlots[freeTop++] = slot;
    }

    /** Waits (with progress) for the answer to a request and frees its slot. @return the value */
    long awaitReply(final int slot, final int pe, final String what) {
        do {
            awaitSlot = slot;
            awaitPe = pe;
            awaitWhat = what;
        } while (!engine.awaitTurn(slotDone));
        final long v = slotValue[slot];
        final int status = slotStatus[slot];
        free(slot);
        if (status != STATUS_OK) {
            throw new IllegalStateException("PE " + pe + " rejected the " + what + " of PE " + me
                + " (no such live symmetric object there, or an index outside it)");
        }
        return v;
    }

    /** Completes a request slot of PE {@code pe}: this PE's own directly, another PE's by a queued reply. */
    void answer(final int pe, final int slot, final int status, final long value) {
        if (pe == me) {
            slotStatus[slot] = status;
            slotValue[slot] = value;
            slotState[slot] = DONE;
        } else {
            replies.queue(pe, slot, status, value);
        }
    }

    /**
     * {@code shmem_quiet}: waits until every NIC request of this PE on the default context is complete (and raises a
     * refused one); other contexts' requests are theirs to quiet.
     */
    void quiet() {
        engine.enter();
        try {
            nic.awaitDomain(0);
            engine.fenceDirectStores();
        } finally {
            engine.exit();
        }
    }

    void onReply(final FmInputStream in, final int sender) {
        final int slot = in.receiveInt();
        final int status = in.receiveInt();
        if (slot < 0 || slot >= SLOTS || slotState[slot] != WAITING) {
            engine.rejections.reject(sender, "reply", slot, status, 0, 0);
            return;
        }
        slotStatus[slot] = status;
        if (status == STATUS_OK) {
            slotValue[slot] = in.receiveLong();
        }
        slotState[slot] = DONE;
    }

    /** @return a one-line state for timeouts and debugging */
    String describe() {
        return "outstanding requests " + (SLOTS - freeTop) + ", NIC requests in flight " + nic.outstanding()
            + ", queued replies " + replies.size();
    }
}
