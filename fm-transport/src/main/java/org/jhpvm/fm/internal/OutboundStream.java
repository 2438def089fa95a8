package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.jhpvm.fabric.Bytes;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fm.FmOutputStream;

/**
 * The endpoint's one outgoing message: pieces are copied straight into fabric frames (gather); a full frame is held
 * until the next piece shows the message goes on, so that the last frame carries LAST without an empty frame
 * after it. Reused for every message; single-threaded.
 */
final class OutboundStream implements FmOutputStream {
    private final Endpoint ep;
    private final FlowControl flow;
    private final SendPath send;
    private final int frameBytes;
    private final byte[] scratch = new byte[8];
    private final MemorySegment scratchSegment = MemorySegment.ofArray(scratch);
    private boolean open;
    private int dest;
    private int handler;
    private int declared;
    private int written;
    private boolean first;
    private Frame frame;
    private int framePos;

    OutboundStream(final Endpoint ep, final FlowControl flow, final SendPath send, final int frameBytes) {
        this.ep = ep;
        this.flow = flow;
        this.send = send;
        this.frameBytes = frameBytes;
    }

    boolean isOpen() {
        return open;
    }

    int dest() {
        return dest;
    }

    void begin(final int dest, final int lengthBytes, final int handler) {
        this.dest = dest;
        this.declared = lengthBytes;
        this.handler = handler;
        this.written = 0;
        this.first = true;
        this.frame = null;
        this.framePos = 0;
        this.open = true;
    }

    @Override
    public int lengthBytes() {
        return written;
    }

    @Override
    public void sendPiece(final byte[] src, final int offset, final int lengthBytes) {
        checkOpen();
        Objects.checkFromIndexSize(offset, lengthBytes, src.length);
        gather(src, offset, lengthBytes);
    }

    /** Copies checked bytes into frames, taking the next frame as each fills. */
    private void gather(final byte[] src, final int offset, final int lengthBytes) {
        checkRoom(lengthBytes);
        int off = offset;
        int len = lengthBytes;
        while (len > 0) {
            final int room = roomInFrame();
            final int n = Math.min(len, room);
            System.arraycopy(src, off, frame.array(), frame.payloadOffset() + framePos, n);
            framePos += n;
            written += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Sends raw bytes of a memory segment (a registered region's memory, whatever its element type): FM's message path
     * for RDMA where the fabric has none.
     */
    void sendSegment(final MemorySegment src, final long offset, final long lengthBytes) {
        checkOpen();
        if (lengthBytes > declared - written) {
            checkRoom((int) Math.min(Integer.MAX_VALUE, lengthBytes));
        }
        long off = offset;
        long len = lengthBytes;
        while (len > 0) {
            final int n = (int) Math.min(len, roomInFrame());
            Bytes.copy(src, off, frame.segment(), frame.payloadOffset() + framePos, n);
            framePos += n;
            written += n;
            off += n;
            len -= n;
        }
    }

    @Override
    public void sendBytes(final byte[] src, final int index, final int stride, final int count) {
        if (stride == 1) {
            // Contiguous bytes have no order to convert: sendPiece's copy, not the element loop that short runs
            // take (an 8-byte MPI message paid about 10 ns for it at each end).
            checkOpen();
            Elements.check(src.length, index, 1, count, 1);
            gather(src, index, count);
            return;
        }
        sendElements(src, src.length, Elements.BYTE, index, stride, count);
    }

    @Override
    public void sendInts(final int[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.INT, index, stride, count);
    }

    @Override
    public void sendLongs(final long[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.LONG, index, stride, count);
    }

    @Override
    public void sendFloats(final float[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.FLOAT, index, stride, count);
    }

    @Override
    public void sendDoubles(final double[] src, final int index, final int stride, final int count) {
        sendElements(src, src.length, Elements.DOUBLE, index, stride, count);
    }

    /**
     * Typed gather: elements go straight from the array into frames (a bulk copy when contiguous), little endian;
     * an element that would straddle two frames goes through the scratch bytes.
     */
    private void sendElements(final Object src, final int length, final ValueLayout layout, final int index,
        final int stride, final int count) {
        checkOpen();
        final int eb = (int) layout.byteSize();
        final long bytes = Elements.check(length, index, stride, count, eb);
        if (bytes > declared - written) {
            checkRoom((int) Math.min(Integer.MAX_VALUE, bytes));
        }
        int i = index;
        int left = count;
        while (left > 0) {
            final int fit = roomInFrame() / eb;
            if (fit == 0) {
                Elements.toSegment(src, i, scratchSegment, layout, 0);
                sendPiece(scratch, 0, eb);
                i += stride;
                left--;
                continue;
            }
            final int n = Math.min(fit, left);
            Elements.toSegment(src, i, stride, n, frame.segment(), layout, frame.payloadOffset() + framePos);
            i += n * stride;
            framePos += n * eb;
            written += n * eb;
            left -= n;
        }
    }

    @Override
    public void sendInt(final int value) {
        sendScalar(value, Integer.BYTES);
    }

    @Override
    public void sendLong(final long value) {
        sendScalar(value, Long.BYTES);
    }

    /**
     * Appends an int or a long: straight into the frame if it fits there (taking the message's first frame, or the
     * next one after a full frame, as a piece would), else as a piece that spans frames.
     */
    private void sendScalar(final long value, final int width) {
        checkOpen();
        checkRoom(width);
        final boolean direct = roomInFrame() >= width;
        final byte[] target = direct ? frame.array() : scratch;
        final int at = direct ? frame.payloadOffset() + framePos : 0;
        if (width == Long.BYTES) {
            FmFrameDescriptor.LONG.set(target, at, value);
        } else {
            FmFrameDescriptor.INT.set(target, at, (int) value);
        }
        if (direct) {
            framePos += width;
            written += width;
        } else {
            gather(scratch, 0, width);
        }
    }

    @Override
    public void endMessage() {
        checkOpen();
        if (frame == null) {
            frame = flow.acquireDataFrame(dest);
            framePos = 0;
        }
        final Frame f = frame;
        frame = null;
        open = false;
        send.sendData(f, dest, flags(true), handler, declared, framePos);
        ep.messageSent(written);
    }

    /** Room in the current frame, sending the held full frame and taking a new one first if needed. */
    private int roomInFrame() {
        if (frame == null) {
            frame = flow.acquireDataFrame(dest);
            framePos = 0;
        } else if (framePos == frameBytes) {
            final Frame full = frame;
            frame = null;
            send.sendData(full, dest, flags(false), handler, declared, frameBytes);
            first = false;
            frame = flow.acquireDataFrame(dest);
            framePos = 0;
        }
        return frameBytes - framePos;
    }

    private int flags(final boolean last) {
        return (first ? FmFrameDescriptor.FLAG_FIRST : 0) | (last ? FmFrameDescriptor.FLAG_LAST : 0);
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("no message is open on PE " + ep.pe() + " (endMessage was called, or "
                + "beginMessage was not)");
        }
        ep.checkUsable();
    }

    private void checkRoom(final int lengthBytes) {
        if (lengthBytes > declared - written) {
            throw new IllegalArgumentException("piece of " + lengthBytes + " bytes after " + written
                + " would exceed the declared length=" + declared + " of the message to PE " + dest);
        }
    }
}
