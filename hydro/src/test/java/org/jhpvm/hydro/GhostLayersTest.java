package org.jhpvm.hydro;

import static org.jhpvm.hydro.SolverRuns.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Exchanging only the ghost layers each substep reads ({@link GhostLayers}) gives the same bits as exchanging every
 * layer, on blocks with neighbours on every side (2, 4 and 8 PEs) and at every kind of boundary: periodic, wall,
 * outflow and inflow, in 1-D, 2-D and 3-D.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GhostLayersTest {
    private static final int[] PES = {2, 4, 8};
    /** Cycles of each run: enough for every wave to cross several blocks' ghost layers. */
    private static final int CYCLES = 25;

    private static void sameBits(final String what, final HydroRun.Spec spec) {
        for (final int pes : PES) {
            final double[] partial = SolverRuns.run(pes, spec, CYCLES, z -> z.partialGhosts(true));
            final double[] full = SolverRuns.run(pes, spec, CYCLES, z -> z.partialGhosts(false));
            assertArrayEquals(full, partial, 0.0, what + " on " + pes + " PEs: partial against full exchanges");
        }
    }

    @Test
    void oneAndTwoDimensionalRunsShouldNotChangeABit() {
        sameBits("sod 1-D (outflow)", spec("sod", 1, 96, 0.1));
        sameBits("noh 1-D (wall, inflow)", spec("noh", 1, 48, 0.3));
        sameBits("kh (periodic)", spec("kh", 2, 24, 0.1));
        sameBits("noh 2-D (walls and inflow)", spec("noh", 2, 24, 0.2));
        sameBits("sedov 2-D (walls)", spec("sedov", 2, 24, 0.05));
    }

    @Test
    void threeDimensionalRunsShouldNotChangeABit() {
        sameBits("blast3d (periodic)", spec("blast3d", 3, 12, 0.02));
        sameBits("sedov 3-D (walls)", spec("sedov", 3, 12, 0.05));
        sameBits("noh 3-D (walls and inflow)", spec("noh", 3, 12, 0.1));
    }
}
