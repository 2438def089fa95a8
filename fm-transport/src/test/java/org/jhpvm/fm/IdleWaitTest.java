package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A PE that waits long sleeps longer and longer, up to {@code fm.idleSleepMaxNs}, and a message still wakes it. */
@Timeout(60)
class IdleWaitTest {
    private static FmJob job(final long firstSleepNs, final long longestSleepNs) {
        return FmJob.builder().pes(2).option("fm.idleSleepNs", Long.toString(firstSleepNs))
            .option("fm.idleSleepMaxNs", Long.toString(longestSleepNs)).timeout(Duration.ofSeconds(30)).build();
    }

    @Test
    void aLongWaitShouldLookLessAndLessOftenYetNoticeAConditionSetWithoutAMessage() {
        // PE 1 waits for a flag PE 0 sets with a plain store after 1.3 s: nothing wakes PE 1, which notices the flag
        // at its next look. Sleeping 20 ms each time it would look 60 times in the second after its first 100 ms;
        // doubling to 160 ms, about 9 times.
        final AtomicBoolean flag = new AtomicBoolean();
        final AtomicInteger looks = new AtomicInteger();
        final AtomicLong setAt = new AtomicLong();
        final AtomicLong seenAt = new AtomicLong();
        job(20_000_000, 160_000_000).run(fm -> {
            if (fm.pe() == 0) {
                sleep(1_300);
                setAt.set(System.nanoTime());
                flag.set(true);
                return;
            }
            final long start = System.nanoTime();
            assertTrue(fm.extractUntil(() -> {
                final long now = System.nanoTime();
                if (now - start > 100_000_000 && now - start < 1_100_000_000) {
                    looks.incrementAndGet();
                }
                return flag.get();
            }, TimeUnit.SECONDS.toNanos(10)));
            seenAt.set(System.nanoTime());
        });
        assertTrue(looks.get() < 30, "the waiting PE looked " + looks.get() + " times in a second");
        final long lateMs = (seenAt.get() - setAt.get()) / 1_000_000;
        assertTrue(lateMs >= 0 && lateMs < 1_000, "noticed " + lateMs + " ms after it was set");
    }

    @Test
    void aMessageShouldEndASleepAtOnceHoweverLongItIs() {
        // Sleeps of 1 s, 2 s, then 4 s from t = 3 s: the message at t = 3.5 s must end the wait at once, not at
        // t = 7 s when that sleep would.
        final AtomicLong sentAt = new AtomicLong();
        final AtomicLong gotAt = new AtomicLong();
        job(1_000_000_000L, 8_000_000_000L).run(fm -> {
            final AtomicInteger got = new AtomicInteger();
            fm.register(1, (Fm1Handler) (sender, buf, off, len) -> got.incrementAndGet());
            if (fm.pe() == 0) {
                sleep(3_500);
                sentAt.set(System.nanoTime());
                fm.send4(1, 1, 0, 0, 0, 0);
                return;
            }
            assertTrue(fm.extractUntil(() -> got.get() == 1, TimeUnit.SECONDS.toNanos(20)));
            gotAt.set(System.nanoTime());
        });
        final long ms = (gotAt.get() - sentAt.get()) / 1_000_000;
        assertTrue(ms < 1_500, "the message ended the wait " + ms + " ms after it was sent");
    }

    @Test
    void aLongestSleepShorterThanTheFirstShouldBeRefusedWithItsName() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FmConfig.builder()
            .option("fm.idleSleepNs", "50000000").option("fm.idleSleepMaxNs", "40000000").build());
        assertTrue(e.getMessage().contains("idleSleepMaxNs=40000000"), e.getMessage());
        assertEquals(160_000_000L, FmConfig.builder().build().idleSleepMaxNs());
    }

    private static void sleep(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
