package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job whose PEs all wait with nothing in flight ends with a report naming each PE's call, its place in the program
 * and what it waits for; a job that is only slow, or whose wait another thread of the program will end, never does.
 */
@Timeout(120)
class DeadlockTest {
    /** A condition that never holds, and says so. */
    private static final class Never implements FmWaitCondition {
        private final String what;

        Never(final String what) {
            this.what = what;
        }

        @Override
        public boolean getAsBoolean() {
            return false;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append(what);
        }
    }

    private static FmJob job(final int pes, final String deadlockAfterNs, final Duration timeout) {
        return FmJob.builder().pes(pes).option("fm.deadlockAfterNs", deadlockAfterNs).timeout(timeout).build();
    }

    private static String deadlockReport(final FmJob job, final FmJob.Body body) {
        final FmAbortException e = assertThrows(FmAbortException.class, () -> job.run(body));
        assertEquals(FmAbortException.NO_PE, e.pe());
        assertInstanceOf(FmDeadlockException.class, e.getCause(), String.valueOf(e.getCause()));
        return e.getCause().getMessage();
    }

    @Test
    void shouldEndAJobWhosePesAllWaitNamingEachCallAndWhatItWaitsFor() {
        final long start = System.nanoTime();
        final String report = deadlockReport(job(3, "200000000", Duration.ofSeconds(60)),
            fm -> fm.extractUntil(new Never("token " + fm.pe()), Long.MAX_VALUE / 4));
        final long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(report.startsWith("deadlock: every PE waits, no message is in flight"), report);
        for (int pe = 0; pe < 3; pe++) {
            assertTrue(report.contains("\n  PE " + pe + ": extractUntil at DeadlockTest.java:"), report);
            assertTrue(report.contains("waiting for token " + pe), report);
        }
        assertTrue(tookMs < 30_000, "ended after " + tookMs + " ms");
    }

    @Test
    void shouldCountAPeWhoseBodyReturnedAsWaitingForTheOthers() {
        final String report = deadlockReport(job(2, "200000000", Duration.ofSeconds(60)), fm -> {
            if (fm.pe() == 1) {
                fm.extractUntil(new Never("PE 0's message"), Long.MAX_VALUE / 4);
            }
        });
        assertTrue(report.contains("PE 0: finished (its body returned"), report);
        assertTrue(report.contains("PE 1: extractUntil at DeadlockTest.java:"), report);
        assertTrue(report.contains("waiting for PE 0's message"), report);
    }

    @Test
    void shouldNotEndAJobWhileAPeComputesLongerThanTheDeadlockDelay() {
        // PE 0 computes for 1.5 s (7.5 times the delay) while PE 1 waits for its message.
        final AtomicBoolean got = new AtomicBoolean();
        job(2, "200000000", Duration.ofSeconds(60)).run(fm -> {
            fm.register(1, (Fm1Handler) (s, b, o, l) -> got.set(true));
            if (fm.pe() == 0) {
                final long end = System.nanoTime() + 800_000_000L; // four times the deadlock delay
                double x = 0;
                while (System.nanoTime() - end < 0) {
                    x += Math.sqrt(x + 1);
                }
                fm.send4(1, 1, (int) x, 0, 0, 0);
            } else {
                assertTrue(fm.extractUntil(got::get, 30_000_000_000L));
            }
        });
        assertTrue(got.get());
    }

    @Test
    void shouldNotEndAJobWhoseWaitAThreadOfTheProgramWillEnd() {
        // Both PEs wait; a thread PE 1's body started sleeps 1.5 s, then sets what they wait for.
        final AtomicBoolean set = new AtomicBoolean();
        job(2, "200000000", Duration.ofSeconds(60)).run(fm -> {
            Thread helper = null;
            if (fm.pe() == 1) {
                helper = new Thread(() -> {
                    try {
                        Thread.sleep(800); // four times the deadlock delay
                    } catch (InterruptedException e) {
                        return;
                    }
                    set.set(true);
                });
                helper.start();
            }
            assertTrue(fm.extractUntil(set::get, 30_000_000_000L));
            if (helper != null) {
                helper.join();
            }
        });
        assertTrue(set.get());
    }

    @Test
    void shouldNotEndAJobWhileItsFramesAreInFlight() {
        // Every frame waits 600 ms in its sending NIC (six times the deadlock delay) while both PEs wait for it.
        final AtomicBoolean pong = new AtomicBoolean();
        final AtomicBoolean ping = new AtomicBoolean();
        FmJob.builder().fabric(FabricConfig.builder(2).faultPlan(FaultPlan.builder(1).delay(1.0, 600_000_000).build())
            .build()).timeout(Duration.ofSeconds(60)).option("fm.deadlockAfterNs", "100000000")
            .option("fm.rtoMinNs", "5000000000").option("fm.rtoMaxNs", "5000000000").build().run(fm -> {
                fm.register(1, (Fm1Handler) (s, b, o, l) -> (s == 0 ? ping : pong).set(true));
                if (fm.pe() == 0) {
                    fm.send4(1, 1, 0, 0, 0, 0);
                    assertTrue(fm.extractUntil(pong::get, 30_000_000_000L));
                } else {
                    assertTrue(fm.extractUntil(ping::get, 30_000_000_000L));
                    fm.send4(0, 1, 0, 0, 0, 0);
                }
            });
        assertTrue(ping.get() && pong.get());
    }

    @Test
    void shouldNotEndAJobWithTheTestOff() {
        final FmAbortException e = assertThrows(FmAbortException.class, () -> job(2, "0", Duration.ofMillis(1_500))
            .run(fm -> fm.extractUntil(new Never("nothing"), Long.MAX_VALUE / 4)));
        assertInstanceOf(TimeoutException.class, e.getCause());
    }

    @Test
    void shouldNameEveryPesStateWhenTheJobTimesOut() {
        final AtomicBoolean stop = new AtomicBoolean();
        final FmAbortException e = assertThrows(FmAbortException.class, () -> job(2, "0", Duration.ofSeconds(1))
            .run(fm -> {
                if (fm.pe() == 0) {
                    fm.extractUntil(new Never("a reply"), Long.MAX_VALUE / 4);
                } else {
                    while (!stop.get() && !Thread.currentThread().isInterrupted()) {
                        Thread.onSpinWait();
                    }
                }
            }));
        stop.set(true);
        final String message = e.getCause().getMessage();
        assertInstanceOf(TimeoutException.class, e.getCause());
        assertTrue(message.contains("PE 0: extractUntil at DeadlockTest.java:"), message);
        assertTrue(message.contains("waiting for a reply"), message);
        assertTrue(message.contains("PE 1: running at DeadlockTest.java:"), message);
        assertTrue(message.contains("(not waiting in a communication call)"), message);
    }

    @Test
    void shouldRefuseADeadlockDelayOutsideItsRange() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> FmJob.builder().option("fm.deadlockAfterNs", "5000000").build());
        assertTrue(e.getMessage().contains("deadlockAfterNs"), e.getMessage());
        assertFalse(e.getMessage().isEmpty());
    }
}
