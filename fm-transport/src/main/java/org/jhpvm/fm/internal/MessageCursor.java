package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

import org.jhpvm.fabric.Bytes;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fm.FmInputStream;

/**
 * The receiving side of one message as its handler sees it: the current frame and the position in it, and the
 * receive calls that copy from the message's frames into arrays and memory segments. Which thread runs the handler,
 * and how it gets the message's next frame, is {@link InboundStream}'s business ({@link #nextFrame()}).
 * <p>
 * A receive that needs more than the current frame holds while the handler's frames are handed to it one by one
 * ({@link #spansFrames()}) is left here as pending (destination, offset, bytes still wanted): whoever hands over the
 * frames copies each one straight into it ({@link #fillPending()}) and wakes the handler once, at its end.
 */
abstract class MessageCursor implements FmInputStream {
    static final VarHandle INT = FmFrameDescriptor.INT;
    static final VarHandle LONG = FmFrameDescriptor.LONG;
    /** Typed receives may be filled as raw bytes only where the wire's order (little endian) is the machine's. */
    static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    final int source;
    private final byte[] scratch = new byte[8];
    private final MemorySegment scratchSegment = MemorySegment.ofArray(scratch);
    int handlerId;
    int declared;
    int received;
    Frame frame;
    int pos;
    int limit;
    boolean frameLast;
    // The rest of a receive that spans frames: bytes go to pendingBytes (a byte[]) or else to pendingSegment, at
    // pendingOffset; pendingLeft bytes are still wanted.
    byte[] pendingBytes;
    MemorySegment pendingSegment;
    long pendingOffset;
    long pendingLeft;

    MessageCursor(final int source) {
        this.source = source;
    }

    /**
     * The current frame is used up: moves to the next frame of the message, if there is one.
     *
     * @return false if the current frame was the message's last
     */
    abstract boolean nextFrame();

    /** @return whether a receive whose current frame is used up leaves the rest to whoever hands over the frames */
    abstract boolean spansFrames();

    /** @return whether the message's frames are handed to the handler one by one (it runs on a thread of its own) */
    abstract boolean handsOffFrames();

    /** @throws IllegalStateException if the caller is not the handler of the current message */
    abstract void checkActive();

    final void setFrame(final Frame f, final boolean last) {
        frame = f;
        pos = 0;
        limit = f.length();
        frameLast = last;
    }

    /** Extract's side of a receive that spans frames: copies what the current frame holds of it. */
    final void fillPending() {
        final int n = (int) Math.min(pendingLeft, limit - pos);
        if (pendingBytes != null) {
            System.arraycopy(frame.array(), frame.payloadOffset() + pos, pendingBytes, (int) pendingOffset, n);
        } else {
            Bytes.copy(frame.segment(), frame.payloadOffset() + pos, pendingSegment, pendingOffset, n);
        }
        pos += n;
        received += n;
        pendingOffset += n;
        pendingLeft -= n;
    }

    /**
     * The handler's side of a receive that spans frames, once its current frame is used up and the message goes on:
     * leaves the rest to extract ({@link #fillPending}) and sleeps until it is done or the message has ended.
     *
     * @return the bytes still wanted when the handler wakes: 0, or more if the message ended first
     */
    private long awaitPending(final byte[] bytes, final MemorySegment segment, final long offset, final long left) {
        pendingBytes = bytes;
        pendingSegment = segment;
        pendingOffset = offset;
        pendingLeft = left;
        try {
            nextFrame();
            return pendingLeft;
        } finally {
            pendingBytes = null;
            pendingSegment = null;
            pendingLeft = 0;
        }
    }

    @Override
    public int sender() {
        return source;
    }

    @Override
    public int handler() {
        return handlerId;
    }

    @Override
    public int declaredLength() {
        return declared;
    }

    @Override
    public int receivedBytes() {
        return received;
    }

    @Override
    public void receive(final byte[] dst, final int offset, final int lengthBytes) {
        checkActive();
        Objects.checkFromIndexSize(offset, lengthBytes, dst.length);
        if (lengthBytes > declared - received) {
            throw new IndexOutOfBoundsException("receive of " + lengthBytes + " bytes after " + received
                + " goes beyond the declared length=" + declared + " of the message from PE " + source);
        }
        final int got = copy(dst, offset, lengthBytes);
        if (got < lengthBytes) {
            throw new IllegalStateException("the message from PE " + source + " ended after " + received
                + " bytes; receive wanted " + (lengthBytes - got) + " more");
        }
    }

    @Override
    public int receiveUpTo(final byte[] dst, final int offset, final int lengthBytes) {
        checkActive();
        Objects.checkFromIndexSize(offset, lengthBytes, dst.length);
        return copy(dst, offset, Math.min(lengthBytes, declared - received));
    }

    /**
     * Receives raw bytes into a memory segment (a registered region's memory, whatever its element type): FM's message
     * path for RDMA where the fabric has none.
     */
    final void receiveSegment(final MemorySegment dst, final long offset, final long lengthBytes) {
        checkActive();
        if (lengthBytes > declared - received) {
            throw new IndexOutOfBoundsException("receive of " + lengthBytes + " bytes after " + received
                + " goes beyond the declared length=" + declared + " of the message from PE " + source);
        }
        receiveRaw(dst, offset, lengthBytes);
    }

