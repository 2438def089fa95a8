package org.jhpvm.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/**
 * Moves the elements of a datatype between a user's buffer and a message, run by run in type-map order. Arrays of
 * {@code byte}, {@code int}, {@code long}, {@code float} and {@code double} go straight between the array and FM's
 * frames (FM's typed gather and scatter: no copy of ours); {@code char[]}, {@code short[]}, {@code boolean[]} and
 * buffers are staged through arrays of this rank's (a copy each way; 64 KiB at a time). One per rank, used by its
 * thread and the handlers it runs.
 */
public final class Transfer {
    private static final int CHUNK = 64 << 10;

    /**
     * Staged data of the message being sent: FM may keep a reference to a piece until the message ends (rendezvous
     * pulls it later), so every piece of one message has bytes of its own here; the next message starts over.
     */
    private byte[] stage = new byte[CHUNK];
    private int staged;
    /**
     * Receive chunks: a handler waiting for frames is suspended while another runs, so each receive that stages
     * takes a chunk of its own and gives it back when done.
     */
    private final java.util.ArrayDeque<byte[]> chunks = new java.util.ArrayDeque<>();

    /**
     * Sends {@code count} items of {@code type} from {@code buf} (element 0 being the array's or the buffer's first).
     *
     * @param out   the open message
     * @param buf    the user's buffer, already checked to hold the items
     * @param offset the element of {@code buf} where item 0 starts
     * @param type   the datatype's map
     * @param count  items
     */
    public void send(final FmOutputStream out, final Object buf, final long offset, final TypeMap type,
                     final int count) {
        staged = 0;
        if (type.contiguous()) {
            sendRun(out, buf, type.kind(), offset, count * type.extent());
            return;
        }
        final int[] displs = type.displs();
        final int[] lengths = type.lengths();
        for (long i = 0, base = offset; i < count; i++, base += type.extent()) {
            for (int j = 0; j < displs.length; j++) {
                sendRun(out, buf, type.kind(), base + displs[j], lengths[j]);
            }
        }
    }

    /**
     * Receives {@code elements} elements of the message into the runs of {@code count} items of {@code type} in
     * {@code buf}, in order; the caller has checked that they fit.
     *
     * @param in       the message, positioned at its data
     * @param buf      the user's buffer
     * @param offset   the element of {@code buf} where item 0 starts
     * @param type     the datatype's map
     * @param elements elements to receive (at most the items' size)
     */
    public void receive(final FmInputStream in, final Object buf, final long offset, final TypeMap type,
                        final long elements) {
        if (type.contiguous()) {
            receiveRun(in, buf, type.kind(), offset, elements);
            return;
        }
        long left = elements;
        final int[] displs = type.displs();
        final int[] lengths = type.lengths();
        for (long base = offset; left > 0; base += type.extent()) {
            for (int j = 0; j < displs.length && left > 0; j++) {
                final long n = Math.min(left, lengths[j]);
                receiveRun(in, buf, type.kind(), base + displs[j], n);
                left -= n;
            }
        }
    }

    /**
     * Copies {@code elements} elements from a message held in bytes (an unexpected message) into the runs of
     * {@code type} in {@code buf}.
     *
     * @param src      the message's data, little endian
     * @param buf      the user's buffer
     * @param offset   the element of {@code buf} where item 0 starts
     * @param type     the datatype's map
     * @param elements elements to copy
     */
    public void unpack(final byte[] src, final Object buf, final long offset, final TypeMap type,
                       final long elements) {
        final MemorySegment from = MemorySegment.ofArray(src);
        final Kind kind = type.kind();
        if (type.contiguous()) {
            copyIn(from, 0, buf, kind, offset, elements);
            return;
        }
        long left = elements;
        long at = 0;
        final int[] displs = type.displs();
        final int[] lengths = type.lengths();
        for (long base = offset; left > 0; base += type.extent()) {
            for (int j = 0; j < displs.length && left > 0; j++) {
                final long n = Math.min(left, lengths[j]);
                copyIn(from, at, buf, kind, base + displs[j], n);
                at += n * kind.bytes;
                left -= n;
            }
        }
    }

    private void sendRun(final FmOutputStream out, final Object buf, final Kind kind, final long index,
                         final long n) {
        final int i = (int) index;
        switch (buf) {
            case byte[] a -> out.sendBytes(a, i, 1, (int) n);
            case int[] a -> out.sendInts(a, i, 1, (int) n);
            case long[] a -> out.sendLongs(a, i, 1, (int) n);
            case float[] a -> out.sendFloats(a, i, 1, (int) n);
            case double[] a -> out.sendDoubles(a, i, 1, (int) n);
            default -> {
                final int per = CHUNK / kind.bytes;
                for (long done = 0; done < n; done += per) {
                    final int m = (int) Math.min(per, n - done);
                    final int bytes = m * kind.bytes;
                    if (staged + bytes > stage.length) {
                        stage = new byte[Math.max(CHUNK, bytes)];
                        staged = 0;
                    }
                    copyOut(buf, kind, index + done, m, stage, staged);
                    out.sendPiece(stage, staged, bytes);
                    staged += bytes;
                }
            }
        }
    }

