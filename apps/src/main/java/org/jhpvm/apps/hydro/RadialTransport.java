package org.jhpvm.apps.hydro;

import static org.jhpvm.apps.hydro.ZeusSolver.D;
import static org.jhpvm.apps.hydro.ZeusSolver.E;
import static org.jhpvm.apps.hydro.ZeusSolver.V;

/**
 * ZEUS's transport step on the grids of {@link RadialStep} (a ratioed or curvilinear radius, and in 2-D a uniform
 * second coordinate with its metric, {@link TransverseGrid}), one directional sweep at a time as
 * {@link TransportStep} does it on a uniform Cartesian grid: consistent advection, where mass fluxes from van
 * Leer-interpolated densities carry the specific energy and the momenta. Fluxes go through faces weighted by their
 * areas and change a zone by their difference over its volume, so that mass is conserved to round-off; van Leer
 * slopes are per unit length over the zones' real widths. Along the radius the second velocity travels as angular
 * momentum (g2 times it).
 */
final class RadialTransport extends ZeusBlock {
    private static final int G = ZeusSolver.GHOST;
    /** {@link #upwindZone}'s quantities: a field, the specific energy, g2 times a field. */
    private static final int FIELD = 0;
    private static final int SPECIFIC = 1;
    private static final int ANGULAR = 2;
    private final RadialGrid g;
    private final TransverseGrid tg;
    /** The uniform second coordinate's van Leer interpolation. */
    private final TransportStep uniform;
    /** The slot of the radius (2 in 1-D, 1 in 2-D), its stride, and whether there is a second coordinate. */
    private final int rs;
    private final int or;
    private final boolean twoD;
    /** Spherical (r, theta): a length along theta at a radial face is its radius times the angle. */
    private final boolean polar;
    private final double[] q;
    private final double[] mf;
    private final double[] dNew;
    private final double[] eNew;
    private final double[] flux;

    /**
     * @param source  the source step's kernels on the same block, whose grids this shares
     * @param uniform the uniform Cartesian transport step of the same block, whose interpolation the second
     *                coordinate uses
     * @param q       scratch of one field's size, rewritten before it is read
     */
    RadialTransport(final RadialStep source, final TransportStep uniform, final double[] q) {
        super(source);
        this.g = source.g;
        this.tg = source.tg;
        this.uniform = uniform;
        this.twoD = dims == 2;
        this.rs = 3 - dims;
        this.or = st[rs];
        this.polar = twoD && cfg.geometry() == Geometry.SPHERICAL;
        this.q = q;
        this.mf = new double[sF];
        this.dNew = new double[sF];
        this.eNew = new double[sF];
        this.flux = new double[sF];
    }

    /** The van Leer slope per unit length from the two one-sided slopes. */
    private static double slope(final double left, final double right) {
        final double p = left * right;
        return p > 0 ? 2 * p / (left + right) : 0;
    }

    /**
     * The upwind value at radial face i (zone offset z) of a zone-centred quantity ({@link #FIELD} at offset b,
     * {@link #SPECIFIC} energy, or {@link #ANGULAR} momentum per unit mass of the field at b), moved from the upwind
     * zone's centre to the face less the distance the flow travels.
     */
    private double upwindZone(final int b, final int kind, final int z, final int i, final double vel,
        final double dt) {
        final int c = vel > 0 ? z - or : z;
        final int gc = vel > 0 ? i - 1 : i;
        final double vm = value(b, kind, c - or, gc - 1);
        final double v0 = value(b, kind, c, gc);
        final double vp = value(b, kind, c + or, gc + 1);
        final double sl = slope((v0 - vm) / g.dxb[gc], (vp - v0) / g.dxb[gc + 1]);
        return vel > 0 ? v0 + 0.5 * (g.dxa[gc] - vel * dt) * sl : v0 - 0.5 * (g.dxa[gc] + vel * dt) * sl;
    }

    /** The quantity of {@link #upwindZone} in zone offset z, radial index i. */
    private double value(final int b, final int kind, final int z, final int i) {
        return switch (kind) {
            case SPECIFIC -> a[E * sF + z] / a[D * sF + z];
            case ANGULAR -> a[b + z] * g.g2[i];
            default -> a[b + z];
        };
    }

    /**
     * The upwind radial velocity at the centre of zone z (between faces i and i + 1), for a flow {@code vc}: the
     * cells of the face-centred velocity reach from centre to centre, and their centres are a zone's width apart.
     */
    private double upwindFace(final int z, final int i, final double vc, final double dt) {
        final int c = vc > 0 ? z : z + or;
        final int gc = vc > 0 ? i : i + 1;
        final int b = V * sF;
        final double sl = slope((a[b + c] - a[b + c - or]) / g.dxa[gc - 1],
            (a[b + c + or] - a[b + c]) / g.dxa[gc]);
        return vc > 0 ? a[b + c] + 0.5 * (g.dxb[gc] - vc * dt) * sl : a[b + c] - 0.5 * (g.dxb[gc] + vc * dt) * sl;
    }

