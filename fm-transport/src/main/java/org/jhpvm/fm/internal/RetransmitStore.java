package org.jhpvm.fm.internal;

/**
 * The sender's copies of data frames not yet acknowledged (FM 1.0's space "reserved locally for each outstanding
 * packet"): a fixed number of slots, each FM's header and a frame's payload, linked per destination in sequence
 * order. Its size is the PE's send window, whatever the number of PEs. Single-threaded.
 */
final class RetransmitStore {
    static final int NONE = -1;

    final byte[][] data;
    final int[] next;
    final int[] peer;
    final int[] seq;
    final int[] length;
    private final int[] free;
    private int freeCount;

    RetransmitStore(final int slots, final int frameBytes) {
        data = new byte[slots][FmFrameDescriptor.HEADER_BYTES + frameBytes];
        next = new int[slots];
        peer = new int[slots];
        seq = new int[slots];
        length = new int[slots];
        free = new int[slots];
        for (int i = 0; i < slots; i++) {
            free[i] = slots - 1 - i;
            peer[i] = NONE;
        }
        freeCount = slots;
    }

    int slots() {
        return data.length;
    }

    int used() {
        return data.length - freeCount;
    }

    boolean hasFree() {
        return freeCount > 0;
    }

    int take() {
        return free[--freeCount];
    }

    void give(final int slot) {
        peer[slot] = NONE;
        next[slot] = NONE;
        free[freeCount++] = slot;
    }

    long footprintBytes() {
        long bytes = 16L + 4L * data.length;
        for (final byte[] d : data) {
            bytes += 16 + d.length;
        }
        return bytes + 5 * (16L + 4L * data.length);
    }
}
