package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.ACC_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.GET_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.H_ACC;
import static org.jhpvm.shmem.MessageDescriptor.H_GET;
import static org.jhpvm.shmem.MessageDescriptor.H_PUT;
import static org.jhpvm.shmem.MessageDescriptor.H_PUT_SIGNAL;
import static org.jhpvm.shmem.MessageDescriptor.H_TEAM;
import static org.jhpvm.shmem.MessageDescriptor.MAX_MESSAGE_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.PUT_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.PUT_SIGNAL_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.SIG_TEAM;
import static org.jhpvm.shmem.MessageDescriptor.SIG_USER;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_REJECTED;
import static org.jhpvm.shmem.MessageDescriptor.TEAM_HEADER_BYTES;
import static org.jhpvm.shmem.OutstandingRequests.NBI;
import static org.jhpvm.shmem.OutstandingRequests.WAITING;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/**
 * Remote memory access, both sides: put, get, put with signal and the data of reductions ({@link #teamData}), and
 * the target's handlers for them. A put is one message per at most {@code MAX_MESSAGE_BYTES} of payload, gathered
 * straight from the source array (FM's typed pieces) and scattered by the handler straight into the target array:
 * no staging copy at either end. A get is a small request answered by a reply that the requester's slot scatters
 * into its destination ({@link OutstandingRequests}). Puts need no acknowledgement: they complete at the next
 * quiet, and for a PE's own memory every operation is a local copy.
 * <p>
 * Used by the PE's thread, or by the handlers under the engine's ownership; the data path allocates nothing here.
 */
final class RmaOperations {
    private final Engine engine;
    private final FastMessages fm;
    private final int me;
    private final Teams teams;
    private final OutstandingRequests requests;
    private final ReplyQueue replies;
    private final Object[] ones = new Object[Kind.values().length];

    RmaOperations(final Engine engine, final OutstandingRequests requests, final ReplyQueue replies) {
        this.engine = engine;
        this.fm = engine.fm;
        this.me = engine.me;
        this.teams = engine.teams;
        this.requests = requests;
        this.replies = replies;
    }

    void put(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count) {
        put(s, pe, di, ds, src, si, ss, count, 1);
    }

    /** Block-strided put: {@code count} blocks of {@code block} elements ({@code block == 1}: element stride). */
    void put(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count, final int block) {
        engine.enter();
        try {
            if (pe == me) {
                Kind.copyBlocks(src, si, ss, s.array, di, ds, count, block);
                return;
            }
            sendElements(H_PUT, s, pe, di, ds, src, si, ss, count, block, 0);
        } finally {
            engine.exit();
        }
    }

    /**
     * A put or accumulate message per at most {@link MessageDescriptor#MAX_MESSAGE_BYTES} of payload: header (id,
     * index, stride, count of blocks, block length, and alpha for an accumulate), then the elements gathered straight
     * from {@code src}. The public API keeps a block within {@link MessageDescriptor#MAX_MESSAGE_BYTES}.
     */
    void sendElements(final int handler, final SymmetricArray s, final int pe, final int di, final int ds,
        final Object src, final int si, final int ss, final int count, final int block, final long alpha) {
        final int headerBytes = handler == H_ACC ? ACC_HEADER_BYTES : PUT_HEADER_BYTES;
        final int chunk = Math.max(1, MAX_MESSAGE_BYTES / (s.kind.bytes * block));
        int done = 0;
        do {
            final int n = Math.min(chunk, count - done);
            final FmOutputStream out = fm.beginMessage(pe, headerBytes + n * block * s.kind.bytes, handler);
            out.sendInt(s.id);
            out.sendInt(di + done * ds);
            out.sendInt(ds);
            out.sendInt(n);
            out.sendInt(block);
            if (handler == H_ACC) {
                out.sendLong(alpha);
            }
            s.kind.sendBlocks(out, src, si + done * ss, ss, n, block);
            out.endMessage();
            done += n;
        } while (done < count);
        requests.markDirty(pe);
    }

