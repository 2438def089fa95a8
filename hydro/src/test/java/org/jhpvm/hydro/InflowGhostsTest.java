package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Inflow ghosts filled from the state kept at a cycle's first refresh give the bits of ghosts evaluated at every
 * refresh ({@link GhostZones}): Noh's inflow through the upper faces of Cartesian, cylindrical and spherical grids,
 * on 1 and 3 PEs (blocks with and without an inflow face), under both energy schemes (the ghosts' energy differs).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class InflowGhostsTest {
    private static final int CYCLES = 25;

    private static HydroRun.Spec noh(final int dims, final int zones, final Geometry g) {
        return Problem.of("noh", new Problem.Params(1, dims, zones, 0.6, null, g, 1), new ExactRiemann.State(1, 0, 1),
            new ExactRiemann.State(0.125, 0, 0.1), 0.5).spec();
    }

    @Test
    void keptInflowStatesShouldNotChangeABit() {
        final HydroRun.Spec[] specs = {noh(3, 12, Geometry.CARTESIAN), noh(2, 16, Geometry.SPHERICAL),
            noh(2, 16, Geometry.CYLINDRICAL).withEnergy(EnergyScheme.TOTAL), noh(1, 40, Geometry.CARTESIAN)
                .withEnergy(EnergyScheme.TOTAL)};
        for (final HydroRun.Spec spec : specs) {
            for (final int pes : new int[] {1, 3}) {
                final double[] kept = SolverRuns.run(pes, spec, CYCLES, z -> z.keepInflow(true));
                final double[] evaluated = SolverRuns.run(pes, spec, CYCLES, z -> z.keepInflow(false));
                assertArrayEquals(evaluated, kept, 0.0, spec.cfg().dims() + "-D " + spec.cfg().geometry() + " "
                    + spec.cfg().energy() + " on " + pes + " PEs");
            }
        }
    }
}
