package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.AMO_ADD;
import static org.jhpvm.shmem.MessageDescriptor.AMO_AND;
import static org.jhpvm.shmem.MessageDescriptor.AMO_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.AMO_CSWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_FETCH;
import static org.jhpvm.shmem.MessageDescriptor.AMO_OR;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SET;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_XOR;
import static org.jhpvm.shmem.MessageDescriptor.H_AMO;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_REJECTED;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/**
 * SHMEM atomics, both sides: the requester's {@link #amo} (one message; a fetching one waits for its reply) and the
 * target's handler. Both ends apply the operation with {@code VarHandle} atomic array access, so a remote atomic is
 * atomic with respect to other PEs' atomics and to the owner's own (which run locally, without a message).
 */
final class AtomicOperations {
    private final Engine engine;
    private final FastMessages fm;
    private final int me;
    private final OutstandingRequests requests;
    private final ReplyQueue replies;

    AtomicOperations(final Engine engine, final OutstandingRequests requests, final ReplyQueue replies) {
        this.engine = engine;
        this.fm = engine.fm;
        this.me = engine.me;
        this.requests = requests;
        this.replies = replies;
    }

    /** A remote atomic; returns the old value as raw bits (0 for non-fetching ones). */
    long amo(final SymmetricArray s, final int pe, final int index, final int op, final long a, final long b,
        final boolean fetch) {
        engine.enter();
        try {
            if (pe == me) {
                return applyAmo(s, index, op, a, b);
            }
            final int slot = fetch ? requests.alloc(OutstandingRequests.WAITING, null, null, 0, 0, 0, 1) : -1;
            final FmOutputStream out = fm.beginMessage(pe, AMO_BYTES, H_AMO);
            out.sendInt(op);
            out.sendInt(s.id);
            out.sendInt(index);
            out.sendInt(slot);
            out.sendLong(a);
            out.sendLong(b);
            out.endMessage();
            if (!fetch) {
                requests.markDirty(pe);
                return 0;
            }
            return requests.awaitReply(slot, pe, "atomic");
        } finally {
            engine.exit();
        }
    }

    void onAmo(final FmInputStream in, final int sender) {
        final int op = in.receiveInt();
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int req = in.receiveInt();
        final long a = in.receiveLong();
        final long b = in.receiveLong();
        final SymmetricArray s = engine.lookup(id);
        if (!Engine.valid(s, index, 1, 1)) {
            engine.reject(sender, "atomic", id, index, 1, 1);
            if (req >= 0) {
                replies.queue(sender, req, STATUS_REJECTED, null, 0, 0, 0, 0);
            }
            return;
        }
        final long old = applyAmo(s, index, op, a, b);
        if (req >= 0) {
            replies.queue(sender, req, STATUS_OK, null, 0, 0, 0, old);
        }
    }

    /** Applies {@code op} to element {@code i} by VarHandle atomic access; values in and out are raw bits. */
    private static long applyAmo(final SymmetricArray s, final int i, final int op, final long a, final long b) {
        switch (s.kind) {
            case LONG -> {
                final long[] x = (long[]) s.array;
                return switch (op) {
                    case AMO_FETCH -> (long) Kind.LONGS.getVolatile(x, i);
                    case AMO_SET -> {
                        Kind.LONGS.setVolatile(x, i, a);
                        yield 0L;
                    }
                    case AMO_CSWAP -> (long) Kind.LONGS.compareAndExchange(x, i, b, a);
                    case AMO_SWAP -> (long) Kind.LONGS.getAndSet(x, i, a);
                    case AMO_ADD -> (long) Kind.LONGS.getAndAdd(x, i, a);
                    case AMO_AND -> (long) Kind.LONGS.getAndBitwiseAnd(x, i, a);
                    case AMO_OR -> (long) Kind.LONGS.getAndBitwiseOr(x, i, a);
                    case AMO_XOR -> (long) Kind.LONGS.getAndBitwiseXor(x, i, a);
                    default -> throw new IllegalArgumentException("atomic op " + op);
                };
            }
            case INT -> {
                final int[] x = (int[]) s.array;
                final int v = (int) a;
                return switch (op) {
                    case AMO_FETCH -> (int) Kind.INTS.getVolatile(x, i);
                    case AMO_SET -> {
                        Kind.INTS.setVolatile(x, i, v);
                        yield 0L;
                    }
                    case AMO_CSWAP -> (int) Kind.INTS.compareAndExchange(x, i, (int) b, v);
                    case AMO_SWAP -> (int) Kind.INTS.getAndSet(x, i, v);
                    case AMO_ADD -> (int) Kind.INTS.getAndAdd(x, i, v);
                    case AMO_AND -> (int) Kind.INTS.getAndBitwiseAnd(x, i, v);
                    case AMO_OR -> (int) Kind.INTS.getAndBitwiseOr(x, i, v);
                    case AMO_XOR -> (int) Kind.INTS.getAndBitwiseXor(x, i, v);
                    default -> throw new IllegalArgumentException("atomic op " + op);
                };
            }
            case DOUBLE -> {
                final double[] x = (double[]) s.array;
                final double v = Double.longBitsToDouble(a);
                return Double.doubleToRawLongBits(switch (op) {
                    case AMO_FETCH -> (double) Kind.DOUBLES.getVolatile(x, i);
                    case AMO_SET -> {
                        Kind.DOUBLES.setVolatile(x, i, v);
                        yield 0.0;
                    }
                    case AMO_SWAP -> (double) Kind.DOUBLES.getAndSet(x, i, v);
                    default -> throw new IllegalArgumentException("atomic op " + op + " on double");
                });
            }
            case FLOAT -> {
                final float[] x = (float[]) s.array;
                final float v = Float.intBitsToFloat((int) a);
                return Float.floatToRawIntBits(switch (op) {
                    case AMO_FETCH -> (float) Kind.FLOATS.getVolatile(x, i);
                    case AMO_SET -> {
                        Kind.FLOATS.setVolatile(x, i, v);
                        yield 0.0f;
                    }
                    case AMO_SWAP -> (float) Kind.FLOATS.getAndSet(x, i, v);
                    default -> throw new IllegalArgumentException("atomic op " + op + " on float");
                });
            }
            default -> throw new IllegalArgumentException("atomics are not defined on " + s.kind.javaName);
        }
    }
}
