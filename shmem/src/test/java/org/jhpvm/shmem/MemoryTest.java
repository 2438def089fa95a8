package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

@Timeout(120)
class MemoryTest {
    static final int[] PES = ShmemTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldAllocateZeroedFreeReallocAndShareByPtr(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final int me = sh.myPe();
            assertEquals("1.5", sh.version());
            assertTrue(sh.peAccessible(n - 1) && !sh.peAccessible(n));
            final SymmetricLongs a = sh.callocLongs(10);
            assertArrayEquals(new long[10], a.local());
            assertEquals(80, sh.heapUsedBytes());
            a.local()[3] = me;
            sh.barrierAll();
            final long[] right = a.ptr((me + 1) % n);
            assertNotNull(right);
            assertEquals((me + 1) % n, right[3], "direct load from the neighbour's array");
            assertSame(a.local(), a.ptr(me));
            assertTrue(a.addrAccessible(n - 1));
            sh.barrierAll();
            final SymmetricLongs b = sh.realloc(a, 20);
            assertTrue(a.isFreed());
            assertEquals(me, b.local()[3], "realloc keeps the contents");
            assertEquals(20, b.length());
            assertEquals(160, sh.heapUsedBytes());
            assertThrows(IllegalStateException.class, () -> a.p(0, 0, 1), "use after free");
            assertThrows(IllegalStateException.class, () -> sh.free(a), "free twice");
            assertFalse(a.addrAccessible(0));
            sh.free(b);
            assertEquals(0, sh.heapUsedBytes());
            final SymmetricBytes empty = sh.mallocBytes(0);
            assertEquals(0, empty.length());
            sh.free(empty);
        });
    }

    @Test
    void shouldFailEveryPeWhenTheSizesDiffer() {
        final ShmemAbortException e = assertThrows(ShmemAbortException.class,
            () -> ShmemTestSupport.job(3).run(sh -> sh.mallocInts(sh.myPe() == 1 ? 11 : 10)));
        assertTrue(e.getCause() instanceof IllegalArgumentException, e.toString());
        assertTrue(e.getCause().getMessage().contains("allocation mismatch")
            && e.getCause().getMessage().contains("10..11"), e.getCause().getMessage());
    }

    @Test
    void shouldReportTheMismatchOnEveryPe() {
        final java.util.concurrent.ConcurrentLinkedQueue<Integer> caught = new java.util.concurrent.ConcurrentLinkedQueue<>();
        ShmemTestSupport.job(4).run(sh -> {
            try {
                sh.mallocDoubles(sh.myPe() == 2 ? 5 : 4);
            } catch (IllegalArgumentException expected) {
                caught.add(sh.myPe());
            }
            // Nothing was allocated anywhere: the next allocation gets the same id everywhere and works.
            final SymmetricDoubles d = sh.mallocDoubles(2);
            d.p((sh.myPe() + 1) % 4, 0, 1.0);
            sh.barrierAll();
            assertEquals(1.0, d.local()[0]);
            assertEquals(16, sh.heapUsedBytes());
        });
        assertEquals(4, caught.size(), "every PE got the error");
    }

    @Test
    void shouldRejectExhaustionOnEveryPeAndKeepTheHeapUsable() {
        final java.util.concurrent.ConcurrentLinkedQueue<String> caught = new java.util.concurrent.ConcurrentLinkedQueue<>();
        ShmemJob.builder().pes(3).option("shmem.heapBytes", "1K").timeout(Duration.ofSeconds(60)).build().run(sh -> {
            assertEquals(1024, sh.heapBytes());
            final SymmetricLongs a = sh.mallocLongs(100);
            try {
                sh.mallocLongs(100);
            } catch (IllegalStateException expected) {
                caught.add(expected.getMessage());
            }
            assertEquals(800, sh.heapUsedBytes(), "the failed allocation took nothing");
            sh.free(a);
            sh.mallocLongs(128);
        });
        assertEquals(3, caught.size());
        assertTrue(caught.peek().contains("shmem.heapBytes"), caught.peek());
    }

    @Test
    void shouldRejectUnknownOptions() {
        assertThrows(IllegalArgumentException.class, () -> ShmemJob.builder().option("shmem.nope", "1"));
        assertThrows(IllegalArgumentException.class, () -> ShmemJob.builder().option("fabric.nope", "1"));
        assertThrows(IllegalArgumentException.class, () -> ShmemJob.builder().option("shmem.heapBytes", "lots"));
        assertThrows(IllegalArgumentException.class, () -> ShmemJob.builder().option("fabric.faults.drop", "2"));
    }
}
