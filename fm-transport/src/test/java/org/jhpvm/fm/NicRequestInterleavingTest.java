package org.jhpvm.fm;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NIC requests on FM's message path ({@code fm.nicOffload=false}) from several senders at once, each as large as a
 * NIC message may be: with its header such a request takes two frames, and its handler waits for the second one
 * while extract serves other senders' requests. Every request's handler must see exactly its own bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NicRequestInterleavingTest {
    private static final int CHECK = 3;
    private static final int PER_SENDER = 300;

    @Test
    void requestsFromSeveralSendersShouldEachReachTheirHandlerIntact() {
        final int pes = 4;
        final AtomicInteger handled = new AtomicInteger();
        final AtomicInteger damaged = new AtomicInteger();
        final StringBuffer first = new StringBuffer();
        FmJob.builder().pes(pes).timeout(Duration.ofSeconds(50)).option("fm.nicOffload", "false").build().run(fm -> {
            final Barrier b = new Barrier(fm);
            final int longs = fm.maxNicMessageBytes() / 8;
            fm.registerNicHandler(CHECK, m -> {
                final long head = m.receiveLong();
                int bad = head >>> 32 == m.sender() ? 0 : 1;
                for (int k = 1; k < longs; k++) {
                    final long v = m.receiveLong();
                    if (v != (head ^ k)) {
                        bad++;
                    }
                }
                if (bad > 0 && damaged.getAndAdd(bad) == 0) {
                    first.append("request ").append(head & 0xFFFF_FFFFL).append(" of PE ").append(m.sender())
                        .append(" (head ").append(Long.toHexString(head)).append(") arrived with ").append(bad)
                        .append(" of its ").append(longs).append(" longs not its own");
                }
                handled.incrementAndGet();
            });
            b.await();
            if (fm.pe() == 0) {
                assertTrue(fm.extractUntil(() -> handled.get() == (pes - 1) * PER_SENDER,
                    TimeUnit.SECONDS.toNanos(30)), "PE 0 handled only " + handled.get() + " requests");
            } else {
                for (int i = 0; i < PER_SENDER; i++) {
                    final long head = (long) fm.pe() << 32 | i;
                    final FmOutputStream out = fm.beginNicMessage(0, 8 * longs, CHECK, null, 0, 0, i);
                    for (int k = 0; k < longs; k++) {
                        out.sendLong(head ^ k);
                    }
                    out.endMessage();
                }
                for (int i = 0; i < PER_SENDER; i++) {
                    final FmCompletion c = new FmCompletion();
                    assertTrue(fm.awaitCompletion(c, TimeUnit.SECONDS.toNanos(20)), "no completion");
                    assertTrue(c.ok(), c::toString);
                }
            }
            b.await();
        });
        assertEquals(3 * PER_SENDER, handled.get(), "requests handled");
        assertEquals(0, damaged.get(), () -> "longs of requests that were another request's: " + first);
    }
}
