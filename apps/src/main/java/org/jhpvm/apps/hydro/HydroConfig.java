package org.jhpvm.apps.hydro;

import java.util.Arrays;

/**
 * A hydro problem's grid, gas and boundaries: {@code dims} Cartesian dimensions of {@code zones[d]} uniform zones on
 * {@code [lo[d], hi[d]]}, ideal gas {@code gamma}, Courant number {@code cfl} (ZEUS: 0.5), artificial viscosity
 * constant {@code qcon} (ZEUS: 2, a shock over about three zones), and a boundary type per face.
 *
 * @param dims   1, 2 or 3
 * @param zones  zones per dimension
 * @param lo     lower domain edges
 * @param hi     upper domain edges
 * @param gamma  ratio of specific heats
 * @param cfl    Courant number
 * @param qcon   artificial viscosity constant
 * @param lower  boundary of each dimension's lower face
 * @param upper  boundary of each dimension's upper face
 * @param energy the energy the solver evolves
 */
public record HydroConfig(int dims, int[] zones, double[] lo, double[] hi, double gamma, double cfl, double qcon,
                          Boundary[] lower, Boundary[] upper, EnergyScheme energy) {
    /** Checks the configuration. */
    public HydroConfig {
        if (dims < 1 || dims > 3) {
            throw new IllegalArgumentException("--dims " + dims + ": 1, 2 or 3");
        }
        for (int d = 0; d < dims; d++) {
            if (zones[d] < ZeusSolver.GHOST) {
                throw new IllegalArgumentException("--zones " + zones[d] + ": at least " + ZeusSolver.GHOST);
            }
            if (!(hi[d] > lo[d])) {
                throw new IllegalArgumentException("empty domain in dimension " + d);
            }
            if ((lower[d] == Boundary.PERIODIC) != (upper[d] == Boundary.PERIODIC)) {
                throw new IllegalArgumentException("dimension " + d + ": periodic on one face only");
            }
        }
        if (!(gamma > 1) || !(cfl > 0 && cfl < 1) || !(qcon >= 0)) {
            throw new IllegalArgumentException("need gamma > 1, 0 < cfl < 1, qcon >= 0");
        }
        java.util.Objects.requireNonNull(energy, "energy");
    }

    /**
     * A configuration whose solver evolves the internal energy, as ZEUS does by default.
     *
     * @param dims  1, 2 or 3
     * @param zones zones per dimension
     * @param lo    lower domain edges
     * @param hi    upper domain edges
     * @param gamma ratio of specific heats
     * @param cfl   Courant number
     * @param qcon  artificial viscosity constant
     * @param lower boundary of each dimension's lower face
     * @param upper boundary of each dimension's upper face
     */
    public HydroConfig(final int dims, final int[] zones, final double[] lo, final double[] hi, final double gamma,
        final double cfl, final double qcon, final Boundary[] lower, final Boundary[] upper) {
        this(dims, zones, lo, hi, gamma, cfl, qcon, lower, upper, EnergyScheme.INTERNAL);
    }

    /**
     * The same grid, gas and boundaries with another energy scheme.
     *
     * @param scheme the energy the solver evolves
     * @return the configuration
     */
    public HydroConfig withEnergy(final EnergyScheme scheme) {
        return new HydroConfig(dims, zones, lo, hi, gamma, cfl, qcon, lower, upper, scheme);
    }

    /**
     * The same boundary on every face, {@code n} zones per dimension on the unit cube.
     *
     * @param dims  dimensions
     * @param n     zones per dimension
     * @param gamma ratio of specific heats
     * @param b     boundary of every face
     * @return the configuration
     */
    public static HydroConfig cube(final int dims, final int n, final double gamma, final Boundary b) {
        final int[] z = new int[dims];
        final double[] lo = new double[dims];
        final double[] hi = new double[dims];
        final Boundary[] bs = new Boundary[dims];
        Arrays.fill(z, n);
        Arrays.fill(hi, 1.0);
        Arrays.fill(bs, b);
        return new HydroConfig(dims, z, lo, hi, gamma, 0.5, 2.0, bs, bs.clone());
    }

    /**
     * The size of one zone, the same for every zone of the uniform grid: the weight of each zone in totals and L1
     * errors.
     *
     * @return the volume (area, length) of one zone
     */
    public double zoneVolume() {
        double v = 1;
        for (int d = 0; d < dims; d++) {
            v *= dx(d);
        }
        return v;
    }

    /**
     * The width of every zone along one dimension: the domain's extent over its zone count.
     *
     * @param d the dimension, 0 to {@code dims - 1}
     * @return zone width in dimension d
     */
    public double dx(final int d) {
        return (hi[d] - lo[d]) / zones[d];
    }
}
