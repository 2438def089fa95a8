package org.jhpvm.hydro;

import java.util.Arrays;

/**
 * A hydro problem's grid, gas and boundaries: {@code dims} dimensions of {@code zones[d]} zones on
 * {@code [lo[d], hi[d]]} (uniform Cartesian ones, or ratioed zones along the first and curvilinear coordinates), ideal
 * gas {@code gamma}, Courant number {@code cfl} (ZEUS: 0.5), artificial viscosity constant {@code qcon} (ZEUS: 2, a
 * shock over about three zones), a boundary type per face, and the energy the solver evolves.
 *
 * @param dims     1, 2 or 3
 * @param zones    zones per dimension
 * @param lo       lower domain edges
 * @param hi       upper domain edges
 * @param gamma    ratio of specific heats
 * @param cfl      Courant number
 * @param qcon     artificial viscosity constant
 * @param lower    boundary of each dimension's lower face
 * @param upper    boundary of each dimension's upper face
 * @param energy   the energy the solver evolves
 * @param geometry the coordinates (the first one is the radius of a curvilinear grid)
 * @param ratio    the width of each zone of the first dimension over the one before it (1: uniform)
 */
public record HydroConfig(int dims, int[] zones, double[] lo, double[] hi, double gamma, double cfl, double qcon,
                          Boundary[] lower, Boundary[] upper, EnergyScheme energy, Geometry geometry, double ratio) {
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
        java.util.Objects.requireNonNull(geometry, "geometry");
        if (!(ratio > 0 && Double.isFinite(ratio))) {
            throw new IllegalArgumentException("--ratio " + ratio + ": a finite number > 0");
        }
        if (geometry != Geometry.CARTESIAN) {
            if (lower[0] == Boundary.PERIODIC) {
                throw new IllegalArgumentException("--geometry " + geometry.key() + ": the radius cannot be periodic");
            }
            if (!(lo[0] >= 0)) {
                throw new IllegalArgumentException("--geometry " + geometry.key() + ": the radius starts at "
                    + lo[0] + ", below 0");
            }
            if (geometry == Geometry.SPHERICAL && dims >= 2) {
                checkPolarAngle(lo[1], hi[1], lower[1], upper[1]);
            }
            if (dims == 3 && hi[2] - lo[2] > 2 * Math.PI * (1 + 1e-12)) {
                throw new IllegalArgumentException("--geometry " + geometry.key() + ": phi runs from " + lo[2]
                    + " to " + hi[2] + ", more than a turn");
            }
        }
    }

    /** Refuses a polar angle outside [0, pi], a periodic one, and an axis that is not a wall. */
    private static void checkPolarAngle(final double lo, final double hi, final Boundary lower, final Boundary upper) {
        if (!(lo >= 0 && hi <= Math.PI)) {
            throw new IllegalArgumentException("--geometry spherical: theta runs from " + lo + " to " + hi
                + ", outside [0, pi]");
        }
        if (lower == Boundary.PERIODIC) {
            throw new IllegalArgumentException("--geometry spherical: theta cannot be periodic");
        }
        if (lo == 0 && lower != Boundary.REFLECT || hi == Math.PI && upper != Boundary.REFLECT) {
            throw new IllegalArgumentException("--geometry spherical: the axis (theta = 0 or pi) is a reflecting "
                + "boundary");
        }
    }

    /**
     * A configuration of the given energy scheme on a uniform Cartesian grid.
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
    public HydroConfig(final int dims, final int[] zones, final double[] lo, final double[] hi, final double gamma,
        final double cfl, final double qcon, final Boundary[] lower, final Boundary[] upper,
        final EnergyScheme energy) {
        this(dims, zones, lo, hi, gamma, cfl, qcon, lower, upper, energy, Geometry.CARTESIAN, 1);
    }

    /**
     * The number of fields the solver keeps per zone: density, energy and one velocity per dimension, and under the
     * total-energy scheme the dual-energy field after them ({@link ZeusSolver#dualEnergyField}).
     *
     * @return {@code 2 + dims}, or {@code 3 + dims} with {@link EnergyScheme#TOTAL}
     */
    public int fields() {
        return 2 + dims + (energy == EnergyScheme.TOTAL ? 1 : 0);
    }

    /**
     * Whether the grid is Cartesian with zones of one width per dimension: the solver's own kernels; any other grid
     * (ratioed or curvilinear along the first dimension) runs on {@link RadialGrid}'s widths, areas and
     * volumes.
     *
     * @return whether the grid is uniform and Cartesian
     */
    public boolean uniform() {
        return geometry == Geometry.CARTESIAN && ratio == 1;
    }

    /**
     * The same problem on other coordinates or zone widths.
     *
     * @param g the coordinates
     * @param q the ratio of neighbouring zone widths along the first dimension
     * @return the configuration
     */
    public HydroConfig withGeometry(final Geometry g, final double q) {
        return new HydroConfig(dims, zones, lo, hi, gamma, cfl, qcon, lower, upper, energy, g, q);
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
        this(dims, zones, lo, hi, gamma, cfl, qcon, lower, upper, EnergyScheme.INTERNAL, Geometry.CARTESIAN, 1);
    }

    /**
     * The same grid, gas and boundaries with another energy scheme.
     *
     * @param scheme the energy the solver evolves
     * @return the configuration
     */
    public HydroConfig withEnergy(final EnergyScheme scheme) {
        return new HydroConfig(dims, zones, lo, hi, gamma, cfl, qcon, lower, upper, scheme, geometry, ratio);
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
     * The size of one zone of a uniform Cartesian grid, the same for every zone: the weight of each zone in totals
     * and L1 errors ({@link #zoneVolume(int)} for any grid).
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

    /**
     * The centre of zone {@code i} along dimension {@code d}, as the solver places it: on a uniform Cartesian
     * dimension {@code lo + (i + 0.5) dx}, otherwise the middle of the zone's two faces ({@link RadialGrid}).
     *
     * @param d the dimension
     * @param i the zone's index along it, 0 to {@code zones[d] - 1}
     * @return the coordinate of its centre
     */
    public double centre(final int d, final int i) {
        if (d > 0 || uniform()) {
            return lo[d] + (i + 0.5) * dx(d);
        }
        return 0.5 * (face(i) + face(i + 1));
    }

    /**
     * The position of face {@code i} (0 to {@code zones[0]}) of the first dimension, the lower face of zone i.
     *
     * @param i the face
     * @return its coordinate
     */
    public double face(final int i) {
        return RadialGrid.face(lo[0], hi[0], ratio, zones[0], i);
    }

    /**
     * The distance from the origin of a point given in the grid's coordinates: the radius of a spherical grid, the
     * Euclidean distance of the others over (r, z) of a cylindrical grid, whose azimuth does not move a point away.
     *
     * @param x a point, one coordinate per dimension
     * @return its distance from the origin
     */
    public double distance(final double[] x) {
        if (geometry == Geometry.SPHERICAL) {
            return Math.abs(x[0]);
        }
        double r2 = 0;
        for (int d = 0; d < (geometry == Geometry.CYLINDRICAL ? Math.min(dims, 2) : dims); d++) {
            r2 += x[d] * x[d];
        }
        return Math.sqrt(r2);
    }

    /**
     * The size of a zone: its volume on a curvilinear grid (the whole ring of a cylindrical one, per unit length in
     * 1-D; the whole shell of a spherical one, and its part between two polar angles in 2-D; in 3-D the part between
     * two azimuths), its length, area or volume on a Cartesian one.
     *
     * @param zone row-major zone number
     * @return the zone's volume
     */
    public double zoneVolume(final int zone) {
        if (uniform()) {
            return zoneVolume();
        }
        int rest = 1;
        for (int d = 1; d < dims; d++) {
            rest *= zones[d];
        }
        final int i = zone / rest; // the first dimension's index of the row-major zone
        double v = geometry.volume(face(i), face(i + 1));
        if (dims >= 2 && geometry == Geometry.SPHERICAL) {
            final int j = zone / (rest / zones[1]) % zones[1];
            final double t1 = j + 1 == zones[1] ? hi[1] : lo[1] + (j + 1) * dx(1);
            v *= 0.5 * Math.abs(StrictMath.cos(lo[1] + j * dx(1)) - StrictMath.cos(t1));
        } else if (dims >= 2) {
            v *= dx(1);
        }
        if (dims == 3) {
            v *= geometry == Geometry.CARTESIAN ? dx(2) : dx(2) / (2 * Math.PI); // phi's share of the turn
        }
        return v;
    }
}
