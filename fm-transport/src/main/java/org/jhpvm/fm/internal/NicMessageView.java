package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.NicMessage;
import org.jhpvm.fm.FmNicMessage;

/**
 * What an {@link org.jhpvm.fm.FmNicHandler} sees, over either carrier: bound to the fabric's NIC message where the
 * NIC runs the handler (the request in its frame, the target's regions and the reply are the NIC's), or to FM's
 * staging where a message carried the request (the regions are the endpoint's table, the reply collects in a staging
 * frame the endpoint sends back). Reused: where the NIC runs handlers, each sending thread has its own (handlers of
 * different senders run at the same time); on FM's message path the endpoint has one.
 */
final class NicMessageView implements FmNicMessage {
    private static final ThreadLocal<NicMessageView> ON_NIC = ThreadLocal.withInitial(NicMessageView::new);

    private MemorySegment request;
    private long base;
    private int length;
    private int pos;
    private int sender;
    // where the NIC runs the handler
    private NicMessage nicMessage;
    private MemoryRegion lastRegion;
    // where FM's messages carry the request
    private FmRegionTable table;
    private RegionImpl lastLocal;
    private MemorySegment reply;
    private long replyCapacity;
    private long replyLength;
    private boolean rejected;
    private boolean overflowed;

    /** @return this thread's view for handlers the NIC runs */
    static NicMessageView onNic() {
        return ON_NIC.get();
    }

    void bindNic(final NicMessage m) {
        this.nicMessage = m;
        this.request = m.frame().segment();
        this.base = m.frame().payloadOffset();
        this.length = m.frame().length();
        this.pos = 0;
        this.sender = m.source();
        this.lastRegion = null;
        this.table = null;
    }

    void bindMessage(final int from, final MemorySegment staged, final int requestLength, final FmRegionTable regions,
                     final MemorySegment replyStaging, final long capacity) {
        this.nicMessage = null;
        this.request = staged;
        this.base = 0;
        this.length = requestLength;
        this.pos = 0;
        this.sender = from;
        this.table = regions;
        this.lastLocal = null;
        this.reply = replyStaging;
        this.replyCapacity = capacity;
        this.replyLength = 0;
        this.rejected = false;
        this.overflowed = false;
    }

    void unbind() {
        nicMessage = null;
        lastRegion = null;
        lastLocal = null;
        table = null;
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

    @Override
    public int sender() {
        return sender;
    }

    @Override
    public int lengthBytes() {
        return length;
    }

    @Override
    public int receiveInt() {
        take(Integer.BYTES);
        final int v = request.get((ValueLayout.OfInt) Elements.INT, base + pos);
        pos += Integer.BYTES;
        return v;
    }

    @Override
    public long receiveLong() {
        take(Long.BYTES);
        final long v = request.get((ValueLayout.OfLong) Elements.LONG, base + pos);
        pos += Long.BYTES;
        return v;
    }

    @Override
    public void receive(final Object dst, final int index, final int stride, final int count) {
        final ValueLayout layout = Elements.layoutOf(dst);
        final int eb = (int) layout.byteSize();
        final long bytes = Elements.check(Elements.lengthOf(dst), index, stride, count, eb);
        take(bytes);
        Elements.fromSegment(request, layout, base + pos, dst, index, stride, count);
        pos += (int) bytes;
    }

    @Override
    public void skip(final int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("skip of " + bytes + " bytes");
        }
        take(bytes);
        pos += bytes;
    }

    @Override
    public void rewind() {
        pos = 0;
    }

    @Override
    public MemorySegment requestSegment() {
        return request;
    }

    @Override
    public long requestOffset() {
        return base;
    }

    private void take(final long bytes) {
        if (bytes > length - pos) {
            throw new IndexOutOfBoundsException("reading " + bytes + " bytes after " + pos + " goes past the end of "
                + "the " + length + "-byte NIC message from PE " + sender);
        }
    }

    @Override
    public Object memory(final int handle, final int key) {
        if (nicMessage != null) {
            final MemoryRegion r = nicMessage.region(handle, key);
            lastRegion = r;
            return r == null ? null : r.memory();
        }
        final RegionImpl r = table.lookup(handle);
        if (r == null || r.key != key) {
            return null;
        }
        lastLocal = r;
        return r.memory;
    }

    @Override
    public void replyLong(final long value) {
        if (nicMessage != null) {
            nicMessage.replyLong(value);
            return;
        }
        room(Long.BYTES);
        reply.set((ValueLayout.OfLong) Elements.LONG, replyLength, value);
        replyLength += Long.BYTES;
    }

    @Override
    public void reply(final Object src, final int index, final int stride, final int count) {
        final ValueLayout layout = Elements.layoutOf(src);
        final int eb = (int) layout.byteSize();
        Elements.check(Elements.lengthOf(src), index, stride, count, eb);
        if (nicMessage != null) {
            // The NIC replies from a segment: the region just looked up holds the source (a handler replies from
            // registered memory); anything else gets a view of its own.
            final MemorySegment from = lastRegion != null && lastRegion.memory() == src ? lastRegion.segment()
                : MemoryRegion.segmentOf(src);
            if (stride == 1) {
                nicMessage.reply(from, (long) index * eb, (long) count * eb);
            } else {
                for (int k = 0, i = index; k < count; k++, i += stride) {
                    nicMessage.reply(from, (long) i * eb, eb);
                }
            }
            return;
        }
        room((long) count * eb);
        Elements.toSegment(src, index, stride, count, reply, layout, replyLength);
        replyLength += (long) count * eb;
    }

    private void room(final long bytes) {
        if (replyLength + bytes > replyCapacity) {
            overflowed = true;
            throw new IndexOutOfBoundsException("reply of " + (replyLength + bytes) + " bytes exceeds the "
                + replyCapacity + " the sender gave");
        }
    }

    @Override
    public void memoryUnchanged() {
        if (nicMessage != null) {
            nicMessage.memoryUnchanged();
        }
    }

    @Override
    public void reject() {
        if (nicMessage != null) {
            nicMessage.reject();
        } else {
            rejected = true;
        }
    }
}
