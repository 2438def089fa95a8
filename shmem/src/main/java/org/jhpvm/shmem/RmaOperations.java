package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.H_PUT_SIGNAL;
import static org.jhpvm.shmem.MessageDescriptor.H_TEAM;
import static org.jhpvm.shmem.MessageDescriptor.NIC_GET_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.NIC_PUT_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.NIC_PUT_SIGNAL_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.N_GET;
import static org.jhpvm.shmem.MessageDescriptor.N_PUT;
import static org.jhpvm.shmem.MessageDescriptor.N_PUT_SIGNAL;
import static org.jhpvm.shmem.MessageDescriptor.PUT_SIGNAL_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.SIG_TEAM;
import static org.jhpvm.shmem.MessageDescriptor.TEAM_HEADER_BYTES;

import java.lang.foreign.MemorySegment;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmNicMessage;
import org.jhpvm.fm.FmOutputStream;

/**
 * Remote memory access: put, get and put with signal as NIC messages whose handlers the target's NIC runs on the
 * target's registered memory (FM's {@link FastMessages#beginNicMessage}), large contiguous transfers as RDMA between
 * registered regions, and the collectives' own traffic (team signals and reduction data) as FM messages with host
 * handlers, since it updates a team's collective state rather than registered memory.
 * <p>
 * A small contiguous put joins the open batch to its PE ({@link PutBatch}); another put of up to a frame is one NIC
 * message: its header, then the elements gathered straight from the source into
 * the frame, scattered by the target NIC's handler straight into the target array. A larger contiguous put is one
 * RDMA write from the (cache-registered) source array into the target object's region, a larger strided one a NIC
 * message per frame's worth of elements (or an RDMA write per block, for blocks of {@value #RDMA_BLOCK_BYTES} bytes
 * or more). Gets mirror this: a small get's reply lands in the registered scratch and is copied into the
 * destination, a large contiguous one is an RDMA read straight into it. A put returns when its source may be reused
 * (the NIC has the bytes, or the RDMA write is complete); a get when the data is there.
 * <p>
 * The requesting side runs under the engine's ownership; the NIC handlers ({@link #onPutNic}, {@link #onGetNic},
 * {@link #onPutSignalNic}) run on the target NIC, concurrently for different senders, and touch nothing but the
 * message and registered memory.
 */
final class RmaOperations {
    /** Blocks of at least this many bytes go by RDMA, one write or read each. */
    static final int RDMA_BLOCK_BYTES = 8192;

    private final Engine engine;
    private final FastMessages fm;
    private final int me;
    private final Teams teams;
    private final NicRequests nic;
    private final PutBatch batch;

    RmaOperations(final Engine engine, final NicRequests nic) {
        this.engine = engine;
        this.fm = engine.fm;
        this.me = engine.me;
        this.teams = engine.teams;
        this.nic = nic;
        this.batch = engine.batch;
    }

    void put(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count) {
        put(s, pe, di, ds, src, si, ss, count, 1);
    }

    /** Block-strided put: {@code count} blocks of {@code block} elements ({@code block == 1}: element stride). */
    void put(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count, final int block) {
        engine.enterToBatch();
        try {
            if (pe == me) {
                Kind.copyBlocks(src, si, ss, s.array, di, ds, count, block);
                return;
            }
            if (contiguous(ds, ss, count, block) && batch.put(s, pe, di, src, si, count * block)) {
                return;
            }
            final int eb = s.kind.bytes;
            final long bytes = (long) count * block * eb;
            if (bytes <= nic.maxMessageBytes - NIC_PUT_HEADER_BYTES) {
                putMessage(s, pe, di, ds, src, si, ss, count, block);
                nic.reapCurrent();
                return;
            }
            putLarge(s, pe, di, ds, src, si, ss, count, block, bytes);
        } finally {
            engine.exit();
        }
    }

    private void putMessage(final SymmetricArray s, final int pe, final int di, final int ds, final Object src,
        final int si, final int ss, final int count, final int block) {
        final FmOutputStream out = nic.begin(pe, NIC_PUT_HEADER_BYTES + count * block * s.kind.bytes, N_PUT, 0);
        out.sendInt(s.id);
        out.sendInt(s.key);
        out.sendInt(di);
        out.sendInt(ds);
        out.sendInt(count);
        out.sendInt(block);
        s.kind.sendBlocks(out, src, si, ss, count, block);
        out.endMessage();
    }

