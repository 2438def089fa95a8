package org.jhpvm.fabric;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

import static org.jhpvm.fabric.FrameDescriptor.DESTINATION_OFFSET;
import static org.jhpvm.fabric.FrameDescriptor.FABRIC_HEADER_BYTES;
import static org.jhpvm.fabric.FrameDescriptor.LENGTH_OFFSET;
import static org.jhpvm.fabric.FrameDescriptor.SOURCE_OFFSET;
import static org.jhpvm.fabric.FrameDescriptor.STATE_OFFSET;

/**
 * A fixed-size frame: one {@code byte[]} laid out as {@link FrameDescriptor} shows, owned by one NIC's pool.
 * <p>
 * Everything that changes per send lives in the array, so a frame crosses from one core to another as the
 * array's cache lines only; the object's own fields are final. Hosts fill frames with the typed accessors or,
 * for zero-copy work, straight through {@link #array()} at {@link #payloadOffset()}.
 * <p>
 * Thread-safety: a frame belongs to one party at a time (the sending host, the fabric, the receiving host);
 * the fabric's rings carry the happens-before edges between them. A frame is not safe for concurrent use.
 */
public final class Frame {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int BASE = 64;
    private static final int TAIL_PAD_BYTES = 64;
    private static final int SMALL_COPY_BYTES = 128;

    private final byte[] data;
    private final MemorySegment segment;
    private final Object origin;
    private final int owner;
    private final int home;
    private final int headerBytes;
    private final int frameBytes;
    private final int payloadOffset;

    /**
     * For fabric implementations: a frame of the given geometry, owned by a NIC's pool.
     *
     * @param origin      the fabric instance the frame belongs to (identity-checked on send and release)
     * @param owner       the NIC whose pool owns the frame
     * @param home        which of the owner's pools takes the frame back (implementation-defined)
     * @param headerBytes opaque header area length, 0 .. {@link FrameDescriptor#MAX_HEADER_BYTES}
     * @param frameBytes  payload capacity, 1 .. {@link FrameDescriptor#MAX_FRAME_BYTES}
     * @throws IllegalArgumentException if a size is out of range
     */
    public Frame(final Object origin, final int owner, final int home, final int headerBytes, final int frameBytes) {
        this.origin = Objects.requireNonNull(origin, "origin");
        if (headerBytes < 0 || headerBytes > FrameDescriptor.MAX_HEADER_BYTES) {
            throw new IllegalArgumentException("headerBytes=" + headerBytes + " outside 0.."
                + FrameDescriptor.MAX_HEADER_BYTES);
        }
        if (frameBytes < 1 || frameBytes > FrameDescriptor.MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("frameBytes=" + frameBytes + " outside 1.."
                + FrameDescriptor.MAX_FRAME_BYTES);
        }
        this.owner = owner;
        this.home = home;
        this.headerBytes = headerBytes;
        this.frameBytes = frameBytes;
        this.payloadOffset = BASE + FrameDescriptor.payloadOffset(headerBytes);
        // BASE bytes ahead of the frame keep the array header, and the Frame object before it on the heap, on
        // lines that are never written: a receiver reading this object does not miss because the sender just
        // wrote the frame. The spare bytes at the end do the same for whatever the heap puts next.
        this.data = new byte[arrayBytes(headerBytes, frameBytes)];
        this.segment = MemorySegment.ofArray(data);
    }

    /**
     * For fabric implementations: the length of the array a frame of this geometry allocates (the frame itself
     * plus the padding around it).
     *
     * @param headerBytes opaque header area length
     * @param frameBytes  payload capacity
     * @return bytes of the frame's array
     */
    public static int arrayBytes(final int headerBytes, final int frameBytes) {
        return BASE + FrameDescriptor.payloadOffset(headerBytes) + frameBytes + TAIL_PAD_BYTES;
    }

