package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

@Timeout(120)
class AtomicsTest {
    static final int[] PES = ShmemTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldGiveEveryFetchAddADistinctTicket(final int pes) {
        final int per = pes > 8 ? 20 : 200;
        final ConcurrentLinkedQueue<Long> tickets = new ConcurrentLinkedQueue<>();
        ShmemTestSupport.job(pes).run(sh -> {
            final SymmetricLongs counter = sh.mallocLongs(1);
            final SymmetricInts icounter = sh.mallocInts(1);
            sh.barrierAll();
            for (int i = 0; i < per; i++) {
                tickets.add(counter.atomicFetchAdd(0, 0, 1));
                icounter.atomicInc(sh.nPes() - 1, 0);
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                assertEquals((long) per * sh.nPes(), counter.local()[0]);
            }
            if (sh.myPe() == sh.nPes() - 1) {
                assertEquals(per * sh.nPes(), icounter.local()[0]);
            }
        });
        final long[] sorted = tickets.stream().mapToLong(Long::longValue).sorted().toArray();
        final long[] want = new long[per * pes];
        Arrays.setAll(want, i -> i);
        assertArrayEquals(want, sorted, "fetchAdd from all PEs returns a permutation");
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldApplyEveryAtomicOperation(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int t = (me + 1) % sh.nPes();
            final SymmetricLongs l = sh.mallocLongs(8);
            final SymmetricInts i = sh.mallocInts(8);
            final SymmetricDoubles d = sh.mallocDoubles(2);
            final SymmetricFloats f = sh.mallocFloats(2);
            sh.barrierAll();
            l.atomicSet(t, 0, 10);
            assertEquals(10, l.atomicFetch(t, 0));
            assertEquals(10, l.atomicSwap(t, 0, 20));
            assertEquals(20, l.atomicCompareSwap(t, 0, 99, 30), "no swap when cond differs");
            assertEquals(20, l.atomicCompareSwap(t, 0, 20, 30));
            assertEquals(30, l.atomicFetchInc(t, 0));
            l.atomicInc(t, 0);
            l.atomicAdd(t, 0, 8);
            assertEquals(40, l.atomicFetchAdd(t, 0, 2));
            l.atomicSet(t, 1, 0b1100);
            assertEquals(0b1100, l.atomicFetchAnd(t, 1, 0b1010));
            assertEquals(0b1000, l.atomicFetchOr(t, 1, 0b0001));
            assertEquals(0b1001, l.atomicFetchXor(t, 1, 0b1111));
            l.atomicAnd(t, 1, 0b0111);
            l.atomicOr(t, 1, 0b10000);
            l.atomicXor(t, 1, 0b1);
            assertEquals(0b10111, l.atomicFetch(t, 1));
            i.atomicSet(t, 0, -5);
            assertEquals(-5, i.atomicFetchAdd(t, 0, 7));
            assertEquals(2, i.atomicCompareSwap(t, 0, 2, Integer.MIN_VALUE));
            assertEquals(Integer.MIN_VALUE, i.atomicFetchXor(t, 0, -1));
            assertEquals(Integer.MAX_VALUE, i.atomicFetch(t, 0));
            d.atomicSet(t, 0, 1.5);
            assertEquals(1.5, d.atomicSwap(t, 0, -2.25));
            assertEquals(-2.25, d.atomicFetch(t, 0));
            f.atomicSet(t, 1, 0.5f);
            assertEquals(0.5f, f.atomicSwap(t, 1, 3f));
            assertEquals(3f, f.atomicFetch(t, 1));
            sh.barrierAll();
            assertEquals(42, l.local()[0]);
            assertEquals(0b10111, l.local()[1]);
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldAccumulateAtomicallyFromEveryPe(final int pes) {
        final int len = 500;
        ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final SymmetricDoubles a = sh.mallocDoubles(len);
            final SymmetricLongs b = sh.mallocLongs(2 * len);
            final double[] ones = new double[len];
            Arrays.fill(ones, 1.0);
            final long[] idx = new long[len];
            Arrays.setAll(idx, k -> k);
            sh.barrierAll();
            // Every PE accumulates into PE 0 (and into itself), contiguous and strided, ten times.
            for (int rep = 0; rep < 10; rep++) {
                a.acc(0, 0, ones, 0, len, 0.5);
                b.acc(sh.myPe(), 0, 2, idx, 0, 1, len, 3L);
                b.acc(0, 1, 2, idx, 0, 1, len, 1L);
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                for (int k = 0; k < len; k++) {
                    assertEquals(5.0 * n, a.local()[k], "double " + k);
                    assertEquals(10L * k * n, b.local()[2 * k + 1], "long odd " + k);
                }
            }
            for (int k = 0; k < len; k++) {
                assertEquals(30L * k, b.local()[2 * k], "self accumulate " + k);
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldExcludeEachOtherWithLocks(final int pes) {
        final int rounds = pes > 8 ? 3 : 20;
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ShmemTestSupport.job(pes).run(sh -> {
            final SymmetricLongs lock = sh.mallocLongs(1);
            final SymmetricLongs data = sh.mallocLongs(2);
            sh.barrierAll();
            for (int r = 0; r < rounds; r++) {
                sh.setLock(lock, 0);
                // Read-modify-write by plain get and put: only correct under mutual exclusion.
                final long v = data.g(0, 0);
                final long inside = data.g(0, 1);
                if (inside != 0) {
                    failures.add("PE " + sh.myPe() + " found the lock held by another");
                }
                data.p(0, 1, 1);
                sh.quiet();
                data.p(0, 0, v + 1);
                data.p(0, 1, 0);
                sh.clearLock(lock, 0);
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                assertEquals((long) rounds * sh.nPes(), data.local()[0]);
            }
            if (sh.myPe() == sh.nPes() - 1) {
                assertTrue(sh.testLock(lock, 0), "a free lock is taken by testLock");
                assertTrue(!sh.testLock(lock, 0), "a held lock is not");
                assertThrows(IllegalStateException.class, () -> sh.setLock(lock, 0), "not reentrant");
                sh.clearLock(lock, 0);
                assertThrows(IllegalStateException.class, () -> sh.clearLock(lock, 0), "clear of a free lock");
            }
        });
        assertTrue(failures.isEmpty(), failures.toString());
    }

    /**
     * An atomic on the PE's own memory takes no part of the engine: it must still refuse another thread at FUNNELED
     * (changing nothing), and stay exact against the same element's atomics from another PE, which on FM's message
     * path this PE's own extract or its progress agent applies meanwhile.
     */
    @org.junit.jupiter.api.Test
    void shouldKeepALocalAtomicExactAndOnItsPesThread() {
        final int per = 2_000;
        ShmemJob.builder().pes(2).timeout(java.time.Duration.ofSeconds(90)).option("fm.nicOffload", "false").build()
            .run(sh -> {
                final SymmetricLongs counter = sh.mallocLongs(1);
                sh.barrierAll();
                if (sh.myPe() == 0) {
                    final Throwable[] seen = new Throwable[1];
                    final Thread other = new Thread(() -> counter.atomicAdd(0, 0, 5));
                    other.setUncaughtExceptionHandler((t, e) -> seen[0] = e);
                    other.start();
                    try {
                        other.join();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    assertTrue(seen[0] instanceof IllegalStateException
                        && seen[0].getMessage().contains("must come from its own thread"), String.valueOf(seen[0]));
                    assertEquals(0, counter.local()[0], "a refused local atomic changed the counter");
                }
                sh.barrierAll();
                final SymmetricLongs done = sh.mallocLongs(1);
                if (sh.myPe() == 0) {
                    // Local fetch-adds until PE 1 is done: meanwhile this PE's progress agent applies PE 1's.
                    long mine = 0;
                    long last = -1;
                    while (done.atomicFetch(0, 0) == 0) {
                        final long v = counter.atomicFetchAdd(0, 0, 1);
                        assertTrue(v > last, "fetch-add went back from " + last + " to " + v);
                        last = v;
                        mine++;
                    }
                    sh.barrierAll();
                    assertEquals(mine + per, counter.local()[0], "local and remote fetch-adds on one element");
                } else {
                    for (int i = 0; i < per; i++) {
                        counter.atomicFetchAdd(0, 0, 1); // one at a time, each served while PE 0 is busy
                    }
                    done.atomicSet(0, 0, 1);
                    sh.barrierAll();
                }
            });
    }
}
