package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hydro problems other than Sod against their exact solutions, and the solver's PE-count independence. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ProblemsTest {
    private static HydroRun.Snapshot run(final String name, final int pes, final Integer dims, final int zones,
        final Double tEnd, final Map<String, String> options) {
        return run(name, pes, dims, zones, tEnd, null, options);
    }

    private static HydroRun.Snapshot run(final String name, final int pes, final Integer dims, final int zones,
        final Double tEnd, final Double gamma, final Map<String, String> options) {
        final Problem p = Problem.of(name, new Problem.Params(pes, dims, zones, tEnd, gamma), null, null, 0);
        return HydroRun.run(pes, options, p.spec(), null);
    }

    private static Problem.Analysis analyse(final String name, final HydroRun.Snapshot s) {
        final Problem.Analysis a = Problem.of(name, new Problem.Params(s.pes(), s.cfg().dims(), s.cfg().zones()[0],
            null, null), null, null, 0).analyse(s);
        Problem.conservation(s, a);
        return a;
    }

    @Test
    void sedovTaylorShouldMatchThePublishedEnergyIntegrals() {
        // Kamm & Timmes (2007) for gamma 1.4: 0.9840 cylindrical, 0.8511 spherical, 0.5385 planar (one side);
        // gamma 5/3 spherical: 0.4936 (xi0 = 1.152).
        assertEquals(2 * 0.5385, new SedovTaylor(1.4, 1).alpha(), 2e-3);
        assertEquals(0.9840, new SedovTaylor(1.4, 2).alpha(), 1e-3);
        assertEquals(0.8511, new SedovTaylor(1.4, 3).alpha(), 1e-3);
        assertEquals(1.152, new SedovTaylor(5.0 / 3, 3).xi0(), 1e-3);
        final SedovTaylor s = new SedovTaylor(1.4, 3);
        assertEquals(6.0, s.density(1 - 1e-9, 1, 1), 1e-3, "strong-shock compression (gamma + 1) / (gamma - 1)");
        assertEquals(1.0, s.density(1.01, 1, 1), 0.0);
        assertTrue(s.density(0.3, 1, 1) < 1e-2, "the centre is evacuated");
        assertEquals(0.75, s.radius(1, 1, s.time(1, 1, 0.75)), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> new SedovTaylor(1.0, 3));
        assertThrows(IllegalArgumentException.class, () -> new SedovTaylor(1.001, 2), "too thin to integrate");
        assertThrows(IllegalArgumentException.class, () -> new SedovTaylor(7.5, 3), "a vacuum core");
        assertThrows(IllegalArgumentException.class, () -> new SedovTaylor(1.4, 4));
        for (final double g : new double[] {1.1, 1.2, 5.0 / 3, 2, 3, 5}) {
            for (int nu = 1; nu <= 3; nu++) {
                final SedovTaylor t = new SedovTaylor(g, nu);
                assertTrue(t.alpha() > 0 && t.density(0.5, 1, 1) < t.density(0.9, 1, 1), g + " " + nu);
            }
        }
    }

    @Test
    void sedovShockRadiusShouldBeWithinFivePercentInTwoAndThreeDimensions() {
        for (final int[] c : new int[][] {{2, 128}, {3, 40}}) {
            final HydroRun.Snapshot s = run("sedov", 2, c[0], c[1], null, Map.of());
            final Problem.Analysis a = analyse("sedov", s);
            final double err = a.metrics().get("shock_radius_error");
            assertTrue(Math.abs(err) < 0.05, c[0] + "-D shock radius off by " + err);
            assertEquals(0, a.metrics().get("mass_error"), 1e-12, "walls on every face: mass stays");
            assertTrue(Math.abs(a.metrics().get("energy_error")) < 0.3, "energy: " + a.metrics());
        }
    }

    @Test
    void nohShouldFindTheShockAndConvergeInOneAndTwoDimensions() {
        for (final int dims : new int[] {1, 2}) {
            double previous = Double.MAX_VALUE;
            for (final int n : dims == 1 ? new int[] {100, 200, 400} : new int[] {32, 64}) {
                final HydroRun.Snapshot s = run("noh", 2, dims, n, null, Map.of());
                final Problem.Analysis a = analyse("noh", s);
                final double l1 = a.metrics().get("l1_density");
                assertEquals(0.2, a.metrics().get("shock_radius"), 1.5 / n, dims + "-D " + n + " zones: " + a);
                assertTrue(l1 < previous, dims + "-D L1 " + l1 + " at " + n + " zones, not below " + previous);
                previous = l1;
            }
        }
    }

    @Test
    void nohWithInflowFacesShouldGiveBitwiseTheSameFieldsOnAnyNumberOfPes() {
        final double[] one = run("noh", 1, 2, 24, 0.3, Map.of()).fields();
        assertArrayEquals(one, run("noh", 4, 2, 24, 0.3, Map.of()).fields(), 0.0);
        assertArrayEquals(one, run("noh", 3, 2, 24, 0.3, Map.of()).fields(), 0.0);
        // gamma 3: the shock moves at 1 and reaches the inflow ghost zones, whose state is then the post-shock one.
        final double[] late = run("noh", 1, 2, 12, 1.1, 3.0, Map.of()).fields();
        assertArrayEquals(late, run("noh", 4, 2, 12, 1.1, 3.0, Map.of()).fields(), 0.0);
    }

    @Test
    void aLowerInflowFaceShouldImposeItsStateAndVelocity() {
        // Light gas flowing in at 0.5 through x = 0 pushes the dense gas out through x = 1.
        final HydroConfig base = HydroConfig.cube(1, 60, 1.4, Boundary.OUTFLOW);
        final HydroConfig cfg = new HydroConfig(1, base.zones(), base.lo(), base.hi(), 1.4, 0.5, 2.0,
            new Boundary[] {Boundary.INFLOW}, new Boundary[] {Boundary.OUTFLOW});
        final ZeusSolver.Inflow in = (x, t, out) -> {
            out[0] = 1;
            out[1] = 0.5;
            out[2] = 1;
        };
        final HydroRun.Spec spec = HydroRun.Spec.toTime(cfg, x -> new double[] {2, 0.5, 1}, in, 0.8);
        final HydroRun.Snapshot s = HydroRun.run(2, Map.of(), spec, null);
        assertEquals(0.5, s.at(ZeusSolver.V, 0), 0.0, "the boundary face keeps the inflow velocity");
        for (int i = 0; i < 15; i++) { // x < 0.25: well behind the contact at 0.4
            assertEquals(1, s.at(ZeusSolver.D, i), 1e-3, "zone " + i); // was 2: replaced by inflowing gas
            assertEquals(0.5, s.centredVelocity(0, i), 1e-3, "zone " + i);
        }
        for (int i = 15; i < 50; i++) {
            if (s.at(ZeusSolver.D, i) > 1.5) {
                assertTrue(i * cfg.dx(0) > 0.35, "the contact moved with the flow: dense gas at zone " + i);
                break;
            }
        }
    }

    @Test
    void kelvinHelmholtzShouldRollUpAndConserveMassAndMomentum() {
        // At 64 zones numerical diffusion of the thin shear layers (sigma is 2.3 zones) holds the mode back.
        final HydroRun.Snapshot s = run("kh", 3, 2, 96, 1.0, Map.of());
        final Problem.Analysis a = analyse("kh", s);
        assertTrue(a.metrics().get("vy_growth") > 5, "the seed grows: " + a.metrics());
        assertTrue(a.metrics().get("mixed_fraction") > 0.005, "the layers mix: " + a.metrics());
        assertEquals(0, a.metrics().get("mass_error"), 1e-13);
        assertEquals(0, a.metrics().get("momentum_x_error"), 1e-13);
        assertEquals(0, a.metrics().get("momentum_y_error"), 1e-13);
        assertTrue(Math.abs(a.metrics().get("energy_error")) < 1e-2, "energy: " + a.metrics());
        assertThrows(IllegalArgumentException.class, () -> run("kh", 1, 3, 16, 0.1, Map.of()));
    }

    @Test
    void blast3dShouldGiveBitwiseTheSameFieldsOnAnyPesAndFaultPlanAndConserve() {
        final HydroRun.Snapshot one = run("blast3d", 1, 3, 12, 0.05, Map.of());
        assertArrayEquals(one.fields(), run("blast3d", 2, 3, 12, 0.05, Map.of()).fields(), 0.0);
        final HydroRun.Snapshot lossy = run("blast3d", 4, 3, 12, 0.05, Map.of("fabric.faults.seed", "3",
            "fabric.faults.drop", "0.02", "fabric.faults.duplicate", "0.01", "fabric.faults.corrupt", "0.01"));
        assertArrayEquals(one.fields(), lossy.fields(), 0.0, "4 PEs over a lossy fabric");
        final Problem.Analysis a = analyse("blast3d", one);
        assertEquals(0, a.metrics().get("mass_error"), 1e-13);
        for (final String d : new String[] {"x", "y", "z"}) {
            assertEquals(0, a.metrics().get("momentum_" + d + "_error"), 1e-13, d);
        }
    }

    @Test
    void weakScalingBoxShouldGiveEveryPeOneCube() {
        assertArrayEquals(new int[] {8, 8, 8}, Blast3d.weak(1, 8));
        assertArrayEquals(new int[] {16, 8, 8}, Blast3d.weak(2, 8));
        assertArrayEquals(new int[] {16, 16, 8}, Blast3d.weak(4, 8));
        assertArrayEquals(new int[] {16, 16, 16}, Blast3d.weak(8, 8));
        assertArrayEquals(new int[] {16, 24, 8}, Blast3d.weak(6, 8));
        final HydroRun.Snapshot s = HydroRun.run(2, Map.of(), Blast3d.scaling(2, 8, 1, 3), null);
        assertEquals(3, s.cycles());
        assertEquals(2L * 8 * 8 * 8, s.zones());
        assertTrue(s.seconds() > 0 && s.fields() == null);
        assertThrows(IllegalArgumentException.class, () -> Blast3d.scaling(2, 2, 1, 3), "blocks thinner than ghosts");
    }

    @Test
    void aGridGaCannotSplitShouldBeAUsageError() {
        // 10 zones on 4 PEs: blocks of 3, 3, 3 and 1, thinner than the 3 ghost layers.
        final Problem p = Problem.of("sod", new Problem.Params(4, 1, 10, null, null), new ExactRiemann.State(1, 0, 1),
            new ExactRiemann.State(0.125, 0, 0.1), 0.5);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> HydroRun.run(4, Map.of(), p.spec(), null));
        assertTrue(e.getMessage().contains("ghost"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HydroRun.Spec.toTime(p.spec().cfg(), p.spec().initial(),
            null, Double.POSITIVE_INFINITY));
    }

    @Test
    void shouldRejectBadProblemOptions() {
        assertThrows(IllegalArgumentException.class, () -> Problem.of("sedov", new Problem.Params(1, 4, 32, null,
            null), null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> Problem.of("blast3d", new Problem.Params(1, 2, 32, null,
            null), null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> Problem.of("zeus", new Problem.Params(1, 2, 32, null,
            null), null, null, 0));
    }

    @Test
    void curvilinearDefaultsShouldBeGridsThatFinishWithinAMinute() {
        // sedov (r, theta) at 128^2 took 354 637 cycles, about 15 minutes; 48^2 takes 17 383 and about 10 s.
        final Object[][] grids = {{1, Geometry.SPHERICAL, 400}, {2, Geometry.CARTESIAN, 128},
            {2, Geometry.CYLINDRICAL, 128}, {2, Geometry.SPHERICAL, 48}, {3, Geometry.CARTESIAN, 48},
            {3, Geometry.CYLINDRICAL, 16}, {3, Geometry.SPHERICAL, 12}};
        for (final String name : new String[] {"sedov", "noh"}) {
            for (final Object[] g : grids) {
                final int dims = (Integer) g[0];
                final HydroConfig cfg = Problem.of(name, new Problem.Params(4, dims, null, null, null,
                    (Geometry) g[1], 1), new ExactRiemann.State(1, 0, 1), new ExactRiemann.State(0.125, 0, 0.1), 0.5)
                    .spec().cfg();
                for (int d = 0; d < dims; d++) {
                    assertEquals((int) (Integer) g[2], cfg.zones()[d], name + " " + dims + "-D " + g[1]);
                }
            }
        }
    }
}
