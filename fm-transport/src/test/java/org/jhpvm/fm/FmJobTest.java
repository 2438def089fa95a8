package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class FmJobTest {
    @Test
    void anExitShouldEndEveryPeAndCarryItsStatus() {
        final long startNs = System.nanoTime();
        final FmAbortException e = assertThrows(FmAbortException.class, () -> FmJob.run(3, fm -> {
            if (fm.pe() == 1) {
                throw new FmJobExit(1, 42);
            }
            fm.extractUntil(() -> false, TimeUnit.SECONDS.toNanos(30)); // until the exit ends the job
        }));
        final FmJobExit exit = assertInstanceOf(FmJobExit.class, e.getCause());
        assertEquals(42, exit.status());
        assertEquals(1, exit.pe());
        assertEquals(1, e.pe());
        assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(5), "the other PEs ended promptly");
    }

    @Test
    void shouldAbortEveryPeWithinASecondAndRethrowTheFirstCause() throws InterruptedException {
        final RuntimeException boom = new IllegalStateException("boom");
        final FmTestSupport.Abort a = FmTestSupport.abortWhileTheOthersWait(FmTestSupport.job(8), 8, boom);
        assertEquals(3, a.abort().pe());
        assertSame(boom, a.abort().getCause());
        // 1 s is the requirement; 5 s allows for a loaded 2-core machine waking 8 threads.
        assertTrue(a.slowestNs() < 5_000_000_000L, "slowest abort took " + a.slowestNs() + " ns");
        assertNoPeThreadLeft();
    }

    @Test
    void shouldAbortPesBlockedInSendsToAPeThatNeverExtracts() throws InterruptedException {
        final CountDownLatch sending = new CountDownLatch(2);
        final FmAbortException e = assertThrows(FmAbortException.class, () -> FmTestSupport.job(3).run(fm -> {
            fm.register(1, (Fm1Handler) (s, b, o, l) -> { });
            if (fm.pe() == 0) {
                // A 1 MiB message is more than a sender's window: once begun it waits for PE 0, which never calls FM.
                assertTrue(sending.await(20, TimeUnit.SECONDS), "the senders never got going");
                throw new ArithmeticException("PE 0 gives up");
            }
            final byte[] big = new byte[1 << 20];
            sending.countDown();
            while (true) {
                fm.send(0, 1, big, 0, big.length);
            }
        }));
        assertEquals(0, e.pe());
        assertTrue(e.getCause() instanceof ArithmeticException);
        assertNoPeThreadLeft();
    }

    @Test
    void shouldAbortAJobThatExceedsItsTimeout() throws InterruptedException {
        final FmAbortException e = assertThrows(FmAbortException.class, () -> FmJob.builder().pes(2)
            .timeout(Duration.ofMillis(300)).build().run(fm -> fm.extractUntil(() -> false, 60_000_000_000L)));
        assertEquals(FmAbortException.NO_PE, e.pe());
        assertTrue(e.getMessage().contains("did not finish"), e.getMessage());
        assertNoPeThreadLeft();
    }

    @Test
    void shouldDeliverMessagesSentAfterTheReceiversBodyReturned() {
        final AtomicLong handled = new AtomicLong();
        final CountDownLatch receiverReturned = new CountDownLatch(1);
        final FmJob.Report report = FmTestSupport.job(2).run(fm -> {
            fm.register(1, (Fm1Handler) (s, b, o, l) -> handled.incrementAndGet());
            if (fm.pe() == 0) {
                assertTrue(receiverReturned.await(20, TimeUnit.SECONDS));
                for (int i = 0; i < 500; i++) {
                    fm.send4(1, 1, i, 0, 0, 0);
                }
            } else {
                receiverReturned.countDown();
            }
        });
        assertEquals(500, handled.get(), "PE 1's exit barrier kept extracting");
        assertEquals(500, report.totals().messagesHandled());
    }

    @Test
    void shouldReportAnOpenMessageAtTheEndOfTheBody() {
        final FmAbortException e = assertThrows(FmAbortException.class, () -> FmTestSupport.job(2).run(fm -> {
            fm.register(1, (FmHandler) (in, s) -> { });
            if (fm.pe() == 1) {
                fm.beginMessage(0, 10, 1).sendInt(5);
            }
        }));
        assertEquals(1, e.pe());
        assertTrue(e.getCause().getMessage().contains("still open"), e.getCause().getMessage());
    }

    /** Every PE thread ends, within 10 s (a loaded machine may take a while to run their last steps). */
    static void assertNoPeThreadLeft() throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Thread left;
        do {
            left = null;
            for (final Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("jhpvm-pe-") && t.isAlive()) {
                    left = t;
                }
            }
            if (left != null) {
                left.join(100);
            }
        } while (left != null && System.nanoTime() < deadline);
        assertTrue(left == null, "left behind: " + left);
    }
}
