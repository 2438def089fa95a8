package org.jhpvm.apps.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Each sample program's answer, on several PE counts. */
@Timeout(180)
class SamplesTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8})
    void helloShouldHearFromTheLeftNeighbour(final int pes) {
        final String[] lines = Hello.run(pes);
        for (int pe = 0; pe < pes; pe++) {
            assertEquals("Hello from PE " + pe + " of " + pes + ": PE " + ((pe - 1 + pes) % pes) + " wrote to me",
                lines[pe]);
        }
    }

    @Test
    void jacobiShouldConvergeToTheExactDiscreteSolutionTheSameWayOnAnyPeCount() {
        final Jacobi.Result one = Jacobi.run(1, 12, 1e-11, 100_000);
        assertTrue(one.maxError() < 1e-7, "error " + one.maxError());
        for (final int pes : new int[] {3, 4}) {
            final Jacobi.Result r = Jacobi.run(pes, 12, 1e-11, 100_000);
            assertEquals(one.iterations(), r.iterations(), "Jacobi sweeps do not depend on the distribution");
            assertEquals(one.maxError(), r.maxError(), 0.0, "bitwise the same field on " + pes + " PEs");
        }
        final Jacobi.Result stopped = Jacobi.run(2, 12, 1e-11, 10);
        assertEquals(10, stopped.iterations());
        assertTrue(stopped.maxError() > 1, "ten sweeps are far from converged: " + stopped.maxError());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void matmulShouldMatchTheClosedFormExactly(final int pes) {
        assertEquals(0, Matmul.run(pes, 45).mismatches());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5})
    void theMpiRingShouldPassTheTokenLapsPlusOneTimesThroughEveryRank(final int ranks) {
        final MpiRing.Seen[] seen = MpiRing.run(ranks, 7);
        assertEquals(ranks, seen.length);
        for (int r = 0; r < ranks; r++) {
            assertEquals(r, seen[r].rank());
            assertEquals(8, seen[r].received(), "rank " + r);
            assertTrue(seen[r].right(7), seen[r].toString());
            assertEquals(r == 0 ? 8L * ranks : -1, seen[r].hops());
        }
        assertTrue(!new MpiRing.Seen(0, 3, 8, 23).right(7) && !new MpiRing.Seen(1, 3, 7, -1).right(7),
            "a hop or a token missing is wrong");
        final MpiRing.Seen[] none = MpiRing.run(ranks, 0);
        assertEquals(1, none[ranks - 1].received(), "zero laps: the stop goes round once");
    }

    @Test
    void gupsStartsShouldJumpAheadInTheStream() {
        long x = 1;
        for (int n = 0; n < 300; n++) {
            assertEquals(x, n == 0 ? 1 : Gups.starts(n), "element " + n);
            x = Gups.next(x);
        }
    }

    @ParameterizedTest(name = "pes={0} batched={1} segment={2}")
    @CsvSource({"1,false,false", "2,false,false", "4,false,false", "1,true,false", "2,true,false", "4,true,false",
        "1,false,true", "4,false,true", "4,true,true"})
    void gupsShouldVerifyWithoutErrors(final int pes, final boolean batched, final boolean segment) {
        // 2^10 entries, 4096 updates: four look-ahead rounds when batched, the last PE's share ending mid-round at 4
        final Gups.Result r = Gups.run(pes, 10, batched, segment);
        assertEquals(4L << 10, r.updates());
        assertEquals(0, r.errors());
        assertEquals(batched, r.batched());
        assertEquals(segment, r.segment());
        assertThrows(IllegalArgumentException.class, () -> Gups.run(3, 10, batched, segment));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void taskPoolShouldComputeTheSameImageAsOneLoop(final int pes) {
        final TaskPool.Result r = TaskPool.run(pes, 64, 48, 200);
        assertArrayEquals(TaskPool.sequential(64, 48, 200), r.image());
        assertEquals(48, Arrays.stream(r.rowsPerPe()).sum(), "every row taken exactly once");
    }
}
