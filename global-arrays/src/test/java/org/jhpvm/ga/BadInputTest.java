package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jhpvm.shmem.ShmemAbortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/** Every bad input throws a clear exception before anything is sent, and no array changes. */
@Timeout(120)
class BadInputTest {

    static void rejects(final Class<? extends Throwable> type, final String fragment, final Executable call) {
        final Throwable t = assertThrows(type, call);
        assertTrue(t.getMessage() != null && t.getMessage().contains(fragment),
            "message '" + t.getMessage() + "' should contain '" + fragment + "'");
    }

    @Test
    void shouldRejectBadSectionsBuffersAndTypesChangingNothing() {
        GaTestSupport.run(3, ga -> {
            final GlobalArray a = ga.create(GaType.DOUBLE, new int[] {6, 8}, "a");
            final GlobalArray n = ga.create(GaType.INT, new int[] {10}, "n");
            a.fill(7);
            n.fill(3);
            final double[] aBefore = whole(a);
            final double[] nBefore = whole(n);
            ga.sync();
            final double[] buf = new double[48];
            rejects(IndexOutOfBoundsException.class, "outside", () -> a.put(new int[] {0, 0}, new int[] {6, 7}, buf,
                new int[] {8}));
            rejects(IndexOutOfBoundsException.class, "outside", () -> a.get(new int[] {-1, 0}, new int[] {2, 7}, buf,
                new int[] {8}));
            rejects(IllegalArgumentException.class, "lo[1]=5 > hi[1]=4", () -> a.acc(new int[] {0, 5},
                new int[] {1, 4}, buf, new int[] {8}, 1.0));
            rejects(IllegalArgumentException.class, "dimensions", () -> a.put(new int[] {0}, new int[] {3}, buf,
                null));
            rejects(IllegalArgumentException.class, "buffer too small", () -> a.put(new int[] {0, 0},
                new int[] {5, 7}, new double[47], new int[] {8}));
            rejects(IllegalArgumentException.class, "buffer too small", () -> a.put(new int[] {0, 0},
                new int[] {5, 7}, buf, new int[] {9}));
            rejects(IllegalArgumentException.class, "ld[0]=3", () -> a.put(new int[] {0, 0}, new int[] {1, 7}, buf,
                new int[] {3}));
            rejects(IllegalArgumentException.class, "type mismatch", () -> a.nbPut(new int[] {0, 0},
                new int[] {0, 0}, new int[1], new int[] {1}));
            rejects(IllegalArgumentException.class, "type mismatch", () -> n.scatter(new double[1],
                new int[][] {{0}}, 1));
            rejects(IllegalArgumentException.class, "skip[1]=0", () -> a.stridedPut(new int[] {0, 0},
                new int[] {1, 1}, new int[] {1, 0}, buf, new int[] {2}));
            rejects(IndexOutOfBoundsException.class, "longer than twice its extent", () -> a.periodicPut(
                new int[] {-6, 0}, new int[] {6, 0}, new double[13], new int[] {1}));
            // One bad subscript in the list: nothing is scattered, not even the good ones before it.
            rejects(IndexOutOfBoundsException.class, "outside", () -> n.scatter(new int[] {1, 2, 3},
                new int[][] {{0}, {10}, {1}}, 3));
            rejects(IllegalArgumentException.class, "n=4", () -> n.scatter(new int[] {1, 2, 3},
                new int[][] {{0}, {1}, {2}}, 4));
            rejects(IllegalArgumentException.class, "readInc needs an int or long", () -> a.readInc(
                new int[] {0, 0}, 1));
            rejects(IndexOutOfBoundsException.class, "outside", () -> n.readInc(new int[] {10}, 1));
            rejects(IllegalArgumentException.class, "was not issued", () -> ga.nbWait(1_000_000));
            rejects(IllegalArgumentException.class, "not an integer", () -> n.fill(0.5));
            rejects(IllegalArgumentException.class, "type mismatch", () -> n.copy(a));
            rejects(IllegalArgumentException.class, "patch shapes differ", () -> a.copyPatch('N', new int[] {0, 0},
                new int[] {1, 1}, a, new int[] {0, 0}, new int[] {0, 2}));
            rejects(IllegalArgumentException.class, "'N' or 'T'", () -> a.copyPatch('Q', new int[] {0, 0},
                new int[] {1, 1}, a, new int[] {2, 2}, new int[] {3, 3}));
            rejects(IllegalArgumentException.class, "dgemm needs 2-D double", () -> ga.dgemm('N', 'N', 1, 1, 1, 1,
                a, a, 0, n));
            rejects(IllegalArgumentException.class, "mutexes", () -> ga.createMutexes(0));
            ga.sync();
            assertArrayEquals(aBefore, whole(a), 0.0, "a unchanged");
            assertArrayEquals(nBefore, whole(n), 0.0, "n unchanged");
            ga.sync();
            n.destroy();
            rejects(IllegalStateException.class, "destroyed", () -> n.put(new int[] {0}, new int[] {0},
                new int[1], null));
            rejects(IllegalStateException.class, "destroyed", () -> n.readInc(new int[] {0}, 1));
            rejects(IllegalStateException.class, "destroyed", n::destroy);
            a.destroy();
        });
    }

