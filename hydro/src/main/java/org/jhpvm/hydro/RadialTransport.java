package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * ZEUS's transport step along the radius on the grids of {@link RadialStep} (a ratioed or curvilinear radius, and in
 * 2-D and 3-D uniform further coordinates with their metric, {@link TransverseGrid}), as {@link TransportStep} does
 * it on a uniform Cartesian grid: consistent advection, where mass fluxes from van Leer-interpolated densities carry
 * the specific energy and the momenta. Fluxes go through faces weighted by their areas and change a zone by their
 * difference over its volume, so that mass is conserved to round-off; van Leer slopes are per unit length over the
 * zones' real widths. Along the radius the other velocities travel as angular momenta (g2 and g31 times them).
 * {@link AngularTransport} sweeps the other coordinates with the same scratch arrays.
 */
final class RadialTransport extends ZeusBlock {
    private static final int G = ZeusSolver.GHOST;
    /** {@link #upwindZone}'s quantities: a field, the specific energy, g2 or g31 times a field. */
    private static final int FIELD = 0;
    private static final int SPECIFIC = 1;
    private static final int ANGULAR2 = 2;
    private static final int ANGULAR3 = 3;
    private static final int SPECIFIC_DUAL = 4;
    private final RadialGrid g;
    /** The slot of the radius (2 in 1-D, 1 in 2-D, 0 in 3-D), its stride, the second coordinate's stride. */
    private final int rs;
    private final int or;
    private final int os;
    private final boolean second;
    private final boolean third;
    private final double[] q;
    /** Scratch of one field's size each, which {@link AngularTransport} shares: mass and other fluxes, new d and e. */
    final double[] mf;
    final double[] dNew;
    final double[] eNew;
    final double[] flux;
    /** Under the total-energy scheme the dual-energy field's fluxes and new values, else null. */
    final double[] dualFlux;
    final double[] xNew;

    /**
     * @param source the source step's kernels on the same block, whose grids this shares
     * @param q      scratch of one field's size, rewritten before it is read
     */
    RadialTransport(final RadialStep source, final double[] q) {
        super(source);
        this.g = source.g;
        this.rs = source.rs;
        this.or = source.or;
        this.os = source.os;
        this.second = source.second;
        this.third = source.third;
        this.q = q;
        this.mf = new double[sF];
        this.dNew = new double[sF];
        this.eNew = new double[sF];
        this.flux = new double[sF];
        this.dualFlux = total ? new double[sF] : null;
        this.xNew = total ? new double[sF] : null;
    }

    /**
     * The upwind value at radial face i (zone offset z) of a zone-centred quantity ({@link #FIELD} at offset b,
     * {@link #SPECIFIC} energy, {@link #SPECIFIC_DUAL} dual energy, or {@link #ANGULAR2} and {@link #ANGULAR3} momentum per unit mass of the field at b),
     * moved from the upwind zone's centre to the face less the distance the flow travels.
     */
    private double upwindZone(final int b, final int kind, final int z, final int i, final double vel,
        final double dt) {
        final int c = vel > 0 ? z - or : z;
        final int gc = vel > 0 ? i - 1 : i;
        final double vm = value(b, kind, c - or, gc - 1);
        final double v0 = value(b, kind, c, gc);
        final double vp = value(b, kind, c + or, gc + 1);
        final double sl = TransportStep.slope((v0 - vm) / g.dxb[gc], (vp - v0) / g.dxb[gc + 1]);
        return vel > 0 ? v0 + 0.5 * (g.dxa[gc] - vel * dt) * sl : v0 - 0.5 * (g.dxa[gc] + vel * dt) * sl;
    }

