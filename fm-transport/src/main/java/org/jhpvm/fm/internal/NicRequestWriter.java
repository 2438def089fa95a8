package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.jhpvm.fm.FmOutputStream;

/**
 * The output stream of a NIC message: the request is written straight into one frame's payload (where the NIC
 * carries it) or into a staging frame (where FM's messages do), in FM's wire layout (little endian, typed pieces
 * packed), so that the handler reads it with the same typed receives. {@link #endMessage()} hands it to the
 * endpoint's offload, which sends it.
 * <p>
 * The endpoint's thread only; one per endpoint, reused.
 */
final class NicRequestWriter implements FmOutputStream {
    private final NicOffload offload;
    private MemorySegment target;
    private long base;
    private int declared;
    private int written;
    private boolean open;

    NicRequestWriter(final NicOffload offload) {
        this.offload = offload;
    }

    void begin(final MemorySegment into, final long offset, final int lengthBytes) {
        this.target = into;
        this.base = offset;
        this.declared = lengthBytes;
        this.written = 0;
        this.open = true;
    }

    boolean isOpen() {
        return open;
    }

    @Override
    public void sendPiece(final byte[] src, final int offset, final int lengthBytes) {
        Objects.checkFromIndexSize(offset, lengthBytes, src.length);
        room(lengthBytes);
        MemorySegment.copy(src, offset, target, ValueLayout.JAVA_BYTE, base + written, lengthBytes);
        written += lengthBytes;
    }

    @Override
    public void sendBytes(final byte[] src, final int index, final int stride, final int count) {
        elements(src, src.length, Elements.BYTE, index, stride, count);
    }

    @Override
    public void sendInts(final int[] src, final int index, final int stride, final int count) {
        elements(src, src.length, Elements.INT, index, stride, count);
    }

    @Override
    public void sendLongs(final long[] src, final int index, final int stride, final int count) {
        elements(src, src.length, Elements.LONG, index, stride, count);
    }

    @Override
    public void sendFloats(final float[] src, final int index, final int stride, final int count) {
        elements(src, src.length, Elements.FLOAT, index, stride, count);
    }

    @Override
    public void sendDoubles(final double[] src, final int index, final int stride, final int count) {
        elements(src, src.length, Elements.DOUBLE, index, stride, count);
    }

    private void elements(final Object src, final int length, final ValueLayout layout, final int index,
                          final int stride, final int count) {
        checkOpen();
        final int eb = (int) layout.byteSize();
        final long bytes = Elements.check(length, index, stride, count, eb);
        room(bytes);
        final long at = base + written;
        if (stride == 1) {
            MemorySegment.copy(src, index, target, layout, at, count);
        } else {
            for (int k = 0, i = index; k < count; k++, i += stride) {
                MemorySegment.copy(src, i, target, layout, at + (long) k * eb, 1);
            }
        }
        written += (int) bytes;
    }

    @Override
    public void sendInt(final int value) {
        room(Integer.BYTES);
        target.set((ValueLayout.OfInt) Elements.INT, base + written, value);
        written += Integer.BYTES;
    }

    @Override
    public void sendLong(final long value) {
        room(Long.BYTES);
        target.set((ValueLayout.OfLong) Elements.LONG, base + written, value);
        written += Long.BYTES;
    }

    @Override
    public int lengthBytes() {
        return written;
    }

    @Override
    public void endMessage() {
        checkOpen();
        open = false;
        offload.send(written);
    }

    private void room(final long bytes) {
        checkOpen();
        if (bytes > declared - written) {
            throw new IllegalArgumentException("piece of " + bytes + " bytes after " + written
                + " would exceed the declared length=" + declared + " of the NIC message");
        }
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("no NIC message is open (endMessage was called, or beginNicMessage was "
                + "not)");
        }
    }
}
