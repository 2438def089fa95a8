package org.jhpvm.apps.bench;

import org.jctools.queues.SpscArrayQueue;

/**
 * The raw SPSC hop: a ping-pong over two JCTools queues between two threads, each message on its own cache lines
 * (its value at index 8 of 16) so that the baseline suffers no false sharing. One thread calls {@link #ping}, the
 * other {@link #pong}, with the same count; it can be run again for as many rounds as wanted.
 */
final class SpscPingPong {
    private final SpscArrayQueue<long[]> ping;
    private final SpscArrayQueue<long[]> pong;
    private final long[] pingMessage = new long[16];
    private final long[] pongMessage = new long[16];

    /** @param capacity each queue's capacity */
    SpscPingPong(final int capacity) {
        ping = new SpscArrayQueue<>(capacity);
        pong = new SpscArrayQueue<>(capacity);
    }

    /**
     * The pinging side: {@code n} round trips.
     *
     * @param n        round trips
     * @param deadline {@code System.nanoTime()} past which it gives up ({@link FabricBenchmark#spin})
     * @return the elapsed ns
     */
    long ping(final int n, final long deadline) {
        final long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            pingMessage[8] = i;
            ping.offer(pingMessage);
            long[] reply;
            while ((reply = pong.relaxedPoll()) == null) {
                FabricBenchmark.spin(deadline);
            }
            if (reply[8] != i) {
                throw new IllegalStateException("spsc pong " + reply[8] + " != " + i);
            }
        }
        return System.nanoTime() - t0;
    }

    /**
     * The answering side: {@code n} round trips.
     *
     * @param n        round trips
     * @param deadline {@code System.nanoTime()} past which it gives up
     */
    void pong(final int n, final long deadline) {
        for (int i = 0; i < n; i++) {
            long[] m;
            while ((m = ping.relaxedPoll()) == null) {
                FabricBenchmark.spin(deadline);
            }
            pongMessage[8] = m[8];
            pong.offer(pongMessage);
        }
    }
}