    /**
     * The array this frame lives in, the same for the frame's whole life, for zero-copy reads and writes of the
     * opaque header and payload. Its fabric header belongs to the fabric: change it only through
     * {@link #setDestination(int)} and {@link #setLength(int)}.
     *
     * @return the backing array (fabric header, opaque header, payload), for zero-copy access; it may be longer
     *     than {@code payloadOffset() + frameBytes()}, and the frame starts at {@link #frameOffset()}, not at 0
     */
    public byte[] array() {
        return data;
    }

    /**
     * The backing array as a memory segment, for bulk typed copies; the same segment on every call.
     *
     * @return {@link #array()} as a heap memory segment (made once per frame, so bulk typed copies such as
     *     {@code MemorySegment.copy(segment(), layout, offset, long[], ...)} allocate nothing); offsets are those of
     *     the array
     */
    public MemorySegment segment() {
        return segment;
    }

    /**
     * Where the frame starts in its array. Padding comes first, so that writes to the frame never touch the cache
     * lines of the array header and of the object before it on the heap. The same for every frame.
     *
     * @return offset of the frame (its fabric header) in {@link #array()}; {@code FrameDescriptor} offsets count
     *     from here
     */
    public int frameOffset() {
        return BASE;
    }

    /**
     * Where the opaque header area starts in the array, for zero-copy access; the header accessors count their
     * offsets from here.
     *
     * @return offset of the opaque header area in {@link #array()}
     */
    public int headerOffset() {
        return BASE + FABRIC_HEADER_BYTES;
    }

    /**
     * Where the payload starts in the array ({@link #headerOffset()} plus {@link #headerBytes()}), for zero-copy
     * access; the payload accessors count their positions from here.
     *
     * @return offset of the payload in {@link #array()}
     */
    public int payloadOffset() {
        return payloadOffset;
    }

    /**
     * The size of the opaque header area, the same for every frame of a fabric; the header accessors refuse an
     * offset that does not fit in it.
     *
     * @return length of the opaque header area in bytes
     */
    public int headerBytes() {
        return headerBytes;
    }

    /**
     * The largest payload this frame holds; {@link #setLength(int)} and the payload writers refuse anything beyond
     * it.
     *
     * @return payload capacity in bytes (the fabric's frame size)
     */
    public int frameBytes() {
        return frameBytes;
    }

    /**
     * The NIC whose pool this frame comes from, fixed when the frame is made: a frame acquired from a NIC can be sent
     * only through that NIC.
     *
     * @return the NIC whose pool owns this frame
     */
    public int owner() {
        return owner;
    }

    /**
     * The implementation's tag for the pool the frame returns to, fixed when the frame is made; hosts need not read
     * it.
     *
     * @return which of the owner's pools takes the frame back (for fabric implementations)
     */
    public int home() {
        return home;
    }

    /**
     * The fabric instance this frame was made for; NICs compare it by identity to refuse, on send and release, a
     * frame of another fabric.
     *
     * @return the fabric this frame belongs to (for fabric implementations)
     */
    public Object origin() {
        return origin;
    }

    /**
     * The NIC that sent the frame, which a receiver can trust because the sending NIC writes it, whatever the host
     * put there. On a frame not yet sent it holds whatever its previous send stamped.
     *
     * @return the NIC that sent the frame (stamped by the fabric on send)
     */
    public int source() {
        return (int) INT.get(data, BASE + SOURCE_OFFSET);
    }

    /**
     * The destination NIC as last set, checked against the fabric only when the frame is sent. An acquired frame
     * keeps the destination of its previous use: set it before every send.
     *
     * @return the destination NIC
     */
    public int destination() {
        return (int) INT.get(data, BASE + DESTINATION_OFFSET);
    }

    /**
     * Sets the destination; the NIC checks it against the fabric on send.
     *
     * @param nic destination NIC id
     * @return this frame
     */
    public Frame setDestination(final int nic) {
        INT.set(data, BASE + DESTINATION_OFFSET, nic);
        return this;
    }

