package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

import org.jhpvm.fabric.Frame;
import org.jhpvm.fm.FmHandler;

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
final class InboundStream extends MessageCursor implements Runnable {
    /**
     * One of FM's own handlers that reads a header from the first frame of its message and then receives the rest into
     * memory with {@link #receiveSegmentThen}, doing nothing else: it runs inline on the extracting thread even when the
     * rest of its message has not arrived, and extract fills the receive frame by frame as the frames come. No virtual
     * thread, no hand-off.
     */
    interface SinkHandler extends FmHandler {
    }

    /** What a {@link SinkHandler} does once its receive is complete (on the extracting thread; allocates nothing). */
    interface SinkDone {
        /**
         * @param context the handler's object
         * @param a       the handler's first number
         * @param b       the handler's second number
         */
        void received(Object context, long a, long b);
    }

    private static final int IDLE = 0;
    private static final int INLINE = 1;
    private static final int THREAD = 2;
    /** A {@link SinkHandler} runs inline on a message whose rest has not arrived (see {@link #runOnExtract}). */
    private static final int SINK_START = 3;
    /** The sink handler has returned, leaving its receive to extract; the message's frames go there. */
    private static final int SINK = 4;
    private static final int TURN_EXTRACT = 0;
    private static final int TURN_HANDLER = 1;
    private static final int HANDOFF_SPINS = 200;
    private static final long HANDOFF_PARK_NS = 200_000;

    private final Endpoint ep;
    private int mode = IDLE;
    private boolean skipping;
    private FmHandler handler;
    private Thread runner;
    private Thread extractor;
    private volatile int turn;
    private boolean finished;
    private Throwable failure;
    // What a sink handler does when its receive is complete.
    private SinkDone sinkDone;
    private Object sinkContext;
    private long sinkA;
    private long sinkB;

    InboundStream(final Endpoint ep, final int source) {
        super(source);
        this.ep = ep;
    }

    /** A data frame of this sender, in order, handed over by extract. */
    void onFrame(final Frame f, final int word) {
        if (mode == THREAD) {
            resume(f, word);
            return;
        }
        if (mode == SINK) {
            sinkFrame(f, word);
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
            runOnExtract(INLINE);
        } else if (h instanceof SinkHandler) {
            runOnExtract(SINK_START);
        } else {
            runThread();
        }
    }

    boolean isSuspended() {
        return mode == THREAD || mode == SINK;
    }

    /**
     * Runs the handler on the extracting thread: on a whole message ({@code INLINE}), or, for a {@link SinkHandler}, on
     * the first frame of a message whose rest has not arrived ({@code SINK_START}). A sink handler reads its header
     * from this frame and calls {@link #receiveSegmentThen}, which takes what this frame holds and leaves the rest to
     * {@link #sinkFrame}; its message ends when that receive is complete.
     */
    private void runOnExtract(final int startMode) {
        mode = startMode;
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
            if (mode == SINK) {
                final Frame f = frame; // used up: the receive goes on in the next frames
                frame = null;
                ep.consume(f);
            } else {
                clearSink();
                mode = IDLE;
                endMessage();
            }
        }
    }

    /** A frame of a message whose sink handler has returned: into its receive; at the end, its done step. */
    private void sinkFrame(final Frame f, final int word) {
        setFrame(f, (FmFrameDescriptor.flags(word) & FmFrameDescriptor.FLAG_LAST) != 0);
        fillPending();
        if (pendingLeft > 0 && !frameLast) {
            frame = null;
            ep.consume(f);
            return;
        }
        final long left = pendingLeft;
        final SinkDone done = sinkDone;
        final Object context = sinkContext;
        final long a = sinkA;
        final long b = sinkB;
        clearSink();
        ep.enterHandler();
        try {
            if (left > 0) {
                throw endedEarly(left);
            }
            done.received(context, a, b);
        } finally {
            ep.leaveHandler();
            mode = IDLE;
            endMessage();
        }
    }

    private void clearSink() {
        pendingSegment = null;
        pendingLeft = 0;
        sinkDone = null;
        sinkContext = null;
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

    /** Whether a receive whose current frame is used up should leave the rest to extract. */
    @Override
    boolean spansFrames() {
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
    @Override
    boolean nextFrame() {
        if (frameLast) {
            return false;
        }
        if (mode == SINK_START) {
            throw new IllegalStateException("FM's handler " + handlerId + " read past the first frame of the message "
                + "from PE " + source + " before its receive");
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

    @Override
    boolean handsOffFrames() {
        return mode == THREAD;
    }

    @Override
    void checkActive() {
        final Thread expected = mode == INLINE || mode == SINK_START ? extractor : mode == THREAD ? runner : null;
        if (expected == null || Thread.currentThread() != expected || handler == null) {
            throw new IllegalStateException("receive called outside the handler of this message");
        }
    }

    /**
     * As {@link #receiveSegment}, then {@code done}: for a {@link SinkHandler}, whose message's rest may not have
     * arrived, the handler returns at once and extract completes the receive and calls {@code done}; for any other
     * handler, both at once. The sink handler's last call.
     */
    void receiveSegmentThen(final MemorySegment dst, final long offset, final long lengthBytes, final SinkDone done,
                            final Object context, final long a, final long b) {
        if (mode != SINK_START) {
            receiveSegment(dst, offset, lengthBytes);
            done.received(context, a, b);
            return;
        }
        checkActive();
        if (lengthBytes > declared - received) {
            throw new IndexOutOfBoundsException("receive of " + lengthBytes + " bytes after " + received
                + " goes beyond the declared length=" + declared + " of the message from PE " + source);
        }
        pendingBytes = null;
        pendingSegment = dst;
        pendingOffset = offset;
        pendingLeft = lengthBytes;
        fillPending();
        if (pendingLeft == 0) {
            pendingSegment = null;
            done.received(context, a, b);
            return;
        }
        if (frameLast) {
            final long left = pendingLeft;
            pendingSegment = null;
            pendingLeft = 0;
            throw endedEarly(left);
        }
        sinkDone = done;
        sinkContext = context;
        sinkA = a;
        sinkB = b;
        mode = SINK;
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
