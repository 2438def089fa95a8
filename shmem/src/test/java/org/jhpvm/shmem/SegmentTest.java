package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Symmetric objects in host memory ({@link SymmetricSegment}), on both paths: direct loads and stores (every PE of one
 * JVM shares a host) and messages ({@code shmem.hostMemory=messages}, the path of a PE on another host).
 */
@Timeout(120)
class SegmentTest {
    private static ShmemJob job(final int pes, final String mode) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90)).option("shmem.hostMemory", mode).build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "messages"})
    void shouldPutAndGetEveryForm(final String mode) {
        job(3, mode).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int t = (me + 1) % n;
            final SymmetricSegment s = sh.mallocSegment(1024);
            assertEquals(1024, s.byteSize());
            final long[] longs = {me * 100L + 1, me * 100L + 2, me * 100L + 3};
            s.put(t, 0, longs, 0, 3);
            s.put(t, 24, new double[] {0.5 + me, 1.5 + me}, 0, 2);
            s.put(t, 40, new byte[] {9, 8, 7, (byte) me}, 1, 3);
            final MemorySegment src = MemorySegment.ofArray(new long[] {-me, -me - 1L});
            s.put(t, 48, src);
            s.putLong(t, 64, 7_000L + me);
            s.putDouble(t, 72, 0.25 * me);
            sh.barrierAll();
            final int from = (me + n - 1) % n;
            final MemorySegment mine = s.local();
            assertEquals(from * 100L + 1, mine.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(from * 100L + 3, mine.get(ValueLayout.JAVA_LONG, 16));
            assertEquals(1.5 + from, mine.get(ValueLayout.JAVA_DOUBLE, 32));
            assertEquals(8, mine.get(ValueLayout.JAVA_BYTE, 40));
            assertEquals((byte) from, mine.get(ValueLayout.JAVA_BYTE, 42));
            assertEquals(0, mine.get(ValueLayout.JAVA_BYTE, 43), "nothing beyond the 3 bytes put");
            assertEquals(-from - 1L, mine.get(ValueLayout.JAVA_LONG, 56));
            assertEquals(7_000L + from, s.getLong(me, 64));
            // gets from the PE that wrote to us, of what we wrote to it
            final long[] back = new long[5];
            s.get(t, 0, back, 1, 3);
            assertArrayEquals(new long[] {0, me * 100L + 1, me * 100L + 2, me * 100L + 3, 0}, back);
            final double[] d = new double[2];
            s.get(t, 24, d, 0, 2);
            assertArrayEquals(new double[] {0.5 + me, 1.5 + me}, d);
            final byte[] b = new byte[3];
            s.get(t, 40, b, 0, 3);
            assertArrayEquals(new byte[] {8, 7, (byte) me}, b);
            final MemorySegment dst = MemorySegment.ofArray(new long[2]);
            s.get(t, 48, dst);
            assertEquals(-me - 1L, dst.get(ValueLayout.JAVA_LONG, 8));
            assertEquals(7_000L + me, s.getLong(t, 64));
            assertEquals(0.25 * me, s.getDouble(t, 72));
            sh.barrierAll();
            sh.free(s);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "messages"})
    void shouldGiveEveryFetchAddADistinctTicketAndApplyEveryAtomic(final String mode) {
        final int per = 300;
        final ConcurrentLinkedQueue<Long> tickets = new ConcurrentLinkedQueue<>();
        job(3, mode).run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(64);
            for (int i = 0; i < per; i++) {
                tickets.add(s.atomicFetchAdd(0, 8, 1));
                s.atomicAdd(sh.nPes() - 1, 16, 2);
            }
            sh.barrierAll();
            if (sh.myPe() == 0) {
                assertEquals(3L * per, s.getLong(0, 8));
            }
            if (sh.myPe() == sh.nPes() - 1) {
                assertEquals(6L * per, s.atomicFetch(sh.myPe(), 16));
            }
            sh.barrierAll();
            final int t = (sh.myPe() + 1) % sh.nPes();
            s.atomicSet(t, 24, 10);
            assertEquals(10, s.atomicFetch(t, 24));
            assertEquals(10, s.atomicSwap(t, 24, 20));
            assertEquals(20, s.atomicCompareSwap(t, 24, 99, 30), "no swap when cond differs");
            assertEquals(20, s.atomicCompareSwap(t, 24, 20, 30));
            assertEquals(30, s.atomicFetchBitwise(t, 24, ReduceOp.AND, 0b10110));
            assertEquals(0b10110, s.atomicFetchBitwise(t, 24, ReduceOp.OR, 0b1));
            s.atomicBitwise(t, 24, ReduceOp.XOR, 0b11);
            assertEquals(0b10100, s.atomicFetch(t, 24));
            assertThrows(IllegalArgumentException.class, () -> s.atomicBitwise(t, 24, ReduceOp.SUM, 1));
            sh.barrierAll();
        });
        final long[] sorted = tickets.stream().mapToLong(Long::longValue).sorted().toArray();
        final long[] want = new long[3 * per];
        Arrays.setAll(want, i -> i);
        assertArrayEquals(want, sorted, "fetchAdd from all PEs returns a permutation");
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "messages"})
    void shouldPingPongWithPutAndWaitUntil(final String mode) {
        final int rounds = 2_000;
        job(2, mode).run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(64);
            final long[] data = new long[1];
            final int other = 1 - sh.myPe();
            for (int r = 1; r <= rounds; r++) {
                if (sh.myPe() == r % 2) {
                    data[0] = r * 3L;
                    s.put(other, 8, data, 0, 1);
                    sh.fence();
                    s.putLong(other, 0, r);
                } else {
                    assertEquals(r, s.waitUntil(0, Cmp.GE, r));
                    assertEquals(r * 3L, s.local().get(ValueLayout.JAVA_LONG, 8), "the data came before the flag");
                }
            }
            assertTrue(s.test(0, Cmp.GE, rounds - 1));
        });
    }

    /**
     * A waiter asleep in FM (no spinning; sleeps of 1 s) is woken by a direct put, atomic or signal into its part, as
     * a message would wake it. Each store comes once the waiter has been parked for 100 ms: woken, the waiter sees it
     * within milliseconds; not woken (the stores ring nothing), it sees it when that sleep ends, about 0.9 s later.
     */
    @Test
    void aDirectStoreShouldWakeAWaiterAsleepInFm() {
        final long[] storedAt = new long[4];
        final long[] sawAt = new long[4];
        final AtomicReference<Thread> waiter = new AtomicReference<>();
        ShmemTestSupport.sleepyJob(2).run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(64);
            assertNotNull(s.ptr(1 - sh.myPe()), "one JVM: the direct path");
            if (sh.myPe() == 1) {
                waiter.set(Thread.currentThread());
            }
            sh.barrierAll();
            // No message between the PEs from here: a message would wake the waiter whatever the store did.
            for (int r = 1; r <= storedAt.length; r++) {
                if (sh.myPe() == 1) {
                    assertEquals(r, s.waitUntil(0, Cmp.GE, r));
                    sawAt[r - 1] = System.nanoTime();
                    s.putLong(0, 16, r);
                } else {
                    ShmemTestSupport.awaitAsleep(waiter.get());
                    storedAt[r - 1] = System.nanoTime();
                    switch (r) {
                        case 1 -> s.putLong(1, 0, 1);
                        case 2 -> s.atomicAdd(1, 0, 1);
                        case 3 -> s.putSignal(1, 8, MemorySegment.ofArray(new long[] {7}), 0, 3, SignalOp.SET);
                        default -> s.put(1, 0, new long[] {4}, 0, 1);
                    }
                    s.waitUntil(16, Cmp.GE, r);
                }
            }
            sh.barrierAll();
        });
        for (int r = 0; r < storedAt.length; r++) {
            final long lateMs = (sawAt[r] - storedAt[r]) / 1_000_000;
            assertTrue(lateMs < 600, "round " + (r + 1) + "'s store woke nobody: seen " + lateMs + " ms after it");
        }
    }

    @Test
    void shouldMapEveryPeOfTheHostDirectlyAndNoneOnMessages() {
        job(3, "direct").run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(16);
            for (int pe = 0; pe < sh.nPes(); pe++) {
                assertNotNull(s.ptr(pe), "PE " + pe + " shares this JVM's host memory");
            }
            assertSame(s.local(), s.ptr(sh.myPe()));
            // a store through ptr is seen by the owner
            s.ptr((sh.myPe() + 1) % sh.nPes()).set(ValueLayout.JAVA_LONG, 8, 42L + sh.myPe());
            sh.barrierAll();
            assertEquals(42L + (sh.myPe() + sh.nPes() - 1) % sh.nPes(), s.local().get(ValueLayout.JAVA_LONG, 8));
        });
        job(3, "messages").run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(16);
            for (int pe = 0; pe < sh.nPes(); pe++) {
                if (pe == sh.myPe()) {
                    assertNotNull(s.ptr(pe));
                } else {
                    assertNull(s.ptr(pe), "PE " + pe + " is reached by messages");
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "messages"})
    void shouldRefuseBadArgumentsTouchingNothing(final String mode) {
        job(2, mode).run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(32);
            final int t = 1 - sh.myPe();
            final long[] src = {1, 2, 3, 4, 5};
            assertThrows(IndexOutOfBoundsException.class, () -> s.put(t, 8, src, 0, 4), "past the end");
            assertThrows(IndexOutOfBoundsException.class, () -> s.put(t, -8, src, 0, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> s.put(t, 0, src, 3, 3), "past the source");
            assertThrows(IndexOutOfBoundsException.class, () -> s.put(2, 0, src, 0, 1), "no PE 2");
            assertThrows(IndexOutOfBoundsException.class, () -> s.get(t, 0, new long[2], 0, 5));
            assertThrows(IndexOutOfBoundsException.class, () -> s.putLong(t, 32, 1));
            assertThrows(IllegalArgumentException.class, () -> s.putLong(t, 4, 1), "misaligned word");
            assertThrows(IllegalArgumentException.class, () -> s.atomicFetchAdd(t, 12, 1), "misaligned word");
            assertThrows(IllegalArgumentException.class, () -> s.waitUntil(3, Cmp.EQ, 0), "misaligned word");
            assertThrows(IllegalStateException.class, () -> {
                final Thread other = new Thread(() -> s.putLong(t, 0, 1));
                final Throwable[] seen = new Throwable[1];
                other.setUncaughtExceptionHandler((th, e) -> seen[0] = e);
                other.start();
                other.join();
                throw seen[0];
            }, "another thread at FUNNELED");
            sh.barrierAll();
            for (long off = 0; off < 32; off += 8) {
                assertEquals(0, s.local().get(ValueLayout.JAVA_LONG, off), "a refused call wrote nothing");
            }
            sh.barrierAll();
            final MemorySegment mine = s.local();
            sh.free(s);
            assertTrue(s.isFreed());
            assertThrows(IllegalStateException.class, s::local);
            assertThrows(IllegalStateException.class, () -> s.putLong(t, 0, 1));
            assertThrows(IllegalStateException.class, () -> sh.free(s), "freed twice");
            assertThrows(IllegalStateException.class, () -> mine.get(ValueLayout.JAVA_LONG, 0),
                "the memory is given back: a segment kept from before the free cannot reach it");
        });
    }

    @Test
    void shouldAgreeOnLengthsAndCountTheHeap() {
        final var e = assertThrows(ShmemAbortException.class, () -> job(2, "direct").run(sh ->
            sh.mallocSegment(sh.myPe() == 0 ? 64 : 128)));
        assertTrue(String.valueOf(e.getCause()).contains("collective allocation mismatch"), String.valueOf(e));
        final var negative = assertThrows(ShmemAbortException.class,
            () -> job(1, "direct").run(sh -> sh.mallocSegment(-1)));
        assertTrue(negative.getCause() instanceof IllegalArgumentException, String.valueOf(negative));
        job(2, "direct").run(sh -> {
            final long before = sh.heapUsedBytes();
            final SymmetricSegment s = sh.mallocSegment(4096);
            assertEquals(before + 4096, sh.heapUsedBytes());
            final SymmetricSegment empty = sh.mallocSegment(0);
            assertEquals(0, empty.byteSize());
            sh.free(s);
            sh.free(empty);
            assertEquals(before, sh.heapUsedBytes());
        });
        final var full = assertThrows(ShmemAbortException.class, () -> ShmemJob.builder().pes(2)
            .option("shmem.heapBytes", "1K").build().run(sh -> sh.mallocSegment(2048)));
        assertTrue(String.valueOf(full.getCause()).contains("symmetric heap exhausted"), String.valueOf(full));
    }

    @Test
    void aWaitNothingEndsShouldBeReportedAsADeadlockNamingTheWord() {
        final ShmemAbortException e = assertThrows(ShmemAbortException.class, () -> ShmemJob.builder().pes(2)
            .timeout(Duration.ofSeconds(60)).option("fm.deadlockAfterNs", "200000000").build().run(sh -> {
                final SymmetricSegment s = sh.mallocSegment(64);
                s.waitUntil(16, Cmp.EQ, 5); // nobody stores it
            }));
        Throwable c = e;
        while (c != null && !(c instanceof org.jhpvm.fm.FmDeadlockException)) {
            c = c.getCause();
        }
        assertNotNull(c, String.valueOf(e));
        assertTrue(c.getMessage().contains("at offset 16 to compare EQ 5 (waitUntil)"), c.getMessage());
    }

    @Test
    void aVirtualTimeJobShouldReachOtherPesByMessagesItsClockSees() {
        ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(100)).option("fabric.clock", "virtual")
            .option("fabric.machine", "sparc-sbus-1995").option("fabric.cpu", "declared").build().run(sh -> {
                final SymmetricSegment s = sh.mallocSegment(64);
                final int t = 1 - sh.myPe();
                assertNull(s.ptr(t), "a store would escape the modelled clock: no host memory");
                assertNotNull(s.ptr(sh.myPe()));
                s.putLong(t, 8, 40 + sh.myPe());
                assertEquals(40 + sh.myPe(), s.atomicFetchAdd(t, 8, 1));
                sh.barrierAll();
                assertEquals(41 + t, s.getLong(sh.myPe(), 8));
                // A spin on its own word serves the put that ends it (no agent in virtual time).
                if (sh.myPe() == 1) {
                    s.putLong(0, 16, 99);
                } else {
                    long spins = 0;
                    while (s.getLong(0, 16) != 99) {
                        assertTrue(++spins < 50_000_000, "PE 0 spun on its own word and the put never landed");
                    }
                }
            });
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "messages"})
    void shouldCompleteNonBlockingTransfersAtQuietAndSignalAfterTheData(final String mode) {
        job(2, mode).run(sh -> {
            final SymmetricSegment s = sh.mallocSegment(4096);
            final int me = sh.myPe();
            final int t = 1 - me;
            final long[] src = new long[256];
            Arrays.setAll(src, i -> me * 1_000L + i);
            s.putNbi(t, 0, src, 0, 256);
            s.putNbi(t, 2048, MemorySegment.ofArray(new long[] {77 + me}));
            sh.quiet();
            sh.barrierAll();
            assertEquals(t * 1_000L + 255, s.local().get(ValueLayout.JAVA_LONG, 255 * 8));
            assertEquals(77 + t, s.local().get(ValueLayout.JAVA_LONG, 2048));
            final long[] back = new long[256];
            s.getNbi(t, 0, back, 0, 256);
            final MemorySegment one = MemorySegment.ofArray(new long[1]);
            s.getNbi(t, 2048, one);
            sh.quiet();
            assertEquals(me * 1_000L + 17, back[17], "what this PE put, read back");
            assertEquals(77 + me, one.get(ValueLayout.JAVA_LONG, 0));
            sh.barrierAll();
            // put-with-signal: the waiter sees the data once it sees the signal, round after round
            for (int round = 1; round <= 200; round++) {
                if (me == round % 2) {
                    final MemorySegment data = MemorySegment.ofArray(new long[] {round * 7L, round * 11L});
                    if (round % 3 == 0) {
                        s.putSignal(t, 3072, data, 3064, 1_000L * round, SignalOp.SET);
                    } else {
                        s.putSignal(t, 3072, data, 3064, round, SignalOp.ADD);
                    }
                } else {
                    final long want = expectedSignal(round);
                    assertEquals(want, s.waitUntil(3064, Cmp.EQ, want));
                    assertEquals(round * 11L, s.local().get(ValueLayout.JAVA_LONG, 3080), "data before signal");
                }
            }
            assertThrows(IllegalArgumentException.class, () -> s.putSignal(t, 0, MemorySegment.ofArray(new long[1]),
                4, 1, SignalOp.SET), "misaligned signal word");
            assertThrows(IndexOutOfBoundsException.class, () -> s.putNbi(t, 4090, src, 0, 1));
        });
    }

    /**
     * The signal word of the PE that waits in {@code round}: set to 1000 times the round every third round, else the
     * round added; it grows with every round of that PE, so a wait cannot end on an earlier round's signal.
     */
    private static long expectedSignal(final int round) {
        long v = 0;
        for (int r = round % 2 == 0 ? 2 : 1; r <= round; r += 2) {
            v = r % 3 == 0 ? 1_000L * r : v + r;
        }
        return v;
    }
}
