package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.NIC_ACC_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.N_ACC;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jhpvm.fm.FmNicMessage;
import org.jhpvm.fm.FmOutputStream;

/**
 * Accumulate ({@code dst += alpha * src}, the ARMCI/ComEx operation Global Arrays needs), both sides. It travels as
 * NIC messages of up to a frame each, a put's header with alpha, the elements gathered straight from the source;
 * the target NIC's handler combines them into the target array. Accumulates from different PEs may reach one NIC at
 * the same time, so the NIC's accumulate unit serializes them: each PE has one ({@link #unit}), which the handlers
 * of accumulates into its memory hold while they combine, and which a local accumulate holds too, so that every
 * element's update is atomic with respect to every other accumulate.
 */
final class AccumulateOperations {
    private static final int ACC_CHUNK = 2048;

    private final Engine engine;
    private final int me;
    private final RmaOperations rma;
    private final NicRequests nic;
    /** This PE's accumulate unit: held while an accumulate combines into this PE's memory. */
    private final AtomicBoolean unit = new AtomicBoolean();
    /** The unit's scratch: whoever holds the unit uses it. */
    private final Object[] accScratch = new Object[Kind.values().length];

    AccumulateOperations(final Engine engine, final RmaOperations rma, final NicRequests nic) {
        this.engine = engine;
        this.me = engine.me;
        this.rma = rma;
        this.nic = nic;
    }

    void acc(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count, final long alpha) {
        acc(s, pe, di, ds, src, si, ss, count, 1, alpha);
    }

    /** Block-strided accumulate: {@code count} blocks of {@code block} elements. */
    void acc(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count, final int block, final long alpha) {
        engine.enter();
        try {
            if (pe == me) {
                lock();
                try {
                    if (block == 1) {
                        accLocal(s, di, ds, src, si, ss, count, alpha);
                    } else {
                        for (int b = 0; b < count; b++) {
                            accLocal(s, di + b * ds, 1, src, si + b * ss, 1, block, alpha);
                        }
                    }
                } finally {
                    unit.set(false);
                }
                return;
            }
            final int eb = s.kind.bytes;
            if ((long) block * eb <= nic.maxMessageBytes - NIC_ACC_HEADER_BYTES) {
                final int perMessage = rma.perMessage(NIC_ACC_HEADER_BYTES, (long) block * eb);
                for (int done = 0; done < count; ) {
                    final int n = Math.min(perMessage, count - done);
                    message(s, pe, di + done * ds, ds, src, si + done * ss, ss, n, block, alpha);
                    done += n;
                }
            } else {
                // blocks longer than a frame: each in frame-sized pieces
                final int perMessage = rma.perMessage(NIC_ACC_HEADER_BYTES, eb);
                for (int b = 0; b < count; b++) {
                    for (int done = 0; done < block; ) {
                        final int n = Math.min(perMessage, block - done);
                        message(s, pe, di + b * ds + done, 1, src, si + b * ss + done, 1, n, 1, alpha);
                        done += n;
                    }
                }
            }
        } finally {
            engine.exit();
        }
    }

    private void message(final SymmetricArray s, final int pe, final int di, final int ds, final Object src,
        final int si, final int ss, final int count, final int block, final long alpha) {
        final FmOutputStream out = nic.begin(pe, NIC_ACC_HEADER_BYTES + count * block * s.kind.bytes, N_ACC, 0);
        out.sendInt(s.id);
        out.sendInt(s.key);
        out.sendInt(di);
        out.sendInt(ds);
        out.sendInt(count);
        out.sendInt(block);
        out.sendLong(alpha);
        s.kind.sendBlocks(out, src, si, ss, count, block);
        out.endMessage();
        nic.reapCurrent();
    }

    private void accLocal(final SymmetricArray s, final int di, final int ds, final Object src, final int si,
        final int ss, final int count, final long alpha) {
        final Object scratch = accScratch(s.kind);
        for (int done = 0; done < count; ) {
            final int n = Math.min(ACC_CHUNK, count - done);
            Kind.copy(src, si + done * ss, ss, scratch, 0, 1, n);
            s.kind.accumulate(s.array, di + done * ds, ds, scratch, n, alpha);
            done += n;
        }
    }

    /** The handler the target's NIC runs: checks, then combines under the target's accumulate unit. */
    void onAccNic(final FmNicMessage m) {
        final int id = m.receiveInt();
        final int key = m.receiveInt();
        final int index = m.receiveInt();
        final int stride = m.receiveInt();
        final int count = m.receiveInt();
        final int block = m.receiveInt();
        final long alpha = m.receiveLong();
        final Object a = m.memory(id, key);
        final Kind kind = a == null ? null : Kind.of(a);
        if (kind == null || kind == Kind.BYTE || !Bounds.valid(Kind.length(a), index, stride, count, block)) {
            m.reject();
            return;
        }
        lock();
        try {
            if (block == 1) {
                combine(m, kind, a, index, stride, count, alpha);
            } else {
                for (int b = 0; b < count; b++) {
                    combine(m, kind, a, index + b * stride, 1, block, alpha);
                }
            }
        } finally {
            unit.set(false);
        }
    }

    private void combine(final FmNicMessage m, final Kind kind, final Object a, final int index, final int stride,
        final int count, final long alpha) {
        final Object scratch = accScratch(kind);
        for (int done = 0; done < count; ) {
            final int n = Math.min(ACC_CHUNK, count - done);
            m.receive(scratch, 0, 1, n);
            kind.accumulate(a, index + done * stride, stride, scratch, n, alpha);
            done += n;
        }
    }

    /** Takes this PE's accumulate unit: a short spin, as a NIC's unit serializes its work. */
    private void lock() {
        while (!unit.compareAndSet(false, true)) {
            Thread.onSpinWait();
        }
    }

    private Object accScratch(final Kind kind) {
        Object a = accScratch[kind.ordinal()];
        if (a == null) {
            a = kind.newArray(ACC_CHUNK);
            accScratch[kind.ordinal()] = a;
        }
        return a;
    }
}
