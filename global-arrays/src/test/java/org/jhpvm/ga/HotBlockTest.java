package org.jhpvm.ga;

import static org.jhpvm.ga.BadInputTest.rejects;
import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Arrays;

import org.jhpvm.shmem.ShmemCtx;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.ShmemTeam;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fast path for a section inside the block the last one went to ({@link HotBlock}): every call below is made
 * after a put has made its block hot, so a fast path that skipped a check, kept a stale block or ignored the caller's
 * context would move data to the wrong place or let bad input through.
 */
@Timeout(120)
class HotBlockTest {
    /** 8 x 6 doubles with one ghost layer, row blocks: PE p owns rows 4p .. 4p+3. */
    private static GlobalArray grid(final GlobalArrays ga) {
        return ga.builder(GaType.DOUBLE, 8, 6).ghosts(1, 1).procGrid(2, 1).name("g").create();
    }

    @Test
    void sectionsShouldLandWhereTheyBelongAsTheHotBlockMovesBetweenOwners() {
        GaTestSupport.run(2, ga -> {
            final GlobalArray g = grid(ga);
            final GlobalArray v = ga.builder(GaType.LONG, 10).name("v").create(); // PE p owns 5p .. 5p+4
            g.zero();
            v.zero();
            ga.sync();
            final double[] want = new double[48];
            final long[] wantV = new long[10];
            final boolean origin = ga.nodeid() == 0; // PE 0 moves; every PE computes what it should find
            final double[] buf = new double[12];
            for (int k = 0; k < 6; k++) {
                // Alternately a 2 x 3 patch (rows not contiguous at the owner), a whole row and a single element in
                // PE 0's and PE 1's blocks, which moves the hot block back and forth.
                final int r = k % 2 == 0 ? 1 : 5;
                for (int i = 0; i < buf.length; i++) {
                    buf[i] = 100 * k + i;
                }
                if (origin) {
                    g.put(new int[] {r, 2}, new int[] {r + 1, 4}, buf, new int[] {4}); // ld 4 > 3 columns
                    g.put(new int[] {r + 2, 0}, new int[] {r + 2, 5}, buf, new int[] {6});
                    g.acc(new int[] {r, 0}, new int[] {r, 0}, new double[] {0.5}, new int[] {1}, 2.0);
                    v.put(new int[] {k % 2 == 0 ? 1 : 7}, new int[] {k % 2 == 0 ? 3 : 8},
                        new long[] {k, k + 1, k + 2}, null);
                }
                for (int i = 0; i < 2; i++) {
                    for (int j = 0; j < 3; j++) {
                        want[(r + i) * 6 + 2 + j] = buf[i * 4 + j];
                    }
                }
                System.arraycopy(buf, 0, want, (r + 2) * 6, 6);
                want[r * 6] += 1.0;
                System.arraycopy(new long[] {k, k + 1, k + 2}, 0, wantV, k % 2 == 0 ? 1 : 7, k % 2 == 0 ? 3 : 2);
            }
            want[3 * 6 + 1] = -1;
            want[4 * 6 + 1] = -2;
            if (origin) {
                g.put(new int[] {3, 1}, new int[] {4, 1}, new double[] {-1, -2}, new int[] {1}); // both blocks
                final double[] back = new double[6];
                g.get(new int[] {6, 0}, new int[] {6, 5}, back, new int[] {6});
                final double[] row6 = new double[6];
                System.arraycopy(want, 36, row6, 0, 6);
                assertArrayEquals(row6, back, 0.0, "a get from the hot block reads back the row put there");
            }
            ga.sync();
            assertArrayEquals(want, whole(g), 0.0, "the 2-D array on PE " + ga.nodeid());
            final double[] vs = whole(v);
            for (int i = 0; i < 10; i++) {
                assertEquals(wantV[i], (long) vs[i], "v[" + i + "] on PE " + ga.nodeid());
            }
            final GaStatistics s = ga.statistics();
            if (ga.nodeid() == 0) {
                // Per round a 2 x 3 patch and a row of 6 doubles to g and 3 or 2 longs to v; then 2 doubles across
                // the blocks (one call); 6 accs of one double.
                assertEquals(6 * 3 + 1, s.putCalls(), "puts counted, fast path included");
                assertEquals(6 * (48 + 48) + 3 * (24 + 16) + 16, s.putBytes(), "put bytes, fast path included");
                assertEquals(6, s.accCalls());
                assertEquals(6L * 8, s.accBytes());
            }
            ga.sync();
        });
    }