    @Test
    void shouldRejectImpossibleArrays() {
        GaTestSupport.run(4, ga -> {
            rejects(IllegalArgumentException.class, "1 to 7", () -> ga.builder(GaType.INT, new int[8]));
            rejects(IllegalArgumentException.class, "dims[1]=0", () -> ga.builder(GaType.INT, 3, 0));
            rejects(IllegalArgumentException.class, "needs 6 PEs", () -> ga.builder(GaType.INT, 9, 9)
                .procGrid(2, 3).create());
            rejects(IllegalArgumentException.class, "must begin at 0", () -> ga.createIrregular(GaType.INT,
                new int[] {9}, "x", new int[] {2}, new int[] {1, 4}));
            rejects(IllegalArgumentException.class, "increase", () -> ga.createIrregular(GaType.INT,
                new int[] {9}, "x", new int[] {3}, new int[] {0, 4, 4}));
            rejects(IllegalArgumentException.class, "exceeds block", () -> ga.createGhosts(GaType.INT,
                new int[] {8}, new int[] {3}, "g"));
            rejects(IllegalArgumentException.class, "negative", () -> ga.builder(GaType.INT, 8).ghosts(-1));
            rejects(IllegalArgumentException.class, "exclude each other", () -> ga.builder(GaType.INT, 8)
                .procGrid(2).irregular(new int[] {2}, new int[] {0, 4}).create());
            assertEquals(0, ga.summarize().indexOf("Global Arrays"), "nothing was created");
            assertTrue(ga.summarize().contains("0 array(s)"));
        });
    }

    @Test
    void shouldFailACreateWhosePesDisagreeOnEveryPe() {
        final ShmemAbortException e = assertThrows(ShmemAbortException.class, () -> GaTestSupport.run(3, ga ->
            ga.create(GaType.DOUBLE, new int[] {10 + ga.nodeid()}, "mismatch")));
        assertTrue(e.getCause() instanceof IllegalArgumentException, String.valueOf(e.getCause()));
        assertTrue(e.getCause().getMessage().contains("collective create mismatch"), e.getCause().getMessage());
    }

    @Test
    void shouldFailAnIntegerDivisionByZeroOnEveryPeWritingNothing() {
        GaTestSupport.run(3, ga -> {
            final GlobalArray a = ga.create(GaType.INT, new int[] {9}, "a");
            final GlobalArray b = ga.create(GaType.INT, new int[] {9}, "b");
            final GlobalArray c = ga.create(GaType.INT, new int[] {9}, "c");
            a.fill(8);
            b.fill(2);
            c.fill(5);
            if (ga.nodeid() == 0) {
                b.put(new int[] {8}, new int[] {8}, new int[] {0}, null);
            }
            ga.sync();
            rejects(ArithmeticException.class, "division by zero", () -> c.elemDivide(a, b));
            final double[] five = new double[9];
            java.util.Arrays.fill(five, 5);
            assertArrayEquals(five, whole(c), 0.0, "nothing was written on any PE");
            rejects(IllegalArgumentException.class, "outside the range", () -> c.fill(3e9));
            rejects(IllegalArgumentException.class, "outside the range", () -> c.fill(Double.POSITIVE_INFINITY));
            assertArrayEquals(five, whole(c), 0.0, "c unchanged");
            ga.sync();
        });
    }

    @Test
    void shouldRefuseToDestroyAGroupThatStillHasArrays() {
        GaTestSupport.run(2, ga -> {
            final GaGroup g = ga.pgroupCreate(new int[] {0, 1});
            final GlobalArray a = ga.builder(GaType.LONG, 6).group(g).create();
            rejects(IllegalStateException.class, "still has arrays", g::destroy);
            a.put(new int[] {0}, new int[] {0}, new long[] {7}, null);
            g.sync();
            assertEquals(7.0, whole(a)[0], 0.0, "the group still works");
            a.destroy();
            g.destroy();
            rejects(IllegalStateException.class, "destroyed", g::sync);
        });
    }

}