    private void putLarge(final SymmetricArray s, final int pe, final int di, final int ds, final Object src,
        final int si, final int ss, final int count, final int block, final long bytes) {
        final int eb = s.kind.bytes;
        if (contiguous(ds, ss, count, block)) {
            final long ctx = nic.rdma(true, src, (long) si * eb, pe, s.id, (long) di * eb, bytes);
            if (nic.writeSourceFreeOnReturn) {
                nic.reapCurrent(); // the source is free: the put returns, its delivery is quiet's
            } else {
                nic.await(ctx, pe, "put");
            }
            return;
        }
        if ((long) block * eb >= RDMA_BLOCK_BYTES) {
            for (int b = 0; b < count; b++) {
                nic.rdma(true, src, (long) (si + b * ss) * eb, pe, s.id, (long) (di + b * ds) * eb,
                    (long) block * eb);
            }
            if (nic.writeSourceFreeOnReturn) {
                nic.reapCurrent();
            } else {
                nic.awaitDomain(nic.domain);
            }
            return;
        }
        final int perMessage = perMessage(NIC_PUT_HEADER_BYTES, (long) block * eb);
        for (int done = 0; done < count; ) {
            final int n = Math.min(perMessage, count - done);
            putMessage(s, pe, di + done * ds, ds, src, si + done * ss, ss, n, block);
            nic.reapCurrent();
            done += n;
        }
    }

    /** Blocks that lie back to back on both sides make one contiguous range. */
    static boolean contiguous(final int ds, final int ss, final int count, final int block) {
        return count == 1 || ds == block && ss == block;
    }

    /** How many blocks of {@code blockBytes} fit in one NIC message after a header (at least one). */
    int perMessage(final int headerBytes, final long blockBytes) {
        return (int) Math.max(1, (nic.maxMessageBytes - headerBytes) / blockBytes);
    }

    void get(final SymmetricArray s, final int pe, final int si, final int ss, final Object dst, final int di,
        final int ds, final int count, final boolean nbi) {
        get(s, pe, si, ss, dst, di, ds, count, 1, nbi);
    }

    /**
     * Block-strided get: {@code count} blocks of {@code block} elements ({@code block == 1}: element stride). A
     * non-blocking large contiguous get completes at the next quiet; every other get returns with the data (which a
     * non-blocking one may).
     */
    void get(final SymmetricArray s, final int pe, final int si, final int ss, final Object dst, final int di,
        final int ds, final int count, final int block, final boolean nbi) {
        engine.enter();
        try {
            if (pe == me) {
                engine.pollIfVirtual(); // a spin on its own memory serves others' puts in virtual time
                Kind.copyBlocks(s.array, si, ss, dst, di, ds, count, block);
                return;
            }
            final int eb = s.kind.bytes;
            final long bytes = (long) count * block * eb;
            if (bytes <= nic.maxMessageBytes) {
                getMessage(s, pe, si, ss, dst, di, ds, count, block);
                return;
            }
            if (contiguous(ds, ss, count, block)) {
                final long ctx = nic.rdma(false, dst, (long) di * eb, pe, s.id, (long) si * eb, bytes);
                if (!nbi) {
                    nic.await(ctx, pe, "get");
                }
                return;
            }
            if ((long) block * eb >= RDMA_BLOCK_BYTES) {
                for (int b = 0; b < count; b++) {
                    nic.rdma(false, dst, (long) (di + b * ds) * eb, pe, s.id, (long) (si + b * ss) * eb,
                        (long) block * eb);
                }
                if (!nbi) {
                    nic.awaitDomain(nic.domain);
                }
                return;
            }
            final int perMessage = perMessage(0, (long) block * eb);
            for (int done = 0; done < count; ) {
                final int n = Math.min(perMessage, count - done);
                getMessage(s, pe, si + done * ss, ss, dst, di + done * ds, ds, n, block);
                done += n;
            }
        } finally {
            engine.exit();
        }
    }

