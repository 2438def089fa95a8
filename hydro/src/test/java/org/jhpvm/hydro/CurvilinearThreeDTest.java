package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 3-D curvilinear grids, cylindrical (r, z, phi) and spherical (r, theta, phi): a blast at the origin is the same at
 * every angle and where the lower-dimensional grid puts it, a uniform flow across the grid stays uniform (the
 * azimuthal velocity's centrifugal forces and angular momentum balance), and the fields are the same bits on any
 * number of PEs.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CurvilinearThreeDTest {
    private static HydroRun.Snapshot run(final HydroRun.Spec spec, final int pes, final EnergyScheme scheme) {
        return HydroRun.run(pes, Map.of(), spec.withEnergy(scheme), null);
    }

    private static Problem sedov(final int dims, final Geometry g, final int zones, final Double tEnd) {
        return Problem.of("sedov", new Problem.Params(2, dims, zones, tEnd, null, g, 1), null, null, 0);
    }

    private static Map<String, Double> analyse(final Problem p, final HydroRun.Snapshot s) {
        final Problem.Analysis a = p.analyse(s);
        Problem.conservation(s, a);
        return a.metrics();
    }

    /** Every zone equals the first of its radial shell (cylindrical: of its (r, z) row); no angular velocity. */
    private static void sameAtEveryAngle(final HydroRun.Snapshot s, final boolean polar) {
        final int n = s.cfg().zones()[0];
        final int n1 = s.cfg().zones()[1];
        final int n2 = s.cfg().zones()[2];
        for (int z = 0; z < s.zones(); z++) {
            final int first = polar ? z / (n1 * n2) * (n1 * n2) : z / n2 * n2;
            assertEquals(s.at(ZeusSolver.D, first), s.at(ZeusSolver.D, z), 0.0, "density of zone " + z);
            assertEquals(s.at(ZeusSolver.E, first), s.at(ZeusSolver.E, z), 0.0, "energy of zone " + z);
            assertEquals(0.0, s.at(ZeusSolver.V + 2, z), 0.0, "azimuthal velocity of zone " + z);
            if (polar) {
                assertEquals(0.0, s.at(ZeusSolver.V + 1, z), 0.0, "polar velocity of zone " + z);
            }
        }
        assertTrue(n > 0);
    }

    /**
     * A 3-D blast at the origin under the total-energy scheme: the zones fill {@code volume}, mass and energy are
     * conserved, every angle is the same, and the shock lies within {@code tolerance} of the lower-dimensional run's.
     */
    private static void blastAtTheOrigin(final Geometry g, final int zones, final double volume, final int lowerDims,
        final double tolerance) {
        final Problem p = sedov(3, g, zones, null);
        assertEquals(Math.PI / 2, p.spec().cfg().hi()[2], 0.0, "a quarter turn: the octant");
        double sum = 0;
        for (int z = 0; z < zones * zones * zones; z++) {
            sum += p.spec().cfg().zoneVolume(z);
        }
        assertEquals(volume, sum, 1e-12, "the zones fill the octant");
        final HydroRun.Snapshot s = run(p.spec(), 2, EnergyScheme.TOTAL);
        final Map<String, Double> m = analyse(p, s);
        assertEquals(0, m.get("energy_error"), 1e-12, m.toString());
        assertEquals(0, m.get("mass_error"), 1e-13, m.toString());
        sameAtEveryAngle(s, g == Geometry.SPHERICAL);
        final Problem lower = sedov(lowerDims, g, zones, null);
        final double radius = analyse(lower, run(lower.spec(), 2, EnergyScheme.TOTAL)).get("shock_radius");
        assertEquals(radius, m.get("shock_radius"), tolerance * radius, m.toString());
    }

    @Test
    void aBlastOnTheAxisOfACylindricalGridShouldBeTheSameAtEveryAzimuth() {
        // A quarter of the unit cylinder; (r, z) at the same zones: 0.82506 against 0.81756 measured (they take
        // different time steps).
        blastAtTheOrigin(Geometry.CYLINDRICAL, 16, Math.PI / 4, 2, 0.02);
    }

    @Test
    @Tag("soak") // 4.5 s; the cylindrical grid's test below runs the same kernels by default
    void aBlastAtTheCentreOfASphericalGridShouldBeTheSameAtEveryAngle() {
        // An eighth of the unit sphere; 1-D spherical on the same radial zones: 0.89614 against 0.87880 measured.
        blastAtTheOrigin(Geometry.SPHERICAL, 12, Math.PI / 6, 1, 0.03);
    }

    @Test
    void aNearlyUniformRatioedCartesianGridShouldLandWhereTheUniformOneDoes() {
        // The general kernels on a Cartesian 3-D grid whose x zones widen by 0.01% each: the uniform grid's blast.
        final Problem flat = sedov(3, Geometry.CARTESIAN, 16, null);
        final Problem ratioed = Problem.of("sedov", new Problem.Params(2, 3, 16, null, null, Geometry.CARTESIAN,
            1.0001), null, null, 0);
        final Map<String, Double> a = analyse(flat, run(flat.spec(), 2, EnergyScheme.INTERNAL));
        final Map<String, Double> b = analyse(ratioed, run(ratioed.spec(), 2, EnergyScheme.INTERNAL));
        assertEquals(a.get("shock_radius"), b.get("shock_radius"), 0.005 * a.get("shock_radius"), a + " vs " + b);
        assertEquals(a.get("l1_density"), b.get("l1_density"), 0.02 * a.get("l1_density"), a + " vs " + b);
        assertEquals(0, b.get("mass_error"), 1e-13, b.toString());
    }

    /**
     * A uniform flow with that state flowing in all round a grid away from the axis: along x (and z) in the grid's
     * components, cylindrical {@code (cos phi, 1/2, -sin phi)}, spherical
     * {@code (sin theta cos phi, cos theta cos phi, -sin phi)}.
     */
    static HydroRun.Spec uniformFlow(final Geometry g, final int zones, final double tEnd) {
        final boolean polar = g == Geometry.SPHERICAL;
        final Boundary[] in = {Boundary.INFLOW, Boundary.INFLOW, Boundary.INFLOW};
        final HydroConfig cfg = new HydroConfig(3, new int[] {zones, zones, zones},
            new double[] {0.5, polar ? 0.5 : 0, 0.2}, new double[] {1, polar ? 1.3 : 0.5, 1.0}, 1.4, 0.5, 2, in,
            in.clone(), EnergyScheme.INTERNAL, g, 1);
        final ZeusSolver.Inflow flow = (x, t, out) -> {
            final double cp = StrictMath.cos(x[2]);
            out[0] = 1;
            out[1] = polar ? StrictMath.sin(x[1]) * cp : cp;
            out[2] = polar ? StrictMath.cos(x[1]) * cp : 0.5;
            out[3] = -StrictMath.sin(x[2]);
            out[4] = 1;
        };
        final ZeusSolver.Initial init = x -> {
            final double[] c = new double[5];
            flow.at(x, 0, c);
            return c;
        };
        return HydroRun.Spec.toTime(cfg, init, flow, tEnd);
    }

    /** The largest departures from the uniform state: {density, Cartesian velocity}. */
    private static double[] departure(final HydroRun.Snapshot s, final double[] exact) {
        final HydroConfig cfg = s.cfg();
        final double[] u = new double[3];
        final double[] v = new double[3];
        final double[] xyz = new double[3];
        double rho = 0;
        double vel = 0;
        for (int z = 0; z < s.zones(); z++) {
            rho = Math.max(rho, Math.abs(s.at(ZeusSolver.D, z) - 1));
            s.centre(z, u);
            for (int d = 0; d < 3; d++) {
                v[d] = s.centredVelocity(d, z);
            }
            CurvedSpace.vector(cfg.geometry(), 3, u, v, xyz, 0);
            for (int d = 0; d < 3; d++) {
                vel = Math.max(vel, Math.abs(xyz[d] - exact[d]));
            }
        }
        return new double[] {rho, vel};
    }

    @Test
    void aUniformFlowShouldStayUniform() {
        final double[] cyl = departure(run(uniformFlow(Geometry.CYLINDRICAL, 16, 0.25), 2, EnergyScheme.INTERNAL),
            new double[] {1, 0, 0.5});
        final double[] sph = departure(run(uniformFlow(Geometry.SPHERICAL, 16, 0.25), 2, EnergyScheme.INTERNAL),
            new double[] {1, 0, 0});
        System.out.printf("uniform flow: cylindrical |rho - 1| %.3g, |v - v0| %.3g; spherical %.3g, %.3g%n", cyl[0],
            cyl[1], sph[0], sph[1]);
        // Measured at 16^3: cylindrical 0.014 and 0.015, spherical 0.015 and 0.024. Tried, each alone: without the
        // azimuthal centrifugal force 0.10-0.11 (both grids); v_phi carried along r as itself, not as angular
        // momentum, 0.10-0.13; without v_phi^2 cot theta / r 0.08 and 0.10 (spherical); v_phi carried across theta
        // as itself 0.085 and 0.098 (spherical).
        assertTrue(cyl[0] < 0.04 && cyl[1] < 0.04, "cylindrical: " + cyl[0] + ", " + cyl[1]);
        assertTrue(sph[0] < 0.04 && sph[1] < 0.04, "spherical: " + sph[0] + ", " + sph[1]);
    }

    @Test
    void fieldsShouldBeBitwiseTheSameOnAnyNumberOfPes() {
        for (final Geometry g : new Geometry[] {Geometry.CYLINDRICAL, Geometry.SPHERICAL}) {
            for (final EnergyScheme e : EnergyScheme.values()) {
                final HydroRun.Snapshot one = run(uniformFlow(g, 10, 0.05), 1, e);
                for (final int pes : new int[] {3, 4}) {
                    assertArrayEquals(one.fields(), run(uniformFlow(g, 10, 0.05), pes, e).fields(),
                        g + ", " + e + ": uniform flow, 1 PE against " + pes);
                }
            }
        }
        final HydroRun.Spec blast = sedov(3, Geometry.SPHERICAL, 10, 0.01).spec();
        assertArrayEquals(run(blast, 1, EnergyScheme.TOTAL).fields(), run(blast, 4, EnergyScheme.TOTAL).fields(),
            "spherical blast, 1 PE against 4");
    }
}