    /**
     * How many payload bytes the frame carries: what a receiver may read. A frame comes out of
     * {@link Nic#tryAcquire()} with length 0.
     *
     * @return payload length in bytes
     */
    public int length() {
        return (int) INT.get(data, BASE + LENGTH_OFFSET);
    }

    /**
     * Sets the payload length.
     *
     * @param lengthBytes 0 .. {@link #frameBytes()}
     * @return this frame
     * @throws IllegalArgumentException if the length is negative or exceeds the frame size
     */
    public Frame setLength(final int lengthBytes) {
        if (lengthBytes < 0 || lengthBytes > frameBytes) {
            throw lengthOutOfRange(lengthBytes);
        }
        INT.set(data, BASE + LENGTH_OFFSET, lengthBytes);
        return this;
    }

    /**
     * Where the frame is in its life (pool, host, fabric, delivered), as the fabric tracks it to refuse a frame sent
     * or released twice; for fabric implementations and diagnostics.
     *
     * @return the frame state, one of {@code FrameDescriptor.STATE_*}
     */
    public int state() {
        return (int) INT.get(data, BASE + STATE_OFFSET);
    }

    /**
     * For fabric implementations: stamps the source NIC id.
     *
     * @param nic source NIC id
     */
    public void stampSource(final int nic) {
        INT.set(data, BASE + SOURCE_OFFSET, nic);
    }

    /**
     * For fabric implementations: moves the frame to a new state.
     *
     * @param state one of {@code FrameDescriptor.STATE_*}
     */
    public void setState(final int state) {
        INT.set(data, BASE + STATE_OFFSET, state);
    }

    /**
     * Writes an int into the opaque header area.
     *
     * @param offset byte offset within the header area
     * @param value  the value (little endian)
     * @return this frame
     * @throws IndexOutOfBoundsException if the int does not fit in the header area
     */
    public Frame putHeaderInt(final int offset, final int value) {
        INT.set(data, BASE + FABRIC_HEADER_BYTES + checkHeader(offset, Integer.BYTES), value);
        return this;
    }

    /**
     * Reads an int (little endian) from the opaque header area.
     *
     * @param offset byte offset within the header area
     * @return the int there
     * @throws IndexOutOfBoundsException if the int does not fit in the header area
     */
    public int getHeaderInt(final int offset) {
        return (int) INT.get(data, BASE + FABRIC_HEADER_BYTES + checkHeader(offset, Integer.BYTES));
    }

    /**
     * Writes a long into the opaque header area.
     *
     * @param offset byte offset within the header area
     * @param value  the value (little endian)
     * @return this frame
     * @throws IndexOutOfBoundsException if the long does not fit in the header area
     */
    public Frame putHeaderLong(final int offset, final long value) {
        LONG.set(data, BASE + FABRIC_HEADER_BYTES + checkHeader(offset, Long.BYTES), value);
        return this;
    }

    /**
     * Reads a long (little endian) from the opaque header area.
     *
     * @param offset byte offset within the header area
     * @return the long there
     * @throws IndexOutOfBoundsException if the long does not fit in the header area
     */
    public long getHeaderLong(final int offset) {
        return (long) LONG.get(data, BASE + FABRIC_HEADER_BYTES + checkHeader(offset, Long.BYTES));
    }

    /**
     * Copies bytes into the payload (gather side). Does not change {@link #length()}.
     *
     * @param payloadPosition where in the payload to write
     * @param src             source array
     * @param srcOffset       first byte of {@code src}
     * @param lengthBytes     number of bytes
     * @return this frame
     * @throws IndexOutOfBoundsException if either range is out of bounds (nothing is copied)
     */
    public Frame putPayload(final int payloadPosition, final byte[] src, final int srcOffset, final int lengthBytes) {
        Objects.checkFromIndexSize(payloadPosition, lengthBytes, frameBytes);
        System.arraycopy(src, srcOffset, data, payloadOffset + payloadPosition, lengthBytes);
        return this;
    }

