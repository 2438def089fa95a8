package org.jhpvm.mpi.pvm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A PVM message buffer: what {@code pk*} calls append to (a send buffer) or {@code upk*} calls read from (a received
 * message), in PVM's order of items, little endian. With {@link Pvm#PvmDataInPlace} the packed arrays are kept by
 * reference and read when the message is sent, as PVM's in-place encoding does.
 */
final class PvmBuffer {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED
        .withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED
        .withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED
        .withOrder(ByteOrder.LITTLE_ENDIAN);

    /** One packed item run kept by reference (in-place encoding). */
    private record Piece(Object array, int nitem, int stride) {
    }

    final int encoding;
    byte[] data;
    int length;
    int readAt;
    /** Of a received message: its tag and sender's tid. */
    int tag = -1;
    int tid = -1;
    private Piece[] pieces = new Piece[0];

    PvmBuffer(final int encoding) {
        this.encoding = encoding;
        this.data = new byte[64];
    }

    PvmBuffer(final byte[] payload, final int offset, final int tag, final int tid) {
        this.encoding = Pvm.PvmDataDefault;
        this.data = Arrays.copyOfRange(payload, offset, payload.length);
        this.length = data.length;
        this.tag = tag;
        this.tid = tid;
    }

    private MemorySegment room(final int bytes) {
        if (length + bytes > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, length + bytes));
        }
        final MemorySegment s = MemorySegment.ofArray(data).asSlice(length, bytes);
        length += bytes;
        return s;
    }

    /** Appends {@code nitem} items of {@code array} from element 0 every {@code stride}. */
    void pack(final Object array, final int nitem, final int stride) {
        if (encoding == Pvm.PvmDataInPlace) {
            pieces = Arrays.copyOf(pieces, pieces.length + 1);
            pieces[pieces.length - 1] = new Piece(array, nitem, stride);
            return;
        }
        packNow(array, nitem, stride);
    }

    private void packNow(final Object array, final int nitem, final int stride) {
        switch (array) {
            case byte[] a -> {
                final MemorySegment s = room(nitem);
                for (int i = 0; i < nitem; i++) {
                    s.set(ValueLayout.JAVA_BYTE, i, a[i * stride]);
                }
            }
            case short[] a -> {
                final MemorySegment s = room(nitem * 2);
                for (int i = 0; i < nitem; i++) {
                    s.set(SHORT, 2L * i, a[i * stride]);
                }
            }
            case int[] a -> {
                final MemorySegment s = room(nitem * 4);
                for (int i = 0; i < nitem; i++) {
                    s.set(INT, 4L * i, a[i * stride]);
                }
            }
            case long[] a -> {
                final MemorySegment s = room(nitem * 8);
                for (int i = 0; i < nitem; i++) {
                    s.set(LONG, 8L * i, a[i * stride]);
                }
            }
            case float[] a -> {
                final MemorySegment s = room(nitem * 4);
                for (int i = 0; i < nitem; i++) {
                    s.set(FLOAT, 4L * i, a[i * stride]);
                }
            }
            case double[] a -> {
                final MemorySegment s = room(nitem * 8);
                for (int i = 0; i < nitem; i++) {
                    s.set(DOUBLE, 8L * i, a[i * stride]);
                }
            }
            default -> throw new IllegalArgumentException("not a packable array: " + array.getClass());
        }
    }

    /** Appends a string: its UTF-8 length, then its bytes. */
    void packString(final String s) {
        final byte[] b = s.getBytes(StandardCharsets.UTF_8);
        packNow(new int[] {b.length}, 1, 1);
        packNow(b, b.length, 1);
    }

    /** The bytes the message carries: the packed data, with in-place pieces read now. */
    byte[] contents() {
        if (pieces.length == 0) {
            return Arrays.copyOf(data, length);
        }
        final PvmBuffer copy = new PvmBuffer(Pvm.PvmDataDefault);
        copy.data = Arrays.copyOf(data, Math.max(1, length));
        copy.length = length;
        for (final Piece p : pieces) {
            copy.packNow(p.array(), p.nitem(), p.stride());
        }
        return Arrays.copyOf(copy.data, copy.length);
    }

    /** Bytes left to unpack. */
    int remaining() {
        return length - readAt;
    }

    /**
     * Reads {@code nitem} items into {@code array} every {@code stride}.
     *
     * @return false (nothing read) if fewer bytes are left
     */
    boolean unpack(final Object array, final int nitem, final int stride) {
        final int size = switch (array) {
            case byte[] a -> 1;
            case short[] a -> 2;
            case int[] a -> 4;
            case float[] a -> 4;
            default -> 8;
        };
        if ((long) nitem * size > remaining()) {
            return false;
        }
        final MemorySegment s = MemorySegment.ofArray(data).asSlice(readAt, (long) nitem * size);
        for (int i = 0; i < nitem; i++) {
            switch (array) {
                case byte[] a -> a[i * stride] = s.get(ValueLayout.JAVA_BYTE, i);
                case short[] a -> a[i * stride] = s.get(SHORT, 2L * i);
                case int[] a -> a[i * stride] = s.get(INT, 4L * i);
                case long[] a -> a[i * stride] = s.get(LONG, 8L * i);
                case float[] a -> a[i * stride] = s.get(FLOAT, 4L * i);
                case double[] a -> a[i * stride] = s.get(DOUBLE, 8L * i);
                default -> throw new IllegalArgumentException("not an unpackable array: " + array.getClass());
            }
        }
        readAt += nitem * size;
        return true;
    }

    /** Reads a string packed by {@link #packString}, or null (nothing read) if there is none. */
    String unpackString() {
        final int at = readAt;
        final int[] n = new int[1];
        if (!unpack(n, 1, 1) || n[0] < 0 || n[0] > remaining()) {
            readAt = at;
            return null;
        }
        final String s = new String(data, readAt, n[0], StandardCharsets.UTF_8);
        readAt += n[0];
        return s;
    }
}