    /** One NIC get of up to a frame: the reply lands in the scratch and is copied into the destination. */
    private void getMessage(final SymmetricArray s, final int pe, final int si, final int ss, final Object dst,
        final int di, final int ds, final int count, final int block) {
        final int eb = s.kind.bytes;
        final FmOutputStream out = nic.begin(pe, NIC_GET_BYTES, N_GET, count * block * eb);
        out.sendInt(s.id);
        out.sendInt(s.key);
        out.sendInt(si);
        out.sendInt(ss);
        out.sendInt(count);
        out.sendInt(block);
        out.endMessage();
        nic.await(nic.lastContext(), pe, "get");
        final MemorySegment from = nic.scratchSegment;
        if (block == 1 && ds == 1 || count == 1) {
            MemorySegment.copy(from, s.kind.wire, 0, dst, di, count * block);
        } else if (block == 1) {
            for (int k = 0; k < count; k++) {
                MemorySegment.copy(from, s.kind.wire, (long) k * eb, dst, di + k * ds, 1);
            }
        } else {
            for (int b = 0; b < count; b++) {
                MemorySegment.copy(from, s.kind.wire, (long) b * block * eb, dst, di + b * ds, block);
            }
        }
    }

    /**
     * Put with signal: the data, then the signal, from the target NIC's one handler (or, beyond a frame, an RDMA
     * write completed before the signal's message), so the data is there before the signal. {@code s} may be null
     * for a signal alone. A team signal ({@code sigMode == SIG_TEAM}) counts an arrival in a team's collective
     * state, which is not registered memory: it travels as an FM message to a host handler, {@code sigA} the team
     * id, {@code sigB} the counter, {@code sigOp} the sender's team rank. A user signal names a symmetric long
     * object ({@code sigA}) and element ({@code sigB}), {@code sigOp} the {@link SignalOp}.
     */
    void putSignal(final SymmetricArray s, final int pe, final int di, final Object src, final int si, final int count,
        final int sigMode, final int sigA, final int sigB, final int sigOp, final long signal) {
        engine.enter();
        try {
            if (pe == me) {
                if (s != null) {
                    Kind.copy(src, si, 1, s.array, di, 1, count);
                }
                if (sigMode == SIG_TEAM) {
                    teams.arrive(sigA, sigB, sigOp, signal);
                } else {
                    applySignal((long[]) engine.objects.lookup(sigA).array, sigB, sigOp, signal);
                }
                return;
            }
            if (sigMode == SIG_TEAM) {
                teamSignal(s, pe, di, src, si, count, sigA, sigB, sigOp, signal);
                return;
            }
            final int bytes = s == null ? 0 : count * s.kind.bytes;
            final boolean inline = bytes <= nic.maxMessageBytes - NIC_PUT_SIGNAL_HEADER_BYTES;
            if (!inline) {
                nic.await(nic.rdma(true, src, (long) si * s.kind.bytes, pe, s.id, (long) di * s.kind.bytes, bytes),
                    pe, "put with signal");
            }
            final FmOutputStream out = nic.begin(pe, NIC_PUT_SIGNAL_HEADER_BYTES + (inline ? bytes : 0), N_PUT_SIGNAL,
                0);
            out.sendInt(s == null || !inline ? -1 : s.id);
            out.sendInt(s == null ? 0 : s.key);
            out.sendInt(di);
            out.sendInt(s == null || !inline ? 0 : count);
            out.sendInt(sigA);
            out.sendInt(NicRequests.keyOf(sigA));
            out.sendInt(sigB);
            out.sendInt(sigOp);
            out.sendLong(signal);
            if (s != null && inline) {
                s.kind.send(out, src, si, 1, count);
            }
            out.endMessage();
            nic.reapCurrent();
        } finally {
            engine.exit();
        }
    }

    /** A collective's signal (with data): an FM message to the team's host handler. */
    private void teamSignal(final SymmetricArray s, final int pe, final int di, final Object src, final int si,
        final int count, final int teamId, final int counter, final int rank, final long signal) {
        final int bytes = s == null ? 0 : count * s.kind.bytes;
        batch.flush(); // the collective's own small puts before its signal
        final FmOutputStream out = fm.beginMessage(pe, PUT_SIGNAL_HEADER_BYTES + bytes, H_PUT_SIGNAL);
        out.sendInt(s == null ? -1 : s.id);
        out.sendInt(di);
        out.sendInt(s == null ? 0 : count);
        out.sendInt(teamId);
        out.sendInt(counter);
        out.sendInt(rank);
        out.sendInt(0);
        out.sendInt(0);
        out.sendLong(signal);
        if (s != null) {
            s.kind.send(out, src, si, 1, count);
        }
        out.endMessage();
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
        batch.flush();
        final FmOutputStream out = fm.beginMessage(pe, TEAM_HEADER_BYTES + count * kind.bytes, H_TEAM);
        out.sendInt(teamId);
        out.sendInt(counter);
        out.sendInt(senderRank);
        out.sendInt(kind.ordinal());
        out.sendInt(count);
        kind.send(out, src, 0, 1, count);
        out.endMessage();
    }


