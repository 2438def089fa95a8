package org.jhpvm.shmem;

import static org.jhpvm.shmem.ThreadSupport.concurrently;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * Thread level MULTIPLE, the races of per-call state: every call's target translation (the team of the calling
 * thread's context in use) and the single-element scratch of {@code p} and {@code g} must be the calling thread's,
 * whichever thread owned the endpoint last. Four threads per PE mix {@code p}/{@code g}, put/get, fetching and
 * non-fetching atomics and waits, half of them inside a scope of a context made from a reversed team (whose rank r
 * is world PE n-1-r), and every value read is checked. Each case repeats its rounds enough to catch a race that
 * showed one run in three before the fix.
 */
@Timeout(120)
class ThreadMultipleRacesTest {
    private static final int THREADS = 4;
    private static final int ROUNDS = 400;
    private static final int REPEATS = 3;

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 3, 4})
    void shouldTranslateAndKeepScratchPerThread(final int pes) {
        for (int repeat = 0; repeat < REPEATS; repeat++) {
            ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90)).threadLevel(ThreadLevel.MULTIPLE).build()
                .run(ThreadMultipleRacesTest::mixedThreads);
        }
    }

    private static void mixedThreads(final Shmem sh) {
        final int me = sh.myPe();
        final int n = sh.nPes();
        final ShmemTeam reversed = sh.teamWorld().splitStrided(n - 1, -1, n);
        final SymmetricLongs whoAmI = sh.mallocLongs(1);
        final SymmetricLongs slots = sh.mallocLongs(n * THREADS);
        final SymmetricLongs hits = sh.mallocLongs(1);
        final SymmetricLongs counter = sh.mallocLongs(1);
        final SymmetricLongs lock = sh.mallocLongs(1);
        final SymmetricLongs flags = sh.mallocLongs(n * THREADS);
        final Object peLock = new Object();
        whoAmI.local()[0] = me;
        sh.barrierAll();
        concurrently(THREADS, t -> {
            final boolean team = t % 2 == 0;
            final ShmemCtx ctx = team ? reversed.createCtx(ShmemCtx.PRIVATE) : null;
            final ShmemCtx scope = team ? ctx.use() : null;
            try {
                final long[] one = new long[1];
                final long[] back = new long[1];
                for (int i = 0; i < ROUNDS; i++) {
                    final int world = (me + 1 + i + t) % n;
                    final int target = team ? n - 1 - world : world; // the number this thread's calls take
                    final String where = "PE " + me + " thread " + t + " round " + i + " target PE " + world;
                    final long whom = whoAmI.g(target, 0);
                    if (whom != world) {
                        throw new AssertionError(where + ": g read the whoAmI of PE " + whom);
                    }
                    final int slot = me * THREADS + t;
                    final long value = (long) me << 40 | (long) t << 32 | i;
                    if (i % 2 == 0) {
                        slots.p(target, slot, value);
                    } else {
                        one[0] = value;
                        slots.put(target, slot, one, 0, 1);
                    }
                    final long seen = i % 3 == 0 ? slots.g(target, slot) : get(slots, target, slot, back);
                    if (seen != value) {
                        throw new AssertionError(where + ": read back " + Long.toHexString(seen) + ", stored "
                            + Long.toHexString(value));
                    }
                    if (i % 2 == 0) {
                        hits.atomicAdd(target, 0, 1);
                    } else {
                        hits.atomicFetchAdd(target, 0, 1);
                    }
                }
                if (scope != null) {
                    scope.quiet();
                }
            } finally {
                if (scope != null) {
                    scope.close();
                    ctx.destroy();
                }
            }
            // A counter kept with g and p under a lock: every increment counted once. SHMEM locks are held by PEs,
            // so the threads of a PE take turns with a Java lock around the SHMEM one (a PE does not set a lock
            // it holds).
            for (int i = 0; i < ROUNDS / 4; i++) {
                synchronized (peLock) {
                    sh.setLock(lock, 0);
                    counter.p(0, 0, counter.g(0, 0) + 1);
                    sh.clearLock(lock, 0);
                }
            }
            // Waits: each thread waits for its flag, set by the same thread number of the previous PE.
            flags.atomicSet((me + 1) % n, ((me + 1) % n) * THREADS + t, 1);
            flags.waitUntil(me * THREADS + t, Cmp.EQ, 1);
        });
        sh.barrierAll();
        assertEquals((long) n * THREADS * ROUNDS / n, hits.local()[0], "PE " + me + ": every atomic landed here");
        if (me == 0) {
            assertEquals((long) n * THREADS * (ROUNDS / 4), counter.local()[0], "increments under the lock");
        }
        sh.barrierAll();
        reversed.destroy();
    }

    private static long get(final SymmetricLongs s, final int pe, final int index, final long[] into) {
        s.get(pe, index, into, 0, 1);
        return into[0];
    }
}
