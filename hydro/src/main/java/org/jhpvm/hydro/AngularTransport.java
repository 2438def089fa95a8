package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * ZEUS's transport step along the uniform coordinates of the grids of {@link RadialStep}: the second (z, or the polar
 * angle theta, with the face areas and volumes of {@link TransverseGrid}) and the third (the azimuth phi, or z of a
 * ratioed Cartesian grid, whose faces' areas do not vary). Each sweep moves mass and energy through faces times their
 * area factors, the new density and energy by their difference over the zone's volume factor and the length factor
 * (g2 for the second, g31 g32 for the third), the other momenta across it, then its own momentum with fluxes at the
 * zone centres, then commits. The interpolation is {@link TransportStep}'s, in the coordinate, with the distance
 * travelled divided by the length factor; the azimuthal momentum crosses the polar angle as angular momentum
 * ({@code g32 v_phi}). The scratch arrays are {@link RadialTransport}'s.
 */
final class AngularTransport extends ZeusBlock {
    private static final int G = ZeusSolver.GHOST;
    private final RadialGrid g;
    private final TransverseGrid tg;
    private final TransportStep uniform;
    private final RadialStep source;
    private final RadialTransport radial;
    private final int rs;
    private final int or;
    private final int os;
    private final boolean third;
    private final boolean polar;
    private final boolean curved;
    private final double dp;
    private final double[] q;
    private final double[] mf;
    private final double[] dNew;
    private final double[] eNew;
    private final double[] flux;
    private final double[] dualFlux;
    private final double[] xNew;

    /**
     * @param source  the source step's kernels on the same block, whose grids this shares
     * @param radial  the transport along the radius, whose scratch this shares
     * @param uniform the uniform Cartesian transport step of the same block, whose interpolation this uses
     * @param q       scratch of one field's size, rewritten before it is read
     */
    AngularTransport(final RadialStep source, final RadialTransport radial, final TransportStep uniform,
        final double[] q) {
        super(source);
        this.source = source;
        this.radial = radial;
        this.g = source.g;
        this.tg = source.tg;
        this.uniform = uniform;
        this.rs = source.rs;
        this.or = source.or;
        this.os = source.os;
        this.third = source.third;
        this.polar = source.polar;
        this.curved = cfg.geometry() != Geometry.CARTESIAN;
        this.dp = source.dp;
        this.q = q;
        this.mf = radial.mf;
        this.dNew = radial.dNew;
        this.eNew = radial.eNew;
        this.flux = radial.flux;
        this.dualFlux = radial.dualFlux;
        this.xNew = radial.xNew;
    }

    /**
     * As {@link TransportStep#upwind} for the field at b times {@code f[j]} (the second coordinate's factor of the
     * zone, j that of zone z): the upwind value of an angular momentum per unit mass along the second coordinate.
     */
    private double upwindTimes(final int b, final int z, final int j, final double vel, final double dtdx,
        final double[] f) {
        final double xi = vel * dtdx;
        final int c = vel > 0 ? z - os : z;
        final int jc = vel > 0 ? j - 1 : j;
        final double vm = a[b + c - os] * f[jc - 1];
        final double v0 = a[b + c] * f[jc];
        final double vp = a[b + c + os] * f[jc + 1];
        final double sl = TransportStep.slope(v0 - vm, vp - v0);
        return vel > 0 ? v0 + 0.5 * (1 - xi) * sl : v0 - 0.5 * (1 + xi) * sl;
    }

    /**
     * The transport step along the second coordinate (2-D and 3-D): the radial momentum across it (its cell's length
     * along the coordinate at the face's radius), the azimuthal one as angular momentum, then the second momentum.
     *
     * @param dt the time step
     */
    void sweepSecond(final double dt) {
        final int vb = (V + 1) * sF;
        // 1. Fluxes through the lower face of each zone: from one below the block in every direction, to one above
        //    it along this one.
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final int i = r + G;
            final double dtdx = dt / (g.g2[i] * tg.dw);
            for (int m = mFirst(1); m <= mLast(1); m++) {
                int z = start(r, m, 1, 1);
                for (int k = kFirst(1, 1); k <= kLast(1, 0); k++, z++) {
                    final double vel = a[vb + z];
                    final double mass = uniform.upwind(D * sF, z, os, vel, dtdx) * vel * tg.sa[source.jOf(m, k)];
                    mf[z] = mass;
                    flux[z] = uniform.upwindSpecific(E * sF, z, os, vel, dtdx) * mass;
                    if (total) {
                        dualFlux[z] = uniform.upwindSpecific(xb, z, os, vel, dtdx) * mass;
                    }
                }
            }
        }
        // 2. New density and energy on the zones, and on one zone below in every direction (for the momenta).
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            for (int m = mFirst(1); m <= mLast(0); m++) {
                int z = start(r, m, 1, 1);
                for (int k = kFirst(1, 1); k <= kLast(0, 0); k++, z++) {
                    final double cv = c / tg.vt[source.jOf(m, k)];
                    dNew[z] = a[D * sF + z] - cv * (mf[z + os] - mf[z]);
                    eNew[z] = a[E * sF + z] - cv * (flux[z + os] - flux[z]);
                    if (total) {
                        xNew[z] = a[xb + z] - cv * (dualFlux[z + os] - dualFlux[z]);
                    }
                }
            }
        }
        // 3. The radial momentum across the coordinate, on the radial faces: the mass flux averaged over the two
        //    zones sharing the face carries the upwind radial velocity.
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double hf = polar ? g.xa[r + G] : 1;
            final double dtdx = hf > 0 ? dt / (hf * tg.dw) : 0;
            for (int m = mFirst(0); m <= mLast(1); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(1, 0); k++, z++) {
                    final double mass = 0.5 * (mf[z] + mf[z - or]);
                    final double vel = 0.5 * (a[vb + z] + a[vb + z - or]);
                    flux[z] = uniform.upwind(V * sF, z, os, vel, dtdx) * mass;
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double hf = polar ? g.xa[r + G] : 1;
            if (wall(0, rs, r) || hf == 0) {
                continue;
            }
            final double c = dt / hf;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
                    final double mom = dOld * a[V * sF + z] - c * (flux[z + os] - flux[z]) / tg.vt[source.jOf(m, k)];
                    a[V * sF + z] = mom / (0.5 * (dNew[z] + dNew[z - or]));
                }
            }
        }
        if (third) {
            azimuthalAcrossTheta(dt);
        }
        // 4. The second momentum along its coordinate, centred on its faces: fluxes at the zone centres.
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double dtdx = dt / (g.g2[r + G] * tg.dw);
            for (int m = mFirst(1); m <= mLast(0); m++) {
                int z = start(r, m, 1, 0);
                for (int k = kFirst(1, 0); k <= kLast(0, 0); k++, z++) {
                    final double mc = 0.5 * (mf[z] + mf[z + os]);
                    final double vc = 0.5 * (a[vb + z] + a[vb + z + os]);
                    q[z] = uniform.upwind(vb, z + os, os, vc, dtdx) * mc;
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    if (wall(1, rs + 1, source.secondIndex(m, k))) {
                        continue;
                    }
                    final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - os]) * a[vb + z]
                        - c * (q[z] - q[z - os]) / tg.vtb[source.jOf(m, k)];
                    a[vb + z] = mom / (0.5 * (dNew[z] + dNew[z - os]));
                }
            }
        }
        radial.commit();
    }

    /**
     * 3-D: the third momentum across the second coordinate, on the third's faces: the mass flux averaged over the
     * two zones sharing the face carries the upwind angular momentum {@code g32 v_phi} (the polar velocity's
     * pseudo-force on the azimuthal one; g32 is 1 for z).
     */
    private void azimuthalAcrossTheta(final double dt) {
        final int vb = (V + 1) * sF;
        final int ub = (V + 2) * sF;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double dtdx = dt / (g.g2[r + G] * tg.dw);
            for (int m = mFirst(0); m <= mLast(1); m++) {
                final int j = m + G;
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double mass = 0.5 * (mf[z] + mf[z - 1]);
                    final double vel = 0.5 * (a[vb + z] + a[vb + z - 1]);
                    flux[z] = upwindTimes(ub, z, j, vel, dtdx, tg.g32) * mass;
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                final int j = m + G;
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    if (wall(2, 2, k)) {
                        continue;
                    }
                    final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                    final double mom = dOld * a[ub + z] * tg.g32[j] - c * (flux[z + os] - flux[z]) / tg.vt[j];
                    a[ub + z] = mom / (0.5 * (dNew[z] + dNew[z - 1]) * tg.g32[j]);
                }
            }
        }
    }

    /**
     * The transport step along the third coordinate (3-D), as on a Cartesian grid over the length g31 g32 dphi of
     * each zone (at the radial faces the face's radius, at the polar faces their sine), then the commit.
     *
     * @param dt the time step
     */
    void sweepThird(final double dt) {
        final int ub = (V + 2) * sF;
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(1); m <= mLast(0); m++) {
                final double dtdx = dt / (source.h3(i, m + G) * dp);
                int z = start(r, m, 0, 1);
                for (int k = kFirst(0, 1); k <= kLast(0, 1); k++, z++) {
                    final double vel = a[ub + z];
                    final double mass = uniform.upwind(D * sF, z, 1, vel, dtdx) * vel;
                    mf[z] = mass;
                    flux[z] = uniform.upwindSpecific(E * sF, z, 1, vel, dtdx) * mass;
                    if (total) {
                        dualFlux[z] = uniform.upwindSpecific(xb, z, 1, vel, dtdx) * mass;
                    }
                }
            }
        }
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(1); m <= mLast(0); m++) {
                final double c = dt / (source.h3(i, m + G) * dp);
                int z = start(r, m, 0, 1);
                for (int k = kFirst(0, 1); k <= kLast(0, 0); k++, z++) {
                    dNew[z] = a[D * sF + z] - c * (mf[z + 1] - mf[z]);
                    eNew[z] = a[E * sF + z] - c * (flux[z + 1] - flux[z]);
                    if (total) {
                        xNew[z] = a[xb + z] - c * (dualFlux[z + 1] - dualFlux[z]);
                    }
                }
            }
        }
        // The radial momentum across (its length at the face's radius) and the second (at the polar face's sine).
        for (int s = 0; s < 2; s++) {
            final int o = s == 0 ? or : os;
            final int vb = (V + s) * sF;
            for (int r = lo[rs]; r <= hi[rs]; r++) {
                final int i = r + G;
                for (int m = mFirst(0); m <= mLast(0); m++) {
                    final double hf = length(s, i, m + G);
                    final double dtdx = hf > 0 ? dt / (hf * dp) : 0;
                    int z = start(r, m, 0, 0);
                    for (int k = kFirst(0, 0); k <= kLast(0, 1); k++, z++) {
                        final double mass = 0.5 * (mf[z] + mf[z - o]);
                        final double vel = 0.5 * (a[ub + z] + a[ub + z - o]);
                        flux[z] = uniform.upwind(vb, z, 1, vel, dtdx) * mass;
                    }
                }
            }
            for (int r = lo[rs]; r <= hi[rs]; r++) {
                final int i = r + G;
                for (int m = mFirst(0); m <= mLast(0); m++) {
                    final double hf = length(s, i, m + G);
                    if (hf == 0 || (s == 0 ? wall(0, 0, r) : wall(1, 1, m))) {
                        continue;
                    }
                    final double c = dt / (hf * dp);
                    int z = start(r, m, 0, 0);
                    for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                        final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - o]);
                        final double mom = dOld * a[vb + z] - c * (flux[z + 1] - flux[z]);
                        a[vb + z] = mom / (0.5 * (dNew[z] + dNew[z - o]));
                    }
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                final double dtdx = dt / (source.h3(i, m + G) * dp);
                int z = start(r, m, 0, 1);
                for (int k = kFirst(0, 1); k <= kLast(0, 0); k++, z++) {
                    final double mc = 0.5 * (mf[z] + mf[z + 1]);
                    final double vc = 0.5 * (a[ub + z] + a[ub + z + 1]);
                    q[z] = uniform.upwind(ub, z + 1, 1, vc, dtdx) * mc;
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                final double c = dt / (source.h3(i, m + G) * dp);
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    if (wall(2, 2, k)) {
                        continue;
                    }
                    final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]) * a[ub + z] - c * (q[z] - q[z - 1]);
                    a[ub + z] = mom / (0.5 * (dNew[z] + dNew[z - 1]));
                }
            }
        }
        radial.commit();
    }

    /**
     * The length of a unit of the third coordinate at the radial face i (s = 0: the face's radius times g32 of the
     * zone, 1 on a Cartesian grid) or at the polar face j (s = 1: g31 of the zone times the face's sine, g31 for z).
     */
    private double length(final int s, final int i, final int j) {
        if (s == 0) {
            return (curved ? g.xa[i] : 1) * tg.g32[j];
        }
        return g.g31[i] * (polar ? tg.sa[j] : 1);
    }
}
