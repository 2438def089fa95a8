package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;

import org.jhpvm.mpi.internal.Kind;
import org.jhpvm.mpi.internal.Transfer;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * The user's buffers as the bindings take them: Java arrays, heap buffers (their backing array from the buffer's
 * array offset, as {@code MPI.slice} makes them) and direct buffers, element 0 being the buffer's start whatever its
 * position. Checks that {@code count} items fit, and packs items into a dense array of the base kind and back (for
 * reductions and {@code sendRecvReplace}).
 */
final class Buffers {
    private Buffers() {
    }

    /** Refuses a buffer that is not of the type's kind or too short for the items; returns nothing on success. */
    static void check(final CommState st, final Object buf, final TypeMap t, final int count, final String what)
        throws MPIException {
        if (count < 0) {
            throw st.error(MPI.ERR_COUNT, what + ": negative count " + count);
        }
        if (count == 0 || t.size() == 0) {
            return;
        }
        final Kind kind = t.kind();
        if (!kind.accepts(buf)) {
            throw st.error(MPI.ERR_BUFFER, what + ": " + (buf == null ? "null buffer" : "a " + buf.getClass()
                .getSimpleName() + " cannot hold " + kind + " elements"));
        }
        long length = kind.lengthOf(buf);
        final long lo = t.lowest(count);
        final long hi = t.highest(count);
        long before = 0;
        if (lo < 0 && buf instanceof Buffer b) {
            final Slices.Origin o = origin(b, kind);
            if (o != null) { // a slice of MPI.slice: the items may reach back into its parent
                before = o.byteOffset() / kind.bytes;
                length = kind.lengthOf(o.parent()) - before;
            }
        }
        if (lo < -before || hi > length) {
            throw st.error(MPI.ERR_BUFFER, what + ": " + count + " items reach elements " + lo + ".." + (hi - 1)
                + " of a buffer of " + length);
        }
    }

    /**
     * The object the transfers use: a heap buffer's backing array when it is of the kind, an array of another
     * primitive type as its memory (a segment, read in the platform's byte order), else the buffer.
     */
    static Object data(final Object buf, final Kind kind) {
        if (buf instanceof Buffer b && !b.isDirect() && b.hasArray() && b.array().getClass() == kind.arrayClass) {
            return b.array();
        }
        if (buf instanceof Buffer b && b.isDirect()) {
            final Slices.Origin o = origin(b, kind);
            return o == null ? buf : o.parent();
        }
        if (buf != null && buf.getClass().isArray() && buf.getClass() != kind.arrayClass) {
            return Transfer.arraySegment(buf);
        }
        return buf;
    }

    /** The element of {@link #data} where the buffer's element 0 is. */
    static long base(final Object buf, final Kind kind) {
        if (buf instanceof Buffer b && !b.isDirect() && b.hasArray() && b.array().getClass() == kind.arrayClass) {
            return b.arrayOffset();
        }
        if (buf instanceof Buffer b && b.isDirect()) {
            final Slices.Origin o = origin(b, kind);
            return o == null ? 0 : o.byteOffset() / kind.bytes;
        }
        return 0;
    }

    /** A direct slice's place in its parent, when the kind's elements line up with it (else it stands alone). */
    private static Slices.Origin origin(final Buffer b, final Kind kind) {
        final Slices.Origin o = Slices.of(b);
        return o != null && o.byteOffset() % kind.bytes == 0 && kind.accepts(o.parent()) ? o : null;
    }

    static Object newArray(final Kind kind, final int n) {
        return switch (kind) {
            case BYTE -> new byte[n];
            case CHAR -> new char[n];
            case SHORT -> new short[n];
            case BOOLEAN -> new boolean[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    /** Copies {@code count} items of {@code t} from {@code buf} into a new dense array of the kind. */
    static Object pack(final Object buf, final TypeMap t, final int count) {
        final Object dense = newArray(t.kind(), Math.toIntExact(count * t.size()));
        runs(buf, t, count, dense, true);
        return dense;
    }

    /** Copies a dense array of the kind into {@code count} items of {@code t} in {@code buf}. */
    static void unpack(final Object dense, final Object buf, final TypeMap t, final int count) {
        runs(buf, t, count, dense, false);
    }

    private static void runs(final Object buf, final TypeMap t, final int count, final Object dense,
                             final boolean out) {
        final Object data = data(buf, t.kind());
        final long base = base(buf, t.kind());
        int at = 0;
        final int[] displs = t.displs();
        final int[] lengths = t.lengths();
        for (long i = 0, origin = base; i < count; i++, origin += t.extent()) {
            for (int j = 0; j < displs.length; j++) {
                final int from = (int) (origin + displs[j]);
                if (out) {
                    copy(data, from, dense, at, lengths[j], t.kind());
                } else {
                    copy(dense, at, data, from, lengths[j], t.kind());
                }
                at += lengths[j];
            }
        }
    }

    private static void copy(final Object src, final int srcIndex, final Object dst, final int dstIndex, final int n,
                             final Kind kind) {
        if (src instanceof MemorySegment || dst instanceof MemorySegment) {
            // An array of another type, as memory: the dense side is an array of the kind.
            final ValueLayout native1 = kind.memory;
            final MemorySegment s = src instanceof MemorySegment m ? m : Transfer.arraySegment(src);
            final MemorySegment d = dst instanceof MemorySegment m ? m : Transfer.arraySegment(dst);
            MemorySegment.copy(s, native1, (long) srcIndex * kind.bytes, d, native1, (long) dstIndex * kind.bytes,
                n);
            return;
        }
        if (!(src instanceof Buffer) && !(dst instanceof Buffer)) {
            System.arraycopy(src, srcIndex, dst, dstIndex, n);
            return;
        }
        if (kind == Kind.BOOLEAN) {
            for (int k = 0; k < n; k++) {
                if (src instanceof ByteBuffer b) {
                    ((boolean[]) dst)[dstIndex + k] = b.get(srcIndex + k) != 0;
                } else {
                    ((ByteBuffer) dst).put(dstIndex + k, ((boolean[]) src)[srcIndex + k] ? (byte) 1 : 0);
                }
            }
            return;
        }
        final ValueLayout native1 = kind.memory;
        if (src instanceof Buffer b) {
            MemorySegment.copy(Transfer.segmentOf(b), Transfer.memoryLayout(b, kind), (long) srcIndex * kind.bytes,
                Transfer.arraySegment(dst), native1, (long) dstIndex * kind.bytes, n);
        } else {
            final Buffer b = (Buffer) dst;
            MemorySegment.copy(Transfer.arraySegment(src), native1, (long) srcIndex * kind.bytes,
                Transfer.segmentOf(b), Transfer.memoryLayout(b, kind), (long) dstIndex * kind.bytes, n);
        }
    }
}
