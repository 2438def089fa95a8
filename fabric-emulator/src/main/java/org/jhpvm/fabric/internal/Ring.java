package org.jhpvm.fabric.internal;

import org.jctools.queues.SpscArrayQueue;
import org.jhpvm.fabric.Frame;

/**
 * A host ring: a JCTools SPSC array queue of frames holding at most {@code capacity} frames. JCTools rounds its
 * array up to a power of two (at least 4); when that differs from the configured capacity the producer checks
 * the occupancy first, so a ring of capacity 1 really holds one frame.
 * <p>
 * One producer and one consumer at a time; a role may pass between threads only through a lock that orders
 * the hand-over (the NIC engine lock for the send ring's consumer, the switch port lock for the receive ring's
 * producer).
 */
final class Ring {
    private final SpscArrayQueue<Frame> queue;
    private final int capacity;
    private final boolean exact;

    Ring(final int capacity) {
        this.queue = new SpscArrayQueue<>(capacity);
        this.capacity = capacity;
        this.exact = queue.capacity() == capacity;
    }

    /** @return true if the frame was queued, false if the ring is full */
    boolean offer(final Frame frame) {
        if (!exact && queue.size() >= capacity) {
            return false;
        }
        return queue.offer(frame);
    }

    Frame poll() {
        return queue.relaxedPoll();
    }

    Frame peek() {
        return queue.relaxedPeek();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    int size() {
        return queue.size();
    }

    /** @return the size of the queue's slot array as JCTools allocates it */
    int slots() {
        return queue.capacity();
    }
}
