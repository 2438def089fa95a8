package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * What the source kernels of a grid that is not uniform Cartesian share ({@link RadialStep}): the grids
 * ({@link RadialGrid} along the radius, {@link TransverseGrid} along the second coordinate, the uniform third), the
 * strides, and the total-energy scheme's work terms and kinetic energy in that metric. Along the third coordinate
 * (phi, or z of a ratioed Cartesian grid) the faces' areas do not vary, so its forms are Cartesian over a length
 * ZEUS's {@code g31 g32} times the coordinate's width.
 */
abstract class RadialWork extends SourceKernels {
    static final int G = ZeusSolver.GHOST;
    /** The radius's widths, areas and volumes. */
    final RadialGrid g;
    /** The second coordinate's metric (2-D and 3-D), or null. */
    final TransverseGrid tg;
    /** The slot of the radius (2 in 1-D, 1 in 2-D, 0 in 3-D) and its stride. */
    final int rs;
    final int or;
    /** The second coordinate's stride (1 in 2-D, its slot's in 3-D). */
    final int os;
    final boolean second;
    final boolean third;
    /** The third coordinate's width, and its share of a zone's volume: {@code dphi / 2 pi}, or dz (Cartesian). */
    final double dp;
    final double tsh;
    /** Spherical with a polar angle: the polar velocity's centrifugal force. */
    final boolean polar;
    /** Curvilinear in 3-D: the azimuthal velocity's centrifugal forces. */
    final boolean turning;
    final double[] q;

    /**
     * @param block this PE's block, the radius first
     * @param q     scratch of one field's size, rewritten before it is read
     */
    RadialWork(final ZeusBlock block, final double[] q) {
        super(block);
        this.g = new RadialGrid(cfg);
        this.second = dims >= 2;
        this.third = dims == 3;
        this.tg = second ? new TransverseGrid(cfg) : null;
        this.rs = 3 - dims;
        this.or = st[rs];
        this.os = third ? st[1] : 1;
        this.dp = third ? cfg.dx(2) : 1;
        this.tsh = third ? (cfg.geometry() == Geometry.CARTESIAN ? dp : dp / (2 * Math.PI)) : 1;
        this.polar = second && cfg.geometry() == Geometry.SPHERICAL;
        this.turning = third && cfg.geometry() != Geometry.CARTESIAN;
        this.q = q;
    }

    /** The second coordinate's grid index of the zone at middle index m, inner index k. */
    final int jOf(final int m, final int k) {
        return third ? m + G : k + G;
    }

    /** The second coordinate's index (slot rs + 1) of the zone at middle index m, inner index k. */
    final int secondIndex(final int m, final int k) {
        return third ? m : k;
    }

    /** The length of a unit of the third coordinate in zone (i, j): ZEUS's g31 g32. */
    final double h3(final int i, final int j) {
        return g.g31[i] * tg.g32[j];
    }

    /**
     * Von Neumann-Richtmyer's {@code q = qcon d (dv)^2} where the velocity component {@code dir} (at offset vb of
     * {@code v}) converges along its own coordinate, into {@link #q}: for the block's zones and, along that
     * coordinate, {@code below} zones below and {@code above} above it.
     *
     * @param v     the array holding the velocities
     * @param vb    the component's offset in it
     * @param dir   0 the radius, 1 the second coordinate, 2 the third
     * @param below zones below the block along dir
     * @param above zones above the block along dir
     */
    final void viscousQ(final double[] v, final int vb, final int dir, final int below, final int above) {
        final double qcon = cfg.qcon();
        final int o = dir == 0 ? or : dir == 1 ? os : 1;
        final int rb = dir == 0 ? below : 0;
        final int sb = dir == 1 ? below : 0;
        final int tb = dir == 2 ? below : 0;
        for (int r = lo[rs] - rb; r <= hi[rs] + (dir == 0 ? above : 0); r++) {
            for (int m = mFirst(sb); m <= mLast(dir == 1 ? above : 0); m++) {
                int z = start(r, m, sb, tb);
                for (int k = kFirst(sb, tb); k <= kLast(dir == 1 ? above : 0, dir == 2 ? above : 0); k++, z++) {
                    final double dv = Math.min(0, v[vb + z + o] - v[vb + z]);
                    q[z] = qcon * a[D * sF + z] * dv * dv;
                }
            }
        }
    }

