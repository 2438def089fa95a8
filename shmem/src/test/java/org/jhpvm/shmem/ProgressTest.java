package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class ProgressTest {
    @Test
    void shouldCompleteGetsAndAtomicsOnAPeThatComputesWithoutCallingShmem() {
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicLong computeNs = new AtomicLong();
        ShmemTestSupport.job(2).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(1000);
            sh.barrierAll();
            if (sh.myPe() == 1) {
                // Compute (no SHMEM call) until PE 0 says it is done, at most 20 s.
                final long start = System.nanoTime();
                long x = 0;
                while (!done.await(0, TimeUnit.NANOSECONDS) && System.nanoTime() - start < 20_000_000_000L) {
                    for (int i = 0; i < 100_000; i++) {
                        x += i ^ x >>> 3;
                    }
                }
                computeNs.set(System.nanoTime() - start + (x == 42 ? 1 : 0));
            } else {
                final long[] src = new long[1000];
                java.util.Arrays.fill(src, 5);
                for (int i = 0; i < 200; i++) {
                    a.put(1, 0, src, 0, 1000);
                    a.atomicFetchAdd(1, 0, 1);
                    final long[] back = new long[1000];
                    a.get(1, 0, back, 0, 1000);
                    assertEquals(6, back[0]);
                    assertEquals(5, back[999]);
                }
                sh.quiet();
                done.countDown();
            }
        });
        assertTrue(computeNs.get() < 15_000_000_000L, "PE 0's 600 round trips finished while PE 1 computed: "
            + computeNs.get() + " ns");
    }

    @Test
    void shouldNotBurnACoreWhenIdle() {
        final long[] passes = new long[4];
        ShmemTestSupport.job(4).run(sh -> {
            sh.barrierAll();
            final long before = sh.engine.agentPasses;
            // Not a wait for a condition: this second of doing nothing is the interval being measured.
            Thread.sleep(1_000);
            passes[sh.myPe()] = sh.engine.agentPasses - before;
        });
        // Parking grows to 1 ms: about a thousand passes a second when idle; a spinning agent makes millions.
        for (final long p : passes) {
            assertTrue(p < 5_000, "an idle progress agent made " + p + " passes in 1 s");
        }
    }

    @Test
    void shouldStayAsleepWhileItsPeCallsShmemBetweenShortPhases() {
        final long[] passes = new long[2];
        final long[] loopNs = new long[2];
        final int rounds = 4_000;
        ShmemTestSupport.job(2).run(sh -> {
            sh.barrierAll();
            final long before = sh.engine.agentPasses;
            final long loopStart = System.nanoTime();
            // A bulk-synchronous loop: 200 us phases of computing, a barrier after each (about a second in all).
            for (int round = 0; round < rounds; round++) {
                final long start = System.nanoTime();
                while (System.nanoTime() - start < 200_000) {
                    Thread.onSpinWait();
                }
                sh.barrierAll();
            }
            loopNs[sh.myPe()] = System.nanoTime() - loopStart;
            passes[sh.myPe()] = sh.engine.agentPasses - before;
        });
        for (int pe = 0; pe < 2; pe++) {
            // The PE drives progress itself at every barrier, so its agent backs off to 50 ms parks: a few dozen
            // passes a second (up to 190 seen). Looking again after each barrier, it would make one a round (4,000) or
            // more. The bound, 400 a second, grows with the loop's time: on a busy machine the loop stretches.
            final double seconds = loopNs[pe] / 1e9;
            assertTrue(passes[pe] < Math.min(rounds / 2, 400 * Math.max(1, seconds)), "the agent made " + passes[pe]
                + " passes in " + seconds + " s while its PE called SHMEM every 200 us");
        }
    }

    @Test
    void shouldSleepWhileItsPeWaitsInsideShmemAndServeItOnceItLeaves() {
        final long[] passes = new long[4];
        final long[] computeNs = new long[4];
        ShmemTestSupport.job(4).run(sh -> {
            final SymmetricLongs flag = sh.mallocLongs(1);
            final SymmetricLongs a = sh.mallocLongs(64);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                // Not a wait for a condition: this second, in which the others wait inside SHMEM, is the interval
                // whose agent passes are counted.
                Thread.sleep(1_000);
                for (int pe = 1; pe < 4; pe++) {
                    flag.p(pe, 0, 1);
                }
                sh.quiet();
                // Then they compute without calling SHMEM: only their agents (or NICs) can serve this.
                for (int pe = 1; pe < 4; pe++) {
                    for (int i = 0; i < 50; i++) {
                        a.atomicFetchAdd(pe, 0, 1);
                    }
                }
                for (int pe = 1; pe < 4; pe++) {
                    flag.p(pe, 0, 2);
                }
                sh.quiet();
            } else {
                final long before = sh.engine.agentPasses;
                flag.waitUntil(0, Cmp.GE, 1); // PE 0 may have moved the flag on to 2 already
                passes[sh.myPe()] = sh.engine.agentPasses - before;
                final long start = System.nanoTime();
                final long x = computeUntilTwo(flag);
                computeNs[sh.myPe()] = System.nanoTime() - start + (x == 42 ? 1 : 0);
                assertEquals(50, a.local()[0]);
            }
        });
        for (int pe = 1; pe < 4; pe++) {
            // Parking at most 1 ms the agent would make about a thousand passes in that second; backing off to 50 ms
            // while its PE waits inside SHMEM, 30-40; sleeping through the wait once the parks reach 50 ms (about 0.1
            // s of doublings), about a dozen.
            assertTrue(passes[pe] < 18, "PE " + pe + "'s agent made " + passes[pe] + " passes while it waited");
            assertTrue(computeNs[pe] < 15_000_000_000L, "PE " + pe + " was served while it computed");
        }
    }

    /**
     * An agent asleep through its PE's long wait is woken as the wait ends: the PE then computes without calling
     * SHMEM, and with the NIC's handlers off only the agent can serve the fetch-adds aimed at it. An agent left
     * asleep would answer the first only after its longest sleep (1 s).
     */
    @Test
    void shouldWakeAnAgentThatSleptThroughItsPesWaitWhenTheWaitEnds() {
        final long[] servedNs = new long[1];
        final Engine[] engines = new Engine[2];
        ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(60)).option("fm.nicOffload", "false").build().run(sh -> {
            engines[sh.myPe()] = sh.engine;
            final SymmetricLongs flag = sh.mallocLongs(1);
            final SymmetricLongs a = sh.mallocLongs(1);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                // Until PE 1, waiting, has its agent asleep through the wait (about 0.1 s of parks first).
                final long deadline = System.nanoTime() + 20_000_000_000L;
                while (!engines[1].agent.sleepsThroughWait()) {
                    assertTrue(System.nanoTime() - deadline < 0, "PE 1's agent never slept through its PE's wait");
                    Thread.onSpinWait();
                }
                flag.p(1, 0, 1);
                sh.quiet();
                final long t0 = System.nanoTime();
                a.atomicFetchAdd(1, 0, 1); // served once the agent is awake
                servedNs[0] = System.nanoTime() - t0;
                for (int i = 1; i < 20; i++) {
                    a.atomicFetchAdd(1, 0, 1);
                }
                flag.p(1, 0, 2);
                sh.quiet();
            } else {
                flag.waitUntil(0, Cmp.GE, 1);
                final long x = computeUntilTwo(flag);
                assertEquals(20, a.local()[0] + (x == 42 ? 1 : 0));
            }
        });
        // Served within the agent's first parks after the wait (20 us doubling; more on a busy machine), where an agent
        // left asleep answers only at the end of its longest sleep, up to 1 s later.
        assertTrue(servedNs[0] < 500_000_000L, "the first fetch-add to a computing PE took " + servedNs[0] / 1_000_000
            + " ms after its wait ended");
    }

    /** Computes without calling SHMEM until another PE sets the flag to 2 (at most 20 s); returns a sink. */
    private static long computeUntilTwo(final SymmetricLongs flag) {
        final long start = System.nanoTime();
        long x = 0;
        while (flag.local()[0] != 2 && System.nanoTime() - start < 20_000_000_000L) {
            for (int i = 0; i < 10_000; i++) {
                x += i ^ x >>> 3;
            }
            java.lang.invoke.VarHandle.acquireFence();
        }
        return x;
    }

    @Test
    void shouldEndTheJobWithGlobalExitStatus() {
        final long start = System.nanoTime();
        final ShmemJob.Report r = ShmemTestSupport.job(4).run(sh -> {
            if (sh.myPe() == 2) {
                sh.globalExit(3);
            }
            final SymmetricLongs never = sh.mallocLongs(1);
            never.waitUntil(0, Cmp.EQ, 1);   // would wait forever
        });
        assertEquals(3, r.exitStatus());
        assertTrue(System.nanoTime() - start < 10_000_000_000L);
    }

    @Test
    void shouldAbortEveryPePromptlyWithTheFirstCause() {
        final long start = System.nanoTime();
        final ShmemAbortException e = assertThrows(ShmemAbortException.class,
            () -> ShmemJob.builder().pes(8).timeout(Duration.ofSeconds(60)).build().run(sh -> {
                final SymmetricLongs x = sh.mallocLongs(1);
                if (sh.myPe() == 5) {
                    throw new IllegalStateException("boom on 5");
                }
                x.waitUntil(0, Cmp.EQ, 1);
            }));
        assertEquals(5, e.pe());
        assertEquals("boom on 5", e.getCause().getMessage());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "aborted promptly");
    }

    @Test
    void shouldRejectCallsFromAnotherThread() throws Exception {
        ShmemTestSupport.job(2).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(1);
            final Throwable[] got = new Throwable[1];
            final Thread t = new Thread(() -> {
                try {
                    a.p(0, 0, 1);
                } catch (Throwable x) {
                    got[0] = x;
                }
            });
            t.start();
            t.join(10_000);
            assertTrue(got[0] instanceof IllegalStateException, String.valueOf(got[0]));
            sh.barrierAll();
            assertEquals(0, a.local()[0]);
        });
    }
}
