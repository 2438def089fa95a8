package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jhpvm.mpi.internal.Kind;
import org.jhpvm.mpi.internal.Transfer;

/**
 * Applies a reduction to two dense vectors of a base kind: {@code inOut[i] = in[i] op inOut[i]}, MPI's order of
 * operands (the left operand is the lower ranks' part).
 */
final class Reduction {
    private Reduction() {
    }

    /** Refuses an operation the kind does not take, before anything is sent. */
    static void check(final Op op, final Datatype type) throws MPIException {
        if (op == null || op.isFreed()) {
            throw new MPIException(MPI.ERR_OP, op == null ? "op is null" : "op has been freed");
        }
        if (op.function != null || op.code == Op.REPLACE || op.code == Op.NO_OP) {
            return;
        }
        final Kind kind = type.kind();
        if (type.complex && op.code != Op.SUM && op.code != Op.PROD) {
            throw new MPIException(MPI.ERR_OP, "operation " + name(op.code) + " is not defined on " + type.describe()
                + " (MPI defines SUM and PROD on complex types)");
        }
        if (type.pair != null || op.code == Op.MINLOC || op.code == Op.MAXLOC) {
            if (type.pair == null || (op.code != Op.MINLOC && op.code != Op.MAXLOC)) {
                throw new MPIException(MPI.ERR_OP, "operation " + name(op.code) + " is not defined on "
                    + type.describe() + " (MINLOC and MAXLOC take exactly the pair types INT2, SHORT_INT, LONG_INT, "
                    + "FLOAT_INT and DOUBLE_INT)");
            }
            return;
        }
        final boolean ok = switch (op.code) {
            case Op.MAX, Op.MIN, Op.SUM, Op.PROD -> kind != Kind.BOOLEAN;
            case Op.LAND, Op.LOR, Op.LXOR -> kind != Kind.FLOAT && kind != Kind.DOUBLE;
            case Op.BAND, Op.BOR, Op.BXOR -> kind != Kind.FLOAT && kind != Kind.DOUBLE;
            default -> false;
        };
        if (!ok) {
            throw new MPIException(MPI.ERR_OP, "operation " + name(op.code) + " is not defined on " + kind);
        }
    }

    static void apply(final Op op, final Object in, final Object inOut, final int elements, final int count,
                      final Datatype type) throws MPIException {
        if (op.function != null) {
            if (type.kind() == Kind.BOOLEAN) {
                op.function.call(in, inOut, count, type);
                return;
            }
            // As the Open MPI bindings call it: byte buffers, whose default form calls the array form.
            final ByteBuffer a = bufferOf(in, type.kind(), elements);
            final ByteBuffer b = bufferOf(inOut, type.kind(), elements);
            op.function.call(a, b, count, type);
            final ValueLayout layout = type.kind().memory;
            MemorySegment.copy(MemorySegment.ofBuffer(b), layout, 0, Transfer.arraySegment(inOut), layout, 0,
                elements);
            return;
        }
        switch (op.code) {
            case Op.NO_OP -> {
            }
            case Op.REPLACE -> System.arraycopy(in, 0, inOut, 0, elements);
            case Op.MINLOC, Op.MAXLOC -> type.pair.locate((byte[]) in, (byte[]) inOut, count, op.code == Op.MAXLOC);
            case Op.PROD -> {
                if (type.complex) {
                    complexProducts(in, inOut, elements);
                } else {
                    elementwise(op, in, inOut, elements);
                }
            }
            default -> elementwise(op, in, inOut, elements);
        }
    }

    /** {@code inOut[k] = in[k] * inOut[k]} for complex pairs (real, imaginary) of floats or doubles. */
    private static void complexProducts(final Object in, final Object inOut, final int elements) {
        if (inOut instanceof double[] b) {
            final double[] a = (double[]) in;
            for (int k = 0; k + 1 < elements; k += 2) {
                final double re = a[k] * b[k] - a[k + 1] * b[k + 1];
                b[k + 1] = a[k] * b[k + 1] + a[k + 1] * b[k];
                b[k] = re;
            }
        } else {
            final float[] a = (float[]) in;
            final float[] b = (float[]) inOut;
            for (int k = 0; k + 1 < elements; k += 2) {
                final float re = a[k] * b[k] - a[k + 1] * b[k + 1];
                b[k + 1] = a[k] * b[k + 1] + a[k + 1] * b[k];
                b[k] = re;
            }
        }
    }

