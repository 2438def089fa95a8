package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jhpvm.mpi.internal.Kind;
import org.jhpvm.mpi.internal.Transfer;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * {@code MPI_Pack} and {@code MPI_Unpack} ({@link Comm#pack}, {@link Comm#unpack}): items of a datatype gathered into
 * a byte array at a position, and scattered back. The packed form is the items' base elements, one after another,
 * in the platform's byte order (what a message of {@code MPI.PACKED} carries between ranks of one kind of machine,
 * as Open MPI packs them).
 */
final class Packing {
    private Packing() {
    }

    static int size(final TypeMap t, final int count) {
        return Math.toIntExact((long) count * t.size() * t.kind().bytes);
    }

    static int pack(final CommState c, final Object inbuf, final int incount, final TypeMap t, final byte[] outbuf,
                    final int position) throws MPIException {
        Buffers.check(c, inbuf, t, incount, "pack");
        final int bytes = size(t, incount);
        checkRoom(c, outbuf, position, bytes, "pack");
        if (bytes > 0) {
            final Object dense = Buffers.pack(inbuf, t, incount);
            final ValueLayout native1 = layout(t.kind());
            MemorySegment.copy(Transfer.arraySegment(dense), native1, 0, MemorySegment.ofArray(outbuf), native1,
                position, bytes / t.kind().bytes);
        }
        return position + bytes;
    }

    static int unpack(final CommState c, final byte[] inbuf, final int position, final Object outbuf,
                      final int outcount, final TypeMap t) throws MPIException {
        Buffers.check(c, outbuf, t, outcount, "unpack");
        final int bytes = size(t, outcount);
        checkRoom(c, inbuf, position, bytes, "unpack");
        if (bytes > 0) {
            final Object dense = Buffers.newArray(t.kind(), bytes / t.kind().bytes);
            final ValueLayout native1 = layout(t.kind());
            MemorySegment.copy(MemorySegment.ofArray(inbuf), native1, position, Transfer.arraySegment(dense),
                native1, 0, bytes / t.kind().bytes);
            Buffers.unpack(dense, outbuf, t, outcount);
        }
        return position + bytes;
    }

    private static ValueLayout layout(final Kind kind) {
        return kind == Kind.BOOLEAN ? ValueLayout.JAVA_BOOLEAN : kind.memory;
    }

    private static void checkRoom(final CommState c, final byte[] buf, final int position, final int bytes,
                                  final String what) throws MPIException {
        if (buf == null) {
            throw c.error(MPI.ERR_BUFFER, what + ": the byte array is null");
        }
        if (position < 0 || (long) position + bytes > buf.length) {
            throw c.error(MPI.ERR_TRUNCATE, what + ": " + bytes + " bytes at position " + position + " do not fit "
                + "a byte array of " + buf.length);
        }
    }
}
