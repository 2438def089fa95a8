package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.H_ACC;

import org.jhpvm.fm.FmInputStream;

/**
 * Accumulate ({@code dst += alpha * src}, the ARMCI/ComEx operation Global Arrays needs), both sides. It travels as
 * a put whose header also carries alpha, gathered straight from the source; the target must combine, so the payload
 * passes through a scratch chunk of {@value #ACC_CHUNK} elements instead of landing in the array. Every handler runs
 * under the engine's ownership, one at a time, which makes each element's update atomic with respect to every other
 * accumulate; a local accumulate runs under the same ownership.
 */
final class AccumulateOperations {
    private static final int ACC_CHUNK = 2048;

    private final Engine engine;
    private final int me;
    private final RmaOperations rma;
    private final Object[] accScratch = new Object[Kind.values().length];

    AccumulateOperations(final Engine engine, final RmaOperations rma) {
        this.engine = engine;
        this.me = engine.me;
        this.rma = rma;
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
                // Under ownership no handler runs meanwhile: atomic per element with respect to remote accumulates.
                if (block == 1) {
                    accLocal(s, di, ds, src, si, ss, count, alpha);
                } else {
                    for (int b = 0; b < count; b++) {
                        accLocal(s, di + b * ds, 1, src, si + b * ss, 1, block, alpha);
                    }
                }
                return;
            }
            rma.sendElements(H_ACC, s, pe, di, ds, src, si, ss, count, block, alpha);
        } finally {
            engine.exit();
        }
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

    void onAcc(final FmInputStream in, final int sender) {
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int stride = in.receiveInt();
        final int count = in.receiveInt();
        final int block = in.receiveInt();
        final long alpha = in.receiveLong();
        final SymmetricArray s = engine.lookup(id);
        if (!Engine.valid(s, index, stride, count, block) || s.kind == Kind.BYTE) {
            engine.reject(sender, "accumulate", id, index, stride, count);
            return;
        }
        if (block == 1) {
            receiveAcc(in, s, index, stride, count, alpha);
        } else {
            for (int b = 0; b < count; b++) {
                receiveAcc(in, s, index + b * stride, 1, block, alpha);
            }
        }
    }

    /** Accumulate must combine, so the payload passes through a small scratch array chunk by chunk. */
    private void receiveAcc(final FmInputStream in, final SymmetricArray s, final int index, final int stride,
        final int count, final long alpha) {
        final Object scratch = accScratch(s.kind);
        for (int done = 0; done < count; ) {
            final int n = Math.min(ACC_CHUNK, count - done);
            s.kind.receive(in, scratch, 0, 1, n);
            s.kind.accumulate(s.array, index + done * stride, stride, scratch, n, alpha);
            done += n;
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
