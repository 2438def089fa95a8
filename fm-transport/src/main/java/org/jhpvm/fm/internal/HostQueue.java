package org.jhpvm.fm.internal;

import org.jhpvm.fabric.Frame;

/**
 * FM's host receive queue: data frames accepted from the NIC while the PE was not extracting (or read ahead by
 * extract), held by reference, in arrival order, up to a fixed count. Frames of one sender stay in order. Extract
 * may take a later frame of one sender out of the middle (an inline handler reading its message ahead), which
 * leaves a hole that {@link #poll()} skips. Single-threaded.
 */
final class HostQueue {
    private final Frame[] frames;
    private final int mask;
    private final int capacity;
    private long head;
    private long tail;
    private int count;

    HostQueue(final int capacity) {
        this.capacity = capacity;
        int size = 1;
        while (size < capacity) {
            size <<= 1;
        }
        this.frames = new Frame[size];
        this.mask = size - 1;
    }

    int count() {
        return count;
    }

    boolean isFull() {
        return tail - head >= capacity;
    }

    boolean isEmpty() {
        return count == 0;
    }

    void add(final Frame frame) {
        frames[(int) tail++ & mask] = frame;
        count++;
    }

    /** @return the oldest frame, or null */
    Frame poll() {
        while (head < tail) {
            final int i = (int) head++ & mask;
            final Frame f = frames[i];
            if (f != null) {
                frames[i] = null;
                count--;
                return f;
            }
        }
        return null;
    }

    /** @return true if a frame from {@code source} with the LAST flag is queued */
    boolean hasLastFrom(final int source) {
        for (long i = head; i < tail; i++) {
            final Frame f = frames[(int) i & mask];
            if (f != null && f.source() == source
                && (FmFrameDescriptor.flags(f.getHeaderInt(FmFrameDescriptor.WORD_OFFSET))
                & FmFrameDescriptor.FLAG_LAST) != 0) {
                return true;
            }
        }
        return false;
    }

    /** @return the oldest queued frame from {@code source}, taken out of the queue, or null */
    Frame takeFirstFrom(final int source) {
        for (long i = head; i < tail; i++) {
            final int j = (int) i & mask;
            final Frame f = frames[j];
            if (f != null && f.source() == source) {
                frames[j] = null;
                count--;
                if (i == head) {
                    head++;
                }
                return f;
            }
        }
        return null;
    }

    long footprintBytes() {
        return 16L + 4L * frames.length + 48;
    }
}
