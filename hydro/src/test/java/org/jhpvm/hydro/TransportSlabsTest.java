package org.jhpvm.hydro;

import static org.jhpvm.hydro.SolverRuns.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 3-D transport sweeps slab by slab ({@link TransportStep}) give the same bits as each step over the whole block: on
 * 1, 2 and 8 PEs, periodic, walls and inflow, blocks that are not cubes, with partial and full ghost exchanges.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TransportSlabsTest {
    private static final int CYCLES = 20;

    private static void sameBits(final String what, final HydroRun.Spec spec, final boolean partial) {
        for (final int pes : new int[] {1, 2, 8}) {
            final double[] slabs = SolverRuns.run(pes, spec, CYCLES, z -> {
                z.slabSweeps(true);
                z.partialGhosts(partial);
            });
            final double[] whole = SolverRuns.run(pes, spec, CYCLES, z -> {
                z.slabSweeps(false);
                z.partialGhosts(partial);
            });
            assertArrayEquals(whole, slabs, 0.0, what + " on " + pes + " PEs: slabs against whole-block steps");
        }
    }

    @Test
    void slabSweepsShouldNotChangeABit() {
        sameBits("blast3d (periodic)", spec("blast3d", 3, 12, 0.02), true);
        sameBits("sedov 3-D (walls)", spec("sedov", 3, 10, 0.05), true);
        sameBits("noh 3-D (walls and inflow), full exchanges", spec("noh", 3, 12, 0.1), false);
        final Boundary[] walls = {Boundary.REFLECT, Boundary.REFLECT, Boundary.REFLECT};
        final HydroConfig box = new HydroConfig(3, new int[] {8, 12, 10}, new double[] {0, 0, 0},
            new double[] {1, 1.5, 1.25}, 1.4, 0.5, 2.0, walls, walls.clone());
        sameBits("blob in a box of 8 x 12 x 10 (walls)", HydroRun.Spec.toTime(box,
            x -> SodTest.blobState(x, Boundary.REFLECT), null, 0.08), true);
    }
}