    void get(final SymmetricArray s, final int pe, final int si, final int ss, final Object dst, final int di,
        final int ds, final int count, final boolean nbi) {
        get(s, pe, si, ss, dst, di, ds, count, 1, nbi);
    }

    /** Block-strided get: {@code count} blocks of {@code block} elements ({@code block == 1}: element stride). */
    void get(final SymmetricArray s, final int pe, final int si, final int ss, final Object dst, final int di,
        final int ds, final int count, final int block, final boolean nbi) {
        engine.enter();
        try {
            if (pe == me) {
                Kind.copyBlocks(s.array, si, ss, dst, di, ds, count, block);
                return;
            }
            final int chunk = Math.max(1, MAX_MESSAGE_BYTES / (s.kind.bytes * block));
            int done = 0;
            do {
                final int n = Math.min(chunk, count - done);
                final int slot = requests.alloc(nbi ? NBI : WAITING, s.kind, dst, di + done * ds, ds, n, block);
                final FmOutputStream out = fm.beginMessage(pe, GET_BYTES, H_GET);
                out.sendInt(slot);
                out.sendInt(s.id);
                out.sendInt(si + done * ss);
                out.sendInt(ss);
                out.sendInt(n);
                out.sendInt(block);
                out.endMessage();
                if (!nbi) {
                    requests.awaitReply(slot, pe, "get");
                }
                done += n;
            } while (done < count);
        } finally {
            engine.exit();
        }
    }

    /**
     * Put with signal: the data, then the signal, in one message (FM delivers it whole and in order, so the data is
     * there before the signal). {@code s} may be null for a signal alone. A team signal ({@code sigMode ==
     * SIG_TEAM}) counts an arrival in a team's collective state: {@code sigA} team id, {@code sigB} the counter,
     * {@code sigOp} the sender's team rank.
     */
    void putSignal(final SymmetricArray s, final int pe, final int di, final Object src, final int si, final int count,
        final int sigMode, final int sigA, final int sigB, final int sigOp, final long signal) {
        engine.enter();
        try {
            if (pe == me) {
                if (s != null) {
                    Kind.copy(src, si, 1, s.array, di, 1, count);
                }
                applySignal(me, sigMode, sigA, sigB, sigOp, signal);
                return;
            }
            final int bytes = s == null ? 0 : count * s.kind.bytes;
            if (bytes > MAX_MESSAGE_BYTES) {
                throw new IllegalArgumentException("putSignal of " + bytes + " bytes exceeds " + MAX_MESSAGE_BYTES);
            }
            final FmOutputStream out = fm.beginMessage(pe, PUT_SIGNAL_HEADER_BYTES + bytes, H_PUT_SIGNAL);
            out.sendInt(s == null ? -1 : s.id);
            out.sendInt(di);
            out.sendInt(s == null ? 0 : count);
            out.sendInt(sigMode);
            out.sendInt(sigA);
            out.sendInt(sigB);
            out.sendInt(sigOp);
            out.sendInt(0);
            out.sendLong(signal);
            if (s != null) {
                s.kind.send(out, src, si, 1, count);
            }
            out.endMessage();
            if (sigMode == SIG_USER) {
                // Collective traffic needs no quiet: the collective itself waits for what it needs.
                requests.markDirty(pe);
            }
        } finally {
            engine.exit();
        }
    }

    /** Sends elements to a team member's collective inbox (reductions); the caller has entered. */
    void teamData(final int pe, final int teamId, final int counter, final int senderRank, final Kind kind,
        final Object src, final int count) {
        if (pe == me) {
            final Object box = teams.inbox(teamId, senderRank, kind, count);
            Kind.copy(src, 0, 1, box, 0, 1, count);
            teams.arrive(teamId, counter, senderRank, count);
            return;
        }
        final FmOutputStream out = fm.beginMessage(pe, TEAM_HEADER_BYTES + count * kind.bytes, H_TEAM);
        out.sendInt(teamId);
        out.sendInt(counter);
        out.sendInt(senderRank);
        out.sendInt(kind.ordinal());
        out.sendInt(count);
        kind.send(out, src, 0, 1, count);
        out.endMessage();
    }

