package org.jhpvm.shmem;

import static org.jhpvm.shmem.ShmemTestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The two extensions Global Arrays stands on: block-strided transfers (ibput/ibget, 1.6) and team allocation. */
@Timeout(120)
class BlockStridedAndTeamMemoryTest {
    static final int[] PES = ShmemTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldMoveAPatchOfBlocksInOneCallEachWay(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final int to = (me + 1) % n;
            final int from = (me - 1 + n) % n;
            // A 6x10 local matrix; a 3x4 patch at (1, 2) written from a 3x5 buffer (ld 5).
            final SymmetricLongs m = sh.mallocLongs(60);
            final SymmetricDoubles d = sh.mallocDoubles(60);
            final long[] src = new long[15];
            final double[] dsrc = new double[15];
            for (int i = 0; i < 15; i++) {
                src[i] = value(me, to, i);
                dsrc[i] = me + i / 16.0;
            }
            m.ibput(to, 12, 10, src, 0, 5, 4, 3);
            d.ibput(to, 12, 10, dsrc, 0, 5, 4, 3);
            d.ibacc(to, 12, 10, dsrc, 0, 5, 4, 3, 2.0);
            sh.barrierAll();
            for (int r = 0; r < 6; r++) {
                for (int c = 0; c < 10; c++) {
                    final boolean in = r >= 1 && r <= 3 && c >= 2 && c <= 5;
                    final int k = (r - 1) * 5 + (c - 2);
                    assertEquals(in ? value(from, me, k) : 0, m.local()[r * 10 + c], "(" + r + "," + c + ")");
                    assertEquals(in ? 3 * (from + k / 16.0) : 0, d.local()[r * 10 + c], 0.0, "acc (" + r + "," + c
                        + ")");
                }
            }
            final long[] got = new long[12];
            m.ibget(to, 12, 10, got, 0, 4, 4, 3);
            final double[] dgot = new double[24];
            d.ibgetNbi(to, 12, 10, dgot, 1, 8, 4, 3);
            sh.quiet();
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 4; c++) {
                    assertEquals(value(me, to, r * 5 + c), got[r * 4 + c]);
                    assertEquals(3 * (me + (r * 5 + c) / 16.0), dgot[1 + r * 8 + c], 0.0);
                }
            }
            sh.barrierAll();
        });
    }

    @Test
    void shouldRejectBadBlocksBeforeSending() {
        ShmemTestSupport.job(2).run(sh -> {
            final SymmetricInts a = sh.mallocInts(20);
            final int[] buf = new int[20];
            Arrays.fill(buf, 7);
            final long sent = sh.engine.fm.counters().messagesSent();
            final int other = 1 - sh.myPe();
            assertThrows(IndexOutOfBoundsException.class, () -> a.ibput(other, 10, 5, buf, 0, 5, 5, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> a.ibput(other, 0, 5, buf, 10, 5, 5, 3));
            assertThrows(IllegalArgumentException.class, () -> a.ibput(other, 0, 5, buf, 0, 5, 0, 3));
            assertThrows(IllegalArgumentException.class, () -> a.ibget(other, 0, 0, buf, 0, 5, 2, 3));
            assertThrows(IllegalArgumentException.class, () -> a.ibacc(other, 0, 5, buf, 0, 5, 2, -1, 1));
            assertEquals(sent, sh.engine.fm.counters().messagesSent(), "nothing sent");
            sh.barrierAll();
            assertTrue(Arrays.stream(a.local()).allMatch(x -> x == 0), "nothing changed");
        });
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldAllocateOnATeamOnlyAndKeepIdsApart(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int me = sh.myPe();
            final int n = sh.nPes();
            final ShmemTeam evens = sh.teamWorld().splitStrided(0, 2, (n + 1) / 2);
            SymmetricLongs onTeam = null;
            if (evens != null) {
                // Two allocations on the team only, so the members' next ids run ahead of the odd PEs'.
                final SymmetricLongs scratch = sh.mallocLongs(evens, 3);
                onTeam = sh.mallocLongs(evens, 8);
                final int next = evens.worldPe((evens.myPe() + 1) % evens.nPes());
                onTeam.p(next, 0, me + 1);
                if (n > 1) {
                    final int odd = 1;
                    assertFalse(onTeam.addrAccessible(odd));
                    assertNull(onTeam.ptr(odd));
                    assertThrows(IndexOutOfBoundsException.class, () -> scratch.p(odd, 0, 1));
                }
                sh.sync(evens);
                final int prev = evens.worldPe((evens.myPe() - 1 + evens.nPes()) % evens.nPes());
                sh.quiet();
                sh.sync(evens);
                assertEquals(prev + 1, onTeam.local()[0]);
                sh.free(scratch);
            }
            // A world allocation afterwards agrees on one id although the PEs' next ids differ.
            final SymmetricLongs all = sh.mallocLongs(4);
            all.p((me + 1) % n, 1, me);
            sh.barrierAll();
            assertEquals((me - 1 + n) % n, all.local()[1]);
            if (onTeam != null) {
                assertEquals(8, onTeam.length());
                sh.free(onTeam);
            }
            sh.free(all);
        });
    }

    @Test
    void shouldFailATeamAllocationWhoseCountsDifferOnEveryMember() {
        final long[] unchanged = new long[4];
        ShmemTestSupport.job(4).run(sh -> {
            final ShmemTeam low = sh.teamWorld().splitStrided(0, 1, 2);
            if (low != null) {
                final long before = sh.heapUsedBytes();
                final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> sh.mallocInts(low, 10 + sh.myPe()));
                assertTrue(e.getMessage().contains("mismatch"), e.getMessage());
                unchanged[sh.myPe()] = sh.heapUsedBytes() - before;
                final SymmetricInts ok = sh.mallocInts(low, 5);
                assertEquals(5, ok.length());
            }
            sh.barrierAll();
        });
        assertArrayEquals(new long[4], unchanged);
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldSplitATeamFromAListInTheListsOrder(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final int[] list = n == 1 ? new int[] {0} : new int[] {n - 1, 0};
            final ShmemTeam t = sh.teamWorld().split(list);
            if (sh.myPe() == 0 || sh.myPe() == n - 1) {
                assertEquals(list.length, t.nPes());
                assertEquals(n - 1, t.worldPe(0));
                final long[] x = {sh.myPe() + 1};
                sh.reduce(t, ReduceOp.SUM, x, x, 1);
                assertEquals(n == 1 ? 1 : n + 1, x[0]);
            } else {
                assertNull(t);
            }
            assertThrows(IllegalArgumentException.class, () -> sh.teamWorld().split(new int[] {0, 0}));
            assertThrows(IllegalArgumentException.class, () -> sh.teamWorld().split(new int[] {n}));
            if (n > 1) {
                final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> sh.teamWorld().split(new int[] {sh.myPe()}));
                assertTrue(e.getMessage().contains("different member lists"), e.getMessage());
            }
            sh.barrierAll();
        });
    }

    @Test
    void shouldRejectACollectiveIntoAnObjectSomeMembersDoNotHold() {
        ShmemTestSupport.job(4).run(sh -> {
            final ShmemTeam low = sh.teamWorld().splitStrided(0, 1, 2);
            final SymmetricLongs x = low == null ? null : sh.mallocLongs(low, 8);
            if (x != null) {
                final long sent = sh.engine.fm.counters().messagesSent();
                final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> x.broadcast(sh.teamWorld(), 0, new long[] {1}, 0, 1, 0));
                assertTrue(e.getMessage().contains("does not hold it"), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> x.fcollect(sh.teamWorld(), 0, new long[] {1}, 0, 1));
                assertEquals(sent, sh.engine.fm.counters().messagesSent(), "nothing sent");
                low.destroy();
                assertThrows(IllegalStateException.class, () -> sh.free(x));
            }
            sh.barrierAll();
        });
    }

}