    private void receiveRaw(final MemorySegment dst, final long offset, final long lengthBytes) {
        long off = offset;
        long len = lengthBytes;
        while (len > 0) {
            if (spansFrames()) {
                final long left = awaitPending(null, dst, off, len);
                if (left > 0) {
                    throw endedEarly(left);
                }
                return;
            }
            if (pos == limit && !nextFrame()) {
                throw endedEarly(len);
            }
            final int n = (int) Math.min(len, limit - pos);
            Bytes.copy(frame.segment(), frame.payloadOffset() + pos, dst, off, n);
            pos += n;
            off += n;
            len -= n;
            received += n;
        }
    }

    @Override
    public void receiveBytes(final byte[] dst, final int index, final int stride, final int count) {
        if (stride == 1) {
            // Contiguous bytes have no order to convert: receive's copy (see OutboundStream.sendBytes).
            checkActive();
            Elements.check(dst.length, index, 1, count, 1);
            receive(dst, index, count);
            return;
        }
        receiveElements(dst, dst.length, Elements.BYTE, index, stride, count);
    }

    @Override
    public void receiveInts(final int[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.INT, index, stride, count);
    }

    @Override
    public void receiveLongs(final long[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.LONG, index, stride, count);
    }

    @Override
    public void receiveFloats(final float[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.FLOAT, index, stride, count);
    }

    @Override
    public void receiveDoubles(final double[] dst, final int index, final int stride, final int count) {
        receiveElements(dst, dst.length, Elements.DOUBLE, index, stride, count);
    }

    /**
     * Typed scatter: elements go straight from the frames into the array (a bulk copy when contiguous); an element
     * that straddles two frames goes through the scratch bytes.
     */
    private void receiveElements(final Object dst, final int length, final ValueLayout layout, final int index,
        final int stride, final int count) {
        checkActive();
        final int eb = (int) layout.byteSize();
        final long bytes = Elements.check(length, index, stride, count, eb);
        if (bytes > declared - received) {
            throw new IndexOutOfBoundsException("receive of " + bytes + " bytes after " + received
                + " goes beyond the declared length=" + declared + " of the message from PE " + source);
        }
        int i = index;
        int left = count;
        while (left > 0) {
            if (stride == 1 && NATIVE_LE && handsOffFrames() && !frameLast && (long) left * eb > limit - pos) {
                // Contiguous and beyond this frame: as raw bytes, so that elements straddling frames need no wake-up.
                receiveRaw(MemoryRegion.segmentOf(dst), (long) i * eb, (long) left * eb);
                return;
            }
            if (pos == limit && !nextFrame()) {
                throw endedEarly((long) left * eb);
            }
            final int fit = (limit - pos) / eb;
            if (fit == 0) {
                if (copy(scratch, 0, eb) < eb) {
                    throw endedEarly((long) left * eb);
                }
                MemorySegment.copy(scratchSegment, layout, 0, dst, i, 1);
                i += stride;
                left--;
                continue;
            }
            final int n = Math.min(fit, left);
            Elements.fromSegment(frame.segment(), layout, frame.payloadOffset() + pos, dst, i, stride, n);
            i += n * stride;
            pos += n * eb;
            received += n * eb;
            left -= n;
        }
    }

    final IllegalStateException endedEarly(final long wanted) {
        return new IllegalStateException("the message from PE " + source + " ended after " + received
            + " bytes; receive wanted " + wanted + " more");
    }

    @Override
    public int receiveInt() {
        checkActive();
        if (limit - pos >= Integer.BYTES && declared - received >= Integer.BYTES) {
            final int v = (int) INT.get(frame.array(), frame.payloadOffset() + pos);
            pos += Integer.BYTES;
            received += Integer.BYTES;
            return v;
        }
        receive(scratch, 0, Integer.BYTES);
        return (int) INT.get(scratch, 0);
    }

    @Override
    public long receiveLong() {
        checkActive();
        if (limit - pos >= Long.BYTES && declared - received >= Long.BYTES) {
            final long v = (long) LONG.get(frame.array(), frame.payloadOffset() + pos);
            pos += Long.BYTES;
            received += Long.BYTES;
            return v;
        }
        receive(scratch, 0, Long.BYTES);
        return (long) LONG.get(scratch, 0);
    }

    /**
     * The contiguous bytes left in the current frame if the whole rest of the message is there, else -1 (FM 1.x
     * handlers get such a message in place).
     */
    int wholeRestInFrame() {
        return frameLast ? limit - pos : -1;
    }

    byte[] frameArray() {
        return frame.array();
    }

    int framePosition() {
        return frame.payloadOffset() + pos;
    }

    void skipInFrame(final int bytes) {
        pos += bytes;
        received += bytes;
    }

    private int copy(final byte[] dst, final int offset, final int lengthBytes) {
        int off = offset;
        int len = lengthBytes;
        while (len > 0) {
            if (spansFrames()) {
                len = (int) awaitPending(dst, null, off, len);
                break;
            }
            if (pos == limit && !nextFrame()) {
                break;
            }
            final int n = Math.min(len, limit - pos);
            System.arraycopy(frame.array(), frame.payloadOffset() + pos, dst, off, n);
            pos += n;
            off += n;
            len -= n;
            received += n;
        }
        return lengthBytes - len;
    }
}
