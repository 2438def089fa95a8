package org.jhpvm.fabric.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.jhpvm.fabric.FabricConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A write of a NIC's memory (an RDMA write, a NIC handler's store) wakes the host asleep at that NIC once, as an
 * interrupt that the host arms again before its next sleep: the writes that follow before it has done so do not wake
 * it again. Without that, a stream of puts into a PE waiting in a barrier paid an unpark per put (a fifth of the
 * initiator's time in a 1 KiB Global Arrays put stream).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryWriteWakeTest {

    @Test
    void aHostShouldBeWokenOncePerSleepHowEverManyWritesLand() throws InterruptedException {
        final ReceivePort port = new ReceivePort(new Object(), 0, FabricConfig.builder(1).build());
        final AtomicInteger wakes = new AtomicInteger();
        final Semaphore woken = new Semaphore(0); // a permit per wake, for the test's bounded waits
        final AtomicBoolean stop = new AtomicBoolean();
        final Thread host = new Thread(() -> {
            while (!stop.get()) {
                LockSupport.park();
                wakes.incrementAndGet();
                woken.release();
            }
        }, "host");
        host.setDaemon(true);
        host.start();
        try {
            port.setWaiter(host);
            for (int write = 0; write < 10; write++) {
                awaitParked(host);
                port.memoryWritten();
                // The first write wakes the host; a later one would too, within these 50 ms, without the fix.
                woken.tryAcquire(write == 0 ? 10_000 : 50, TimeUnit.MILLISECONDS);
            }
            assertEquals(1, wakes.get(), "10 writes while the host had not armed its wake again woke it "
                + wakes.get() + " times");
            assertEquals(10, port.memoryEvents(), "every write is counted, woken or not");

            port.setWaiter(host); // the host arms again before its next sleep: the next write wakes it
            awaitParked(host);
            port.memoryWritten();
            assertTrue(woken.tryAcquire(10, TimeUnit.SECONDS), "a write after the host armed again must wake it");
            assertEquals(2, wakes.get(), "a write after the host armed again must wake it");
        } finally {
            stop.set(true);
            LockSupport.unpark(host);
            host.join(10_000);
        }
    }

    /** Waits (bounded) until the host thread is parked. */
    private static void awaitParked(final Thread host) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (host.getState() != Thread.State.WAITING) {
            assertTrue(System.nanoTime() - deadline < 0, "the host thread never parked");
            Thread.yield();
        }
    }
}
