package org.jhpvm.apps.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;
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

    private static HydroRun.Spec spec(final String name, final int dims, final int zones, final double tEnd) {
        return Problem.of(name, new Problem.Params(1, dims, zones, tEnd, null, Geometry.CARTESIAN, 1),
            new ExactRiemann.State(1, 0, 1), new ExactRiemann.State(0.125, 0, 0.1), 0.5).spec();
    }

    /** The fields PE 0 reads back after running {@code spec} on {@code pes} PEs, and the cycles it took. */
    private static double[] run(final int pes, final HydroRun.Spec spec, final boolean partial, final int[] cycles) {
        final AtomicReference<double[]> fields = new AtomicReference<>();
        ShmemJob.builder().pes(pes).build().run(sh -> {
            final ZeusSolver zeus = new ZeusSolver(new GlobalArrays(sh), spec.cfg());
            zeus.partialGhosts(partial);
            zeus.inflow(spec.inflow());
            zeus.initialise(spec.initial());
            for (int c = 0; c < CYCLES; c++) {
                zeus.step(Double.MAX_VALUE);
            }
            final double[] f = zeus.gather();
            if (zeus.rank() == 0) {
                fields.set(f);
                cycles[0] = zeus.cycles();
            }
        });
        return fields.get();
    }

    private static void sameBits(final String what, final HydroRun.Spec spec) {
        for (final int pes : PES) {
            final int[] partialCycles = new int[1];
            final int[] fullCycles = new int[1];
            final double[] partial = run(pes, spec, true, partialCycles);
            final double[] full = run(pes, spec, false, fullCycles);
            assertNotNull(partial);
            assertEquals(CYCLES, partialCycles[0], what);
            assertEquals(CYCLES, fullCycles[0], what);
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