    @Test
    void badInputIntoTheHotBlockShouldGetTheFullChecksAndChangeNothing() {
        GaTestSupport.run(2, ga -> {
            final GlobalArray g = grid(ga);
            final GlobalArray f = ga.builder(GaType.FLOAT, 8, 6).procGrid(2, 1).name("f").create();
            final GlobalArray v = ga.builder(GaType.LONG, 10).name("v").create();
            v.fill(9);
            g.fill(7);
            f.fill(3);
            ga.sync();
            if (ga.nodeid() == 0) {
                g.put(new int[] {4, 0}, new int[] {4, 0}, new double[] {7}, new int[] {1}); // PE 1's block is hot
                final double[] buf = new double[12];
                rejects(IllegalArgumentException.class, "buffer too small", () -> g.put(new int[] {4, 0},
                    new int[] {5, 5}, new double[11], new int[] {6}));
                rejects(IllegalArgumentException.class, "buffer too small", () -> g.get(new int[] {4, 0},
                    new int[] {5, 2}, new double[5], new int[] {3}));
                rejects(IllegalArgumentException.class, "ld[0]=2", () -> g.acc(new int[] {4, 0}, new int[] {5, 2},
                    buf, new int[] {2}, 1.0));
                rejects(IllegalArgumentException.class, "lo[1]=3 > hi[1]=2", () -> g.put(new int[] {4, 3},
                    new int[] {5, 2}, buf, new int[] {6}));
                rejects(IllegalArgumentException.class, "dimensions", () -> g.put(new int[] {4}, new int[] {5}, buf,
                    null));
                rejects(IllegalArgumentException.class, "type mismatch", () -> g.put(new int[] {4, 0},
                    new int[] {4, 0}, new float[1], new int[] {1}));
                rejects(NullPointerException.class, "buffer", () -> g.put(new int[] {4, 0}, new int[] {4, 0},
                    (double[]) null, new int[] {1}));
                rejects(NullPointerException.class, "ld", () -> g.put(new int[] {4, 0}, new int[] {4, 0}, buf,
                    null));
                rejects(IndexOutOfBoundsException.class, "outside", () -> g.put(new int[] {4, 0}, new int[] {4, 6},
                    buf, new int[] {7}));
                v.put(new int[] {5}, new int[] {5}, new long[] {9}, null); // PE 1's block of v is hot
                rejects(IllegalArgumentException.class, "buffer too small", () -> v.put(new int[] {5},
                    new int[] {8}, new long[3], null));
                f.put(new int[] {5, 0}, new int[] {5, 0}, new float[] {3}, new int[] {1});
                rejects(IllegalArgumentException.class, "type mismatch", () -> f.put(new int[] {5, 0},
                    new int[] {5, 0}, new double[1], new int[] {1}));
            }
            ga.sync();
            final double[] sevens = new double[48];
            Arrays.fill(sevens, 7);
            assertArrayEquals(sevens, whole(g), 0.0, "g unchanged");
            final double[] threes = new double[48];
            Arrays.fill(threes, 3);
            assertArrayEquals(threes, whole(f), 0.0, "f unchanged");
            final double[] nines = new double[10];
            Arrays.fill(nines, 9);
            assertArrayEquals(nines, whole(v), 0.0, "v unchanged");
            ga.sync();
        });
    }

