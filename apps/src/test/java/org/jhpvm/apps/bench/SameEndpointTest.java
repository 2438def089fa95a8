package org.jhpvm.apps.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import mpi.MPI;

import org.jhpvm.mpi.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** bench mpi's FM beside MPI on the same endpoint: what each rank runs, and what rank 0 gets. */
class SameEndpointTest {
    @Test
    @Timeout(120)
    void everyBlockShouldRunBothLayersAndRankZeroShouldGetOnePairEach() {
        final AtomicReference<double[]> zero = new AtomicReference<>();
        final AtomicReference<double[]> one = new AtomicReference<>();
        final AtomicIntegerArray received = new AtomicIntegerArray(2);
        final AtomicIntegerArray messages = new AtomicIntegerArray(2);
        MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(100)).build().run(() -> {
            final SameEndpoint p = new SameEndpoint(64);
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final long before = MpiJob.endpoint().counters().messagesSent();
            final double[] d = p.differencesNs(3, 17);
            messages.set(me, (int) (MpiJob.endpoint().counters().messagesSent() - before));
            received.set(me, p.received());
            (me == 0 ? zero : one).set(d);
            MPI.Finalize();
        });
        assertEquals(3, zero.get().length, "a difference per pair of blocks on rank 0");
        assertEquals(0, one.get().length, "nothing on rank 1");
        for (final double d : zero.get()) {
            assertTrue(Double.isFinite(d), "a time difference: " + d);
        }
        // Each block of FM round trips brings 17 pings to each rank.
        assertEquals(3 * 17, received.get(0));
        assertEquals(3 * 17, received.get(1));
        // Each rank sends an MPI message and an FM ping per round trip of each block (and the barrier's messages).
        for (int r = 0; r < 2; r++) {
            assertTrue(messages.get(r) >= 2 * 3 * 17, "rank " + r + " sent " + messages.get(r));
        }
    }

    @Test
    @Timeout(120)
    void aStreamShouldDeliverEveryMessageBeforeRankZeroStopsItsClock() {
        final AtomicLongArray streamed = new AtomicLongArray(2);
        final double[] mbps = new double[2];
        MpiJob.builder().ranks(2).timeout(Duration.ofSeconds(100)).build().run(() -> {
            final SameEndpoint p = new SameEndpoint(40_000);
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            double last = 0;
            for (final int size : new int[] {8, 40_000}) { // one eager-sized, one past FM's zero-copy threshold
                last = p.streamMBps(size, 50);
            }
            mbps[me] = last;
            streamed.set(me, p.streamed());
            MPI.Finalize();
        });
        assertEquals(100, streamed.get(1), "rank 1 got both streams whole");
        assertEquals(0, streamed.get(0));
        assertTrue(mbps[0] > 0 && Double.isFinite(mbps[0]), "rank 0's figure: " + mbps[0]);
        assertEquals(0, mbps[1], "rank 1 reports nothing");
    }
}
