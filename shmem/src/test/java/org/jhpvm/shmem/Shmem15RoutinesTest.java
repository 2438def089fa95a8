package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The OpenSHMEM 1.5 (and named 1.6) routines beyond the first cut: fair {@code test_any}, the vector wait/test
 * family, strided splits with negative and zero strides, team configs, {@code SHMEM_TEAM_SHARED}, scans,
 * {@code malloc_with_hints}, {@code align}, {@code pcontrol} and the thread levels.
 */
@Timeout(120)
class Shmem15RoutinesTest {
    static final int[] PES = ShmemTestSupport.PES;

    @Test
    void shouldReturnEverySatisfyingIndexInTurnFromTestAnyAndWaitUntilAny() {
        ShmemTestSupport.job(1).run(sh -> {
            final SymmetricInts flags = sh.mallocInts(6);
            final SymmetricLongs lflags = sh.mallocLongs(6);
            for (final int k : new int[] {1, 3, 4}) {
                flags.local()[k] = 1;
                lflags.local()[k] = 1;
            }
            final TreeSet<Integer> seen = new TreeSet<>();
            final TreeSet<Integer> waited = new TreeSet<>();
            final TreeSet<Integer> lseen = new TreeSet<>();
            for (int i = 0; i < 6; i++) {
                seen.add(flags.testAny(0, 6, null, Cmp.EQ, 1));
                waited.add(flags.waitUntilAny(0, 6, null, Cmp.EQ, 1));
                lseen.add(lflags.testAnyVector(0, 6, null, Cmp.EQ, new long[] {1, 1, 1, 1, 1, 1}));
            }
            assertEquals(new TreeSet<>(java.util.List.of(1, 3, 4)), seen, "flags left set are all visited");
            assertEquals(seen, waited);
            assertEquals(seen, lseen);
            // Excluded ones are never returned.
            for (int i = 0; i < 4; i++) {
                assertEquals(3, flags.testAny(0, 6, new int[] {0, 1, 0, 0, 1, 0}, Cmp.EQ, 1));
            }
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldWaitAndTestAgainstAValuePerElement(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final SymmetricLongs slots = sh.mallocLongs(n);
            final SymmetricInts islots = sh.mallocInts(n);
            final long[] want = new long[n];
            final int[] iwant = new int[n];
            for (int k = 0; k < n; k++) {
                want[k] = 10L * k + me;
                iwant[k] = 10 * k + me;
            }
            assertEquals(n == 1, slots.testAllVector(0, n, null, Cmp.EQ, want), "nothing written yet");
            sh.barrierAll();
            // Every PE k writes 10k + target into slot k of every target.
            for (int t = 0; t < n; t++) {
                slots.atomicSet(t, me, 10L * me + t);
                islots.atomicSet(t, me, 10 * me + t);
            }
            slots.waitUntilAllVector(0, n, null, Cmp.EQ, want);
            islots.waitUntilAllVector(0, n, null, Cmp.EQ, iwant);
            assertTrue(slots.testAllVector(0, n, null, Cmp.EQ, want));
            assertTrue(islots.testAllVector(0, n, null, Cmp.GE, iwant));
            final int[] idx = new int[n];
            assertEquals(n, slots.testSomeVector(0, n, idx, null, Cmp.EQ, want));
            final int[] none = new int[n];
            final long[] above = want.clone();
            above[n - 1]++;
            assertEquals(1, slots.testSomeVector(0, n, idx, null, Cmp.LT, above));
            assertEquals(n - 1, idx[0]);
            assertEquals(n - 1, slots.waitUntilAnyVector(0, n, null, Cmp.LT, above));
            assertEquals(n, islots.waitUntilSomeVector(0, n, idx, null, Cmp.GE, new int[n]));
            assertEquals(-1, slots.testAnyVector(0, n, null, Cmp.NE, want));
            assertEquals(0, islots.testSomeVector(0, n, none, null, Cmp.NE, iwant));
            assertThrows(IllegalArgumentException.class, () -> slots.testAllVector(0, n, null, Cmp.EQ,
                new long[n - 1]), "fewer values than elements");
            assertThrows(NullPointerException.class, () -> slots.waitUntilAllVector(0, n, null, Cmp.EQ, null));
            sh.barrierAll();
        });
    }

    @Test
    void shouldSplitWithNegativeAndZeroStridesAsOpenShmem16Says() {
        ShmemTestSupport.job(5).run(sh -> {
            final ShmemTeam w = sh.teamWorld();
            final int me = sh.myPe();
            final ShmemTeam reversed = w.splitStrided(4, -1, 5);
            assertEquals(4 - me, reversed.myPe(), "(n-1, -1, n): the world in reverse order");
            assertEquals(4, reversed.worldPe(0));
            final ShmemTeam alone = w.splitStrided(2, 0, 1);
            assertEquals(me == 2, alone != null);
            final ShmemTeam evensDown = w.splitStrided(4, -2, 3);
            if (me % 2 == 0) {
                assertEquals((4 - me) / 2, evensDown.myPe());
                final long[] r = {me};
                sh.reduce(evensDown, ReduceOp.SUM, r, r, 1);
                assertEquals(6, r[0]);
            } else {
                assertNull(evensDown);
            }
            // Refused on every PE before anything is sent: the triplet leaves the parent, or stride 0 with size > 1.
            assertThrows(IllegalArgumentException.class, () -> w.splitStrided(1, -1, 3));
            assertThrows(IllegalArgumentException.class, () -> w.splitStrided(0, 0, 2));
            assertThrows(IllegalArgumentException.class, () -> w.splitStrided(3, 2, 2));
            assertThrows(NullPointerException.class, () -> w.splitStrided(0, 1, 1, null));
            final long[] ok = {1};
            sh.reduce(w, ReduceOp.SUM, ok, ok, 1);
            assertEquals(5, ok[0], "the refusals left the team usable");
            final ShmemTeam.Split2d grid = w.split2d(2, new TeamConfig(2), new TeamConfig(3));
            assertEquals(2, grid.x().getConfig().numContexts());
            assertEquals(3, grid.y().getConfig().numContexts());
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldGiveTheSharedTeamAsThePesOfThisJvm(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final ShmemTeam shared = sh.teamShared();
            assertNotSame(sh.teamWorld(), shared);
            assertEquals(sh.nPes(), shared.nPes(), "one JVM: every PE");
            assertEquals(sh.myPe(), shared.myPe());
            final long[] one = {1};
            sh.reduce(shared, ReduceOp.SUM, one, one, 1);
            assertEquals(sh.nPes(), one[0]);
            assertThrows(IllegalArgumentException.class, shared::destroy);
            final ShmemTeam sub = shared.splitStrided(0, 1, 1);
            assertEquals(sh.myPe() == 0, sub != null, "splits of the shared team get fresh ids");
            sh.barrierAll();
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldScanInRankOrderWithTheBitsOfTheSequentialSum(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final long[] l = {me + 1, Long.MAX_VALUE};
            final long[] li = new long[2];
            final long[] le = new long[2];
            sh.sumInscan(sh.teamWorld(), li, l, 2);
            sh.sumExscan(sh.teamWorld(), le, l, 2);
            assertEquals((long) (me + 1) * (me + 2) / 2, li[0]);
            assertEquals((long) me * (me + 1) / 2, le[0]);
            assertEquals(Long.MAX_VALUE * (me + 1), li[1], "wraps as long arithmetic does");
            final double[] d = {0.1 * (me + 1), me % 2 == 0 ? -0.0 : 1e300};
            final double[] di = new double[2];
            final double[] de = new double[2];
            sh.sumInscan(sh.teamWorld(), di, d, 2);
            sh.sumExscan(sh.teamWorld(), de, d, 2);
            double s = 0;
            double s1 = 0;
            for (int j = 0; j <= me; j++) {
                s = j == 0 ? 0.1 : s + 0.1 * (j + 1);
                s1 = j == 0 ? -0.0 : s1 + (j % 2 == 0 ? -0.0 : 1e300);
            }
            assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(di[0]));
            assertEquals(Double.doubleToRawLongBits(s1), Double.doubleToRawLongBits(di[1]), "-0.0 kept");
            assertEquals(me == 0 ? 0.0 : di[0] - d[0], de[0], 1e-12);
            final int[] i = {me};
            final float[] f = {me + 0.25f};
            final int[] io = new int[1];
            final float[] fo = new float[1];
            sh.sumInscan(sh.teamWorld(), io, i, 1);
            sh.sumExscan(sh.teamWorld(), fo, f, 1);
            assertEquals(me * (me + 1) / 2, io[0]);
            float fs = 0;
            for (int j = 0; j < me; j++) {
                fs = j == 0 ? 0.25f : fs + (j + 0.25f);
            }
            assertEquals(Float.floatToRawIntBits(fs), Float.floatToRawIntBits(fo[0]));
            // On a strided team: ranks, not world numbers, order the scan.
            final ShmemTeam rev = sh.teamWorld().splitStrided(n - 1, -1, n);
            final long[] r = {me};
            sh.sumInscan(rev, r, r, 1);
            long expect = 0;
            for (int p = n - 1; p >= me; p--) {
                expect += p;
            }
            assertEquals(expect, r[0]);
            assertThrows(IndexOutOfBoundsException.class, () -> sh.sumInscan(sh.teamWorld(), new long[1], l, 2));
            sh.barrierAll();
        });
    }

    @Test
    void shouldCheckHintsAndAlignmentBeforeAllocating() {
        ShmemTestSupport.job(2).run(sh -> {
            final long used = sh.heapUsedBytes();
            assertThrows(IllegalArgumentException.class, () -> sh.alignBytes(12, 4));
            assertThrows(IllegalArgumentException.class, () -> sh.alignBytes(4, 4));
            assertEquals(used, sh.heapUsedBytes(), "nothing allocated");
            // Hints it cannot use (unknown bits) leave the call as malloc: accepted and kept as given.
            final SymmetricLongs unknown = sh.mallocLongsWithHints(4, 1L << 40 | 4 | Shmem.MALLOC_ATOMICS_REMOTE);
            assertEquals(1L << 40 | 4 | Shmem.MALLOC_ATOMICS_REMOTE, unknown.hints());
            unknown.p(1 - sh.myPe(), 3, 9);
            final SymmetricLongs a = sh.mallocLongsWithHints(4, Shmem.MALLOC_ATOMICS_REMOTE);
            final SymmetricInts b = sh.mallocIntsWithHints(4, Shmem.MALLOC_SIGNAL_REMOTE | Shmem.MALLOC_ATOMICS_REMOTE);
            final SymmetricBytes c = sh.alignBytes(64, 10);
            assertEquals(Shmem.MALLOC_ATOMICS_REMOTE, a.hints());
            assertEquals(3, b.hints());
            assertEquals(0, c.hints());
            assertEquals(10, c.length());
            a.atomicAdd(1 - sh.myPe(), 0, 1);
            sh.barrierAll();
            assertEquals(1, a.local()[0]);
            assertEquals(9, unknown.local()[3], "an object with unknown hints is an ordinary one");
            assertEquals(1, sh.pcontrolLevel());
            sh.pcontrol(0);
            assertEquals(0, sh.pcontrolLevel());
            assertThrows(IllegalArgumentException.class, () -> sh.pcontrol(-1));
            assertEquals(0, sh.pcontrolLevel());
        });
    }

    @Test
    void shouldProvideFunneledByDefaultAndRefuseOtherThreads() {
        ShmemTestSupport.job(2).run(sh -> {
            assertEquals(ThreadLevel.FUNNELED, sh.queryThread());
            assertTrue(onOtherThread(sh::quiet) instanceof IllegalStateException);
        });
    }

    @Test
    void shouldLetSeveralThreadsOfAPeCallOneAtATimeAtSerialized() throws Exception {
        ShmemJob.builder().pes(3).timeout(Duration.ofSeconds(60)).threadLevel(ThreadLevel.MULTIPLE).build()
            .run(sh -> {
                assertEquals(ThreadLevel.MULTIPLE, sh.queryThread());
                final SymmetricLongs c = sh.mallocLongs(1);
                final ReentrantLock serial = new ReentrantLock();
                final Thread[] workers = new Thread[3];
                final Throwable[] failure = new Throwable[1];
                for (int w = 0; w < workers.length; w++) {
                    workers[w] = new Thread(() -> {
                        for (int i = 0; i < 200; i++) {
                            serial.lock();
                            try {
                                c.atomicAdd(0, 0, 1);
                                final ShmemCtx ctx = sh.ctxCreate(ShmemCtx.PRIVATE);
                                try (ShmemCtx u = ctx.use()) {
                                    c.atomicAdd(0, 0, 1);
                                    u.quiet();
                                }
                                ctx.destroy();
                            } catch (Throwable e) {
                                failure[0] = e;
                            } finally {
                                serial.unlock();
                            }
                        }
                    });
                    workers[w].start();
                }
                for (final Thread t : workers) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
                assertNull(failure[0]);
                sh.barrierAll();
                if (sh.myPe() == 0) {
                    assertEquals(3L * 3 * 200 * 2, c.local()[0]);
                }
            });
    }

    @Test
    void shouldRefuseAPrivateContextFromAnotherThread() {
        ShmemJob.builder().pes(1).timeout(Duration.ofSeconds(60)).threadLevel(ThreadLevel.SERIALIZED).build()
            .run(sh -> {
                final ShmemCtx mine = sh.ctxCreate(ShmemCtx.PRIVATE);
                assertTrue(onOtherThread(mine::use) instanceof IllegalStateException);
                try (ShmemCtx u = mine.use()) {
                    u.quiet();
                }
                mine.destroy();
            });
    }

    /** Runs {@code call} on a new thread and returns what it threw (null if nothing). */
    private static Throwable onOtherThread(final Runnable call) {
        final Throwable[] seen = new Throwable[1];
        final Thread t = new Thread(() -> {
            try {
                call.run();
            } catch (Throwable e) {
                seen[0] = e;
            }
        });
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return seen[0];
    }
}
