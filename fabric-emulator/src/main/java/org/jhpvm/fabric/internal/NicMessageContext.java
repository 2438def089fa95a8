package org.jhpvm.fabric.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jhpvm.fabric.Bytes;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.NicMessage;

/**
 * What a NIC handler sees of one message, reused by the sending NIC's engine for every message it carries (one host
 * thread sends, so one context per sending NIC suffices, and a message allocates nothing). The reply collects in a
 * scratch buffer of one frame and lands in the sender's reply region only once the handler has returned without
 * refusing, so a refused or overlong reply leaves the sender's memory untouched.
 */
final class NicMessageContext implements NicMessage {
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED
        .withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment reply;
    private int source;
    private Frame frame;
    private RegionTable target;
    private long replyLength;
    private long replyCapacity;
    private boolean rejected;
    private boolean overflowed;
    private boolean unchanged;

    NicMessageContext(final int frameBytes) {
        this.reply = MemorySegment.ofArray(new byte[frameBytes]);
    }

    void begin(final int sourceNic, final Frame request, final RegionTable targetRegions, final long capacity) {
        this.source = sourceNic;
        this.frame = request;
        this.target = targetRegions;
        this.replyLength = 0;
        this.replyCapacity = capacity;
        this.rejected = false;
        this.overflowed = false;
        this.unchanged = false;
    }

    void end() {
        frame = null;
        target = null;
    }

    @Override
    public int source() {
        return source;
    }

    @Override
    public Frame frame() {
        return frame;
    }

    @Override
    public MemoryRegion region(final int handle, final int key) {
        final MemoryRegion r = target.lookup(handle);
        return r != null && r.key() == key ? r : null;
    }

    @Override
    public void reply(final MemorySegment src, final long offsetBytes, final long lengthBytes) {
        if (lengthBytes < 0 || replyLength + lengthBytes > replyCapacity) {
            overflowed = true;
            throw new IndexOutOfBoundsException("reply of " + (replyLength + lengthBytes) + " bytes exceeds the "
                + replyCapacity + " the sender gave");
        }
        if (lengthBytes == Long.BYTES) {
            // One word (a get of one long or double): a load and a store cost less than the bulk copy's set-up. Loaded
            // and stored in the same order, the bytes land as they were.
            reply.set(LONG_LE, replyLength, src.get(LONG_LE, offsetBytes));
        } else {
            Bytes.copy(src, offsetBytes, reply, replyLength, lengthBytes);
        }
        replyLength += lengthBytes;
    }

    @Override
    public void replyLong(final long value) {
        if (replyLength + Long.BYTES > replyCapacity) {
            overflowed = true;
            throw new IndexOutOfBoundsException("reply of " + (replyLength + Long.BYTES) + " bytes exceeds the "
                + replyCapacity + " the sender gave");
        }
        reply.set(LONG_LE, replyLength, value);
        replyLength += Long.BYTES;
    }

    @Override
    public void reject() {
        rejected = true;
    }

    @Override
    public void memoryUnchanged() {
        unchanged = true;
    }

    /** @return whether the handler said it changed none of the target's memory */
    boolean unchanged() {
        return unchanged;
    }

    boolean rejected() {
        return rejected;
    }

    boolean overflowed() {
        return overflowed;
    }

    long replyLength() {
        return replyLength;
    }

    MemorySegment replyBytes() {
        return reply;
    }
}
