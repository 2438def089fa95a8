package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The total-energy scheme's dual-energy formalism: every zone keeps a positive pressure and internal energy where
 * the scheme without it left dozens negative (each run below did, on the code before it: 1 to 213 zones, pressures
 * down to -0.096), the total energy is still conserved to round-off, the choice itself never changes a zone's total,
 * and the fields stay the same bits on any number of PEs.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DualEnergyTest {
    private static Problem problem(final String name, final int pes, final int dims, final int zones,
        final Geometry g) {
        return Problem.of(name, new Problem.Params(pes, dims, zones, null, null, g, 1), new ExactRiemann.State(1, 0, 1),
            new ExactRiemann.State(0.125, 0, 0.1), 0.5);
    }

    @ParameterizedTest(name = "{0} {1}-D {2} zones {3}")
    @CsvSource({
        "noh, 1, 100, CARTESIAN", "noh, 2, 32, CARTESIAN", "noh, 1, 100, CYLINDRICAL", "noh, 1, 100, SPHERICAL",
        "noh, 2, 32, CYLINDRICAL", "noh, 2, 32, SPHERICAL",
        "sedov, 1, 100, CARTESIAN", "sedov, 2, 32, CARTESIAN", "sedov, 3, 16, CARTESIAN", "sedov, 1, 100, CYLINDRICAL",
        "sedov, 1, 100, SPHERICAL", "sedov, 2, 32, CYLINDRICAL", "sedov, 2, 24, SPHERICAL", "sedov, 3, 12, CYLINDRICAL"})
    void everyZoneShouldKeepAPositivePressureWithTotalEnergy(final String name, final int dims, final int zones,
        final Geometry g) {
        final Problem p = problem(name, 1, dims, zones, g);
        final HydroRun.Snapshot s = HydroRun.run(1, Map.of(), p.spec().withEnergy(EnergyScheme.TOTAL), null);
        final NonPhysical bad = NonPhysical.of(s);
        assertEquals(0, bad.zones(), bad.toString());
        int separate = 0;
        for (int z = 0; z < s.zones(); z++) {
            assertTrue(s.at(ZeusSolver.E, z) > 0, "zone " + z + ": internal energy " + s.at(ZeusSolver.E, z));
            separate += s.at(ZeusSolver.dualEnergyField(dims), z) != 0 ? 1 : 0;
        }
        assertTrue(separate > 0, "no zone took the separately evolved internal energy: this run tests nothing");
        final Problem.Analysis a = p.analyse(s);
        Problem.conservation(s, a);
        if ("sedov".equals(name)) {
            // Walls all round: the total is conserved to round-off, the remainder field included.
            assertEquals(0, a.metrics().get("energy_error"), 1e-12, a.metrics().toString());
        }
        // Where today's shocks are, within the widest of them (Noh's spherical 1-D implosion, 3.1 zones out).
        assertEquals(a.metrics().get("shock_radius_exact"), a.metrics().get("shock_radius"), 3.5 * s.cfg().dx(0),
            a.metrics().toString());
    }

    @Test
    void theColdInflowOfNohShouldKeepItsPressure() {
        // Planar Noh: ahead of the shock (at 0.2) the inflow is uniform, at Noh's pressure 1e-6, a millionth of its
        // kinetic energy. The total's internal energy there was the difference of two numbers a million times larger
        // (down to -3.6e-7 before); the separately evolved one, fed by the inflow ghosts, keeps it.
        final Problem p = problem("noh", 1, 1, 100, Geometry.CARTESIAN);
        final HydroRun.Snapshot s = HydroRun.run(1, Map.of(), p.spec().withEnergy(EnergyScheme.TOTAL), null);
        final double[] x = new double[1];
        for (int z = 0; z < s.zones(); z++) {
            s.centre(z, x);
            if (x[0] > 0.25) {
                assertEquals(Noh.P0, (s.cfg().gamma() - 1) * s.at(ZeusSolver.E, z), 1e-3 * Noh.P0, "at x " + x[0]);
            }
        }
    }

    @Test
    void theChoiceShouldNeverChangeAZonesTotal() {
        final HydroConfig cfg = HydroConfig.cube(1, 4, 1.4, Boundary.REFLECT).withEnergy(EnergyScheme.TOTAL);
        final int sF = 4 + 2 * ZeusSolver.GHOST;
        final double[] a = new double[cfg.fields() * sF];
        final ZeusBlock block = new ZeusBlock(cfg, a, new int[] {sF, 1}, new int[] {0, 0}, new int[] {2, 3}, true);
        final SourceStep step = new SourceStep(block, new double[sF]);
        final int e = ZeusSolver.E * sF;
        final int x = ZeusSolver.dualEnergyField(1) * sF;
        final int z = ZeusSolver.GHOST;
        // A zone whose total holds a fair share of internal energy: that share, and the separate one reset to it.
        a[e + z] = 1.0;
        a[x + z] = 0.3;
        step.dualEnergy(z, 0.75);
        assertEquals(0.25, a[e + z], 0.0);
        assertEquals(0.0, a[x + z], 0.0);
        // Mostly kinetic (a twentieth left, below the threshold): the separate one, the rest kept beside it.
        a[e + z] = 1.0;
        a[x + z] = 0.07;
        step.dualEnergy(z, 0.95);
        assertEquals(0.07, a[e + z], 0.0);
        assertEquals(1.0 - 0.95 - 0.07, a[x + z], 1e-16);
        // More kinetic energy than total (a debt): the separate one, and the debt kept.
        a[e + z] = 1.0;
        a[x + z] = 0.01;
        step.dualEnergy(z, 1.2);
        assertEquals(0.01, a[e + z], 0.0);
        assertEquals(1.0 - 1.2 - 0.01, a[x + z], 1e-16);
        assertEquals(1.0, a[e + z] + a[x + z] + 1.2, 1e-15, "the total");
        // Just above the threshold: the total's own.
        a[e + z] = 1.0;
        a[x + z] = 0.5;
        step.dualEnergy(z, 1 - 1.01 * EnergyScheme.DUAL_ENERGY_ETA);
        assertEquals(1.01 * EnergyScheme.DUAL_ENERGY_ETA, a[e + z], 1e-15);
        assertEquals(0.0, a[x + z], 0.0);
    }

    @Test
    void aHypersonicFlowShouldEvolveItsInternalEnergyAsTheInternalSchemeDoes() {
        // A pressure pulse carried at Mach 8 along x, out through an outflow face, periodic in y: the kinetic energy
        // is over nine tenths of every zone's total, so every zone takes the separately evolved internal energy,
        // which has had the internal scheme's heating and advection (and its ghosts: the flow comes in through the
        // lower outflow face); the density, velocities and internal energy are then its very bits.
        final Boundary[] faces = {Boundary.OUTFLOW, Boundary.PERIODIC};
        final HydroConfig cfg = new HydroConfig(2, new int[] {24, 24}, new double[2], new double[] {1, 1}, 1.4, 0.5,
            2, faces, faces.clone());
        final ZeusSolver.Initial init = x -> new double[] {1, 10, 1,
            1 + 0.5 * StrictMath.exp(-((x[0] - 0.5) * (x[0] - 0.5) + (x[1] - 0.5) * (x[1] - 0.5)) / 0.01)};
        final HydroRun.Spec spec = HydroRun.Spec.toTime(cfg, init, null, 0.05);
        final HydroRun.Snapshot internal = HydroRun.run(1, Map.of(), spec, null);
        final HydroRun.Snapshot total = HydroRun.run(1, Map.of(), spec.withEnergy(EnergyScheme.TOTAL), null);
        final int n = (int) internal.zones();
        assertEquals(internal.cycles(), total.cycles());
        assertArrayEquals(internal.fields(), java.util.Arrays.copyOf(total.fields(), 4 * n));
        // The pulse has moved half way round: the fields are not the initial ones.
        assertTrue(internal.at(ZeusSolver.E, n / 2 + 12) < internal.at(ZeusSolver.E, n - 12),
            "the pulse did not move");
    }

    @Test
    void nohShouldGiveTheSameBitsOnAnyNumberOfPes() {
        // Inflow ghosts, walls, and zones on both sides of the threshold, on one block and on four.
        final HydroRun.Spec spec = problem("noh", 1, 2, 32, Geometry.CARTESIAN).spec().withEnergy(EnergyScheme.TOTAL);
        final HydroRun.Snapshot one = HydroRun.run(1, Map.of(), spec, null);
        final HydroRun.Snapshot four = HydroRun.run(4, Map.of(), spec, null);
        assertEquals(one.cycles(), four.cycles());
        assertArrayEquals(one.fields(), four.fields());
        assertEquals(spec.cfg().fields() * one.zones(), one.fields().length, "the dual-energy field is read back");
    }
}
