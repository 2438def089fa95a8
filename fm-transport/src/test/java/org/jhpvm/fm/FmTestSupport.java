package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;

/** Jobs for the tests: small fabrics, short timeouts. */
final class FmTestSupport {
    static final long WAIT_NS = 20_000_000_000L;

    private FmTestSupport() {
    }

    static FmJob job(final int pes) {
        return FmJob.builder().pes(pes).timeout(Duration.ofSeconds(60)).build();
    }

    static FmJob job(final int pes, final FaultPlan plan) {
        return job(FabricConfig.builder(pes).faultPlan(plan).build(), FmConfig.defaults());
    }

    static FmJob job(final FabricConfig fabric, final FmConfig fm) {
        return FmJob.builder().fabric(fabric).fm(fm).timeout(Duration.ofSeconds(60)).build();
    }

    /**
     * What an abort did: the exception the job threw, and how long after the failure the slowest PE saw it.
     *
     * @param abort     the job's exception
     * @param slowestNs the slowest PE's delay, ns
     */
    record Abort(FmAbortException abort, long slowestNs) {
    }

    /**
     * Runs {@code job} of {@code pes} PEs in which PE 3 throws {@code boom} once every other PE is waiting in
     * {@code extractUntil}.
     *
     * @return the abort and the slowest PE's delay in noticing it
     */
    static Abort abortWhileTheOthersWait(final FmJob job, final int pes, final RuntimeException boom) {
        final AtomicLong slowestAbortNs = new AtomicLong();
        final long[] failedAt = new long[1];
        final CountDownLatch waiting = new CountDownLatch(pes - 1);
        final FmAbortException e = assertThrows(FmAbortException.class, () -> job.run(fm -> {
            if (fm.pe() == 3) {
                assertTrue(waiting.await(20, TimeUnit.SECONDS), "the other PEs never got going");
                failedAt[0] = System.nanoTime();
                throw boom;
            }
            waiting.countDown();
            try {
                fm.extractUntil(() -> false, 30_000_000_000L);
            } catch (FmAbortException abort) {
                slowestAbortNs.accumulateAndGet(System.nanoTime() - failedAt[0], Math::max);
                throw abort;
            }
        }));
        return new Abort(e, slowestAbortNs.get());
    }

    /** A test pattern that depends on message, position and seed. */
    static byte pattern(final long seed, final int message, final int i) {
        long x = seed * 0x9E3779B97F4A7C15L + message * 0xBF58476D1CE4E5B9L + i;
        x ^= x >>> 31;
        x *= 0x94D049BB133111EBL;
        return (byte) (x ^ x >>> 29);
    }

    static byte[] message(final long seed, final int message, final int length) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = pattern(seed, message, i);
        }
        return b;
    }
}