    /** The quantity of {@link #upwindZone} in zone offset z, radial index i. */
    private double value(final int b, final int kind, final int z, final int i) {
        return switch (kind) {
            case SPECIFIC -> a[E * sF + z] / a[D * sF + z];
            case SPECIFIC_DUAL -> a[xb + z] / a[D * sF + z];
            case ANGULAR2 -> a[b + z] * g.g2[i];
            case ANGULAR3 -> a[b + z] * g.g31[i];
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
        final double sl = TransportStep.slope((a[b + c] - a[b + c - or]) / g.dxa[gc - 1],
            (a[b + c + or] - a[b + c]) / g.dxa[gc]);
        return vc > 0 ? a[b + c] + 0.5 * (g.dxb[gc] - vc * dt) * sl : a[b + c] - 0.5 * (g.dxb[gc] + vc * dt) * sl;
    }

    /**
     * The transport step along the radius: mass and energy fluxes through each face times its area, the new density
     * and energy from their difference over the zone's volume, then the other momenta across the radius as angular
     * momenta, then the radial momentum of the face-centred cells (centre to centre) with fluxes at the zone centres,
     * then the commit.
     *
     * @param dt the time step
     */
    void sweep(final double dt) {
        for (int r = lo[rs] - 1; r <= hi[rs] + 1; r++) {
            final int i = r + G;
            for (int m = mFirst(1); m <= mLast(0); m++) {
                int z = start(r, m, 1, 1);
                for (int k = kFirst(1, 1); k <= kLast(0, 0); k++, z++) {
                    final double vel = a[V * sF + z];
                    final double mass = upwindZone(D * sF, FIELD, z, i, vel, dt) * vel * g.area[i];
                    mf[z] = mass;
                    flux[z] = upwindZone(0, SPECIFIC, z, i, vel, dt) * mass;
                    if (total) {
                        dualFlux[z] = upwindZone(0, SPECIFIC_DUAL, z, i, vel, dt) * mass;
                    }
                }
            }
        }
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final double c = dt / g.vol[r + G];
            for (int m = mFirst(1); m <= mLast(0); m++) {
                int z = start(r, m, 1, 1);
                for (int k = kFirst(1, 1); k <= kLast(0, 0); k++, z++) {
                    dNew[z] = a[D * sF + z] - c * (mf[z + or] - mf[z]);
                    eNew[z] = a[E * sF + z] - c * (flux[z + or] - flux[z]);
                    if (total) {
                        xNew[z] = a[xb + z] - c * (dualFlux[z + or] - dualFlux[z]);
                    }
                }
            }
        }
        if (second) {
            across(1, os, ANGULAR2, dt);
        }
        if (third) {
            across(2, 1, ANGULAR3, dt);
        }
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double vc = 0.5 * (a[V * sF + z] + a[V * sF + z + or]);
                    q[z] = upwindFace(z, i, vc, dt) * 0.5 * (mf[z] + mf[z + or]);
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            if (wall(0, rs, r)) {
                continue;
            }
            final double vb = g.volb[i];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - or]) * a[V * sF + z] * vb
                        - dt * (q[z] - q[z - or]);
                    a[V * sF + z] = mom / (0.5 * (dNew[z] + dNew[z - or]) * vb);
                }
            }
        }
        commit();
    }

    /** Commits the new density and energy (and dual energy) of the block's zones (every sweep's last step). */
    void commit() {
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    a[D * sF + z] = dNew[z];
                    a[E * sF + z] = eNew[z];
                    if (total) {
                        a[xb + z] = xNew[z];
                    }
                }
            }
        }
    }

    /**
     * The momentum of direction {@code dir} (the second or third coordinate, stride {@code o}) across the radius, on
     * that direction's faces: through the radial faces of its cell with the mass flux averaged over the two zones
     * sharing its face, carrying the upwind angular momentum (g2 or g31 times the velocity: on curvilinear grids
     * {@code r v_theta}, {@code r v_phi}; their losses as the gas moves out are the pseudo-forces'); the radial
     * factor of its cell's volume is the zone's.
     */
    private void across(final int dir, final int o, final int kind, final double dt) {
        final int wb = (V + dir) * sF;
        final double[] h = kind == ANGULAR2 ? g.g2 : g.g31;
        for (int r = lo[rs]; r <= hi[rs] + 1; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double mass = 0.5 * (mf[z] + mf[z - o]);
                    final double vel = 0.5 * (a[V * sF + z] + a[V * sF + z - o]);
                    flux[z] = upwindZone(wb, kind, z, i, vel, dt) * mass;
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            final double v = g.vol[i] * h[i];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    if (!wall(dir, dir == 2 ? 2 : rs + 1, dir == 2 ? k : third ? m : k)) {
                        final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - o]);
                        final double mom = dOld * a[wb + z] * v - dt * (flux[z + or] - flux[z]);
                        a[wb + z] = mom / (0.5 * (dNew[z] + dNew[z - o]) * v);
                    }
                }
            }
        }
    }
}