    private static void elementwise(final Op op, final Object in, final Object inOut, final int elements)
        throws MPIException {
        switch (inOut) {
            case double[] b -> doubles(op.code, (double[]) in, b, elements);
            case float[] b -> floats(op.code, (float[]) in, b, elements);
            case long[] b -> longs(op.code, (long[]) in, b, elements);
            case int[] b -> ints(op.code, (int[]) in, b, elements);
            case short[] b -> shorts(op.code, (short[]) in, b, elements);
            case char[] b -> chars(op.code, (char[]) in, b, elements);
            case byte[] b -> bytes(op.code, (byte[]) in, b, elements);
            case boolean[] b -> booleans(op.code, (boolean[]) in, b, elements);
            default -> throw new MPIException(MPI.ERR_INTERN, "no reduction for " + inOut.getClass());
        }
    }

    /**
     * A native-order byte buffer holding the first {@code n} elements of a dense array: a heap buffer, since a
     * direct one costs far more to make and a user function reads both alike.
     */
    private static ByteBuffer bufferOf(final Object array, final Kind kind, final int n) {
        final ByteBuffer b = ByteBuffer.allocate(n * kind.bytes).order(ByteOrder.nativeOrder());
        final ValueLayout layout = kind.memory;
        MemorySegment.copy(Transfer.arraySegment(array), layout, 0, MemorySegment.ofBuffer(b), layout, 0, n);
        return b;
    }

    private static void doubles(final int code, final double[] a, final double[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = switch (code) {
                case Op.MAX -> Math.max(a[i], b[i]);
                case Op.MIN -> Math.min(a[i], b[i]);
                case Op.SUM -> a[i] + b[i];
                default -> a[i] * b[i];
            };
        }
    }

    private static void floats(final int code, final float[] a, final float[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = switch (code) {
                case Op.MAX -> Math.max(a[i], b[i]);
                case Op.MIN -> Math.min(a[i], b[i]);
                case Op.SUM -> a[i] + b[i];
                default -> a[i] * b[i];
            };
        }
    }

    private static long integer(final int code, final long a, final long b) {
        return switch (code) {
            case Op.MAX -> Math.max(a, b);
            case Op.MIN -> Math.min(a, b);
            case Op.SUM -> a + b;
            case Op.PROD -> a * b;
            case Op.LAND -> a != 0 && b != 0 ? 1 : 0;
            case Op.LOR -> a != 0 || b != 0 ? 1 : 0;
            case Op.LXOR -> (a != 0) != (b != 0) ? 1 : 0;
            case Op.BAND -> a & b;
            case Op.BOR -> a | b;
            default -> a ^ b;
        };
    }

    private static void longs(final int code, final long[] a, final long[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = integer(code, a[i], b[i]);
        }
    }

    private static void ints(final int code, final int[] a, final int[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = (int) integer(code, a[i], b[i]);
        }
    }

    private static void shorts(final int code, final short[] a, final short[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = (short) integer(code, a[i], b[i]);
        }
    }

    private static void chars(final int code, final char[] a, final char[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = (char) integer(code, a[i], b[i]);
        }
    }

    private static void bytes(final int code, final byte[] a, final byte[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = (byte) integer(code, a[i], b[i]);
        }
    }

    private static void booleans(final int code, final boolean[] a, final boolean[] b, final int n) {
        for (int i = 0; i < n; i++) {
            b[i] = integer(code, a[i] ? 1 : 0, b[i] ? 1 : 0) != 0;
        }
    }

    static String name(final int code) {
        return switch (code) {
            case Op.MAX -> "MAX";
            case Op.MIN -> "MIN";
            case Op.SUM -> "SUM";
            case Op.PROD -> "PROD";
            case Op.LAND -> "LAND";
            case Op.BAND -> "BAND";
            case Op.LOR -> "LOR";
            case Op.BOR -> "BOR";
            case Op.LXOR -> "LXOR";
            case Op.BXOR -> "BXOR";
            case Op.MINLOC -> "MINLOC";
            case Op.MAXLOC -> "MAXLOC";
            case Op.REPLACE -> "REPLACE";
            default -> "NO_OP";
        };
    }
}
