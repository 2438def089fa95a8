package org.jhpvm.apps.hydro;

import static org.jhpvm.apps.hydro.ZeusSolver.D;
import static org.jhpvm.apps.hydro.ZeusSolver.E;
import static org.jhpvm.apps.hydro.ZeusSolver.V;

/**
 * The ZEUS source step's kernels, the Courant step's rate and the totals on a grid whose first dimension is not
 * uniform Cartesian ({@link RadialGrid}: ratioed zones, cylindrical or spherical radius), in 1-D or 2-D with a uniform
 * second coordinate ({@link TransverseGrid}: the z of cylindrical (r, z), the polar angle of spherical (r, theta)),
 * in the form of ZEUS-2D's metric terms: forces as a difference times the face's area over the mass of the face's
 * cell, divergences as the difference of area times velocity over the zone's volume, lengths along the second
 * coordinate its difference times ZEUS's g2 (the radius of a spherical grid); on a spherical (r, theta) grid the
 * polar velocity's centrifugal force pushes the radial one. {@link RadialTransport} is the transport step on the same
 * grids. On a uniform Cartesian grid everything reduces to {@link SourceStep}, {@link TransportStep} and
 * {@link CourantTimestep}, which keep their own loops.
 */
final class RadialStep extends SourceKernels {
    private static final int G = ZeusSolver.GHOST;
    /** The radius's widths, areas and volumes. */
    final RadialGrid g;
    /** The second coordinate's metric (2-D), or null. */
    final TransverseGrid tg;
    /** The slot of the radius (2 in 1-D, 1 in 2-D), its stride, and whether there is a second coordinate. */
    private final int rs;
    private final int or;
    private final boolean twoD;
    /** Spherical (r, theta): the polar velocity's centrifugal force on the radial one. */
    private final boolean polar;
    private final double[] q;

    /**
     * @param block this PE's block (1-D, or 2-D with the radius first)
     * @param q     scratch of one field's size, rewritten before it is read
     */
    RadialStep(final ZeusBlock block, final double[] q) {
        super(block);
        this.g = new RadialGrid(cfg);
        this.twoD = dims == 2;
        this.tg = twoD ? new TransverseGrid(cfg) : null;
        this.rs = 3 - dims;
        this.or = st[rs];
        this.polar = twoD && cfg.geometry() == Geometry.SPHERICAL;
        this.q = q;
    }

    // ---------------------------------------------------------------- the Courant step and the source step

