package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jhpvm.fm.FmCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/** OpenSHMEM contexts: creation, scopes, team contexts' PE numbering, per-context quiet, NOSTORE, refusals. */
@Timeout(120)
class ContextsTest {
    static final int[] PES = ShmemTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldCarryEveryKindOfOperationOnAContextAndCompleteItAtItsQuiet(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int right = (me + 1) % n;
            final SymmetricLongs data = sh.mallocLongs(64);
            final SymmetricInts counter = sh.mallocInts(1);
            final SymmetricLongs sig = sh.mallocLongs(1);
            final SymmetricDoubles d = sh.mallocDoubles(1);
            final ShmemCtx ctx = sh.ctxCreate(0);
            assertNotNull(ctx);
            assertSame(sh.teamWorld(), ctx.team());
            assertFalse(ctx.isDefault());
            final long[] src = new long[64];
            for (int i = 0; i < 64; i++) {
                src[i] = ShmemTestSupport.value(me, right, i);
            }
            final int[] fetched = new int[1];
            final double[] dOld = new double[1];
            try (ShmemCtx c = ctx.use()) {
                data.putNbi(right, 0, src, 0, 64);
                counter.atomicFetchAddNbi(fetched, 0, right, 0, 1);
                d.atomicSwapNbi(dOld, 0, right, 0, me + 0.5);
                sig.putSignalNbi(right, 0, new long[0], 0, 0, sig, 0, 1, SignalOp.ADD);
                c.fence();
                c.quiet();
            }
            assertEquals(0, fetched[0], "the fetch landed at the context's quiet");
            assertEquals(0.0, dOld[0]);
            sh.syncAll(); // no quiet of the default context: the context's quiet completed them
            final int left = (me - 1 + n) % n;
            for (int i = 0; i < 64; i++) {
                assertEquals(ShmemTestSupport.value(left, me, i), data.local()[i]);
            }
            assertEquals(1, counter.local()[0]);
            assertEquals(1, sig.local()[0]);
            assertEquals(left + 0.5, d.local()[0]);
            ctx.destroy();
            assertTrue(ctx.isDestroyed());
            assertThrows(IllegalStateException.class, ctx::use);
            assertThrows(IllegalStateException.class, ctx::quiet);
            assertThrows(IllegalStateException.class, ctx::destroy);
            sh.barrierAll();
        });
    }

    @Test
    void shouldNumberTargetsByTeamRankInsideATeamContext() {
        ShmemTestSupport.job(6).run(sh -> {
            final int me = sh.myPe();
            final SymmetricLongs a = sh.mallocLongs(1);
            // Odd PEs 5, 3, 1 in that order (a negative stride): team rank 0 is world PE 5.
            final ShmemTeam odd = sh.teamWorld().splitStrided(5, -2, 3);
            sh.barrierAll();
            if (odd != null) {
                final ShmemCtx ctx = odd.createCtx(ShmemCtx.PRIVATE);
                assertSame(odd, ctx.team());
                final long[] worldPe0 = a.ptr(0);
                try (ShmemCtx c = ctx.use()) {
                    assertSame(worldPe0, a.ptr(0), "ptr names world PEs whatever context is in use");
                    a.atomicAdd(0, 0, 100 + me); // rank 0 of the team: world PE 5
                    assertThrows(IndexOutOfBoundsException.class, () -> a.atomicAdd(3, 0, 1), "rank 3 of 3");
                    c.quiet();
                }
                ctx.destroy();
            }
            a.atomicAdd(0, 0, 1); // outside the scope: world PE 0
            sh.barrierAll();
            if (me == 5) {
                assertEquals(101 + 103 + 105, a.local()[0]);
            } else if (me == 0) {
                assertEquals(6, a.local()[0]);
            } else {
                assertEquals(0, a.local()[0]);
            }
        });
    }

    @Test
    void shouldQuietOnlyItsOwnContext() {
        ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(15)).build().run(sh -> {
            final ShmemCtx a = sh.ctxCreate(0);
            final ShmemCtx b = sh.ctxCreate(0);
            // A request of context a that never completes (counted as in flight): quiet on b and on the default
            // context must not wait for it; awaiting a would wait forever.
            sh.engine.enter();
            sh.engine.nic.countInFlight(a.domain, 1);
            sh.engine.exit();
            try {
                b.quiet();
                sh.quiet();
                sh.ctxDefault().quiet();
            } finally {
                sh.engine.enter();
                sh.engine.nic.countInFlight(a.domain, -1);
                sh.engine.exit();
            }
            a.quiet();
            a.destroy();
            b.destroy();
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void shouldCompleteAContextsRequestsOnItsOwnQueue(final boolean offload) {
        ShmemJob.builder().pes(2).timeout(Duration.ofSeconds(30)).option("fm.nicOffload", "" + offload).build()
            .run(sh -> {
                final SymmetricLongs a = sh.mallocLongs(64);
                final int other = 1 - sh.myPe();
                final long[] src = new long[16];
                for (int i = 0; i < src.length; i++) {
                    src[i] = 100 * sh.myPe() + i;
                }
                sh.barrierAll();
                final ShmemCtx ctx = sh.ctxCreate(0);
                final ShmemCtx ctx2 = sh.ctxCreate(0);
                try (ShmemCtx c = ctx.use()) {
                    for (int i = 0; i < 10; i++) {
                        a.putNbi(other, i, src, i, 1);
                    }
                }
                try (ShmemCtx c = ctx2.use()) {
                    a.putNbi(other, 20, src, 0, 5);
                }
                final NicRequests nic = sh.engine.nic;
                final int q = nic.queueOf(ctx.domain);
                assertTrue(q != 0 && q != nic.queueOf(ctx2.domain) && nic.queueOf(ctx2.domain) != 0,
                    "each context has an FM queue of its own");
                sh.engine.enter();
                try {
                    // Taking every completion of the default queue and of ctx2's, while the answers come, takes
                    // none of ctx's: they wait on its own queue (a queue pair of the NIC where it does the work).
                    final long before = nic.pending(ctx.domain);
                    // The puts' targets hold their successes until asked (FM's deferred completions).
                    sh.engine.fm.requestCompletions();
                    // At least 50 ms, and until ctx2's answers have all come (the other PE may be descheduled for a
                    // while on a busy machine), up to 30 s.
                    final long start = System.nanoTime();
                    while (System.nanoTime() - start < 50_000_000L
                        || nic.pending(ctx2.domain) != 0 && System.nanoTime() - start < 30_000_000_000L) {
                        sh.engine.poll();
                        nic.reapDomain(0);
                        nic.reapDomain(ctx2.domain);
                    }
                    assertEquals(before, nic.pending(ctx.domain));
                    assertEquals(0, nic.pending(ctx2.domain), "ctx2's own completions were taken");
                } finally {
                    sh.engine.exit();
                }
                ctx.quiet();
                assertEquals(0, sh.engine.nic.pending(ctx.domain));
                ctx2.quiet();
                ctx.destroy();
                ctx2.destroy();
                assertEquals(0, nic.queueOf(ctx.domain), "a destroyed context's queue is closed");
                assertThrows(IllegalArgumentException.class, () -> sh.engine.fm.pollCompletion(q,
                    new FmCompletion()), "FM refuses the closed queue");
                // Contexts made and destroyed many times over give their queues back (an endpoint has 256).
                for (int i = 0; i < 300; i++) {
                    final ShmemCtx x = sh.ctxCreate(0);
                    try (ShmemCtx c = x.use()) {
                        a.p(other, 63, i);
                    }
                    x.destroy();
                }
                sh.barrierAll();
                for (int i = 0; i < 10; i++) {
                    assertEquals(100 * other + i, a.local()[i]);
                }
                for (int i = 0; i < 5; i++) {
                    assertEquals(100 * other + i, a.local()[20 + i]);
                }
                assertEquals(299, a.local()[63]);
            });
    }

    @Test
    void shouldAllowStoresOnANostoreContextAndCompleteThemAtItsQuiet() {
        // OpenSHMEM 1.5 9.4.1: NOSTORE only lets quiet and fence skip the program's own local stores; RMA and atomics
        // on the context are allowed, and its quiet completes them.
        ShmemTestSupport.job(2).run(sh -> {
            final int other = 1 - sh.myPe();
            final SymmetricLongs a = sh.mallocLongs(8);
            final long[] fetched = new long[1];
            sh.barrierAll();
            final ShmemCtx ro = sh.ctxCreate(ShmemCtx.NOSTORE);
            assertEquals(ShmemCtx.NOSTORE, ro.options());
            try (ShmemCtx c = ro.use()) {
                a.put(other, 0, new long[] {1}, 0, 1);
                a.p(other, 1, 2);
                a.atomicAdd(other, 2, 3);
                a.atomicFetchAddNbi(fetched, 0, other, 2, 4);
                a.acc(other, 3, new long[] {5}, 0, 1, 1);
                a.putSignal(other, 4, new long[] {6}, 0, 1, a, 5, 7, SignalOp.SET);
                assertEquals(0, a.atomicFetchAdd(other, 6, 10), "a fetching atomic returns the old value");
                c.quiet();
                assertEquals(3, fetched[0], "the nbi fetch-add is complete at the context's quiet");
                assertEquals(1, a.g(other, 0), "the put is visible after the context's quiet");
            }
            sh.barrierAll();
            assertArrayEquals(new long[] {1, 2, 7, 5, 6, 7, 10, 0}, a.local(), "every store landed");
            ro.destroy();
        });
    }

    @Test
    void shouldKeepCollectivesAndLocksOnTheDefaultContextInsideAScope() {
        ShmemTestSupport.job(3).run(sh -> {
            final SymmetricLongs lock = sh.mallocLongs(1);
            final SymmetricLongs x = sh.mallocLongs(1);
            final ShmemTeam pair = sh.teamWorld().splitStrided(1, 1, 2);
            final ShmemCtx ctx = pair == null ? sh.ctxCreate(ShmemCtx.NOSTORE) : pair.createCtx(ShmemCtx.NOSTORE);
            try (ShmemCtx c = ctx.use()) {
                sh.setLock(lock, 0); // world PE numbers and stores, whatever the context in use
                sh.clearLock(lock, 0);
                final long[] sum = {1};
                sh.reduce(sh.teamWorld(), ReduceOp.SUM, sum, sum, 1);
                assertEquals(3, sum[0]);
                sh.barrierAll();
            }
            ctx.destroy();
            if (pair != null) {
                pair.destroy();
            }
        });
    }

    @Test
    void shouldRefuseBadContextUseClearly() {
        ShmemTestSupport.job(2).run(sh -> {
            assertThrows(IllegalArgumentException.class, () -> sh.ctxCreate(8), "unknown option bit");
            assertThrows(IllegalArgumentException.class, () -> sh.ctxDefault().destroy());
            assertTrue(sh.ctxDefault().isDefault());
            final ShmemCtx a = sh.ctxCreate(ShmemCtx.SERIALIZED);
            final ShmemCtx b = sh.ctxCreate(0);
            assertThrows(IllegalStateException.class, a::close, "not in use");
            try (ShmemCtx ca = a.use()) {
                assertThrows(IllegalStateException.class, a::use, "already in use");
                assertThrows(IllegalStateException.class, a::destroy, "in use");
                final ShmemCtx cb = b.use();
                assertThrows(IllegalStateException.class, ca::close, "closed out of order");
                cb.close();
            }
            // A team whose config caps it at one context; a team with live contexts cannot be destroyed.
            final ShmemTeam t = sh.teamWorld().splitStrided(0, 1, 2, new TeamConfig(1));
            assertEquals(1, t.getConfig().numContexts());
            assertEquals(TeamConfig.DEFAULT, sh.teamWorld().getConfig());
            final ShmemCtx tc = t.createCtx(0);
            assertNotNull(tc);
            assertNull(t.createCtx(0), "beyond numContexts: SHMEM_CTX_INVALID");
            assertThrows(IllegalStateException.class, t::destroy);
            assertFalse(t.isDestroyed());
            tc.destroy();
            assertThrows(IllegalArgumentException.class, () -> new TeamConfig(-1));
            a.destroy();
            b.destroy();
            // The PE's pool of contexts: MAX_CONTEXTS live ones, then null; a destroyed one frees its place.
            final List<ShmemCtx> all = new ArrayList<>();
            for (int i = 0; i < ShmemCtx.MAX_CONTEXTS; i++) {
                all.add(assertNotNullCtx(sh.ctxCreate(0)));
            }
            assertNull(sh.ctxCreate(0));
            all.get(5).destroy();
            assertNotNull(sh.ctxCreate(0));
            t.destroy();
        });
    }

    private static ShmemCtx assertNotNullCtx(final ShmemCtx c) {
        assertNotNull(c);
        return c;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void shouldLandEveryNonBlockingFetchUnderFaults(final boolean offload) {
        ShmemJob.builder().pes(3).timeout(Duration.ofSeconds(60)).option("fm.nicOffload", "" + offload)
            .option("fabric.faults.seed", "11").option("fabric.faults.drop", "0.02")
            .option("fabric.faults.duplicate", "0.01").build().run(sh -> {
                final int me = sh.myPe();
                final SymmetricLongs c = sh.mallocLongs(1);
                final int rounds = 3000; // more than the 1024 landing slots: some wait for a free one
                final long[] got = new long[rounds];
                sh.barrierAll();
                for (int i = 0; i < rounds; i++) {
                    c.atomicFetchAddNbi(got, i, 0, 0, 1);
                }
                sh.quiet();
                sh.barrierAll();
                // Every value PE 0's counter held was fetched exactly once over all PEs.
                final long[] seen = new long[3 * rounds];
                for (final long v : got) {
                    seen[(int) v] = 1;
                }
                sh.reduce(sh.teamWorld(), ReduceOp.SUM, seen, seen, seen.length);
                for (int v = 0; v < seen.length; v++) {
                    assertEquals(1, seen[v], "value " + v + " fetched " + seen[v] + " times");
                }
                if (me == 0) {
                    assertEquals(3L * rounds, c.local()[0]);
                }
            });
    }
}