    private void receiveRun(final FmInputStream in, final Object buf, final Kind kind, final long index,
                            final long n) {
        final int i = (int) index;
        switch (buf) {
            case byte[] a -> in.receiveBytes(a, i, 1, (int) n);
            case int[] a -> in.receiveInts(a, i, 1, (int) n);
            case long[] a -> in.receiveLongs(a, i, 1, (int) n);
            case float[] a -> in.receiveFloats(a, i, 1, (int) n);
            case double[] a -> in.receiveDoubles(a, i, 1, (int) n);
            default -> {
                final byte[] chunk = chunks.isEmpty() ? new byte[CHUNK] : chunks.pop();
                try {
                    final MemorySegment seg = MemorySegment.ofArray(chunk);
                    final int per = CHUNK / kind.bytes;
                    for (long done = 0; done < n; done += per) {
                        final int m = (int) Math.min(per, n - done);
                        in.receive(chunk, 0, m * kind.bytes);
                        copyIn(seg, 0, buf, kind, index + done, m);
                    }
                } finally {
                    chunks.push(chunk);
                }
            }
        }
    }

    /** Puts {@code n} elements of {@code buf} from {@code index} into {@code to[at..]}, little endian. */
    private static void copyOut(final Object buf, final Kind kind, final long index, final int n, final byte[] to,
                                final int at) {
        final MemorySegment seg = MemorySegment.ofArray(to);
        switch (buf) {
            case char[] a -> MemorySegment.copy(a, (int) index, seg, (ValueLayout.OfChar) kind.wire, at, n);
            case short[] a -> MemorySegment.copy(a, (int) index, seg, (ValueLayout.OfShort) kind.wire, at, n);
            case boolean[] a -> {
                for (int k = 0; k < n; k++) {
                    to[at + k] = a[(int) index + k] ? (byte) 1 : 0;
                }
            }
            case Buffer b -> MemorySegment.copy(segmentOf(b), memoryLayout(b, kind), index * kind.bytes, seg,
                kind.wire, at, n);
            case MemorySegment m -> MemorySegment.copy(m, kind.memory,
                index * kind.bytes, seg, kind.wire, at, n);
            default -> throw new IllegalArgumentException("not a buffer of " + kind + ": " + buf.getClass());
        }
    }

    /** Puts {@code n} little-endian elements at {@code from[at]} into {@code buf} from {@code index}. */
    private static void copyIn(final MemorySegment from, final long at, final Object buf, final Kind kind,
                               final long index, final long n) {
        switch (buf) {
            case boolean[] a -> {
                for (int k = 0; k < n; k++) {
                    a[(int) index + k] = from.get(ValueLayout.JAVA_BYTE, at + k) != 0;
                }
            }
            case Buffer b -> MemorySegment.copy(from, kind.wire, at, segmentOf(b), memoryLayout(b, kind),
                index * kind.bytes, n);
            case MemorySegment m -> MemorySegment.copy(from, kind.wire, at, m,
                kind.memory, index * kind.bytes, n);
            default -> MemorySegment.copy(from, kind.wire, at, arraySegment(buf),
                kind.memory, index * kind.bytes, n);
        }
    }

    /**
     * A primitive array as a memory segment.
     *
     * @param array a primitive array
     * @return its segment
     */
    public static MemorySegment arraySegment(final Object array) {
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass());
        };
    }

    /**
     * The buffer's memory from element 0 to its capacity (its start and its capacity, whatever its position and
     * limit), as Open MPI addresses it.
     *
     * @param b a buffer
     * @return its memory
     */
    public static MemorySegment segmentOf(final Buffer b) {
        return MemorySegment.ofBuffer(b.position() == 0 && b.limit() == b.capacity() ? b : b.duplicate().clear());
    }

    /**
     * How an element of {@code kind} lies in the buffer's memory (the buffer's byte order).
     *
     * @param b    a buffer
     * @param kind the element kind
     * @return the layout
     */
    public static ValueLayout memoryLayout(final Buffer b, final Kind kind) {
        final ByteOrder order = switch (b) {
            case ByteBuffer x -> x.order();
            case CharBuffer x -> x.order();
            case ShortBuffer x -> x.order();
            case IntBuffer x -> x.order();
            case LongBuffer x -> x.order();
            case FloatBuffer x -> x.order();
            case DoubleBuffer x -> x.order();
            default -> ByteOrder.nativeOrder();
        };
        return kind.wire.withOrder(order);
    }
}
