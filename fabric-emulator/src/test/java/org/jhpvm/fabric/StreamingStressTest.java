package org.jhpvm.fabric;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Two threads stream hundreds of thousands of frames through small rings, so that the sender stalls often and
 * the receiver keeps taking its engine over (receiver help): every frame must still arrive once, in order,
 * intact. This is where races between a host and a helper show.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StreamingStressTest {
    private static final int FRAMES = 300_000;

    @ParameterizedTest
    @CsvSource({"1, 1", "2, 2", "2, 8", "8, 2"})
    void everyFrameShouldArriveOnceInOrderWhileHostAndHelperTradeTheEngine(final int sendRing,
                                                                          final int receiveRing)
        throws InterruptedException {
        try (Fabric fabric = EmulatedMyrinet.create(FabricConfig.builder(2).frameBytes(2048).inlineBytes(64)
            .sendRingCapacity(sendRing).receiveRingCapacity(receiveRing).build())) {
            final Nic sender = fabric.nic(0);
            final Nic receiver = fabric.nic(1);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread producer = new Thread(() -> {
                try {
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
                    for (long tag = 0; tag < FRAMES; tag++) {
                        Frame frame;
                        while ((frame = sender.tryAcquire()) == null) {
                            spin(deadline);
                        }
                        final int length = tag % 3 == 0 ? 40 : 1200; // both the copy and the reference path
                        frame.setDestination(1).setLength(length).putHeaderLong(0, tag);
                        frame.putPayloadLong(0, tag).putPayloadLong(length - 8, ~tag);
                        while (!sender.trySend(frame)) {
                            spin(deadline);
                        }
                    }
                    while (sender.pendingFrames() > 0) {
                        sender.progress();
                        spin(deadline);
                    }
                } catch (final Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            producer.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
            for (long expected = 0; expected < FRAMES && failure.get() == null; expected++) {
                Frame frame;
                while ((frame = receiver.poll()) == null && failure.get() == null) {
                    spin(deadline);
                }
                if (frame == null) {
                    break;
                }
                assertEquals(expected, frame.getHeaderLong(0), "frame out of order");
                assertEquals(expected, frame.getPayloadLong(0));
                assertEquals(~expected, frame.getPayloadLong(frame.length() - 8));
                receiver.release(frame);
            }
            producer.join(10_000);
            assertNull(failure.get());
            assertNull(receiver.poll(), "no frame beyond the last");
            assertEquals(FRAMES, sender.counters().framesDelivered());
        }
    }

    private static void spin(final long deadline) {
        Thread.onSpinWait();
        if (System.nanoTime() - deadline > 0) {
            throw new AssertionError("stream stalled");
        }
    }
}