    static void applySignal(final long[] a, final int index, final int sigOp, final long signal) {
        if (sigOp == SignalOp.ADD.ordinal()) {
            Kind.LONGS.getAndAdd(a, index, signal);
        } else {
            Kind.LONGS.setVolatile(a, index, signal);
        }
    }

    // ------------------------------------------------------------------ NIC handlers (on the target's NIC)

    static void onPutNic(final FmNicMessage m) {
        final int id = m.receiveInt();
        final int key = m.receiveInt();
        final int index = m.receiveInt();
        final int stride = m.receiveInt();
        final int count = m.receiveInt();
        final int block = m.receiveInt();
        final Object a = m.memory(id, key);
        if (a == null || !Bounds.valid(Kind.length(a), index, stride, count, block)) {
            m.reject();
            return;
        }
        receiveBlocks(m, a, index, stride, count, block);
    }

    static void onGetNic(final FmNicMessage m) {
        final int id = m.receiveInt();
        final int key = m.receiveInt();
        final int index = m.receiveInt();
        final int stride = m.receiveInt();
        final int count = m.receiveInt();
        final int block = m.receiveInt();
        final Object a = m.memory(id, key);
        if (a == null || !Bounds.valid(Kind.length(a), index, stride, count, block)) {
            m.reject();
            return;
        }
        m.memoryUnchanged(); // a get reads: the target PE need not wake for it
        if (block == 1) {
            m.reply(a, index, stride, count);
        } else {
            for (int b = 0; b < count; b++) {
                m.reply(a, index + b * stride, 1, block);
            }
        }
    }

    static void onPutSignalNic(final FmNicMessage m) {
        final int id = m.receiveInt();
        final int key = m.receiveInt();
        final int index = m.receiveInt();
        final int count = m.receiveInt();
        final int sigId = m.receiveInt();
        final int sigKey = m.receiveInt();
        final int sigIndex = m.receiveInt();
        final int sigOp = m.receiveInt();
        final long signal = m.receiveLong();
        final Object a = id < 0 ? null : m.memory(id, key);
        final Object sig = m.memory(sigId, sigKey);
        // Both checked before either is written: a refused message changes nothing.
        if (id >= 0 && (a == null || !Bounds.valid(Kind.length(a), index, 1, count, 1))
            || !(sig instanceof long[] flags) || sigIndex < 0 || sigIndex >= flags.length) {
            m.reject();
            return;
        }
        if (a != null) {
            m.receive(a, index, 1, count);
        }
        applySignal(flags, sigIndex, sigOp, signal);
    }

    private static void receiveBlocks(final FmNicMessage m, final Object a, final int index, final int stride,
        final int count, final int block) {
        if (block == 1) {
            m.receive(a, index, stride, count);
        } else {
            for (int b = 0; b < count; b++) {
                m.receive(a, index + b * stride, 1, block);
            }
        }
    }

    // ------------------------------------------------------------------ host handlers (collective traffic)

    void onPutSignal(final FmInputStream in, final int sender) {
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int count = in.receiveInt();
        final int teamId = in.receiveInt();
        final int counter = in.receiveInt();
        final int rank = in.receiveInt();
        in.receiveInt();
        in.receiveInt();
        final long signal = in.receiveLong();
        final SymmetricArray s = id < 0 ? null : engine.objects.lookup(id);
        if (id >= 0 && !Bounds.valid(s, index, 1, count)) {
            engine.rejections.reject(sender, "collective put", id, index, 1, count);
            return;
        }
        if (s != null) {
            s.kind.receive(in, s.array, index, 1, count);
        }
        teams.arrive(teamId, counter, rank, signal);
    }

    void onTeam(final FmInputStream in, final int sender) {
        final int teamId = in.receiveInt();
        final int counter = in.receiveInt();
        final int senderRank = in.receiveInt();
        final int kindOrdinal = in.receiveInt();
        final int count = in.receiveInt();
        if (kindOrdinal < 0 || kindOrdinal >= Kind.values().length || count < 0) {
            engine.rejections.reject(sender, "collective data", teamId, counter, kindOrdinal, count);
            return;
        }
        final Kind kind = Kind.values()[kindOrdinal];
        kind.receive(in, teams.inbox(teamId, senderRank, kind, count), 0, 1, count);
        teams.arrive(teamId, counter, senderRank, count);
    }
}
