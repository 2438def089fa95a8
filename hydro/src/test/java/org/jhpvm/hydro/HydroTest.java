package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Hydro}, the library's front door: the run the command makes, its verdict, and refusals. */
@Timeout(120)
class HydroTest {
    @Test
    void shouldRunANamedProblemAsTheCommandDoesAndJudgeIt() {
        final Hydro.Result r = Hydro.problem("sod").zones(120).pes(2).run();
        final HydroRun.Spec spec = SolverRuns.spec("sod", 1, 120, 0.2);
        final HydroRun.Snapshot direct = HydroRun.run(2, Map.of(), spec, null);
        assertArrayEquals(direct.fields(), r.snapshot().fields(), 0.0, "the same bits as HydroRun with the defaults");
        assertEquals(0.2, r.snapshot().time(), 1e-12);
        final double l1 = r.analysis().metrics().get("l1_density");
        assertTrue(l1 > 0 && l1 < 0.03, "L1 error against the exact Riemann solution: " + l1);
        assertEquals(0.0, r.analysis().metrics().get("nonphysical_zones"), 0.0);
        // A closed box (Sedov's blast, reflecting faces) on MPI with the total-energy scheme: energy to round-off.
        final Hydro.Result total = Hydro.problem("sedov").dims(2).zones(32).pes(2).energy(EnergyScheme.TOTAL)
            .comm(Communication.MPI).run();
        final Double energy = total.analysis().metrics().get("energy_error");
        assertTrue(energy != null && Math.abs(energy) < 1e-12, "total energy conserved: " + energy);
    }

    @Test
    void shouldRefuseWhatNoProblemTakes() {
        assertThrows(IllegalArgumentException.class, () -> Hydro.problem("poisson"));
        assertThrows(IllegalArgumentException.class, () -> Hydro.problem("sod").pes(0));
        assertThrows(IllegalArgumentException.class,
            () -> Hydro.problem("kh").geometry(Geometry.CYLINDRICAL, 1).run(), "kh has Cartesian grids only");
    }
}