    /**
     * The kinetic energy per unit volume of zone z (indices i, j) from the velocities in {@code v} (offset vb of the
     * radial field, the others {@code sF} after each other): each face's kinetic energy, its cell's mass at its
     * velocity, shared between its two zones in proportion to the part of the cell in each (halves along the third
     * coordinate). Summed over the zones that is the kinetic energy {@link RadialStep#totals} reports.
     */
    final double kineticZone(final double[] v, final int vb, final int z, final int i, final int j) {
        final double rho = a[D * sF + z];
        final double rl = 0.5 * (rho + a[D * sF + z - or]);
        final double rr = 0.5 * (rho + a[D * sF + z + or]);
        final double vl = v[vb + z];
        final double vr = v[vb + z + or];
        double ke = 0.5 * (rl * vl * vl * g.vup[i] + rr * vr * vr * g.vdn[i]) / g.vol[i];
        if (second) {
            final double zl = 0.5 * (rho + a[D * sF + z - os]);
            final double zr = 0.5 * (rho + a[D * sF + z + os]);
            final double wl = v[vb + sF + z];
            final double wr = v[vb + sF + z + os];
            ke += 0.5 * (zl * wl * wl * tg.vup[j] + zr * wr * wr * tg.vdn[j]) / tg.vt[j];
        }
        if (third) {
            final double pl = 0.5 * (rho + a[D * sF + z - 1]);
            final double pr = 0.5 * (rho + a[D * sF + z + 1]);
            final double ul = v[vb + 2 * sF + z];
            final double ur = v[vb + 2 * sF + z + 1];
            ke += 0.25 * (pl * ul * ul + pr * ur * ur);
        }
        return ke;
    }

    /**
     * The value at radial face i of a zone quantity for the work flux through it: weighted so that each zone's
     * internal energy changes by exactly {@code -p div v} (the zone below gets the weight of the face cell's part in
     * the zone above, and the other way round; on a uniform grid, the mean).
     */
    final double atFace(final double below, final double above, final int i) {
        return (g.vdn[i - 1] * above + g.vup[i] * below) / g.volb[i];
    }

    /** As {@link #atFace} at face j of the second coordinate. */
    final double atFaceT(final double below, final double above, final int j) {
        return (tg.vdn[j - 1] * above + tg.vup[j] * below) / tg.vtb[j];
    }

