package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The total-energy scheme ({@code --energy total}): total energy conserved to round-off where the internal-energy
 * scheme loses a fifth of it, accuracy kept, the same bits on any number of PEs, and the default left alone.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TotalEnergyTest {
    private static Problem problem(final String name, final int pes, final Integer dims, final Integer zones) {
        return Problem.of(name, new Problem.Params(pes, dims, zones, null, null), new ExactRiemann.State(1, 0, 1),
            new ExactRiemann.State(0.125, 0, 0.1), 0.5);
    }

    private static HydroRun.Snapshot run(final Problem p, final int pes, final EnergyScheme scheme) {
        return HydroRun.run(pes, Map.of(), p.spec().withEnergy(scheme), null);
    }

    private static Problem.Analysis analyse(final Problem p, final HydroRun.Snapshot s) {
        final Problem.Analysis a = p.analyse(s);
        Problem.conservation(s, a);
        return a;
    }

    @Test
    void sedovShouldConserveTotalEnergyWhereTheInternalSchemeLosesIt() {
        final Problem p = problem("sedov", 2, 2, 48);
        final Problem.Analysis total = analyse(p, run(p, 2, EnergyScheme.TOTAL));
        final Problem.Analysis internal = analyse(p, run(p, 2, EnergyScheme.INTERNAL));
        final double lost = internal.metrics().get("energy_error");
        assertTrue(lost < -0.05, "the internal-energy scheme loses energy here, or this test proves nothing: " + lost);
        assertEquals(0, total.metrics().get("energy_error"), 1e-11, total.metrics().toString());
        assertEquals(0, total.metrics().get("shock_radius_error"), 0.03, total.metrics().toString());
        assertTrue(total.metrics().get("l1_density") < internal.metrics().get("l1_density"),
            "conserving the energy brings the blast closer to Sedov-Taylor: " + total.metrics() + " "
                + internal.metrics());
    }

    @Test
    void sedovShouldConserveTotalEnergyIn1dAnd3d() {
        for (final int dims : new int[] {1, 3}) {
            final Problem p = problem("sedov", 3, dims, dims == 1 ? 200 : 20);
            final Problem.Analysis a = analyse(p, run(p, 3, EnergyScheme.TOTAL));
            assertEquals(0, a.metrics().get("energy_error"), 1e-11, dims + "-D " + a.metrics());
        }
    }

    @Test
    void sodShouldKeepItsAccuracy() {
        final Problem p = problem("sod", 2, 1, 400);
        final double total = p.analyse(run(p, 2, EnergyScheme.TOTAL)).metrics().get("l1_density");
        final double internal = p.analyse(run(p, 2, EnergyScheme.INTERNAL)).metrics().get("l1_density");
        assertTrue(total < 1.1 * internal, "total " + total + ", internal " + internal);
        assertTrue(total != internal, "the scheme changed nothing");
    }

    @Test
    void fieldsShouldBeBitwiseTheSameOnAnyNumberOfPes() {
        // Blast3d on 1 and 3 PEs, and the periodic Kelvin-Helmholtz and walled Sedov in 2-D on 1 and 4.
        for (final String[] c : new String[][] {{"blast3d", "3", "16"}, {"kh", "2", "32"}, {"sedov", "2", "24"}}) {
            final int dims = Integer.parseInt(c[1]);
            final int zones = Integer.parseInt(c[2]);
            final int other = dims == 3 ? 3 : 4;
            final HydroRun.Snapshot one = run(problem(c[0], 1, dims, zones), 1, EnergyScheme.TOTAL);
            final HydroRun.Snapshot many = run(problem(c[0], other, dims, zones), other, EnergyScheme.TOTAL);
            assertEquals(one.cycles(), many.cycles(), c[0]);
            assertArrayEquals(one.fields(), many.fields(), c[0] + ": 1 PE against " + other);
        }
    }

    @Test
    void theInflowOfNohShouldStayStable() {
        final Problem p = problem("noh", 2, 2, 48);
        final Problem.Analysis a = p.analyse(run(p, 2, EnergyScheme.TOTAL));
        assertTrue(a.metrics().get("l1_density") < 0.2, a.metrics().toString());
    }

    @Test
    void theDefaultShouldStayTheInternalEnergyScheme() {
        final HydroConfig cfg = problem("sod", 1, 1, 64).spec().cfg();
        assertEquals(EnergyScheme.INTERNAL, cfg.energy());
        assertEquals(EnergyScheme.TOTAL, cfg.withEnergy(EnergyScheme.TOTAL).energy());
        assertEquals(EnergyScheme.TOTAL, EnergyScheme.of("total"));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> EnergyScheme.of("TOTAL"));
        assertEquals("--energy TOTAL: internal or total", e.getMessage());
    }

    /** The sizes: Sedov 2-D 128^2 and 3-D 48^3 to 1e-4 (round-off here), the shock within 2%. */
    @Test
    @Tag("soak")
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void publishedSizesShouldConserveTotalEnergy() {
        for (final int dims : new int[] {2, 3}) {
            final Problem p = problem("sedov", 2, dims, null);
            final Problem.Analysis a = analyse(p, run(p, 2, EnergyScheme.TOTAL));
            assertEquals(0, a.metrics().get("energy_error"), 1e-4, dims + "-D " + a.metrics());
            assertEquals(0, a.metrics().get("shock_radius_error"), dims == 2 ? 0.02 : 0.03, dims + "-D "
                + a.metrics());
        }
    }
}
