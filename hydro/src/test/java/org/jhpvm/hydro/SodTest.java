package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ZEUS solver against the exact Riemann solution, across PE counts, dimensions and fault plans. */
@Timeout(300)
class SodTest {
    static final ExactRiemann.State LEFT = new ExactRiemann.State(1, 0, 1);
    static final ExactRiemann.State RIGHT = new ExactRiemann.State(0.125, 0, 0.1);

    static Sod.Result sod(final int pes, final int dims, final int zones, final Map<String, String> options) {
        return Sod.run(pes, dims, zones, LEFT, RIGHT, 0.5, 1.4, 0.2, options);
    }

    @Test
    void shouldConvergeToTheExactSolutionWithTheShockInPlace() {
        final int[] zones = {100, 200, 400, 800};
        double previous = Double.NaN;
        for (final int n : zones) {
            final Sod.Result r = sod(2, 1, n, Map.of());
            final double offset = (r.shockX() - r.exactShockX()) * n;
            assertTrue(Math.abs(offset) <= 1.5, n + " zones: shock " + r.shockX() + " vs " + r.exactShockX() + " ("
                + offset + " zones)");
            if (!Double.isNaN(previous)) {
                final double order = Math.log(previous / r.l1()) / Math.log(2);
                assertTrue(order >= 0.6, n + " zones: L1 " + r.l1() + " after " + previous + ": order " + order);
            }
            previous = r.l1();
        }
        assertTrue(previous < 0.002, "L1 at 800 zones " + previous);
    }

    @Test
    void shouldGiveBitwiseTheSameFieldsOnAnyNumberOfPesAndAnyFaultPlan() {
        final Sod.Result one = sod(1, 1, 120, Map.of());
        for (final int pes : new int[] {2, 3, 4, 8}) {
            final Sod.Result r = sod(pes, 1, 120, Map.of());
            assertArrayEquals(one.rho(), r.rho(), 0.0, "density on " + pes + " PEs");
            assertArrayEquals(one.u(), r.u(), 0.0, "velocity on " + pes + " PEs");
            assertArrayEquals(one.p(), r.p(), 0.0, "pressure on " + pes + " PEs");
            assertEquals(one.cycles(), r.cycles());
        }
        final Sod.Result lossy = sod(4, 1, 120, Map.of("fabric.faults.seed", "7", "fabric.faults.drop", "0.02",
            "fabric.faults.corrupt", "0.005", "fabric.faults.duplicate", "0.005"));
        assertArrayEquals(one.rho(), lossy.rho(), 0.0, "density over a lossy fabric");
        assertArrayEquals(one.p(), lossy.p(), 0.0, "pressure over a lossy fabric");
    }

    /**
     * A plane problem on a 2-D or 3-D grid is the 1-D one: the transverse sweeps move nothing. Not bitwise: the
     * transverse sweep divides a face momentum by the same face density it was made from, which can round.
     */
    @Test
    void shouldReproduceTheOneDimensionalRunInTwoAndThreeDimensions() {
        final Sod.Result one = sod(1, 1, 60, Map.of());
        for (final int dims : new int[] {2, 3}) {
            final Sod.Result r = sod(4, dims, 60, Map.of());
            assertEquals(one.cycles(), r.cycles());
            assertArrayEquals(one.rho(), r.rho(), 1e-12, dims + "-D density");
            assertArrayEquals(one.u(), r.u(), 1e-12, dims + "-D velocity");
            assertArrayEquals(one.p(), r.p(), 1e-12, dims + "-D pressure");
        }
    }

    /** A 2-D and a 3-D flow (a blob in a box) are bitwise the same on 1 and 4 PEs. */
    @Test
    void shouldGiveBitwiseTheSameMultiDimensionalFieldsOnAnyNumberOfPes() {
        for (final int dims : new int[] {2, 3}) {
            final double[] one = blob(1, dims, Boundary.REFLECT);
            assertArrayEquals(one, blob(4, dims, Boundary.REFLECT), 0.0, dims + "-D, 4 PEs");
            assertArrayEquals(one, blob(3, dims, Boundary.REFLECT), 0.0, dims + "-D, 3 PEs");
        }
    }

    /** Every field of a blob run, read back whole by PE 0. */
    static double[] blob(final int pes, final int dims, final Boundary b) {
        final HydroConfig cfg = HydroConfig.cube(dims, dims == 3 ? 9 : 16, 1.4, b);
        return HydroRun.run(pes, Map.of(), HydroRun.Spec.toTime(cfg, x -> blobState(x, b), null, 0.15), null)
            .fields();
    }

    /**
     * An off-centre overpressured blob (with a drift when periodic): waves reach every face. StrictMath: Math.exp
     * may differ in the last bit between the interpreter and compiled code, so PEs that compile it at different
     * moments would start from different states.
     */
    static double[] blobState(final double[] x, final Boundary b) {
        final int dims = x.length;
        double r2 = 0;
        for (final double xi : x) {
            r2 += (xi - 0.4) * (xi - 0.4);
        }
        final double[] c = new double[dims + 2];
        c[0] = 1 + 0.5 * StrictMath.exp(-40 * r2);
        c[1] = b == Boundary.PERIODIC ? 0.3 : 0;
        c[dims + 1] = 0.1 + 2 * StrictMath.exp(-60 * r2);
        return c;
    }

    @Test
    void shouldConserveMassMomentumAndEnergyInAPeriodicOrWalledBox() {
        for (final Boundary b : new Boundary[] {Boundary.PERIODIC, Boundary.REFLECT}) {
            for (final int dims : new int[] {1, 2, 3}) {
                final HydroConfig cfg = HydroConfig.cube(dims, dims == 3 ? 12 : 24, 1.4, b);
                final HydroRun.Snapshot s = HydroRun.run(3, Map.of(), HydroRun.Spec.toTime(cfg,
                    x -> blobState(x, b), null, 0.3), null);
                final double[][] totals = {s.before(), s.after()};
                final String what = dims + "-D " + b;
                assertEquals(totals[0][0], totals[1][0], 1e-13 * totals[0][0], what + " mass");
                if (b == Boundary.PERIODIC) {
                    assertEquals(totals[0][1], totals[1][1], 1e-12 * Math.abs(totals[0][1]), what + " momentum");
                }
            }
        }
    }
}
