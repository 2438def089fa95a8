package org.jhpvm.hydro;

/**
 * The second coordinate of a 2-D or 3-D grid whose first is a radius or ratioed ({@link RadialGrid}): the polar angle
 * theta of a spherical (r, theta[, phi]) grid, or the z of a cylindrical (r, z[, phi]) or the y of a ratioed
 * Cartesian one. Its zones are uniform;
 * what this holds is ZEUS's metric along it, as factors that multiply the radial grid's: a zone's volume is
 * {@code RadialGrid.vol[i] * vt[j] * norm}, the area of its lower face along this coordinate
 * {@code RadialGrid.vol[i] / RadialGrid.g2[i] * sa[j] * norm}, and a length along it {@code g2[i]} times the
 * coordinate's difference. Every array covers the ghost zones, at index {@code j + GHOST} for zone or face
 * {@code j}, and is computed with {@code StrictMath} from the configuration alone: the same bits on every PE.
 * <p>
 * Spherical: {@code sa = |sin theta|} at the faces (0 on the axis), {@code vt = |cos theta_j - cos theta_(j+1)|},
 * {@code norm = 1/2} (the sine's integral over the sphere is 2). Ghost zones beyond the axis or the equator mirror
 * the zones inside it, as the absolute values make them. Flat (z): {@code sa = 1}, {@code vt = dz}, {@code norm = 1}.
 */
final class TransverseGrid {
    private static final int G = ZeusSolver.GHOST;
    /** The zones' width in the coordinate (radians, or a length). */
    final double dw;
    /** Face area factors, faces -G .. n + G. */
    final double[] sa;
    /** Zone volume factors. */
    final double[] vt;
    /** The lower half of each zone, from its lower face to its centre: the part of that face's cell in the zone. */
    final double[] vup;
    /** The upper half of each zone, from its centre to its upper face. */
    final double[] vdn;
    /** Volume factors of the cells centred on the faces, half of each zone beside the face (0 for the first). */
    final double[] vtb;
    /** The factor of every volume and area: 1/2 for theta, 1 for z. */
    final double norm;
    /**
     * ZEUS's g32 of each zone, the factor of a length along the third coordinate (phi): the zone's volume factor over
     * its width ({@code |delta cos theta| / delta theta}, its mean sine), or 1 for z.
     */
    final double[] g32;
    /**
     * At each face, ZEUS's {@code (dg32/dtheta) / g32}: {@code cot theta} (0 on the axis and for z), the factor of
     * the centrifugal force of the azimuthal velocity on the polar one.
     */
    final double[] cot;

    /**
     * @param cfg a 2-D or 3-D configuration whose first dimension is not uniform Cartesian
     */
    TransverseGrid(final HydroConfig cfg) {
        final int n = cfg.zones()[1];
        final double lo = cfg.lo()[1];
        final double hi = cfg.hi()[1];
        final boolean polar = cfg.geometry() == Geometry.SPHERICAL;
        dw = cfg.dx(1);
        norm = polar ? 0.5 : 1;
        final int zones = n + 2 * G;
        sa = new double[zones + 1];
        vt = new double[zones];
        vup = new double[zones];
        vdn = new double[zones];
        vtb = new double[zones];
        g32 = new double[zones];
        cot = new double[zones + 1];
        final double[] ta = new double[zones + 1];
        for (int j = 0; j <= zones; j++) {
            // The faces as the solver places the zones; the last face is the domain's end exactly.
            ta[j] = j - G < n ? lo + (j - G) * dw : hi + (j - G - n) * dw;
        }
        for (int j = 0; j <= zones; j++) {
            final double t = ta[j];
            // The axis itself (0 or pi) has no area; pi's sine is not 0 in floating point.
            sa[j] = !polar ? 1 : t == 0 || t == Math.PI ? 0 : Math.abs(StrictMath.sin(t));
            cot[j] = sa[j] == 0 || !polar ? 0 : StrictMath.cos(t) / StrictMath.sin(t);
        }
        for (int j = 0; j < zones; j++) {
            final double t0 = ta[j];
            final double t1 = ta[j + 1];
            final double tc = lo + (j - G + 0.5) * dw;
            vt[j] = polar ? Math.abs(StrictMath.cos(t0) - StrictMath.cos(t1)) : dw;
            vup[j] = polar ? Math.abs(StrictMath.cos(t0) - StrictMath.cos(tc)) : 0.5 * dw;
            vdn[j] = polar ? Math.abs(StrictMath.cos(tc) - StrictMath.cos(t1)) : 0.5 * dw;
            g32[j] = polar ? vt[j] / dw : 1;
        }
        for (int j = 1; j < zones; j++) {
            vtb[j] = vdn[j - 1] + vup[j];
        }
    }

    /**
     * The volume factor of zone {@code j} (0 .. n - 1) with {@link #norm}: the zone's volume over the radial zone's.
     *
     * @param j the zone
     * @return its share
     */
    double share(final int j) {
        return vt[j + G] * norm;
    }
}