    /**
     * Copies bytes out of the payload (scatter side).
     *
     * @param payloadPosition where in the payload to read
     * @param dst             destination array
     * @param dstOffset       first byte of {@code dst}
     * @param lengthBytes     number of bytes
     * @throws IndexOutOfBoundsException if the range is beyond {@link #length()} or {@code dst} (nothing copied)
     */
    public void getPayload(final int payloadPosition, final byte[] dst, final int dstOffset, final int lengthBytes) {
        Objects.checkFromIndexSize(payloadPosition, lengthBytes, length());
        System.arraycopy(data, payloadOffset + payloadPosition, dst, dstOffset, lengthBytes);
    }

    /**
     * Writes a long into the payload. Does not change {@link #length()}.
     *
     * @param payloadPosition where in the payload to write
     * @param value           the value (little endian)
     * @return this frame
     * @throws IndexOutOfBoundsException if the long does not fit in the frame
     */
    public Frame putPayloadLong(final int payloadPosition, final long value) {
        Objects.checkFromIndexSize(payloadPosition, Long.BYTES, frameBytes);
        LONG.set(data, payloadOffset + payloadPosition, value);
        return this;
    }

    /**
     * Reads a long (little endian) from the payload; only the first {@link #length()} bytes may be read.
     *
     * @param payloadPosition where in the payload to read
     * @return the long there
     * @throws IndexOutOfBoundsException if the long is beyond {@link #length()}
     */
    public long getPayloadLong(final int payloadPosition) {
        Objects.checkFromIndexSize(payloadPosition, Long.BYTES, length());
        return (long) LONG.get(data, payloadOffset + payloadPosition);
    }

    /**
     * For fabric implementations: copies another frame's source, destination, length, opaque header and payload
     * into this one (a copy on the wire: a duplicate, or a small frame written into a receive slot). The state word
     * is copied too; the caller sets the state it needs.
     *
     * @param other the frame to copy
     * @throws IllegalArgumentException if the header areas differ or the payload does not fit
     */
    public void copyFrom(final Frame other) {
        final int lengthBytes = other.length();
        if (other.headerBytes != headerBytes || lengthBytes > frameBytes) {
            throw new IllegalArgumentException("cannot copy a frame of headerBytes=" + other.headerBytes
                + ", length=" + lengthBytes + " into headerBytes=" + headerBytes + ", frameBytes=" + frameBytes);
        }
        // One copy of fabric header, opaque header and payload; the state word comes along and is reset by the
        // caller. Small frames are copied eight bytes at a time: cheaper than setting up an arraycopy.
        final int bytes = FABRIC_HEADER_BYTES + headerBytes + lengthBytes;
        if (bytes <= SMALL_COPY_BYTES) {
            final byte[] from = other.data;
            final int words = (bytes + 7) >>> 3;
            for (int i = 0; i < words; i++) {
                LONG.set(data, BASE + (i << 3), (long) LONG.get(from, BASE + (i << 3)));
            }
        } else {
            System.arraycopy(other.data, BASE, data, BASE, bytes);
        }
    }

    private int checkHeader(final int offset, final int width) {
        if (offset < 0 || offset > headerBytes - width) {
            throw new IndexOutOfBoundsException("header offset=" + offset + " width=" + width
                + " outside headerBytes=" + headerBytes);
        }
        return offset;
    }

    private IllegalArgumentException lengthOutOfRange(final int lengthBytes) {
        return new IllegalArgumentException("length=" + lengthBytes + (lengthBytes < 0 ? " is negative" :
            " exceeds frameBytes=" + frameBytes));
    }

    @Override
    public String toString() {
        return "Frame{owner=" + owner + ", src=" + source() + ", dst=" + destination() + ", length=" + length()
            + ", state=" + FrameDescriptor.stateName(state()) + '}';
    }
}