    @Test
    void nonBlockingSectionsShouldTakeTheHotBlockWithTheSameChecks() {
        GaTestSupport.run(2, ga -> {
            final GlobalArray g = grid(ga);
            g.zero();
            ga.sync();
            final double[] want = new double[48];
            // rows 5-6, columns 1-3 of PE 1's block: put, then add 2 x 0.25 to row 5, then read back
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 3; j++) {
                    want[(5 + i) * 6 + 1 + j] = 10 * i + j + (i == 0 ? 0.5 : 0);
                }
            }
            if (ga.nodeid() == 0) {
                g.put(new int[] {4, 0}, new int[] {4, 0}, new double[] {0}, new int[] {1}); // PE 1's block is hot
                ga.nbWait(g.nbPut(new int[] {5, 1}, new int[] {6, 3}, new double[] {0, 1, 2, -7, 10, 11, 12},
                    new int[] {4}));
                ga.fence();
                ga.nbWait(g.nbAcc(new int[] {5, 1}, new int[] {5, 3}, new double[] {0.25, 0.25, 0.25},
                    new int[] {3}, 2.0));
                ga.fence();
                final double[] got = new double[6];
                final long h = g.nbGet(new int[] {5, 1}, new int[] {6, 3}, got, new int[] {3});
                ga.nbWait(h);
                assertArrayEquals(new double[] {0.5, 1.5, 2.5, 10, 11, 12}, got, 0.0, "nbGet after nbPut and nbAcc");
                rejects(IllegalArgumentException.class, "type mismatch", () -> g.nbPut(new int[] {5, 1},
                    new int[] {5, 1}, new float[1], new int[] {1}));
                rejects(IllegalArgumentException.class, "buffer too small", () -> g.nbGet(new int[] {5, 1},
                    new int[] {6, 3}, new double[5], new int[] {3}));
                rejects(NullPointerException.class, "buffer", () -> g.nbAcc(new int[] {5, 1}, new int[] {5, 1},
                    null, new int[] {1}, 1));
                final GaStatistics s = ga.statistics();
                assertEquals(2, s.putCalls(), "the put and the nbPut");
                assertEquals(8 + 6 * 8, s.putBytes());
                assertEquals(1, s.accCalls());
                assertEquals(1, s.getCalls(), "the nbGet");
            }
            ga.sync();
            assertArrayEquals(want, whole(g), 0.0, "the array on PE " + ga.nodeid());
            ga.sync();
        });
    }

    @Test
    void propertiesAndDestroyShouldStopTheFastPath() {
        GaTestSupport.run(2, ga -> {
            final GlobalArray g = grid(ga);
            g.fill(1);
            ga.sync();
            final int[] lo = {4, 1};
            final int[] hi = {4, 2};
            final int[] ld = {2};
            if (ga.nodeid() == 0) {
                g.put(lo, hi, new double[] {2, 2}, ld);
            }
            g.setProperty("read_only");
            if (ga.nodeid() == 0) {
                rejects(IllegalStateException.class, "read_only", () -> g.put(lo, hi, new double[] {5, 5}, ld));
                rejects(IllegalStateException.class, "read_only", () -> g.acc(lo, hi, new double[] {5, 5}, ld, 1));
                final double[] got = new double[2];
                g.get(lo, hi, got, ld);
                assertArrayEquals(new double[] {2, 2}, got, 0.0, "read from the replica");
            }
            g.unsetProperty();
            if (ga.nodeid() == 0) {
                g.put(lo, hi, new double[] {3, 3}, ld);
            }
            ga.sync();
            final double[] got = new double[2];
            g.get(lo, hi, got, ld);
            assertArrayEquals(new double[] {3, 3}, got, 0.0, "writable again");
            ga.sync();
            g.destroy();
            rejects(IllegalStateException.class, "destroyed", () -> g.put(lo, hi, new double[] {4, 4}, ld));
            rejects(IllegalStateException.class, "destroyed", () -> g.get(lo, hi, new double[2], ld));
        });
    }

    @Test
    void aSectionUnderATeamContextShouldStillGoToTheWorldPeThatOwnsIt() {
        ShmemJob.builder().pes(4).timeout(Duration.ofSeconds(90)).build().run(sh -> {
            final GlobalArrays ga = new GlobalArrays(sh);
            final GlobalArray a = ga.builder(GaType.DOUBLE, 40).name("a").create(); // 10 elements a PE
            a.zero();
            final ShmemTeam team = sh.teamWorld().splitStrided(1, 1, 3); // world PEs 1, 2, 3: team ranks 0, 1, 2
            ga.sync();
            if (sh.myPe() == 1) {
                a.put(new int[] {21}, new int[] {21}, new double[] {1.0}, null); // PE 2's block is hot
                final ShmemCtx ctx = team.createCtx(0);
                try (ShmemCtx used = ctx.use()) {
                    a.put(new int[] {25}, new int[] {25}, new double[] {42.0}, null); // world PE 2, not team rank 2
                }
                ctx.destroy();
            }
            ga.sync();
            final double[] all = new double[40];
            a.get(new int[] {0}, new int[] {39}, all, null);
            final double[] want = new double[40];
            want[21] = 1.0;
            want[25] = 42.0;
            assertArrayEquals(want, all, 0.0, "PE " + sh.myPe() + " reads the array");
            ga.sync();
        });
    }
}
