package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.H_QUIET;
import static org.jhpvm.shmem.MessageDescriptor.QUIET_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;

import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/**
 * This PE's requests that wait for an answer (gets, fetching atomics, lock requests, quiet probes) and their
 * completion. A request takes a slot whose number travels in the request and comes back in the reply
 * ({@link #onReply}), which lands get data straight in the requester's destination array, or a value in the slot.
 * A blocking request waits for its slot; a non-blocking one ({@code get_nbi}, quiet probes) is counted until
 * {@link #quiet()}. Also the PEs written to since the last quiet: a quiet sends one probe to each, whose answer
 * means everything before it was handled (FM delivers each pair in order and runs one sender's handlers in order),
 * so no put needs an acknowledgement of its own.
 * <p>
 * Used under the engine's ownership only. Struct of arrays with a free-slot stack: nothing is allocated per
 * request.
 */
final class OutstandingRequests {
    private static final int FREE = 0;
    static final int WAITING = 1;
    private static final int DONE = 2;
    /** Non-blocking: completed by its reply alone, counted until {@link #quiet()}. */
    static final int NBI = 3;
    private static final int SLOTS = 1024;

    private final Engine engine;
    private final FastMessages fm;
    private final int me;
    private final ReplyQueue replies;

    private final Object[] slotDst = new Object[SLOTS];
    private final Kind[] slotKind = new Kind[SLOTS];
    private final int[] slotIndex = new int[SLOTS];
    private final int[] slotStride = new int[SLOTS];
    private final int[] slotBlock = new int[SLOTS];
    private final int[] slotCount = new int[SLOTS];
    private final long[] slotValue = new long[SLOTS];
    private final int[] slotState = new int[SLOTS];
    private final int[] slotStatus = new int[SLOTS];
    private final int[] freeSlots = new int[SLOTS];
    private int freeTop;
    private int nbiOutstanding;
    private String nbiError;

    // PEs written to since the last quiet.
    private final boolean[] dirty;
    private final int[] dirtyList;
    private int dirtyCount;

    // Wait conditions without a capturing lambda per call.
    private int awaitSlot;
    private final BooleanSupplier slotDone = () -> slotState[awaitSlot] != WAITING;
    private final BooleanSupplier nbiDone = () -> nbiOutstanding == 0;
    private final BooleanSupplier slotFree = () -> freeTop > 0;

    OutstandingRequests(final Engine engine, final ReplyQueue replies) {
        this.engine = engine;
        this.fm = engine.fm;
        this.me = engine.me;
        this.replies = replies;
        this.dirty = new boolean[engine.npes];
        this.dirtyList = new int[engine.npes];
        for (int i = 0; i < SLOTS; i++) {
            freeSlots[i] = SLOTS - 1 - i;
        }
        freeTop = SLOTS;
    }

    /**
     * Takes a slot, waiting (with progress) while all are in use. A get names where its data lands ({@code kind},
     * {@code dst} and the element layout); other requests pass a null {@code dst} and receive a value.
     */
    int alloc(final int state, final Kind kind, final Object dst, final int di, final int ds, final int count,
        final int block) {
        if (freeTop == 0) {
            engine.await(slotFree);
        }
        final int slot = freeSlots[--freeTop];
        slotState[slot] = state;
        slotKind[slot] = kind;
        slotDst[slot] = dst;
        slotIndex[slot] = di;
        slotStride[slot] = ds;
        slotCount[slot] = count;
        slotBlock[slot] = block;
        slotStatus[slot] = STATUS_OK;
        if (state == NBI) {
            nbiOutstanding++;
        }
        return slot;
    }

    private void free(final int slot) {
        slotState[slot] = FREE;
        slotDst[slot] = null;
        freeSlots[freeTop++] = slot;
    }

    /** Waits (with progress) for the answer to a blocking request and frees its slot. @return the value */
    long awaitReply(final int slot, final int pe, final String what) {
        awaitSlot = slot;
        engine.await(slotDone);
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
            replies.queue(pe, slot, status, null, 0, 0, 0, value);
        }
    }

    /** Records a PE written to (put, accumulate, non-fetching atomic, user signal): the next quiet probes it. */
    void markDirty(final int pe) {
        if (!dirty[pe]) {
            dirty[pe] = true;
            dirtyList[dirtyCount++] = pe;
        }
    }

    /** {@code shmem_quiet}: a probe to each PE written to since the last quiet; then waits for every NBI request. */
    void quiet() {
        engine.enter();
        try {
            final int n = dirtyCount;
            for (int i = 0; i < n; i++) {
                final int pe = dirtyList[i];
                dirty[pe] = false;
                final int slot = alloc(NBI, null, null, 0, 0, 0, 1);
                final FmOutputStream out = fm.beginMessage(pe, QUIET_BYTES, H_QUIET);
                out.sendInt(slot);
                out.endMessage();
            }
            dirtyCount = 0;
            if (nbiOutstanding > 0) {
                engine.await(nbiDone);
            }
            final String e = nbiError;
            if (e != null) {
                nbiError = null;
                throw new IllegalStateException(e);
            }
        } finally {
            engine.exit();
        }
    }

    /** The target's side of a quiet probe: its handlers run in order, so answering at once is enough. */
    void onQuiet(final FmInputStream in, final int sender) {
        replies.queue(sender, in.receiveInt(), STATUS_OK, null, 0, 0, 0, 0);
    }

    void onReply(final FmInputStream in, final int sender) {
        final int slot = in.receiveInt();
        final int status = in.receiveInt();
        if (slot < 0 || slot >= SLOTS || slotState[slot] == FREE) {
            engine.reject(sender, "reply", slot, status, 0, 0);
            return;
        }
        slotStatus[slot] = status;
        if (status == STATUS_OK) {
            if (slotDst[slot] != null) {
                slotKind[slot].receiveBlocks(in, slotDst[slot], slotIndex[slot], slotStride[slot], slotCount[slot],
                    slotBlock[slot]);
            } else {
                slotValue[slot] = in.receiveLong();
            }
        }
        if (slotState[slot] == NBI) {
            if (status != STATUS_OK && nbiError == null) {
                nbiError = "PE " + sender + " rejected a non-blocking get of PE " + me
                    + " (no such live symmetric object there, or an index outside it)";
            }
            nbiOutstanding--;
            free(slot);
        } else {
            slotState[slot] = DONE;
        }
    }

    /** @return a one-line state for timeouts and debugging */
    String describe() {
        return "outstanding requests " + (SLOTS - freeTop) + ", non-blocking " + nbiOutstanding + ", queued replies "
            + replies.size() + ", PEs to quiet " + dirtyCount;
    }
}
