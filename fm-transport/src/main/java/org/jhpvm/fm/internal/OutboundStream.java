package org.jhpvm.fm.internal;

import java.util.Objects;

import org.jhpvm.fabric.Frame;
import org.jhpvm.fm.FmOutputStream;

/**
 * The endpoint's one outgoing message: pieces are copied straight into fabric frames (gather); a full frame is held
 * until the next piece shows the message goes on, so that the last frame carries LAST without an empty frame
 * after it. Reused for every message; single-threaded.
 */
final class OutboundStream implements FmOutputStream {
    private final Endpoint ep;
    private final int frameBytes;
    private final byte[] scratch = new byte[8];
    private boolean open;
    private int dest;
    private int handler;
    private int declared;
    private int written;
    private boolean first;
    private Frame frame;
    private int framePos;

    OutboundStream(final Endpoint ep, final int frameBytes) {
        this.ep = ep;
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

    @Override
    public void sendInt(final int value) {
        sendScalar(value, Integer.BYTES);
    }

    @Override
    public void sendLong(final long value) {
        sendScalar(value, Long.BYTES);
    }

    /** Appends an int or a long: straight into the frame if it fits there, else as a piece that spans frames. */
    private void sendScalar(final long value, final int width) {
        checkOpen();
        checkRoom(width);
        final boolean direct = frame != null && frameBytes - framePos >= width;
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
            sendPiece(scratch, 0, width);
        }
    }

    @Override
    public void endMessage() {
        checkOpen();
        if (frame == null) {
            frame = ep.acquireDataFrame(dest);
            framePos = 0;
        }
        final Frame f = frame;
        frame = null;
        open = false;
        ep.sendData(f, dest, flags(true), handler, declared, framePos);
        ep.messageSent(written);
    }

    /** Room in the current frame, sending the held full frame and taking a new one first if needed. */
    private int roomInFrame() {
        if (frame == null) {
            frame = ep.acquireDataFrame(dest);
            framePos = 0;
        } else if (framePos == frameBytes) {
            final Frame full = frame;
            frame = null;
            ep.sendData(full, dest, flags(false), handler, declared, frameBytes);
            first = false;
            frame = ep.acquireDataFrame(dest);
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
