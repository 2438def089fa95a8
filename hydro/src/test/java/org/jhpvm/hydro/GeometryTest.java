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
 * Curvilinear (1-D cylindrical and spherical) and ratioed grids: the spherical and cylindrical Sedov blasts against
 * Sedov-Taylor, Sod in a far shell against the planar solution, conservation, the same bits on any number of PEs,
 * and the grids refused.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GeometryTest {
    private static Problem problem(final String name, final int pes, final int zones, final Geometry g,
        final double ratio) {
        return problem(name, pes, zones, g, ratio, null);
    }

    private static Problem problem(final String name, final int pes, final int zones, final Geometry g,
        final double ratio, final Double tEnd) {
        return Problem.of(name, new Problem.Params(pes, 1, zones, tEnd, null, g, ratio),
            new ExactRiemann.State(1, 0, 1), new ExactRiemann.State(0.125, 0, 0.1), 0.5);
    }

    private static HydroRun.Snapshot run(final Problem p, final int pes, final EnergyScheme scheme) {
        return HydroRun.run(pes, Map.of(), p.spec().withEnergy(scheme), null);
    }

    private static Map<String, Double> analyse(final Problem p, final HydroRun.Snapshot s) {
        final Problem.Analysis a = p.analyse(s);
        Problem.conservation(s, a);
        return a.metrics();
    }

    @Test
    @Tag("soak") // 5 s; cylindricalSedov and the curvilinear 3-D tests cover the geometry by default
    void sphericalSedovShouldPutItsShockWithinOnePercentOfSedovTaylorOn400Zones() {
        final Problem p = problem("sedov", 2, 400, Geometry.SPHERICAL, 1);
        final Map<String, Double> total = analyse(p, run(p, 2, EnergyScheme.TOTAL));
        assertEquals(0, total.get("shock_radius_error"), 0.01, total.toString());
        assertEquals(0, total.get("energy_error"), 1e-12, total.toString());
        assertEquals(0, total.get("mass_error"), 1e-13, total.toString());
        // The internal-energy scheme loses energy here as in Cartesian grids, and its shock lags (reported).
        final Map<String, Double> internal = analyse(p, run(p, 2, EnergyScheme.INTERNAL));
        assertTrue(internal.get("energy_error") < -0.1 && internal.get("energy_error") > -0.3, internal.toString());
        assertEquals(-0.03, internal.get("shock_radius_error"), 0.01, internal.toString());
        assertEquals(0, internal.get("mass_error"), 1e-13, internal.toString());
    }

    @Test
    void cylindricalSedovShouldMatchTheCylindricalSolution() {
        final Problem p = problem("sedov", 3, 300, Geometry.CYLINDRICAL, 1);
        final Map<String, Double> m = analyse(p, run(p, 3, EnergyScheme.TOTAL));
        assertEquals(0, m.get("shock_radius_error"), 0.01, m.toString());
        assertEquals(0, m.get("energy_error"), 1e-12, m.toString());
    }

    @Test
    void ratioedZonesShouldResolveTheCentreAndKeepTheBlastRight() {
        // Zones 0.3% wider each than the one before: a third of the width at the centre, the shock still within 1%.
        final Problem p = problem("sedov", 2, 300, Geometry.CYLINDRICAL, 1.003);
        final Map<String, Double> m = analyse(p, run(p, 2, EnergyScheme.TOTAL));
        assertEquals(0, m.get("shock_radius_error"), 0.01, m.toString());
        assertEquals(0, m.get("energy_error"), 1e-12, m.toString());
        final HydroConfig cfg = p.spec().cfg();
        assertEquals(1.003, (cfg.face(300) - cfg.face(299)) / (cfg.face(299) - cfg.face(298)), 1e-9);
        assertEquals(0.0, cfg.face(0), 0.0);
        assertEquals(1.0, cfg.face(300), 0.0);
    }

    @Test
    void cylindricalRzSedovShouldBeTheSphericalBlast() {
        // A spherical blast in the (r, z) half plane, 64^2: the shock 1.4 zones out (measured +2.97%), as the
        // Cartesian runs at this resolution are about a zone out.
        final Problem rz = Problem.of("sedov", new Problem.Params(2, 2, 64, null, null, Geometry.CYLINDRICAL, 1),
            null, null, 0);
        final Map<String, Double> a = analyse(rz, run(rz, 2, EnergyScheme.TOTAL));
        assertEquals(0, a.get("shock_radius_error"), 0.04, a.toString());
        assertEquals(0, a.get("energy_error"), 1e-12, a.toString());
        assertEquals(0, a.get("mass_error"), 1e-13, a.toString());
    }

    /** The comparison at the default sizes: (r, z) 128^2 against the Cartesian octant 48^3, within 2%. */
    @Test
    @Tag("soak")
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void cylindricalRzSedovShouldMatchTheCartesian3dBlast() {
        final Problem rz = Problem.of("sedov", new Problem.Params(2, 2, null, null, null, Geometry.CYLINDRICAL, 1),
            null, null, 0);
        final Problem xyz = Problem.of("sedov", new Problem.Params(2, 3, null, null, null), null, null, 0);
        final double a = analyse(rz, run(rz, 2, EnergyScheme.TOTAL)).get("shock_radius");
        final double b = analyse(xyz, run(xyz, 2, EnergyScheme.TOTAL)).get("shock_radius");
        assertEquals(b, a, 0.02 * b, "(r, z) against Cartesian 3-D");
    }

    @Test
    void nohShouldImplodeCylindricallyAndSphericallyOnARadius() {
        // Post-shock densities 16 and 64 (gamma 5/3), the shock at t/3; wall heating lowers the plateau at the centre.
        for (final Geometry g : new Geometry[] {Geometry.CYLINDRICAL, Geometry.SPHERICAL}) {
            final Problem p = problem("noh", 2, 400, g, 1);
            final HydroRun.Snapshot s = run(p, 2, EnergyScheme.INTERNAL);
            final Map<String, Double> m = p.analyse(s).metrics();
            assertEquals(m.get("shock_radius_exact"), m.get("shock_radius"), 3.5 / 400, g + ": " + m);
            final double exact = g == Geometry.SPHERICAL ? 64 : 16;
            double sum = 0;
            int n = 0;
            for (int i = 0; i < 400; i++) {
                final double r = s.cfg().centre(0, i);
                if (r > 0.05 && r < 0.18) {
                    sum += s.at(ZeusSolver.D, i);
                    n++;
                }
            }
            assertEquals(exact, sum / n, (g == Geometry.SPHERICAL ? 0.15 : 0.05) * exact, g + " plateau");
        }
    }

    @Test
    void sodInAFarShellShouldMatchThePlanarSolution() {
        final Problem planar = problem("sod", 2, 400, Geometry.CARTESIAN, 1);
        final double l1 = planar.analyse(run(planar, 2, EnergyScheme.INTERNAL)).metrics().get("l1_density");
        for (final Geometry g : new Geometry[] {Geometry.SPHERICAL, Geometry.CYLINDRICAL}) {
            final Problem p = problem("sod", 2, 400, g, 1);
            assertEquals(Sod.SHELL, p.spec().cfg().lo()[0], 0.0);
            final Map<String, Double> m = p.analyse(run(p, 2, EnergyScheme.INTERNAL)).metrics();
            assertEquals(l1, m.get("l1_density"), 0.02 * l1, g + ": " + m);
            assertEquals(m.get("shock_x_exact"), m.get("shock_x"), 1.0 / 400, g + ": " + m);
        }
        // A nearly uniform ratioed Cartesian grid runs the general kernels and lands where the uniform one does.
        final Problem r = problem("sod", 2, 400, Geometry.CARTESIAN, 1.0001);
        assertEquals(l1, r.analyse(run(r, 2, EnergyScheme.INTERNAL)).metrics().get("l1_density"), 0.01 * l1);
    }

    @Test
    void fieldsShouldBeBitwiseTheSameOnAnyNumberOfPes() {
        for (final EnergyScheme e : EnergyScheme.values()) {
            final HydroRun.Snapshot one = run(problem("sedov", 1, 120, Geometry.SPHERICAL, 1.01, 0.1), 1, e);
            for (final int pes : new int[] {2, 3, 4}) {
                final HydroRun.Snapshot many = run(problem("sedov", pes, 120, Geometry.SPHERICAL, 1.01, 0.1), pes,
                    e);
                assertEquals(one.cycles(), many.cycles(), e + " on " + pes);
                assertArrayEquals(one.fields(), many.fields(), e + ": 1 PE against " + pes);
            }
        }
        for (final EnergyScheme e : EnergyScheme.values()) {
            final Problem rz1 = Problem.of("noh", new Problem.Params(1, 2, 24, 0.3, null, Geometry.CYLINDRICAL, 1.02),
                null, null, 0);
            final Problem rz4 = Problem.of("noh", new Problem.Params(4, 2, 24, 0.3, null, Geometry.CYLINDRICAL, 1.02),
                null, null, 0);
            assertArrayEquals(run(rz1, 1, e).fields(), run(rz4, 4, e).fields(), e + ": (r, z) noh, 1 PE against 4");
        }
        final HydroRun.Snapshot one = run(problem("sod", 1, 90, Geometry.CYLINDRICAL, 0.995), 1,
            EnergyScheme.INTERNAL);
        final HydroRun.Snapshot three = run(problem("sod", 3, 90, Geometry.CYLINDRICAL, 0.995), 3,
            EnergyScheme.INTERNAL);
        assertArrayEquals(one.fields(), three.fields(), "ratioed cylindrical sod, 1 PE against 3");
    }

    @Test
    void gridsItCannotRunShouldBeRefused() {
        final int[] z = {16, 16};
        final double[] lo = {0, 0};
        final double[] hi = {1, 1};
        final Boundary[] walls = {Boundary.REFLECT, Boundary.REFLECT};
        final HydroConfig flat = new HydroConfig(2, z, lo, hi, 1.4, 0.5, 2, walls, walls.clone());
        assertEquals(Geometry.SPHERICAL, flat.withGeometry(Geometry.SPHERICAL, 1).geometry(), "theta in [0, 1]");
        final HydroConfig cube = HydroConfig.cube(3, 8, 1.4, Boundary.REFLECT);
        assertEquals(Geometry.SPHERICAL, cube.withGeometry(Geometry.SPHERICAL, 1).geometry(), "theta, phi in [0, 1]");
        assertEquals(1.01, cube.withGeometry(Geometry.CYLINDRICAL, 1.01).ratio(), 0.0, "ratioed (r, z, phi)");
        final Boundary[] walls3 = {Boundary.REFLECT, Boundary.REFLECT, Boundary.REFLECT};
        final HydroConfig turns = new HydroConfig(3, new int[] {8, 8, 8}, new double[3], new double[] {1, 1, 7}, 1.4,
            0.5, 2, walls3, walls3.clone());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> turns.withGeometry(Geometry.CYLINDRICAL, 1));
        assertEquals("--geometry cylindrical: phi runs from 0.0 to 7.0, more than a turn", e.getMessage());
        // The polar angle: within [0, pi], not periodic, and a wall on the axis.
        final HydroConfig round = new HydroConfig(2, z, lo, new double[] {1, 4}, 1.4, 0.5, 2, walls, walls.clone());
        e = assertThrows(IllegalArgumentException.class, () -> round.withGeometry(Geometry.SPHERICAL, 1));
        assertEquals("--geometry spherical: theta runs from 0.0 to 4.0, outside [0, pi]", e.getMessage());
        final Boundary[] ringTheta = {Boundary.REFLECT, Boundary.PERIODIC};
        final HydroConfig turning = new HydroConfig(2, z, lo, hi, 1.4, 0.5, 2, ringTheta, ringTheta.clone());
        e = assertThrows(IllegalArgumentException.class, () -> turning.withGeometry(Geometry.SPHERICAL, 1));
        assertEquals("--geometry spherical: theta cannot be periodic", e.getMessage());
        final Boundary[] open = {Boundary.REFLECT, Boundary.OUTFLOW};
        final HydroConfig axis = new HydroConfig(2, z, lo, new double[] {1, Math.PI}, 1.4, 0.5, 2, walls, open);
        e = assertThrows(IllegalArgumentException.class, () -> axis.withGeometry(Geometry.SPHERICAL, 1));
        assertEquals("--geometry spherical: the axis (theta = 0 or pi) is a reflecting boundary", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Problem.of("sod", new Problem.Params(1, 2, 16, null,
            null, Geometry.SPHERICAL, 1), null, null, 0.5));
        assertEquals("sod: --geometry spherical is a tube along the radius, 1-D", e.getMessage());
        final Boundary[] ring = {Boundary.PERIODIC};
        final HydroConfig line = new HydroConfig(1, new int[] {16}, new double[] {0}, new double[] {1}, 1.4, 0.5, 2,
            ring, ring.clone());
        e = assertThrows(IllegalArgumentException.class, () -> line.withGeometry(Geometry.CYLINDRICAL, 1));
        assertEquals("--geometry cylindrical: the radius cannot be periodic", e.getMessage());
        final Boundary[] wall = {Boundary.REFLECT};
        final HydroConfig below = new HydroConfig(1, new int[] {16}, new double[] {-1}, new double[] {1}, 1.4, 0.5, 2,
            wall, wall.clone());
        e = assertThrows(IllegalArgumentException.class, () -> below.withGeometry(Geometry.SPHERICAL, 1));
        assertEquals("--geometry spherical: the radius starts at -1.0, below 0", e.getMessage());
        for (final double bad : new double[] {0, -1.1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> line.withGeometry(Geometry.CARTESIAN, bad),
                "ratio " + bad);
        }
        for (final String name : new String[] {"kh", "blast3d"}) {
            e = assertThrows(IllegalArgumentException.class, () -> Problem.of(name, new Problem.Params(1, null, null,
                null, null, Geometry.SPHERICAL, 1), null, null, 0));
            assertEquals(name + ": --geometry and --ratio are for sod, sedov and noh", e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Geometry.of("polar"));
    }

    @Test
    void volumesAndAreasShouldBeTheSphereAndCylinderOnes() {
        assertEquals(4 * Math.PI / 3 * 7, Geometry.SPHERICAL.volume(1, 2), 1e-12);
        assertEquals(4 * Math.PI / 3, Geometry.SPHERICAL.volume(-1, 0), 1e-12, "beyond the origin: the mirror");
        assertEquals(Math.PI * 3, Geometry.CYLINDRICAL.volume(2, 1), 1e-12);
        assertEquals(0.0, Geometry.SPHERICAL.area(0), 0.0);
        assertEquals(2 * Math.PI * 3, Geometry.CYLINDRICAL.area(-3), 1e-12);
        final HydroConfig cfg = problem("sedov", 1, 50, Geometry.SPHERICAL, 1.02).spec().cfg();
        double sum = 0;
        for (int i = 0; i < 50; i++) {
            sum += cfg.zoneVolume(i);
        }
        assertEquals(4 * Math.PI / 3, sum, 1e-12, "the zones fill the unit sphere");
    }
}