    /**
     * The transport step along the radius: mass and energy fluxes through each face times its area, the new density
     * and energy from their difference over the zone's volume, then (2-D) the z-momentum across the radius, then the
     * radial momentum of the face-centred cells (centre to centre) with fluxes at the zone centres, then the commit.
     *
     * @param dt the time step
     */
    void sweep(final double dt) {
        for (int r = lo[rs] - 1; r <= hi[rs] + 1; r++) {
            final int i = r + G;
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(0); k++, z++) {
                final double vel = a[V * sF + z];
                final double m = upwindZone(D * sF, FIELD, z, i, vel, dt) * vel * g.area[i];
                mf[z] = m;
                flux[z] = upwindZone(0, SPECIFIC, z, i, vel, dt) * m;
            }
        }
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(0); k++, z++) {
                final double c = dt / g.vol[i];
                dNew[z] = a[D * sF + z] - c * (mf[z + or] - mf[z]);
                eNew[z] = a[E * sF + z] - c * (flux[z + or] - flux[z]);
            }
        }
        if (twoD) {
            // The second momentum, on the second coordinate's faces: through the radial faces of its cell with the
            // mass flux averaged over the two zones sharing its face, carrying the upwind angular momentum g2 times
            // the velocity (on a spherical grid r v_theta: its loss as the gas moves out is the polar velocity's
            // pseudo-force); the radial factor of its cell's volume is the zone's.
            final int wb = (V + 1) * sF;
            for (int r = lo[rs]; r <= hi[rs] + 1; r++) {
                final int i = r + G;
                int z = rowStart(r, 0);
                for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                    final double m = 0.5 * (mf[z] + mf[z - 1]);
                    final double vel = 0.5 * (a[V * sF + z] + a[V * sF + z - 1]);
                    flux[z] = upwindZone(wb, ANGULAR, z, i, vel, dt) * m;
                }
            }
            for (int r = lo[rs]; r <= hi[rs]; r++) {
                final int i = r + G;
                int z = rowStart(r, 0);
                for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                    if (!wall(1, 2, k)) {
                        final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                        final double mom = dOld * a[wb + z] * g.g2[i] * g.vol[i] - dt * (flux[z + or] - flux[z]);
                        a[wb + z] = mom / (0.5 * (dNew[z] + dNew[z - 1]) * g.vol[i] * g.g2[i]);
                    }
                }
            }
        }
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double vc = 0.5 * (a[V * sF + z] + a[V * sF + z + or]);
                q[z] = upwindFace(z, i, vc, dt) * 0.5 * (mf[z] + mf[z + or]);
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                if (!wall(0, rs, r)) {
                    final double vb = g.volb[i];
                    final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - or]) * a[V * sF + z] * vb
                        - dt * (q[z] - q[z - or]);
                    a[V * sF + z] = mom / (0.5 * (dNew[z] + dNew[z - or]) * vb);
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                a[D * sF + z] = dNew[z];
                a[E * sF + z] = eNew[z];
            }
        }
    }

    /**
     * The transport step along the second coordinate (2-D): mass and energy fluxes through each face times its area
     * factor, the new density and energy from their difference over the zone's volume factor and g2, then the radial
     * momentum across it (its cell's length along the coordinate at the face's radius), then the second momentum
     * along its own coordinate with fluxes at the zone centres, then the commit. The interpolation is
     * {@link TransportStep}'s, in the coordinate with the distance travelled divided by g2.
     *
     * @param dt the time step
     */
    void sweepSecond(final double dt) {
        final int vb = (V + 1) * sF;
        // 1. Fluxes through the lower face of each zone, rows from one below the block, faces to one above it.
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final int i = r + G;
            final double dtdx = dt / (g.g2[i] * tg.dw);
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(1); k++, z++) {
                final double vel = a[vb + z];
                final double m = uniform.upwind(D * sF, z, 1, vel, dtdx) * vel * tg.sa[k + G];
                mf[z] = m;
                flux[z] = uniform.upwindSpecific(z, 1, vel, dtdx) * m;
            }
        }
        // 2. New density and energy on the zones, and on one zone below in both directions (for the momenta).
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(0); k++, z++) {
                final double cv = c / tg.vt[k + G];
                dNew[z] = a[D * sF + z] - cv * (mf[z + 1] - mf[z]);
                eNew[z] = a[E * sF + z] - cv * (flux[z + 1] - flux[z]);
            }
        }
        // 3. The radial momentum across the coordinate, on the radial faces: the mass flux averaged over the two
        //    zones sharing the face carries the upwind radial velocity.
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double hf = polar ? g.xa[r + G] : 1;
            final double dtdx = hf > 0 ? dt / (hf * tg.dw) : 0;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(1); k++, z++) {
                final double m = 0.5 * (mf[z] + mf[z - or]);
                final double vel = 0.5 * (a[vb + z] + a[vb + z - or]);
                flux[z] = uniform.upwind(V * sF, z, 1, vel, dtdx) * m;
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double hf = polar ? g.xa[r + G] : 1;
            if (wall(0, rs, r) || hf == 0) {
                continue;
            }
            final double c = dt / hf;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
                final double mom = dOld * a[V * sF + z] - c * (flux[z + 1] - flux[z]) / tg.vt[k + G];
                a[V * sF + z] = mom / (0.5 * (dNew[z] + dNew[z - or]));
            }
        }
        // 4. The second momentum along its coordinate, centred on its faces: fluxes at the zone centres.
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double dtdx = dt / (g.g2[r + G] * tg.dw);
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(0); k++, z++) {
                final double mc = 0.5 * (mf[z] + mf[z + 1]);
                final double vc = 0.5 * (a[vb + z] + a[vb + z + 1]);
                q[z] = uniform.upwind(vb, z + 1, 1, vc, dtdx) * mc;
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                if (wall(1, 2, k)) {
                    continue;
                }
                final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]) * a[vb + z]
                    - c * (q[z] - q[z - 1]) / tg.vtb[k + G];
                a[vb + z] = mom / (0.5 * (dNew[z] + dNew[z - 1]));
            }
        }
        // 5. Commit density and energy.
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                a[D * sF + z] = dNew[z];
                a[E * sF + z] = eNew[z];
            }
        }
    }
}
