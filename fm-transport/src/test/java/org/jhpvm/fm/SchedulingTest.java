package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.SharedMyrinet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Jobs under each scheduling policy: many PEs on few cores, no starvation, prompt aborts. */
@Timeout(120)
class SchedulingTest {
    private static FmJob job(final int pes, final Scheduling policy, final int cores, final long quantumNs) {
        return FmJob.builder().pes(pes).fm(FmConfig.builder().scheduling(policy, cores, quantumNs).build())
            .timeout(Duration.ofSeconds(90)).build();
    }

    @Tag("soak")
    @ParameterizedTest
    @EnumSource(value = Scheduling.class, names = {"NONE", "DCS"})
    void aJobOf256PesOnTwoCoresShouldFinishABarrierLoop(final Scheduling policy) {
        final int pes = 256;
        final int rounds = 10;
        final AtomicInteger arrivals = new AtomicInteger();
        final AtomicInteger early = new AtomicInteger();
        job(pes, policy, 2, 10_000_000).run(fm -> {
            final Barrier b = new Barrier(fm);
            for (int r = 1; r <= rounds; r++) {
                arrivals.incrementAndGet();
                b.await();
                if (arrivals.get() < r * pes) {
                    early.incrementAndGet(); // left a barrier before every PE had arrived at it
                }
            }
        });
        assertEquals(pes * rounds, arrivals.get());
        assertEquals(0, early.get());
    }

    @Test
    void gangShouldFinishABarrierLoopWithItsGangsTakingTurns() {
        final AtomicInteger passed = new AtomicInteger();
        job(8, Scheduling.GANG, 2, 1_000_000).run(fm -> {
            final Barrier b = new Barrier(fm);
            for (int r = 0; r < 20; r++) {
                b.await();
                passed.incrementAndGet();
            }
        });
        assertEquals(8 * 20, passed.get());
    }

    @Test
    void aPeThatComputesWithoutCommunicatingShouldNotStopTheOthersOnOneCore() {
        // PE 0 computes (no FM call) until the others have finished their ring, up to 60 s: the ring must finish
        // while it computes. (A fixed compute time raced the ring's 900 hand-offs against the wall clock, which a
        // busy machine lost.)
        final long capNs = TimeUnit.SECONDS.toNanos(60);
        final int messages = 300;
        final AtomicInteger ringsDone = new AtomicInteger();
        final AtomicLong computedNs = new AtomicLong();
        final AtomicInteger received = new AtomicInteger();
        job(4, Scheduling.DCS, 1, 5_000_000).run(fm -> {
            final int[] got = new int[1];
            fm.register(7, (Fm1Handler) (sender, buffer, offset, length) -> got[0]++);
            if (fm.pe() == 0) {
                final long start = System.nanoTime();
                long spins = 0;
                while (ringsDone.get() < 3 && System.nanoTime() - start < capNs) {
                    spins++; // computing: no FM call, the run slot kept
                }
                assertTrue(spins > 0);
                computedNs.set(System.nanoTime() - start);
                return;
            }
            // PEs 1..3: a ring of messages, each waiting for its predecessor's.
            final int next = fm.pe() % 3 + 1;
            for (int i = 0; i < messages; i++) {
                fm.send4(next, 7, i, 0, 0, 0);
                final int want = i + 1;
                assertTrue(fm.extractUntil(() -> got[0] >= want, FmTestSupport.WAIT_NS));
            }
            received.addAndGet(got[0]);
            ringsDone.incrementAndGet();
        });
        assertEquals(3 * messages, received.get());
        assertTrue(computedNs.get() < capNs, "the communicating PEs waited for the computing one: it computed "
            + computedNs.get() / 1e9 + " s without their ring finishing");
    }

    @Test
    void anAbortShouldEndEveryPeWithinASecondWhileMostWaitForARunSlot() {
        final RuntimeException boom = new IllegalStateException("boom");
        final FmTestSupport.Abort a = FmTestSupport.abortWhileTheOthersWait(job(16, Scheduling.DCS, 1,
            TimeUnit.SECONDS.toNanos(1)), 16, boom);
        assertEquals(3, a.abort().pe());
        assertSame(boom, a.abort().getCause());
        // 1 s is the requirement; 5 s allows for a loaded 2-core machine waking 16 threads.
        assertTrue(a.slowestNs() < 5_000_000_000L, "slowest abort took " + a.slowestNs() + " ns");
    }

