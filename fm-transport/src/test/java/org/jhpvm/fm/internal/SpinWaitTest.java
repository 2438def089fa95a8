package org.jhpvm.fm.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jhpvm.fm.FmJob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Waits that fit the machine: a wait spins while the PE threads that run fit the cores, for {@code fm.spinWaitNs},
 * then sleeps; a job whose PEs outnumber the cores does not spin. Counted as the looks a waiting PE takes at its
 * condition (a spin looks millions of times a second, a sleeping wait a few dozen).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpinWaitTest {
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    @TempDir
    static Path dir;
    private static Path quiet;
    private static Path busy;

    /** The machine's load as the tests set it (a busy test machine would make spinning rare): quiet, or busy. */
    @BeforeAll
    static void loads() throws IOException {
        quiet = Files.writeString(dir.resolve("quiet"), "0.50 0.50 0.50 1/300 1234\n");
        busy = Files.writeString(dir.resolve("busy"), "9.00 9.00 9.00 " + (4 * CORES) + "/300 1234\n");
        MachineLoad.readFrom(quiet.toString());
    }

    @AfterAll
    static void realLoad() {
        MachineLoad.readFrom("/proc/loadavg");
    }

    /**
     * Every PE but PE 0 waits for a flag PE 0 sets after computing for {@code computeMs}; returns how often the
     * waiting PEs (PE 1 alone in a job of 2) looked at it in the window [{@code fromMs}, {@code toMs}) of their wait.
     */
    private static long looksWhileWaiting(final int pes, final String spinWaitNs, final long computeMs,
                                          final long fromMs, final long toMs) {
        final AtomicBoolean flag = new AtomicBoolean();
        final AtomicLong looks = new AtomicLong();
        FmJob.builder().pes(pes).option("fm.spinWaitNs", spinWaitNs).timeout(Duration.ofSeconds(30)).build()
            .run(fm -> {
                if (fm.pe() == 0) {
                    final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(computeMs);
                    while (System.nanoTime() - end < 0) {
                        Thread.onSpinWait();
                    }
                    flag.set(true);
                    return;
                }
                final long t0 = System.nanoTime();
                assertTrue(fm.extractUntil(() -> {
                    final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                    if ((fm.pe() == 1 || pes > 2) && ms >= fromMs && ms < toMs) {
                        looks.incrementAndGet();
                    }
                    return flag.get();
                }, 20_000_000_000L));
            });
        return looks.get();
    }

    @Test
    void aWaitShouldSpinWhileThePesFitTheCores() {
        // 2 PEs on a machine of 2 or more cores: PE 1 waits 600 ms for PE 0, which computes.
        final long looks = looksWhileWaiting(2, "1000000000", 600, 100, 500);
        assertTrue(looks > 10_000, "spinning, PE 1 looked " + looks + " times in 400 ms");
    }

    /**
     * A spinning wait looks at the clock only every {@link IdleWait#CLOCK_SPINS} passes, and still ends at its
     * deadline: a wait that never looked again would spin here until the test's timeout.
     */
    @Test
    void aSpinningWaitShouldStillEndAtItsDeadline() {
        final AtomicLong waitedNs = new AtomicLong(-1);
        final AtomicLong looks = new AtomicLong();
        FmJob.builder().pes(2).timeout(Duration.ofSeconds(30)).build().run(fm -> {
            if (fm.pe() == 1) {
                final long t0 = System.nanoTime();
                final boolean ended = fm.extractUntil(() -> {
                    looks.incrementAndGet();
                    return false;
                }, TimeUnit.MILLISECONDS.toNanos(50));
                waitedNs.set(ended ? -2 : System.nanoTime() - t0);
                assertTrue(!fm.extractUntil(() -> false, 0), "a wait of 0 ns on a false condition times out");
            }
        });
        assertTrue(waitedNs.get() >= TimeUnit.MILLISECONDS.toNanos(50), "timed out after " + waitedNs.get() + " ns");
        assertTrue(waitedNs.get() < TimeUnit.SECONDS.toNanos(10), "timed out after " + waitedNs.get() + " ns");
        assertTrue(looks.get() > 1_000, "it spun: " + looks.get() + " looks in 50 ms");
    }

    @Test
    void aWaitShouldSleepOnceItHasSpunSpinWaitNs() {
        // The same wait spins 100 ms only: from 300 ms on it sleeps (20 ms, doubling), a few looks a second.
        final long looks = looksWhileWaiting(2, "100000000", 1_300, 300, 1_200);
        assertTrue(looks < 200, "after spinning 100 ms, PE 1 looked " + looks + " times in 900 ms");
    }

    @Test
    void aWaitShouldNotSpinWhileTheMachineHasMoreRunnableThreadsThanCores() {
        // 2 PEs, which fit the cores, but other processes keep the machine busy: no spinning.
        MachineLoad.readFrom(busy.toString());
        try {
            final long looks = looksWhileWaiting(2, "1000000000", 600, 100, 500);
            assertTrue(looks < 2_000, "on a busy machine PE 1 looked " + looks + " times in 400 ms");
        } finally {
            MachineLoad.readFrom(quiet.toString());
        }
    }

    @Test
    void aWaitShouldNotSpinWhenThePesOutnumberTheCores() {
        // 4 PEs per core, all but one waiting: none spins, not even once the others sleep and a core is free (an
        // idle job must cost next to nothing, and each would want the core when its message comes).
        final long looks = looksWhileWaiting(4 * CORES, "1000000000", 1_000, 100, 900);
        assertTrue(looks < 20_000, "with " + 4 * CORES + " PEs on " + CORES + " cores the waiting PEs looked " + looks
            + " times in 800 ms");
    }

    /**
     * A rendezvous's sender waiting microseconds for its receiver's copy spins where a wait may spin and yields where
     * it may not: a yield returns a microsecond late even alone on a core (64 KiB messages went from 17-20 to 29-31
     * GB/s), and a spin on a core the receiver needs would hold the copy up for a time slice.
     */
    @Test
    void aBusyWaitShouldSpinOnlyWhereAWaitMaySpin() {
        assertTrue(busySpin(2, false, "1000000000"), "2 PEs on a quiet machine");
        assertTrue(!busySpin(2, true, "1000000000"), "2 PEs on a busy machine");
        assertTrue(!busySpin(2, false, "0"), "spinning switched off (fm.spinWaitNs=0)");
        assertTrue(!busySpin(4 * CORES, false, "1000000000"), "PEs outnumbering the cores");
    }

    /** What PE 0 of a job of {@code pes} PEs decides for a busy wait. */
    private static boolean busySpin(final int pes, final boolean busyMachine, final String spinWaitNs) {
        final AtomicBoolean spins = new AtomicBoolean();
        final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(pes);
        MachineLoad.readFrom((busyMachine ? busy : quiet).toString());
        MachineLoad.oversubscribed(System.nanoTime()); // the reading taken now, not at some thread's next look
        try {
            FmJob.builder().pes(pes).option("fm.spinWaitNs", spinWaitNs).timeout(Duration.ofSeconds(30)).build()
                .run(fm -> {
                    started.countDown(); // every PE thread of the job runs: they count against the cores
                    assertTrue(started.await(20, TimeUnit.SECONDS));
                    if (fm.pe() == 0) {
                        spins.set(((Endpoint) fm).waits().busySpinFits(System.nanoTime()));
                    }
                });
        } finally {
            MachineLoad.readFrom(quiet.toString());
        }
        return spins.get();
    }
}
