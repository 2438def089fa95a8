package org.jhpvm.hydro;

/**
 * The zones of a 1-D grid that is not uniform Cartesian: ratioed widths ({@code --ratio}: each zone {@code ratio}
 * times as wide as the one before) and curvilinear areas and volumes ({@link Geometry}). Every array covers the
 * ghost zones too, at index {@code i + GHOST} for zone or face {@code i}; every PE computes them the same way from
 * the configuration alone, so they are the same bits everywhere.
 * <p>
 * Ghost zones beyond a wall mirror the zones inside it (widths, areas and volumes), beyond a periodic face they
 * repeat the other end's widths, and beyond an outflow or inflow face they carry the ratio on.
 */
final class RadialGrid {
    private static final int G = ZeusSolver.GHOST;
    /** Face positions, zones -G .. n + G - 1 (one more face than zones). */
    final double[] xa;
    /** Zone centres: the middle of the zone's two faces. */
    final double[] xb;
    /** Zone widths, xa[i + 1] - xa[i]. */
    final double[] dxa;
    /** Distances between the centres on either side of face i, xb[i] - xb[i - 1] (0 for the first ghost). */
    final double[] dxb;
    /** Face areas. */
    final double[] area;
    /** Zone volumes. */
    final double[] vol;
    /** Volumes of the cells centred on the faces, from the centre below to the centre above (0 for the first). */
    final double[] volb;
    /**
     * ZEUS's metric factor g2 of each zone: a length along the second coordinate over that coordinate's difference.
     * Spherical: the zone's volume over the integral of r dr across it (its radius, as the angular faces' areas and
     * the volume agree); otherwise 1.
     */
    final double[] g2;
    /**
     * ZEUS's metric factor g31 of each zone: with {@link TransverseGrid#g32} the factor of a length along the third
     * coordinate (phi) over its difference. Cylindrical: the zone's volume over its width (the mean radius, as the
     * phi faces' areas and the volume agree); spherical: {@link #g2}; Cartesian: 1.
     */
    final double[] g31;
    /** The lower half of each zone, from its lower face to its centre: the part of that face's cell in the zone. */
    final double[] vup;
    /** The upper half of each zone, from its centre to its upper face: the part of that face's cell in the zone. */
    final double[] vdn;

    /**
     * @param cfg a 1-D configuration
     */
    RadialGrid(final HydroConfig cfg) {
        final int n = cfg.zones()[0];
        final double lo = cfg.lo()[0];
        final double hi = cfg.hi()[0];
        final double q = cfg.ratio();
        final Geometry geo = cfg.geometry();
        xa = new double[n + 2 * G + 1];
        for (int i = 0; i <= n; i++) {
            xa[i + G] = face(lo, hi, q, n, i);
        }
        for (int g = 1; g <= G; g++) {
            xa[G - g] = switch (cfg.lower()[0]) {
                case REFLECT -> 2 * xa[G] - xa[G + g];
                case PERIODIC -> xa[G] - (xa[G + n] - xa[G + n - g]);
                default -> xa[G - g + 1] - (xa[G + 1] - xa[G]) / StrictMath.pow(q, g);
            };
            xa[G + n + g] = switch (cfg.upper()[0]) {
                case REFLECT -> 2 * xa[G + n] - xa[G + n - g];
                case PERIODIC -> xa[G + n] + (xa[G + g] - xa[G]);
                default -> xa[G + n + g - 1] + (xa[G + n] - xa[G + n - 1]) * StrictMath.pow(q, g);
            };
        }
        final int zones = n + 2 * G;
        xb = new double[zones];
        dxa = new double[zones];
        dxb = new double[zones];
        vol = new double[zones];
        volb = new double[zones];
        vup = new double[zones];
        vdn = new double[zones];
        g2 = new double[zones];
        g31 = new double[zones];
        area = new double[zones + 1];
        for (int i = 0; i < zones; i++) {
            xb[i] = q == 1 && geo == Geometry.CARTESIAN ? lo + (i - G + 0.5) * ((hi - lo) / n)
                : 0.5 * (xa[i] + xa[i + 1]);
            dxa[i] = xa[i + 1] - xa[i];
            vol[i] = geo.volume(xa[i], xa[i + 1]);
            vup[i] = geo.volume(xa[i], xb[i]);
            vdn[i] = geo.volume(xb[i], xa[i + 1]);
            final double a = xa[i];
            final double b = xa[i + 1];
            g2[i] = geo == Geometry.SPHERICAL
                ? vol[i] / (2 * Math.PI * Math.abs(b * Math.abs(b) - a * Math.abs(a))) : 1;
            g31[i] = switch (geo) {
                case CARTESIAN -> 1;
                case CYLINDRICAL -> vol[i] / (2 * Math.PI * dxa[i]);
                case SPHERICAL -> g2[i];
            };
        }
        for (int i = 0; i <= zones; i++) {
            area[i] = geo.area(xa[i]);
        }
        for (int i = 1; i < zones; i++) {
            dxb[i] = xb[i] - xb[i - 1];
            volb[i] = geo.volume(xb[i - 1], xb[i]);
        }
    }

    /**
     * The position of face {@code i} of {@code n} between {@code lo} and {@code hi} (faces 0 and n are the ends
     * exactly), each zone {@code q} times as wide as the one before.
     */
    static double face(final double lo, final double hi, final double q, final int n, final int i) {
        if (i == n) {
            return hi;
        }
        if (q == 1) {
            return lo + i * ((hi - lo) / n);
        }
        return lo + (hi - lo) * ((StrictMath.pow(q, i) - 1) / (StrictMath.pow(q, n) - 1));
    }

    /**
     * The centre of zone {@code i} (0 .. n - 1) as the solver places it.
     *
     * @param i the zone
     * @return its centre
     */
    double centre(final int i) {
        return xb[i + G];
    }

    /**
     * The volume of zone {@code i} (0 .. n - 1).
     *
     * @param i the zone
     * @return its volume (area, length)
     */
    double volume(final int i) {
        return vol[i + G];
    }
}