    @ParameterizedTest
    @EnumSource(value = Scheduling.class, names = {"DCS", "GANG"})
    void twoJobsSharingASchedulerAndAFabricShouldStayApartAndAFailureShouldEndOnlyItsOwn(final Scheduling policy)
        throws InterruptedException {
        final Scheduler shared = Scheduler.create(policy, 1, 1_000_000);
        final SharedMyrinet fabric = SharedMyrinet.create(FabricConfig.builder(7).build());
        final int pes = 4;
        final int rounds = 30;
        final long[] sums = new long[pes];
        final AtomicReference<Throwable> good = new AtomicReference<>();
        final AtomicReference<Throwable> bad = new AtomicReference<>();
        final RuntimeException boom = new IllegalStateException("boom in the other job");
        fabric.share("both", () -> shared.share(() -> {
            final Thread a = Thread.ofPlatform().start(() -> {
                try {
                    FmTestSupport.job(pes).run(fm -> {
                        // Each round every PE sends its number to every PE; the handler adds what arrives.
                        final long[] got = new long[1];
                        final int[] count = new int[1];
                        fm.register(9, (Fm1Handler) (sender, buffer, offset, length) -> {
                            got[0] += sender + 1;
                            count[0]++;
                        });
                        final Barrier b = new Barrier(fm);
                        for (int r = 1; r <= rounds; r++) {
                            for (int p = 0; p < pes; p++) {
                                fm.send4(p, 9, r, 0, 0, 0);
                            }
                            final int want = r * pes;
                            assertTrue(fm.extractUntil(() -> count[0] >= want, FmTestSupport.WAIT_NS));
                            b.await();
                        }
                        sums[fm.pe()] = got[0];
                    });
                } catch (Throwable t) {
                    good.set(t);
                }
            });
            final Thread b = Thread.ofPlatform().start(() -> {
                try {
                    FmTestSupport.job(3).run(fm -> {
                        final Barrier barrier = new Barrier(fm);
                        barrier.await();
                        if (fm.pe() == 2) {
                            throw boom;
                        }
                        fm.extractUntil(() -> false, FmTestSupport.WAIT_NS); // until the abort ends the job
                    });
                } catch (Throwable t) {
                    bad.set(t);
                }
            });
            try {
                a.join();
                b.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return null;
        }));
        assertEquals(null, good.get(), "the job beside the failing one failed");
        // Both ran on the one fabric, on 4 + 3 of its 7 nodes, and gave them back.
        final List<SharedMyrinet.Partition> made = fabric.partitions();
        assertEquals(2, made.size(), made.toString());
        assertEquals(7, made.get(0).nodes() + made.get(1).nodes(), made.toString());
        assertTrue(made.stream().noneMatch(SharedMyrinet.Partition::open), made.toString());
        assertEquals(7, fabric.freeNodes());
        assertTrue(fabric.totals().framesSent() >= (long) rounds * pes * (pes - 1), fabric.totals().toString());
        for (int p = 0; p < pes; p++) {
            assertEquals((long) rounds * pes * (pes + 1) / 2, sums[p], "PE " + p + "'s sum");
        }
        final FmAbortException e = assertInstanceOf(FmAbortException.class, bad.get());
        assertSame(boom, e.getCause());
        assertEquals(2, e.pe());
        assertEquals(policy, shared.policy());
    }

    @Test
    void aBadPolicyOrCoreCountShouldBeRefusedWithItsName() {
        final IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
            () -> FmConfig.builder().option("fm.scheduling", "fair"));
        assertTrue(policy.getMessage().contains("fm.scheduling") && policy.getMessage().contains("none, dcs or gang"),
            policy.getMessage());
        final FmConfig.Builder b = FmConfig.builder().option("fm.cores", "-1");
        final IllegalArgumentException cores = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(cores.getMessage().contains("cores"), cores.getMessage());
        assertEquals(Scheduling.NONE, FmConfig.defaults().scheduling());
        assertEquals(Scheduling.DCS, FmConfig.builder().option("fm.scheduling", "DCS").build().scheduling());
    }
}
