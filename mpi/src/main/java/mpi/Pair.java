package mpi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.jhpvm.mpi.internal.Kind;

/**
 * The layout of a MINLOC/MAXLOC pair type: a value of some kind and an {@code int} index, laid out as the C struct
 * (and Open MPI's {@code Struct} helpers) lay it out in native byte order: the value at 0, the index at the next
 * multiple of 4, the extent rounded up to the value's alignment. The datatype's base is BYTE; its size is the value
 * and index bytes, its extent includes the padding.
 */
final class Pair {
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

    final Kind value;
    final int indexOffset;
    final int extent;
    final VarHandle valueHandle;

    Pair(final Kind value) {
        this.value = value;
        this.indexOffset = Math.max(4, value.bytes);
        this.extent = Math.max(8, 2 * Math.max(4, value.bytes));
        this.valueHandle = switch (value) {
            case SHORT -> view(short[].class);
            case INT -> INT;
            case LONG -> view(long[].class);
            case FLOAT -> view(float[].class);
            case DOUBLE -> view(double[].class);
            default -> throw new IllegalArgumentException(value.toString());
        };
    }

    private static VarHandle view(final Class<?> arrayClass) {
        return MethodHandles.byteArrayViewVarHandle(arrayClass, ByteOrder.nativeOrder());
    }

    /** Bytes of data in one packed item (no gap): the value, then the index. */
    int size() {
        return value.bytes + 4;
    }

    double valueAt(final byte[] b, final int at) {
        return switch (value) {
            case SHORT -> (short) valueHandle.get(b, at);
            case INT -> (int) valueHandle.get(b, at);
            case LONG -> (long) valueHandle.get(b, at);
            case FLOAT -> (float) valueHandle.get(b, at);
            default -> (double) valueHandle.get(b, at);
        };
    }

    long longAt(final byte[] b, final int at) {
        return value == Kind.LONG ? (long) valueHandle.get(b, at) : (long) valueAt(b, at);
    }

    /**
     * MINLOC or MAXLOC over packed items ({@link #size()} bytes each, the index right after the value):
     * {@code inOut} keeps the better value, and on a tie the smaller index, as MPI defines them.
     */
    void locate(final byte[] in, final byte[] inOut, final int count, final boolean max) {
        final int n = size();
        for (int i = 0, at = 0; i < count; i++, at += n) {
            final int cmp;
            if (value == Kind.LONG) {
                cmp = Long.compare(longAt(in, at), longAt(inOut, at));
            } else {
                final double a = valueAt(in, at);
                final double b = valueAt(inOut, at);
                cmp = a > b ? 1 : a < b ? -1 : 0;
            }
            final int ia = (int) INT.get(in, at + value.bytes);
            final int ib = (int) INT.get(inOut, at + value.bytes);
            final boolean takeIn = max ? cmp > 0 : cmp < 0;
            if (takeIn || (cmp == 0 && ia < ib)) {
                System.arraycopy(in, at, inOut, at, n);
            }
        }
    }
}
