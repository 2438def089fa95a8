package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.jhpvm.shmem.ThreadSupport.await;
import static org.jhpvm.shmem.ThreadSupport.awaitInsideAWait;
import static org.jhpvm.shmem.ThreadSupport.concurrently;
import static org.jhpvm.shmem.ThreadSupport.join;
import static org.jhpvm.shmem.ThreadSupport.start;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Thread level MULTIPLE: several threads of each PE call SHMEM at once; a thread waiting for something (a
 * point-to-point wait, a barrier, a lock, a reduction) does not keep the PE's other threads out, so a wait that only
 * another thread of the same PE can end ends; each thread's context scopes are its own.
 */
@Timeout(120)
class ThreadMultipleTest {
    private static final int THREADS = 4;
    private static final int ROUNDS = 300;

    private static ShmemJob job(final int pes) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(60)).threadLevel(ThreadLevel.MULTIPLE).build();
    }

    @Test
    void shouldProvideMultipleAndKeepEveryOperationOfConcurrentThreads() {
        job(3).run(sh -> {
            assertEquals(ThreadLevel.MULTIPLE, sh.queryThread());
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs counter = sh.mallocLongs(1);
            final SymmetricLongs slots = sh.mallocLongs(THREADS * ROUNDS);
            sh.barrierAll();
            concurrently(THREADS, t -> {
                final int next = (me + 1) % n;
                final ShmemCtx ctx = sh.ctxCreate(ShmemCtx.PRIVATE);
                final long[] one = new long[1];
                final long[] back = new long[1];
                long lastTicket = -1;
                for (int i = 0; i < ROUNDS; i++) {
                    final long ticket = counter.atomicFetchAdd(i % n, 0, 1);
                    if (i % n == 0) {
                        // Tickets from one PE's counter only grow, whoever else takes them meanwhile.
                        if (ticket <= lastTicket) {
                            throw new AssertionError("ticket " + ticket + " after " + lastTicket);
                        }
                        lastTicket = ticket;
                    }
                    one[0] = (long) me << 32 | (long) t << 16 | i;
                    if (i % 2 == 0) {
                        slots.put(next, t * ROUNDS + i, one, 0, 1);
                    } else {
                        try (ShmemCtx c = ctx.use()) {
                            slots.put(next, t * ROUNDS + i, one, 0, 1);
                            c.quiet();
                        }
                    }
                    slots.get(next, t * ROUNDS + i, back, 0, 1);
                    if (back[0] != one[0]) {
                        throw new AssertionError("thread " + t + " read back " + back[0] + ", put " + one[0]);
                    }
                }
                ctx.destroy();
            });
            sh.barrierAll();
            final long[] total = new long[1];
            counter.get(0, 0, total, 0, 1);
            long sum = total[0];
            for (int pe = 1; pe < n; pe++) {
                sum += counter.g(pe, 0);
            }
            assertEquals((long) n * THREADS * ROUNDS, sum, "every thread's every fetch-add counted once");
            final int prev = (me - 1 + n) % n;
            for (int t = 0; t < THREADS; t++) {
                for (int i = 0; i < ROUNDS; i++) {
                    assertEquals((long) prev << 32 | (long) t << 16 | i, slots.local()[t * ROUNDS + i]);
                }
            }
            sh.barrierAll();
        });
    }

    @Test
    void shouldLetAnotherThreadCallWhileOneWaitsUntil() {
        // PE 0's waiter needs PE 1's flag, which PE 1 sets only after PE 0's main thread has put the data: a wait
        // that kept the endpoint would deadlock (the job's timeout would fail the test).
        job(2).run(sh -> {
            final SymmetricLongs flag = sh.mallocLongs(1);
            final SymmetricLongs data = sh.mallocLongs(1);
            sh.barrierAll();
            if (sh.myPe() == 0) {
                final Thread waiter = start(() -> flag.waitUntil(0, Cmp.EQ, 1));
                awaitInsideAWait(waiter);
                data.p(1, 0, 42);
                join(waiter);
                assertEquals(1, flag.local()[0]);
            } else {
                data.waitUntil(0, Cmp.EQ, 42);
                flag.atomicSet(0, 0, 1);
            }
            sh.barrierAll();
        });
    }

    @Test
    void shouldLetAnotherThreadCallWhileOneIsInABarrierOrWaitsForALock() {
        job(2).run(sh -> {
            final SymmetricLongs data = sh.mallocLongs(2);
            final SymmetricLongs lock = sh.mallocLongs(1);
            sh.barrierAll();
            // A barrier PE 1 joins only after PE 0's other thread has put the data.
            if (sh.myPe() == 0) {
                final Thread inBarrier = start(sh::barrierAll);
                awaitInsideAWait(inBarrier);
                data.p(1, 0, 7);
                join(inBarrier);
            } else {
                data.waitUntil(0, Cmp.EQ, 7);
                sh.barrierAll();
            }
            // A lock PE 1 holds until PE 0's other thread has put the data.
            if (sh.myPe() == 1) {
                sh.setLock(lock, 0);
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                final Thread locker = start(() -> {
                    sh.setLock(lock, 0);
                    data.p(1, 1, 9);
                    sh.clearLock(lock, 0);
                });
                awaitInsideAWait(locker);
                data.p(1, 0, 8);
                join(locker);
            } else {
                data.waitUntil(0, Cmp.EQ, 8);
                sh.clearLock(lock, 0);
                data.waitUntil(1, Cmp.EQ, 9);
            }
            sh.barrierAll();
        });
    }

    @Test
    void shouldRunReductionsOnTwoTeamsFromTwoThreadsAtOnce() {
        job(3).run(sh -> {
            final ShmemTeam all = sh.teamWorld().splitStrided(0, 1, sh.nPes());
            final ShmemTeam reversed = sh.teamWorld().splitStrided(sh.nPes() - 1, -1, sh.nPes());
            final ShmemTeam[] teams = {all, reversed};
            final int me = sh.myPe();
            concurrently(2, t -> {
                final long[] src = new long[40];
                final long[] dst = new long[40];
                for (int r = 0; r < 100; r++) {
                    for (int k = 0; k < src.length; k++) {
                        src[k] = (t + 1) * 1000L * r + me * 10 + k;
                    }
                    sh.reduce(teams[t], ReduceOp.SUM, dst, src, src.length);
                    for (int k = 0; k < src.length; k++) {
                        final long expect = 3 * ((t + 1) * 1000L * r + k) + 10 * (0 + 1 + 2);
                        if (dst[k] != expect) {
                            throw new AssertionError("team " + t + " round " + r + " element " + k + ": " + dst[k]
                                + ", expected " + expect);
                        }
                    }
                }
            });
            all.destroy();
            reversed.destroy();
        });
    }

    @Test
    void shouldKeepEachThreadsContextScopesItsOwn() {
        job(2).run(sh -> {
            final SymmetricLongs a = sh.mallocLongs(2);
            final ShmemCtx readOnly = sh.ctxCreate(ShmemCtx.NOSTORE);
            final ShmemCtx serial = sh.ctxCreate(ShmemCtx.SERIALIZED);
            final ShmemCtx shared = sh.ctxCreate(0);
            final int other = 1 - sh.myPe();
            final CountDownLatch open = new CountDownLatch(1);
            final CountDownLatch checked = new CountDownLatch(1);
            final Thread holder = start(() -> {
                try (ShmemCtx s = serial.use(); ShmemCtx c = shared.use(); ShmemCtx r = readOnly.use()) {
                    open.countDown();
                    await(checked);
                    a.p(other, 0, 5); // on the NOSTORE context, this thread's innermost scope
                    r.quiet();
                }
            });
            await(open);
            // This thread has no scope open: its stores go on the default context.
            a.p(other, 1, 6);
            assertThrows(IllegalStateException.class, serial::use, "SERIALIZED and in use by the other thread");
            try (ShmemCtx c = shared.use()) {
                a.p(other, 1, 7);
                c.quiet();
            }
            assertThrows(IllegalStateException.class, readOnly::close, "not in use by this thread");
            checked.countDown();
            join(holder);
            readOnly.destroy();
            serial.destroy();
            shared.destroy();
            sh.barrierAll();
            assertArrayEquals(new long[] {5, 7}, a.local(), "both threads' stores landed, each on its own context");
        });
    }

    @Test
    void shouldStillRefuseConcurrentCallsAtSerialized() {
        ShmemJob.builder().pes(1).timeout(Duration.ofSeconds(60)).threadLevel(ThreadLevel.SERIALIZED).build()
            .run(sh -> {
                final SymmetricLongs f = sh.mallocLongs(1);
                final Thread peThread = Thread.currentThread();
                final AtomicReference<Throwable> seen = new AtomicReference<>();
                final Thread other = start(() -> {
                    awaitInsideAWait(peThread);
                    try {
                        f.p(0, 0, 1);
                    } catch (IllegalStateException e) {
                        seen.set(e);
                    }
                    f.local()[0] = 1; // ends the wait without SHMEM
                });
                f.waitUntil(0, Cmp.EQ, 1);
                join(other);
                assertEquals(IllegalStateException.class, seen.get() == null ? null : seen.get().getClass(),
                    "a call from another thread while one waits breaks SERIALIZED's promise");
            });
    }
}
