package org.jhpvm.fabric.internal;

import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.Completion;
import org.jhpvm.fabric.CompletionQueue;
import org.jhpvm.fabric.NicInterruptedException;

/**
 * A NIC's completion queue on the emulated Myrinet. The emulated NIC finishes a request while its host posts it (its
 * engine runs on the host's turn, as the frame engine does), so producer and consumer are the same host thread and
 * the queue is a plain ring; {@link #reserve()} keeps a request from being posted without room for its completion.
 */
final class CompletionRing implements CompletionQueue {
    private final MyrinetFabric fabric;
    private final int capacity;
    private final int[] op;
    private final int[] status;
    private final long[] length;
    private final long[] context;
    private final BackoffIdleStrategy idle;
    private long head;
    private long tail;

    CompletionRing(final MyrinetFabric fabric, final int capacity, final BackoffIdleStrategy idle) {
        this.fabric = fabric;
        this.capacity = capacity;
        this.op = new int[capacity];
        this.status = new int[capacity];
        this.length = new long[capacity];
        this.context = new long[capacity];
        this.idle = idle;
    }

    /** @return true if a completion fits (a request may be posted) */
    boolean reserve() {
        return tail - head < capacity;
    }

    /** Adds a completion; the caller checked {@link #reserve()}. */
    void add(final int requestOp, final int requestStatus, final long lengthBytes, final long requestContext) {
        final int i = (int) (tail % capacity);
        op[i] = requestOp;
        status[i] = requestStatus;
        length[i] = lengthBytes;
        context[i] = requestContext;
        tail++;
    }

    @Override
    public boolean poll(final Completion into) {
        fabric.checkOpen();
        if (head == tail) {
            return false;
        }
        final int i = (int) (head % capacity);
        into.set(op[i], status[i], length[i], context[i]);
        head++;
        return true;
    }

    @Override
    public boolean await(final Completion into, final long timeoutNs) {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        idle.reset();
        while (!poll(into)) {
            if (timeoutNs <= 0 || System.nanoTime() - deadlineNs >= 0) {
                return false;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new NicInterruptedException("interrupted waiting for a completion");
            }
            idle.idle(0);
        }
        return true;
    }

    @Override
    public int size() {
        return (int) (tail - head);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    long footprintBytes() {
        return HeapFootprint.PADDED_OBJECT + 2L * (16 + 4L * capacity) + 2L * (16 + 8L * capacity);
    }
}
