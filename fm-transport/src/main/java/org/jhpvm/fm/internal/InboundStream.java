package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

import org.jhpvm.fabric.Bytes;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmInputStream;

/**
 * The message currently arriving from one sender, and the handler running on it. A handler runs inline on the
 * extracting thread when its whole message is already there (one frame, or its LAST frame queued); otherwise it
 * runs on a virtual thread that hands control back to extract whenever it needs a frame that has not arrived, and
 * is resumed by extract when the frame comes (a coroutine: the two never run at once, so the endpoint stays
 * single-threaded). Frames of other senders are handled meanwhile.
 * <p>
 * A receive that needs more bytes than the current frame holds does not wake its handler frame by frame: the handler
 * leaves the rest of the receive (its destination and length) here and sleeps, and extract copies each following frame
 * of the message straight into that destination, waking the handler once, when the receive is complete or the message
 * has ended. A 1 MiB message received in one call costs one hand-off instead of one per frame (64 of them with 16 KiB
 * frames; a hand-off costs a park and an unpark, tens of microseconds when the two threads do not share a core).
 */
final class InboundStream implements FmInputStream, Runnable {
    private static final VarHandle INT = FmFrameDescriptor.INT;
    private static final VarHandle LONG = FmFrameDescriptor.LONG;

    private static final int IDLE = 0;
    private static final int INLINE = 1;
    private static final int THREAD = 2;
    private static final int TURN_EXTRACT = 0;
    private static final int TURN_HANDLER = 1;
    private static final int HANDOFF_SPINS = 200;
    private static final long HANDOFF_PARK_NS = 200_000;
    /** Typed receives may be filled as raw bytes only where the wire's order (little endian) is the machine's. */
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final Endpoint ep;
    private final int source;
    private final byte[] scratch = new byte[8];
    private final MemorySegment scratchSegment = MemorySegment.ofArray(scratch);
    private int mode = IDLE;
    private boolean skipping;
    private FmHandler handler;
    private int handlerId;
    private int declared;
    private int received;
    private Frame frame;
    private int pos;
    private int limit;
    private boolean frameLast;
    private Thread runner;
    private Thread extractor;
    private volatile int turn;
    private boolean finished;
    private Throwable failure;
    // The rest of a suspended handler's receive, filled by extract (see the class comment): bytes go to pendingBytes
    // (a byte[]) or else to pendingSegment, at pendingOffset; pendingLeft bytes are still wanted.
    private byte[] pendingBytes;
    private MemorySegment pendingSegment;
    private long pendingOffset;
    private long pendingLeft;

    InboundStream(final Endpoint ep, final int source) {
        this.ep = ep;
        this.source = source;
    }

    /** A data frame of this sender, in order, handed over by extract. */
    void onFrame(final Frame f, final int word) {
        if (mode == THREAD) {
            resume(f, word);
            return;
        }
        final int flags = FmFrameDescriptor.flags(word);
        final boolean last = (flags & FmFrameDescriptor.FLAG_LAST) != 0;
        if (skipping) {
            ep.consume(f);
            skipping = !last;
            return;
        }
        if ((flags & FmFrameDescriptor.FLAG_FIRST) == 0) {
            ep.consume(f);
            throw new IllegalStateException("frame from PE " + source + " is not the start of a message");
        }
        final int id = FmFrameDescriptor.handler(word);
        final FmHandler h = ep.handler(id);
        if (h == null) {
            skipping = !last;
            ep.consume(f);
            throw new IllegalStateException("message from PE " + source + " names handler " + id
                + ", which is not registered on PE " + ep.pe() + "; the message was discarded");
        }
        handler = h;
        handlerId = id;
        declared = (int) INT.get(f.array(), f.headerOffset() + FmFrameDescriptor.DECLARED_OFFSET);
        received = 0;
        setFrame(f, last);
        if (last || ep.inlineWholeMessages() && ep.readAheadHasLast(source, declared)) {
            runInline();
        } else {
            runThread();
        }
    }

    boolean isSuspended() {
        return mode == THREAD;
    }

    private void setFrame(final Frame f, final boolean last) {
        frame = f;
        pos = 0;
        limit = f.length();
        frameLast = last;
    }

    private void runInline() {
        mode = INLINE;
        extractor = Thread.currentThread();
        ep.counters.increment(Counters.HANDLERS_INLINE);
        ep.enterHandler();
        try {
            handler.onMessage(this, source);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw handlerFailed(e);
        } finally {
            ep.leaveHandler();
            mode = IDLE;
            endMessage();
        }
    }

    private void runThread() {
        mode = THREAD;
        finished = false;
        failure = null;
        ep.counters.increment(Counters.HANDLERS_SUSPENDED);
        runner = Thread.ofVirtual().name("jhpvm-fm-handler-pe" + ep.pe() + "-from" + source).unstarted(this);
        extractor = Thread.currentThread();
        turn = TURN_HANDLER;
        ep.enterHandler();
        runner.start();
        awaitHandler();
    }

