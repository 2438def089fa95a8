package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.jhpvm.hydro.Boundary;
import org.jhpvm.hydro.Geometry;
import org.jhpvm.hydro.HydroConfig;
import org.jhpvm.hydro.Problem;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

/** The profile charts' x axes: round bounds and labels that fit (kh-profile.png's ran off the edge). */
class HydroResultFilesTest {
    @Test
    void aProfileAtZoneCentresShouldHaveItsAxisOnRoundNumbers() {
        // kh's profile across y at 32 zones: centres from 1/64 to 63/64.
        final double[] y = new double[32];
        final double[] rho = new double[32];
        for (int j = 0; j < 32; j++) {
            y[j] = (j + 0.5) / 32;
            rho[j] = j < 8 || j >= 24 ? 1 : 2;
        }
        final XYChart c = HydroResultFiles.charts(List.of(new Problem.Panel("density", "y", "density", y, rho, null,
            null))).get(0);
        assertEquals(0.0, c.getStyler().getXAxisMin(), 0.0);
        assertEquals(1.0, c.getStyler().getXAxisMax(), 0.0);
        assertEquals("0.##", c.getStyler().getXAxisDecimalPattern());
    }

    @Test
    void csvColumnsShouldBeNamedAfterTheGridsCoordinates() {
        final HydroConfig cube = HydroConfig.cube(3, 8, 1.4, Boundary.REFLECT);
        assertEquals("x,y,z,rho,u,v,w,p,e", HydroResultFiles.csvHeader(cube));
        assertEquals("x,y,rho,u,v,p,e", HydroResultFiles.csvHeader(HydroConfig.cube(2, 8, 1.4, Boundary.REFLECT)));
        assertEquals("x,rho,u,p,e", HydroResultFiles.csvHeader(HydroConfig.cube(1, 8, 1.4, Boundary.REFLECT)
            .withGeometry(Geometry.CARTESIAN, 1.01)));
        assertEquals("r,z,phi,rho,v_r,v_z,v_phi,p,e", HydroResultFiles.csvHeader(cube.withGeometry(
            Geometry.CYLINDRICAL, 1)));
        assertEquals("r,rho,v_r,p,e", HydroResultFiles.csvHeader(HydroConfig.cube(1, 8, 1.4, Boundary.REFLECT)
            .withGeometry(Geometry.SPHERICAL, 1)));
        final HydroConfig polar = new HydroConfig(2, new int[] {8, 8}, new double[2], new double[] {1, Math.PI / 2},
            1.4, 0.5, 2, new Boundary[] {Boundary.REFLECT, Boundary.REFLECT}, new Boundary[] {Boundary.REFLECT,
                Boundary.REFLECT}).withGeometry(Geometry.SPHERICAL, 1);
        assertEquals("r,theta,rho,v_r,v_theta,p,e", HydroResultFiles.csvHeader(polar));
    }

    @Test
    void stepsShouldBeOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.2, org.jhpvm.apps.Reports.roundStep(0.19375), 1e-15);
        assertEquals(5.0, org.jhpvm.apps.Reports.roundStep(3), 0.0);
        assertEquals(0.01, org.jhpvm.apps.Reports.roundStep(0.01), 1e-18);
        assertEquals(100.0, org.jhpvm.apps.Reports.roundStep(51), 1e-12);
    }
}