    /** A one-element array of the kind, reused by p and g (the PE thread's, under ownership). */
    Object one(final Kind kind) {
        Object a = ones[kind.ordinal()];
        if (a == null) {
            a = kind.newArray(1);
            ones[kind.ordinal()] = a;
        }
        return a;
    }

    // ------------------------------------------------------------------ handlers (run under ownership)

    void onPut(final FmInputStream in, final int sender) {
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int stride = in.receiveInt();
        final int count = in.receiveInt();
        final int block = in.receiveInt();
        final SymmetricArray s = engine.lookup(id);
        if (!Engine.valid(s, index, stride, count, block)) {
            engine.reject(sender, "put", id, index, stride, count);
            return;
        }
        s.kind.receiveBlocks(in, s.array, index, stride, count, block);
    }

    void onPutSignal(final FmInputStream in, final int sender) {
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int count = in.receiveInt();
        final int sigMode = in.receiveInt();
        final int sigA = in.receiveInt();
        final int sigB = in.receiveInt();
        final int sigOp = in.receiveInt();
        in.receiveInt();
        final long signal = in.receiveLong();
        final SymmetricArray s = id < 0 ? null : engine.lookup(id);
        if (id >= 0 && !Engine.valid(s, index, 1, count)) {
            engine.reject(sender, "put with signal", id, index, 1, count);
            return;
        }
        if (sigMode == SIG_USER && !validSignal(sigA, sigB)) {
            engine.reject(sender, "signal", sigA, sigB, 1, 1);
            return;
        }
        if (s != null) {
            s.kind.receive(in, s.array, index, 1, count);
        }
        applySignal(sender, sigMode, sigA, sigB, sigOp, signal);
    }

    private boolean validSignal(final int id, final int index) {
        final SymmetricArray sig = engine.lookup(id);
        return sig != null && sig.kind == Kind.LONG && index >= 0 && index < sig.length;
    }

    private void applySignal(final int sender, final int sigMode, final int sigA, final int sigB, final int sigOp,
        final long signal) {
        if (sigMode == SIG_TEAM) {
            teams.arrive(sigA, sigB, sigOp, signal);
            return;
        }
        final long[] a = (long[]) engine.lookup(sigA).array;
        if (sigOp == SignalOp.ADD.ordinal()) {
            Kind.LONGS.getAndAdd(a, sigB, signal);
        } else {
            Kind.LONGS.setVolatile(a, sigB, signal);
        }
    }

    void onGet(final FmInputStream in, final int sender) {
        final int req = in.receiveInt();
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int stride = in.receiveInt();
        final int count = in.receiveInt();
        final int block = in.receiveInt();
        final SymmetricArray s = engine.lookup(id);
        if (!Engine.valid(s, index, stride, count, block)) {
            engine.reject(sender, "get", id, index, stride, count);
            replies.queue(sender, req, STATUS_REJECTED, null, 0, 0, 0, 1, 0);
            return;
        }
        replies.queue(sender, req, STATUS_OK, s, index, stride, count, block, 0);
    }

    void onTeam(final FmInputStream in, final int sender) {
        final int teamId = in.receiveInt();
        final int counter = in.receiveInt();
        final int senderRank = in.receiveInt();
        final int kindOrdinal = in.receiveInt();
        final int count = in.receiveInt();
        if (kindOrdinal < 0 || kindOrdinal >= Kind.values().length || count < 0) {
            engine.reject(sender, "collective data", teamId, counter, kindOrdinal, count);
            return;
        }
        final Kind kind = Kind.values()[kindOrdinal];
        kind.receive(in, teams.inbox(teamId, senderRank, kind, count), 0, 1, count);
        teams.arrive(teamId, counter, senderRank, count);
    }
}