    /**
     * As {@link SourceStep#pressureWork}: the energy of the block's zones becomes their total, internal plus kinetic
     * energy before {@link #pressure} plus the dual-energy field's remainder, less dt times the divergence of the
     * pressure's work through the faces (area times face pressure times time-centred velocity); the dual-energy field
     * takes the internal energy.
     *
     * @param dt the time step
     */
    @Override
    public void pressureWork(final double dt) {
        final double c = dt * (gamma - 1);
        final double[] w = vOld;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final int j = jOf(m, k);
                    final double e = a[E * sF + z];
                    final double p0 = pressureEnergy(e);
                    final double pm = pressureEnergy(a[E * sF + z - or]);
                    final double pp = pressureEnergy(a[E * sF + z + or]);
                    final double vl = 0.5 * (w[z] + a[V * sF + z]);
                    final double vr = 0.5 * (w[z + or] + a[V * sF + z + or]);
                    double div = (g.area[i + 1] * atFace(p0, pp, i + 1) * vr - g.area[i] * atFace(pm, p0, i) * vl)
                        / g.vol[i];
                    if (second) {
                        final int vz = (V + 1) * sF + z;
                        final double wl = 0.5 * (w[sF + z] + a[vz]);
                        final double wr = 0.5 * (w[sF + z + os] + a[vz + os]);
                        final double ql = pressureEnergy(a[E * sF + z - os]);
                        final double qr = pressureEnergy(a[E * sF + z + os]);
                        div += (tg.sa[j + 1] * atFaceT(p0, qr, j + 1) * wr - tg.sa[j] * atFaceT(ql, p0, j) * wl)
                            / (g.g2[i] * tg.vt[j]);
                    }
                    if (third) {
                        final int vp = (V + 2) * sF + z;
                        final double ul = 0.5 * (w[2 * sF + z] + a[vp]);
                        final double ur = 0.5 * (w[2 * sF + z + 1] + a[vp + 1]);
                        final double sl = pressureEnergy(a[E * sF + z - 1]);
                        final double sr = pressureEnergy(a[E * sF + z + 1]);
                        div += (0.5 * (p0 + sr) * ur - 0.5 * (sl + p0) * ul) / (h3(i, j) * dp);
                    }
                    q[z] = e + a[xb + z] + kineticZone(w, 0, z, i, j) - c * div; // neighbours still read e:
                    a[xb + z] = e;                                               // commit below
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    a[E * sF + z] = q[z];
                }
            }
        }
    }

    /**
     * As {@link SourceStep#viscousWork}: takes the viscous work through the faces out of the total energy, q made
     * per direction as {@link #viscosity} made it from the velocities {@link #saveVelocities} kept.
     *
     * @param dt the time step
     */
    @Override
    public void viscousWork(final double dt) {
        final double[] w = vOld;
        viscousQ(w, 0, 0, 1, 1);
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double vl = 0.5 * (w[z] + a[V * sF + z]);
                    final double vr = 0.5 * (w[z + or] + a[V * sF + z + or]);
                    final double div = g.area[i + 1] * atFace(q[z], q[z + or], i + 1) * vr
                        - g.area[i] * atFace(q[z - or], q[z], i) * vl;
                    a[E * sF + z] -= dt * div / g.vol[i];
                }
            }
        }
        if (second) {
            viscousQ(w, sF, 1, 1, 1);
            secondViscousWork(dt, w);
        }
        if (third) {
            viscousQ(w, 2 * sF, 2, 1, 1);
            thirdViscousWork(dt, w);
        }
    }

    private void secondViscousWork(final double dt, final double[] w) {
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final int j = jOf(m, k);
                    final int vz = (V + 1) * sF + z;
                    final double wl = 0.5 * (w[sF + z] + a[vz]);
                    final double wr = 0.5 * (w[sF + z + os] + a[vz + os]);
                    a[E * sF + z] -= c * (tg.sa[j + 1] * atFaceT(q[z], q[z + os], j + 1) * wr
                        - tg.sa[j] * atFaceT(q[z - os], q[z], j) * wl) / tg.vt[j];
                }
            }
        }
    }

    private void thirdViscousWork(final double dt, final double[] w) {
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final int vp = (V + 2) * sF + z;
                    final double ul = 0.5 * (w[2 * sF + z] + a[vp]);
                    final double ur = 0.5 * (w[2 * sF + z + 1] + a[vp + 1]);
                    a[E * sF + z] -= dt * (0.5 * (q[z] + q[z + 1]) * ur - 0.5 * (q[z - 1] + q[z]) * ul)
                        / (h3(i, jOf(m, k)) * dp);
                }
            }
        }
    }

    /**
     * As {@link SourceStep#internalFromTotal}: the internal energy of the block's zones, the total less the kinetic
     * energy or the separately evolved one ({@link #dualEnergy}).
     */
    @Override
    public void internalFromTotal() {
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    dualEnergy(z, kineticZone(a, V * sF, z, i, jOf(m, k)));
                }
            }
        }
    }
}