    /**
     * ZEUS's Courant rate of the block's zones: the largest sum of inverse squares of the sound, flow and viscous
     * crossing times, each over the zone's own widths (along the second coordinate g2 times its difference).
     *
     * @return the block's largest rate (0 for an empty block)
     */
    double courantRate() {
        double worst = 0;
        final double qcon = cfg.qcon();
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            final double w = g.dxa[i];
            final double hw = twoD ? g.g2[i] * tg.dw : w;
            final double dmin = Math.min(w, hw);
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double cs2 = gamma * (gamma - 1) * pressureEnergy(a[E * sF + z]) / a[D * sF + z];
                final double vc = 0.5 * (a[V * sF + z] + a[V * sF + z + or]) / w;
                double sum = cs2 / (dmin * dmin) + vc * vc;
                double visc = Math.max(0, a[V * sF + z] - a[V * sF + z + or]) / w;
                if (twoD) {
                    final int vz = (V + 1) * sF + z;
                    final double wc = 0.5 * (a[vz] + a[vz + 1]) / hw;
                    sum += wc * wc;
                    visc = Math.max(visc, Math.max(0, a[vz] - a[vz + 1]) / hw);
                }
                final double qq = 4 * qcon * visc;
                worst = Math.max(worst, sum + qq * qq);
            }
        }
        return worst;
    }

    /**
     * The pressure force on the cell of each face: the pressure difference times the face's area over the cell's
     * mass (ZEUS's gradient over the centres' distance on a uniform Cartesian grid; on a curvilinear one it makes the
     * work of the force exactly what {@link #heating} takes from the internal energy, summed by parts, which the
     * gradient alone misses near the origin). On a spherical (r, theta) grid the centrifugal force first.
     */
    @Override
    public void pressure(final double dt) {
        if (polar) {
            centrifugal(dt);
        }
        final double c = dt * (gamma - 1);
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            final double cr = c / g.g2[i];
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                if (!wall(0, rs, r)) {
                    final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
                    final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - or]);
                    a[V * sF + z] -= c * de * g.area[i] / (g.volb[i] * dFace);
                }
                if (twoD && !wall(1, 2, k)) {
                    final int j = k + G;
                    final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                    final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - 1]);
                    a[(V + 1) * sF + z] -= cr * de * tg.sa[j] / (tg.vtb[j] * dFace);
                }
            }
        }
    }

    /**
     * Spherical (r, theta): the centrifugal force {@code v_theta^2 / r} on each radial face, from the mean of the
     * four polar velocities around it (ZEUS's pseudo-force; the polar velocity's loss as the gas moves out is the
     * transport of its angular momentum). It reads only polar velocities, which it does not change.
     */
    private void centrifugal(final double dt) {
        final int vb = (V + 1) * sF;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            if (wall(0, rs, r) || g.xa[i] == 0) {
                continue;
            }
            final double c = dt / g.xa[i];
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double w = 0.25 * (a[vb + z] + a[vb + z + 1] + a[vb + z - or] + a[vb + z - or + 1]);
                a[V * sF + z] += c * w * w;
            }
        }
    }

    /**
     * Von Neumann-Richtmyer viscosity per direction, q = qcon d (dv)^2 where the flow converges, acting as a
     * pressure: its force as {@link #pressure}'s, its heating {@code -q div v} with the divergence as
     * {@link #heating} makes it (ZEUS's {@code -q dv/dx} is the same on a Cartesian grid and creates energy near a
     * curvilinear origin: a fifth of a spherical blast's). Under the total-energy scheme only the velocities move.
     */
    @Override
    public void viscosity(final double dt) {
        final double qcon = cfg.qcon();
        // Along the radius.
        for (int r = lo[rs] - 1; r <= hi[rs]; r++) {
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double dv = Math.min(0, a[V * sF + z + or] - a[V * sF + z]);
                q[z] = qcon * a[D * sF + z] * dv * dv;
            }
        }
        if (!total) {
            for (int r = lo[rs]; r <= hi[rs]; r++) {
                final int i = r + G;
                int z = rowStart(r, 0);
                for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                    a[E * sF + z] -= dt * q[z]
                        * (g.area[i + 1] * a[V * sF + z + or] - g.area[i] * a[V * sF + z]) / g.vol[i];
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                if (!wall(0, rs, r)) {
                    final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
                    a[V * sF + z] -= dt * (q[z] - q[z - or]) * g.area[i] / (g.volb[i] * dFace);
                }
            }
        }
        if (!twoD) {
            return;
        }
        // Along the second coordinate: q from the velocity difference, its heating q times that coordinate's part of
        // the divergence, its force as the pressure's.
        final int vb = (V + 1) * sF;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(0); k++, z++) {
                final double dv = Math.min(0, a[vb + z + 1] - a[vb + z]);
                q[z] = qcon * a[D * sF + z] * dv * dv;
            }
        }
        if (!total) {
            for (int r = lo[rs]; r <= hi[rs]; r++) {
                final double c = dt / g.g2[r + G];
                int z = rowStart(r, 0);
                for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                    final int j = k + G;
                    a[E * sF + z] -= c * q[z] * (tg.sa[j + 1] * a[vb + z + 1] - tg.sa[j] * a[vb + z]) / tg.vt[j];
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                if (!wall(1, 2, k)) {
                    final int j = k + G;
                    final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                    a[vb + z] -= c * (q[z] - q[z - 1]) * tg.sa[j] / (tg.vtb[j] * dFace);
                }
            }
        }
    }

    /** The divergence of the velocity in zone z (indices i, j): area times velocity over volume along each. */
    private double divergence(final int z, final int i, final int j) {
        double div = (g.area[i + 1] * a[V * sF + z + or] - g.area[i] * a[V * sF + z]) / g.vol[i];
        if (twoD) {
            final int vz = (V + 1) * sF + z;
            div += (tg.sa[j + 1] * a[vz + 1] - tg.sa[j] * a[vz]) / (g.g2[i] * tg.vt[j]);
        }
        return div;
    }

    /** Compressional heating, implicit and time-centred. */
    @Override
    public void heating(final double dt) {
        final double h = 0.5 * dt * (gamma - 1);
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double c = h * divergence(z, i, k + G);
                a[E * sF + z] *= (1 - c) / (1 + c);
            }
        }
    }

    /**
     * The block's share of the conserved totals (ghosts refreshed): mass, momentum of the face-centred cells per
     * direction, and internal plus kinetic energy, each weighted by the real volumes (a face's kinetic energy over
     * its cell: near the origin the zones' volumes differ too much for a half of it to each).
     *
     * @param t receives {@code {mass, momentum..., energy}}, added to
     */
    void totals(final double[] t) {
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final int j = k + G;
                final double share = twoD ? tg.vt[j] * tg.norm : 1;
                final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - or]) * a[V * sF + z] * g.volb[i] * share;
                t[0] += a[D * sF + z] * g.vol[i] * share;
                t[1] += mom;
                double energy = a[E * sF + z] * g.vol[i] * share + 0.5 * mom * a[V * sF + z];
                if (twoD) {
                    final double momZ = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]) * a[(V + 1) * sF + z] * g.vol[i]
                        * tg.vtb[j] * tg.norm;
                    t[2] += momZ;
                    energy += 0.5 * momZ * a[(V + 1) * sF + z];
                }
                t[dims + 1] += energy;
            }
        }
    }

    // ---------------------------------------------------------------- the total-energy scheme

    /**
     * The kinetic energy per unit volume of zone z (indices i, j) from the velocities in {@code v} (offset vb of the
     * radial field, the second one {@code sF} after it): each face's kinetic energy, its cell's mass at its velocity,
     * shared between its two zones in proportion to the part of the cell in each. Summed over the zones that is the
     * kinetic energy {@link #totals} reports.
     */
    private double kineticZone(final double[] v, final int vb, final int z, final int i, final int j) {
        final double rl = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
        final double rr = 0.5 * (a[D * sF + z] + a[D * sF + z + or]);
        final double vl = v[vb + z];
        final double vr = v[vb + z + or];
        double ke = 0.5 * (rl * vl * vl * g.vup[i] + rr * vr * vr * g.vdn[i]) / g.vol[i];
        if (twoD) {
            final double zl = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
            final double zr = 0.5 * (a[D * sF + z] + a[D * sF + z + 1]);
            final double wl = v[vb + sF + z];
            final double wr = v[vb + sF + z + 1];
            ke += 0.5 * (zl * wl * wl * tg.vup[j] + zr * wr * wr * tg.vdn[j]) / tg.vt[j];
        }
        return ke;
    }

    /**
     * The value at radial face i of a zone quantity for the work flux through it: weighted so that each zone's
     * internal energy changes by exactly {@code -p div v} (the zone below gets the weight of the face cell's part in
     * the zone above, and the other way round; on a uniform grid, the mean).
     */
    private double atFace(final double below, final double above, final int i) {
        return (g.vdn[i - 1] * above + g.vup[i] * below) / g.volb[i];
    }

    /** As {@link #atFace} at face j of the second coordinate. */
    private double atFaceT(final double below, final double above, final int j) {
        return (tg.vdn[j - 1] * above + tg.vup[j] * below) / tg.vtb[j];
    }

    /**
     * As {@link SourceStep#pressureWork}: the energy of the block's zones becomes their total, internal plus kinetic
     * energy before {@link #pressure}, less dt times the divergence of the pressure's work through the faces (area
     * times face pressure times time-centred velocity).
     *
     * @param dt the time step
     */
    @Override
    public void pressureWork(final double dt) {
        final double c = dt * (gamma - 1);
        final double[] w = vOld;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double e = a[E * sF + z];
                final double p0 = pressureEnergy(e);
                final double pm = pressureEnergy(a[E * sF + z - or]);
                final double pp = pressureEnergy(a[E * sF + z + or]);
                final double vl = 0.5 * (w[z] + a[V * sF + z]);
                final double vr = 0.5 * (w[z + or] + a[V * sF + z + or]);
                double div = (g.area[i + 1] * atFace(p0, pp, i + 1) * vr - g.area[i] * atFace(pm, p0, i) * vl)
                    / g.vol[i];
                if (twoD) {
                    final int vz = (V + 1) * sF + z;
                    final double wl = 0.5 * (w[sF + z] + a[vz]);
                    final double wr = 0.5 * (w[sF + z + 1] + a[vz + 1]);
                    final double ql = pressureEnergy(a[E * sF + z - 1]);
                    final double qr = pressureEnergy(a[E * sF + z + 1]);
                    final int j = k + G;
                    div += (tg.sa[j + 1] * atFaceT(p0, qr, j + 1) * wr - tg.sa[j] * atFaceT(ql, p0, j) * wl)
                        / (g.g2[i] * tg.vt[j]);
                }
                q[z] = e + kineticZone(w, 0, z, i, k + G) - c * div; // neighbours still read e: commit below
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                a[E * sF + z] = q[z];
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
        final double qcon = cfg.qcon();
        final double[] w = vOld;
        for (int r = lo[rs] - 1; r <= hi[rs] + 1; r++) {
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double dv = Math.min(0, w[z + or] - w[z]);
                q[z] = qcon * a[D * sF + z] * dv * dv;
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double vl = 0.5 * (w[z] + a[V * sF + z]);
                final double vr = 0.5 * (w[z + or] + a[V * sF + z + or]);
                final double div = g.area[i + 1] * atFace(q[z], q[z + or], i + 1) * vr
                    - g.area[i] * atFace(q[z - or], q[z], i) * vl;
                a[E * sF + z] -= dt * div / g.vol[i];
            }
        }
        if (!twoD) {
            return;
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(1); k++, z++) {
                final double dv = Math.min(0, w[sF + z + 1] - w[sF + z]);
                q[z] = qcon * a[D * sF + z] * dv * dv;
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final int j = k + G;
                final int vz = (V + 1) * sF + z;
                final double wl = 0.5 * (w[sF + z] + a[vz]);
                final double wr = 0.5 * (w[sF + z + 1] + a[vz + 1]);
                a[E * sF + z] -= c * (tg.sa[j + 1] * atFaceT(q[z], q[z + 1], j + 1) * wr
                    - tg.sa[j] * atFaceT(q[z - 1], q[z], j) * wl) / tg.vt[j];
            }
        }
    }

    /**
     * As {@link SourceStep#internalFromTotal}: the internal energy of the block's zones is the total less the
     * kinetic energy, a debt where that is negative.
     */
    @Override
    public void internalFromTotal() {
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                a[E * sF + z] -= kineticZone(a, V * sF, z, i, k + G);
            }
        }
    }
}
