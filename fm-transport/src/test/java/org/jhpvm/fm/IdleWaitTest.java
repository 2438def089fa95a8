package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A PE that waits long sleeps longer and longer, up to {@code fm.idleSleepMaxNs}, and a message still wakes it. */
@Timeout(60)
class IdleWaitTest {
    /** The sleeping phase of a wait (no spinning first: {@code SpinWaitTest} has that). */
    private static FmJob job(final long firstSleepNs, final long longestSleepNs) {
        return FmJob.builder().pes(2).option("fm.spinWaitNs", "0").option("fm.idleSleepNs", Long.toString(firstSleepNs))
            .option("fm.idleSleepMaxNs", Long.toString(longestSleepNs)).timeout(Duration.ofSeconds(30)).build();
    }

    @Test
    void aLongWaitShouldLookLessAndLessOftenYetNoticeAConditionSetWithoutAMessage() {
        // PE 1 waits for a flag PE 0 sets with a plain store once PE 1 has looked after its first 1.1 s: nothing
        // wakes PE 1, which notices the flag at its next look. Sleeping 20 ms each time it would look 50 times
        // between its first 100 ms and 1.1 s; doubling to 160 ms, about 9 times.
        final AtomicBoolean flag = new AtomicBoolean();
        final AtomicInteger looks = new AtomicInteger();
        final AtomicLong start = new AtomicLong();
        final AtomicLong lastLook = new AtomicLong();
        final AtomicLong setAt = new AtomicLong();
        final AtomicLong seenAt = new AtomicLong();
        job(20_000_000, 160_000_000).run(fm -> {
            if (fm.pe() == 0) {
                awaitCondition(() -> start.get() != 0 && lastLook.get() - start.get() > 1_100_000_000L);
                setAt.set(System.nanoTime());
                flag.set(true);
                return;
            }
            final long t0 = System.nanoTime();
            start.set(t0);
            assertTrue(fm.extractUntil(() -> {
                final long now = System.nanoTime();
                if (now - t0 > 100_000_000 && now - t0 < 1_100_000_000) {
                    looks.incrementAndGet();
                }
                lastLook.set(now);
                return flag.get();
            }, TimeUnit.SECONDS.toNanos(10)));
            seenAt.set(System.nanoTime());
        });
        assertTrue(looks.get() < 30, "the waiting PE looked " + looks.get() + " times in a second");
        final long lateMs = (seenAt.get() - setAt.get()) / 1_000_000;
        assertTrue(lateMs >= 0 && lateMs < 1_000, "noticed " + lateMs + " ms after it was set");
    }

    @Tag("soak")
    @Test
    void aMessageShouldEndASleepAtOnceHoweverLongItIs() {
        // Sleeps of 1 s, 2 s, then 4 s from t = 3 s: PE 0 sends once PE 1 has looked after t = 2.5 s (at the end of
        // its 2 s sleep), and the message must end the wait at once, not 4 s later when that sleep would.
        final AtomicLong start = new AtomicLong();
        final AtomicLong lastLook = new AtomicLong();
        final AtomicLong sentAt = new AtomicLong();
        final AtomicLong gotAt = new AtomicLong();
        job(1_000_000_000L, 8_000_000_000L).run(fm -> {
            final AtomicInteger got = new AtomicInteger();
            fm.register(1, (Fm1Handler) (sender, buf, off, len) -> got.incrementAndGet());
            if (fm.pe() == 0) {
                awaitCondition(() -> start.get() != 0 && lastLook.get() - start.get() > 2_500_000_000L);
                sentAt.set(System.nanoTime());
                fm.send4(1, 1, 0, 0, 0, 0);
                return;
            }
            start.set(System.nanoTime());
            assertTrue(fm.extractUntil(() -> {
                lastLook.set(System.nanoTime());
                return got.get() == 1;
            }, TimeUnit.SECONDS.toNanos(20)));
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

    /** Waits, looking every millisecond, until {@code cond} holds; fails after 10 s. */
    private static void awaitCondition(final BooleanSupplier cond) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the condition did not hold within 10 s");
            }
            LockSupport.parkNanos(1_000_000);
        }
    }
}