    private void resume(final Frame f, final int word) {
        setFrame(f, (FmFrameDescriptor.flags(word) & FmFrameDescriptor.FLAG_LAST) != 0);
        if (pendingLeft > 0) {
            fillPending();
            if (pendingLeft > 0 && !frameLast) {
                // The handler's receive wants the next frame too: it sleeps on, and this frame is used up.
                frame = null;
                ep.consume(f);
                return;
            }
        }
        ep.counters.increment(Counters.HANDLER_RESUMES);
        extractor = Thread.currentThread();
        ep.enterHandler();
        turn = TURN_HANDLER;
        LockSupport.unpark(runner);
        awaitHandler();
    }

    /** Extract's side of the hand-off: wait until the handler needs a frame or has returned. */
    private void awaitHandler() {
        try {
            for (int i = 0; i < HANDOFF_SPINS && turn == TURN_HANDLER; i++) {
                Thread.onSpinWait();
            }
            while (turn == TURN_HANDLER) {
                LockSupport.parkNanos(this, HANDOFF_PARK_NS);
                if (turn == TURN_HANDLER) {
                    ep.checkUsable();
                }
            }
        } finally {
            ep.leaveHandler();
        }
        if (finished) {
            final Thread r = runner;
            runner = null;
            mode = IDLE;
            final Throwable t = failure;
            failure = null;
            joinQuietly(r);
            if (t instanceof RuntimeException e) {
                throw e;
            }
            if (t instanceof Error e) {
                throw e;
            }
            if (t != null) {
                throw handlerFailed(t);
            }
        }
    }

    /** The handler's virtual thread. */
    @Override
    public void run() {
        try {
            handler.onMessage(this, source);
        } catch (Throwable t) {
            failure = t;
        } finally {
            try {
                endMessage();
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                }
            }
            finished = true;
            turn = TURN_EXTRACT;
            LockSupport.unpark(extractor);
        }
    }

    /** The handler's side: give the consumed frame back and wait for extract to hand over the next one. */
    private void awaitNextFrame() {
        turn = TURN_EXTRACT;
        LockSupport.unpark(extractor);
        while (turn == TURN_EXTRACT) {
            LockSupport.parkNanos(this, HANDOFF_PARK_NS);
            if (turn == TURN_EXTRACT) {
                ep.checkUsable();
            }
        }
    }

    /** Extract's side of a receive that spans frames: copies what the current frame holds of it. */
    private void fillPending() {
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

    /** Whether a receive whose current frame is used up should leave the rest to extract. */
    private boolean spansFrames() {
        return pos == limit && mode == THREAD && !frameLast;
    }

    /** After the handler returned: discard what it did not receive. */
    private void endMessage() {
        final Frame f = frame;
        if (f != null) {
            frame = null;
            skipping = !frameLast;
            ep.consume(f);
        }
        ep.messageHandled(received);
        handler = null;
    }

    /** The current frame is used up: move to the next frame of the message, if there is one. */
    private boolean nextFrame() {
        if (frameLast) {
            return false;
        }
        final Frame old = frame;
        frame = null;
        ep.consume(old);
        if (mode == INLINE) {
            final Frame f = ep.queue.takeFirstFrom(source);
            if (f == null) {
                throw new IllegalStateException("frame of the message from PE " + source + " missing from the queue");
            }
            setFrame(f, (FmFrameDescriptor.flags(f.getHeaderInt(FmFrameDescriptor.WORD_OFFSET))
                & FmFrameDescriptor.FLAG_LAST) != 0);
        } else {
            awaitNextFrame();
        }
        return true;
    }

    private void checkActive() {
        final Thread expected = mode == INLINE ? extractor : mode == THREAD ? runner : null;
        if (expected == null || Thread.currentThread() != expected || handler == null) {
            throw new IllegalStateException("receive called outside the handler of this message");
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
    void receiveSegment(final MemorySegment dst, final long offset, final long lengthBytes) {
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
            if (stride == 1 && NATIVE_LE && mode == THREAD && !frameLast && (long) left * eb > limit - pos) {
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

    private IllegalStateException endedEarly(final long wanted) {
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

    /** Ends a suspended handler at close or abort. */
    void wakeForClose() {
        final Thread r = runner;
        if (r != null) {
            LockSupport.unpark(r);
            joinQuietly(r);
        }
    }

    private static void joinQuietly(final Thread t) {
        if (t == null) {
            return;
        }
        try {
            t.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private RuntimeException handlerFailed(final Throwable t) {
        return new IllegalStateException("FM handler " + handlerId + " for a message from PE " + source + " threw "
            + t, t);
    }
}
