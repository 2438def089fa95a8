package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.AMO_ADD;
import static org.jhpvm.shmem.MessageDescriptor.AMO_AND;
import static org.jhpvm.shmem.MessageDescriptor.AMO_CSWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_FETCH;
import static org.jhpvm.shmem.MessageDescriptor.AMO_OR;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SET;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_XOR;
import static org.jhpvm.shmem.MessageDescriptor.NIC_SEGMENT_AMO_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.N_SEGMENT_AMO;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import org.jhpvm.fm.FmNicMessage;
import org.jhpvm.fm.FmOutputStream;

/**
 * The two ends of a {@link SymmetricSegment} operation on a PE whose part the caller does not map (another host, or
 * {@code shmem.hostMemory=messages}): RDMA writes and reads of the registered part, and atomics as one NIC message
 * ({@link MessageDescriptor#N_SEGMENT_AMO}) whose handler the target's NIC runs, or FM in the target's extract. Both
 * ends apply an atomic the same way ({@link #apply}: {@code VarHandle} on the segment), so atomics from both paths on
 * one word are atomic with respect to each other. Requests go on the default context, named by world PE.
 */
final class SegmentRequests {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private SegmentRequests() {
    }

    /**
     * An RDMA write or read of {@code s}'s part on {@code pe}, on the default context: waited for, or (not
     * {@code wait}) left to complete at the quiet.
     */
    static void transfer(final SegmentTransfers s, final boolean write, final int pe, final long offset,
        final Object buffer, final long bufferOffset, final long length, final boolean wait) {
        final Engine engine = s.engine;
        engine.enterCollective();
        try {
            final NicRequests nic = engine.nic;
            final long ctx = nic.rdma(write, buffer, bufferOffset, pe, s.id, offset, length);
            if (wait) {
                nic.await(ctx, pe, write ? "put" : "get");
            } else {
                nic.reapCurrent();
            }
        } finally {
            engine.exitCollective();
        }
    }

    /** A remote atomic on the word at {@code offset} of {@code s}'s part on {@code pe}; the old value if fetching. */
    static long amo(final SegmentTransfers s, final int pe, final long offset, final int op, final long a,
        final long b, final boolean fetch) {
        final Engine engine = s.engine;
        engine.enterCollective();
        try {
            final NicRequests nic = engine.nic;
            final FmOutputStream out = nic.begin(pe, NIC_SEGMENT_AMO_BYTES, N_SEGMENT_AMO, fetch ? Long.BYTES : 0);
            out.sendInt(fetch ? op | AtomicOperations.FETCH : op);
            out.sendInt(s.id);
            out.sendInt(s.key);
            out.sendLong(offset);
            out.sendLong(a);
            out.sendLong(b);
            out.endMessage();
            return nic.finishAmo(pe, fetch);
        } finally {
            engine.exitCollective();
        }
    }

    /** Applies atomic {@code op} to the word at {@code offset} of {@code m}; returns the old value (0 for a set). */
    static long apply(final MemorySegment m, final long offset, final int op, final long a, final long b) {
        return switch (op) {
            case AMO_FETCH -> (long) WORD.getVolatile(m, offset);
            case AMO_SET -> {
                WORD.setVolatile(m, offset, a);
                yield 0L;
            }
            case AMO_CSWAP -> (long) WORD.compareAndExchange(m, offset, b, a);
            case AMO_SWAP -> (long) WORD.getAndSet(m, offset, a);
            case AMO_ADD -> (long) WORD.getAndAdd(m, offset, a);
            case AMO_AND -> (long) WORD.getAndBitwiseAnd(m, offset, a);
            case AMO_OR -> (long) WORD.getAndBitwiseOr(m, offset, a);
            case AMO_XOR -> (long) WORD.getAndBitwiseXor(m, offset, a);
            default -> throw new IllegalArgumentException("atomic op " + op);
        };
    }

    /** The target NIC's handler of {@link #amo}: checks region, word and operation, applies, replies if fetching. */
    static void onAmoNic(final FmNicMessage m) {
        final int word = m.receiveInt();
        final int op = word & ~AtomicOperations.FETCH;
        final int id = m.receiveInt();
        final int key = m.receiveInt();
        final long offset = m.receiveLong();
        final long a = m.receiveLong();
        final long b = m.receiveLong();
        if (!(m.memory(id, key) instanceof MemorySegment seg) || op < AMO_FETCH || op > AMO_XOR
            || offset < 0 || (offset & (Long.BYTES - 1)) != 0 || offset > seg.byteSize() - Long.BYTES) {
            m.reject();
            return;
        }
        final long old = apply(seg, offset, op, a, b);
        if (op == AMO_FETCH) {
            m.memoryUnchanged();
        }
        if ((word & AtomicOperations.FETCH) != 0) {
            m.replyLong(old);
        }
    }
}
