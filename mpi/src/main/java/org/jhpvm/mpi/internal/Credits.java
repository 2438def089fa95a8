package org.jhpvm.mpi.internal;

import org.jhpvm.fm.FastMessages;

/**
 * The eager protocol's flow control, per peer: the credit this rank holds at each receiver (the bytes of unexpected
 * data it may still make that receiver hold), and what it owes each sender once their eager data has been consumed.
 * Owed credit goes back in one small message per sender once it reaches a quarter of the sender's share, so a
 * stream of small messages costs few credit messages.
 */
final class Credits {
    /** What an eager message costs in credit beyond its data. */
    static final int OVERHEAD = 64;

    private final int handler;
    private final long perPeer;
    private final long[] held;
    private final long[] owed;
    private final boolean[] queued;
    private final int[] queue;
    private int head;
    private int count;

    /**
     * @param peers   the job's ranks
     * @param perPeer each sender's share of this rank's unexpected-data budget
     * @param handler the FM handler id of a credit message
     */
    Credits(final int peers, final long perPeer, final int handler) {
        this.handler = handler;
        this.perPeer = perPeer;
        this.held = new long[peers];
        this.owed = new long[peers];
        this.queued = new boolean[peers];
        this.queue = new int[peers];
        java.util.Arrays.fill(held, perPeer);
    }

    /** Takes the credit for an eager message of {@code bytes} to {@code peer}, if there is that much. */
    boolean take(final int peer, final long bytes) {
        if (held[peer] < bytes + OVERHEAD) {
            return false;
        }
        held[peer] -= bytes + OVERHEAD;
        return true;
    }

    /** Credit {@code peer} sent back (a credit message's handler). */
    void returned(final int peer, final long bytes) {
        held[peer] += bytes;
    }

    /** Owes {@code peer} the credit of an eager message of {@code bytes} whose data has been consumed. */
    void owe(final int peer, final long bytes) {
        owed[peer] += bytes + OVERHEAD;
        if (!queued[peer] && owed[peer] >= perPeer / 4) {
            queued[peer] = true;
            queue[(head + count++) % queue.length] = peer;
        }
    }

    /** Whether credit is waiting to go back. */
    boolean pending() {
        return count > 0;
    }

    /**
     * Sends the credit waiting to go back (outside handlers).
     *
     * @return true if anything was sent
     */
    boolean send(final FastMessages fm) {
        boolean any = false;
        while (count > 0) {
            final int peer = queue[head];
            head = (head + 1) % queue.length;
            count--;
            queued[peer] = false;
            final long n = owed[peer];
            owed[peer] = 0;
            fm.send4(peer, handler, (int) n, 0, 0, 0);
            any = true;
        }
        return any;
    }
}
