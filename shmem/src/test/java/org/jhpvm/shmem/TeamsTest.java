package org.jhpvm.shmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

@Timeout(120)
class TeamsTest {
    static final int[] PES = ShmemTestSupport.PES;

    @ParameterizedTest
    @FieldSource("PES")
    void shouldSplitStridedAndRunCollectivesOnTheNewTeam(final int pes) {
        ShmemTestSupport.job(pes).run(sh -> {
            final int n = sh.nPes();
            final int me = sh.myPe();
            final ShmemTeam w = sh.teamWorld();
            assertEquals(me, w.myPe());
            assertEquals(n, w.nPes());
            // The even PEs.
            final int evens = (n + 1) / 2;
            final ShmemTeam even = w.splitStrided(0, 2, evens);
            if (me % 2 == 1) {
                assertNull(even, "an odd PE is not in the team of even PEs");
            } else {
                assertEquals(me / 2, even.myPe());
                assertEquals(evens, even.nPes());
                assertEquals(me, even.translatePe(even.myPe(), w));
                assertEquals(me, even.worldPe(even.myPe()));
                final long[] r = new long[1];
                sh.reduce(even, ReduceOp.SUM, r, new long[] {me}, 1);
                long want = 0;
                for (int p = 0; p < n; p += 2) {
                    want += p;
                }
                assertEquals(want, r[0]);
                sh.sync(even);
                if (n > 1) {
                    assertEquals(-1, w.translatePe(1, even), "world PE 1 is not in the team of even PEs");
                }
                even.destroy();
                assertTrue(even.isDestroyed());
                assertThrows(IllegalStateException.class, () -> sh.sync(even));
            }
            final SymmetricLongs bc = sh.mallocLongs(1);
            // split2d into rows of 2.
            final ShmemTeam.Split2d grid = w.split2d(2);
            assertEquals(me % 2, grid.x().myPe());
            assertEquals(me / 2, grid.y().myPe());
            assertEquals(Math.min(2, n - (me / 2) * 2), grid.x().nPes());
            final long[] rowSum = new long[1];
            sh.reduce(grid.x(), ReduceOp.SUM, rowSum, new long[] {me}, 1);
            final int rowStart = me / 2 * 2;
            assertEquals(rowStart + (rowStart + 1 < n ? rowStart + 1 : 0), rowSum[0]);
            bc.broadcast(grid.y(), 0, new long[] {me}, 0, 1, 0);
            assertEquals(me % 2, bc.local()[0], "the column's root is the PE of row 0");
            sh.barrierAll();
            assertThrows(IllegalArgumentException.class, () -> w.splitStrided(0, 1, n + 1));
            assertThrows(IllegalArgumentException.class, w::destroy);
            assertThrows(IndexOutOfBoundsException.class, () -> w.translatePe(n, w));
        });
    }
}
