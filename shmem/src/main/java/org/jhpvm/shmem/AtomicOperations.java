package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.AMO_ADD;
import static org.jhpvm.shmem.MessageDescriptor.AMO_AND;
import static org.jhpvm.shmem.MessageDescriptor.AMO_CSWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_FETCH;
import static org.jhpvm.shmem.MessageDescriptor.AMO_OR;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SET;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SWAP;
import static org.jhpvm.shmem.MessageDescriptor.AMO_XOR;
import static org.jhpvm.shmem.MessageDescriptor.NIC_AMO_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.N_AMO;

import org.jhpvm.fm.FmNicMessage;
import org.jhpvm.fm.FmOutputStream;

/**
 * SHMEM atomics, both sides: the requester's {@link #amo}, one NIC message (a fetching one waits for its reply),
 * and the handler the target's NIC runs ({@link #onAmoNic}). Both ends apply the operation with {@code VarHandle}
 * atomic array access, so a remote atomic is atomic with respect to other PEs' atomics (which the target NIC may run
 * at the same time) and to the owner's own (which run locally, without a message).
 */
final class AtomicOperations {
    /** Set in the op word of a fetching atomic: the handler replies the old value. */
    static final int FETCH = 1 << 8;

    private final Engine engine;
    private final int me;
    private final NicRequests nic;

    AtomicOperations(final Engine engine, final NicRequests nic) {
        this.engine = engine;
        this.me = engine.me;
        this.nic = nic;
    }

    /** A remote atomic; returns the old value as raw bits (0 for non-fetching ones). */
    long amo(final SymmetricArray s, final int pe, final int index, final int op, final long a, final long b,
        final boolean fetch) {
        if (pe == me && !engine.virtualClock) {
            // On this PE's own memory an atomic is one VarHandle operation: no FM state, so the endpoint is not taken
            // (the progress agent may be serving it, and others' atomics on the same element are atomic too).
            engine.checkLocalCall();
            return applyAmo(s.kind, s.array, index, op, a, b);
        }
        engine.enterToBatch();
        try {
            if (pe == me) {
                if (fetch) {
                    engine.pollIfVirtual(); // a spin on its own memory serves others' puts in virtual time
                }
                return applyAmo(s.kind, s.array, index, op, a, b);
            }
            if (!fetch) {
                if (engine.batch.amo(s, pe, index, op, a)) {
                    return 0;
                }
            } else {
                engine.batch.otherCall(); // a fetching atomic: the next small put starts alone
            }
            send(nic.begin(pe, NIC_AMO_BYTES, N_AMO, fetch ? Long.BYTES : 0), fetch ? op | FETCH : op, s, index, a, b);
            return nic.finishAmo(pe, fetch);
        } finally {
            engine.exit();
        }
    }

    /**
     * A non-blocking fetching atomic ({@code atomic_fetch_add_nbi} and its siblings): the old value is stored as
     * element {@code fetchIndex} of {@code fetch} (an array of the object's type) when the request completes, at the
     * latest at the quiet of the context in use. To itself it is done at once.
     */
    void amoNbi(final SymmetricArray s, final int pe, final int index, final int op, final long a, final long b,
        final Object fetch, final int fetchIndex) {
        engine.enter();
        try {
            if (pe == me) {
                engine.pollIfVirtual();
                s.kind.setBits(fetch, fetchIndex, applyAmo(s.kind, s.array, index, op, a, b));
                return;
            }
            send(nic.beginFetchNbi(pe, NIC_AMO_BYTES, N_AMO, fetch, fetchIndex), op | FETCH, s, index, a, b);
            nic.reapCurrent();
        } finally {
            engine.exit();
        }
    }

    /** Writes an atomic's request (op word, object, element, operands) and ends the message. */
    private static void send(final FmOutputStream out, final int word, final SymmetricArray s, final int index,
        final long a, final long b) {
        out.sendInt(word);
        out.sendInt(s.id);
        out.sendInt(s.key);
        out.sendInt(index);
        out.sendLong(a);
        out.sendLong(b);
        out.endMessage();
    }

    /** The target NIC's handler: checks the element, applies the operation, replies the old value if asked. */
    static void onAmoNic(final FmNicMessage m) {
        final int word = m.receiveInt();
        final int op = word & ~FETCH;
        final int id = m.receiveInt();
        final int key = m.receiveInt();
        final int index = m.receiveInt();
        final long a = m.receiveLong();
        final long b = m.receiveLong();
        final Object array = m.memory(id, key);
        final Kind kind = array == null ? null : Kind.of(array);
        if (kind == null || !Bounds.valid(Kind.length(array), index, 1, 1, 1) || !defined(kind, op)) {
            m.reject();
            return;
        }
        final long old = applyAmo(kind, array, index, op, a, b);
        if (op == AMO_FETCH) {
            m.memoryUnchanged(); // an atomic fetch reads: the target PE need not wake for it
        }
        if ((word & FETCH) != 0) {
            m.replyLong(old);
        }
    }

    static boolean defined(final Kind kind, final int op) {
        return switch (kind) {
            case LONG, INT -> op >= AMO_FETCH && op <= AMO_XOR;
            case DOUBLE, FLOAT -> op == AMO_FETCH || op == AMO_SET || op == AMO_SWAP;
            case BYTE -> false;
        };
    }

    /** Applies {@code op} to element {@code i} by VarHandle atomic access; values in and out are raw bits. */
    static long applyAmo(final Kind kind, final Object array, final int i, final int op, final long a,
        final long b) {
        switch (kind) {
            case LONG -> {
                final long[] x = (long[]) array;
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
                final int[] x = (int[]) array;
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
                final double[] x = (double[]) array;
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
                final float[] x = (float[]) array;
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
            default -> throw new IllegalArgumentException("atomics are not defined on " + kind.javaName);
        }
    }
}
