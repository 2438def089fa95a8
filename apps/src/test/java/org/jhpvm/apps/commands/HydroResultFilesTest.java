package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.jhpvm.apps.hydro.Problem;
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
    void stepsShouldBeOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.2, HydroResultFiles.niceStep(0.19375), 1e-15);
        assertEquals(5.0, HydroResultFiles.niceStep(3), 0.0);
        assertEquals(0.01, HydroResultFiles.niceStep(0.01), 1e-18);
        assertEquals(100.0, HydroResultFiles.niceStep(51), 1e-12);
    }
}
