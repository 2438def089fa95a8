package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.H_LOCK;
import static org.jhpvm.shmem.MessageDescriptor.LOCK_ACQUIRE;
import static org.jhpvm.shmem.MessageDescriptor.LOCK_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.LOCK_RELEASE;
import static org.jhpvm.shmem.MessageDescriptor.LOCK_TRY;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_REJECTED;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/**
 * SHMEM's distributed locks: the requesting PE's {@link #lock} and the home PE's handler, which grants in FIFO order
 * (a polling ticket lock livelocked 64 PEs on 2 cores: the home drowned in polls). The home's side runs under the
 * engine's ownership, so its queues need no lock of their own. Not a data path: queueing a waiter allocates.
 */
final class LockOperations {
    private final Engine engine;
    private final FastMessages fm;
    private final int me;
    private final OutstandingRequests requests;
    private final ReplyQueue replies;

    /** Locks homed here: FIFO queues of waiting (pe << 32 | reply slot), by (object id << 32 | index). */
    private final Map<Long, ArrayDeque<Long>> lockWaiters = new HashMap<>();

    LockOperations(final Engine engine, final OutstandingRequests requests, final ReplyQueue replies) {
        this.engine = engine;
        this.fm = engine.fm;
        this.me = engine.me;
        this.requests = requests;
        this.replies = replies;
    }

    /**
     * A lock operation at the lock's home PE: the home keeps the holder (PE + 1) in the lock element and a FIFO queue
     * of waiters, and answers a waiting acquire only when the lock is handed to it, so nobody polls and nobody
     * starves. Returns 1 for success (acquired, released), 0 for a failed try; throws if a release was refused.
     */
    long lock(final SymmetricLongs lock, final int home, final int index, final int op) {
        engine.enter();
        try {
            final int slot = requests.alloc();
            if (home == me) {
                lockAt(me, lock, index, op, slot);
            } else {
                final FmOutputStream out = fm.beginMessage(home, LOCK_BYTES, H_LOCK);
                out.sendInt(op);
                out.sendInt(lock.id);
                out.sendInt(index);
                out.sendInt(slot);
                out.endMessage();
            }
            return requests.awaitReply(slot, home,
                op == LOCK_RELEASE ? "release of a lock it does not hold" : "lock request");
        } finally {
            engine.exit();
        }
    }

    void onLock(final FmInputStream in, final int sender) {
        final int op = in.receiveInt();
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int slot = in.receiveInt();
        final SymmetricArray s = engine.objects.lookup(id);
        if (!Bounds.valid(s, index, 1, 1) || s.kind != Kind.LONG || op < LOCK_ACQUIRE || op > LOCK_RELEASE) {
            engine.rejections.reject(sender, "lock operation", id, index, 1, 1);
            replies.queue(sender, slot, STATUS_REJECTED, 0);
            return;
        }
        lockAt(sender, (SymmetricLongs) s, index, op, slot);
    }

    /** The home's side of a lock operation from {@code pe} (runs under ownership). */
    private void lockAt(final int pe, final SymmetricLongs lock, final int index, final int op, final int slot) {
        final long[] word = lock.local();
        final long holder = (long) Kind.LONGS.getVolatile(word, index);
        final Long key = (long) lock.id << 32 | index;
        switch (op) {
            case LOCK_ACQUIRE -> {
                if (holder == 0) {
                    Kind.LONGS.setVolatile(word, index, (long) pe + 1);
                    requests.answer(pe, slot, STATUS_OK, 1);
                } else {
                    lockWaiters.computeIfAbsent(key, k -> new ArrayDeque<>()).add((long) pe << 32 | slot);
                }
            }
            case LOCK_TRY -> {
                if (holder == 0) {
                    Kind.LONGS.setVolatile(word, index, (long) pe + 1);
                }
                requests.answer(pe, slot, STATUS_OK, holder == 0 ? 1 : 0);
            }
            default -> {
                if (holder != pe + 1) {
                    requests.answer(pe, slot, STATUS_REJECTED, 0);
                    return;
                }
                final ArrayDeque<Long> q = lockWaiters.get(key);
                final Long next = q == null ? null : q.poll();
                if (next == null) {
                    Kind.LONGS.setVolatile(word, index, 0L);
                } else {
                    final int nextPe = (int) (next >>> 32);
                    Kind.LONGS.setVolatile(word, index, (long) nextPe + 1);
                    requests.answer(nextPe, (int) (long) next, STATUS_OK, 1);
                }
                requests.answer(pe, slot, STATUS_OK, 1);
            }
        }
    }
}
