package org.jhpvm.fabric.internal;

import org.jctools.queues.MpscArrayQueue;
import org.jhpvm.fabric.Frame;

/**
 * One NIC's pool of frames. Frames go back from any thread (the receiver that read them) into a JCTools MPSC
 * queue; the single taker (the host, or the NIC engine for the spare pool) keeps a private stack and refills it
 * from that queue only when the stack runs dry, so taking a frame costs no cross-core traffic most of the time.
 * Holds a fixed number of frames for the NIC's whole life: nothing is allocated after construction.
 */
final class FramePool extends FramePoolPad {
    private final MpscArrayQueue<Frame> returns;
    private final int frames;

    FramePool(final Object origin, final int owner, final int home, final int headerBytes, final int frameBytes,
              final int frames) {
        super(frames);
        this.frames = frames;
        this.returns = new MpscArrayQueue<>(Math.max(2, frames));
        for (int i = 0; i < frames; i++) {
            stack[top++] = new Frame(origin, owner, home, headerBytes, frameBytes);
        }
    }

    /** Taker only. @return a free frame (state still FREE), or null if all are out */
    Frame take() {
        if (top == 0 && refill() == 0) {
            return null;
        }
        final Frame frame = stack[--top];
        stack[top] = null;
        return frame;
    }

    /** Taker only. Gives a frame back without the queue; the caller has already set it FREE. */
    void giveLocal(final Frame frame) {
        stack[top++] = frame;
    }

    /** Any thread. Gives a frame back; the caller has already set it FREE. */
    void give(final Frame frame) {
        if (!returns.offer(frame)) {
            throw new IllegalStateException("pool overflow: more than " + frames + " frames returned to a pool of "
                + frames + " (a frame was released twice)");
        }
    }

    private int refill() {
        int n = 0;
        Frame f;
        while (top < stack.length && (f = returns.relaxedPoll()) != null) {
            stack[top++] = f;
            n++;
        }
        return n;
    }

    int frames() {
        return frames;
    }

    /** @return heap bytes of the pool without its frames: the object, the stack and the return queue */
    long footprintBytes() {
        return HeapFootprint.PADDED_OBJECT + HeapFootprint.refArray(stack.length) + HeapFootprint.queue(
            returns.capacity());
    }
}

/** The taker's private stack: written on every take, so kept off the line that releasing threads read. */
abstract class FramePoolTaker extends CacheLinePadding {
    final Frame[] stack;
    int top;
    int p01;
    int p02;

    FramePoolTaker(final int frames) {
        stack = new Frame[frames];
    }
}

/** Padding between the taker's fields and the fields releasing threads read. */
abstract class FramePoolPad extends FramePoolTaker {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;

    FramePoolPad(final int frames) {
        super(frames);
    }
}
