package org.jhpvm.apps.hydro;

import static org.jhpvm.apps.hydro.ZeusSolver.D;
import static org.jhpvm.apps.hydro.ZeusSolver.E;
import static org.jhpvm.apps.hydro.ZeusSolver.V;

/**
 * The ZEUS cycle's kernels on a grid whose first dimension is not uniform Cartesian ({@link RadialGrid}: ratioed
 * zones, cylindrical or spherical radius), in 1-D or 2-D with a uniform second dimension (the z of cylindrical
 * (r, z)), in the form of ZEUS-2D's metric terms: along the radius, forces as a difference times the face's area over
 * the mass of the face's cell, divergences as the difference of area times velocity over the zone's volume,
 * transport fluxes through faces weighted by their areas, and van Leer interpolation with slopes per unit length over
 * the zones' real widths; along z the Cartesian forms (a z-face's area and a zone's volume share the radial factor,
 * which cancels). The transport along z is {@link TransportStep}'s own. On a uniform Cartesian grid everything
 * reduces to {@link SourceStep}, {@link TransportStep} and {@link CourantTimestep}, which keep their own loops.
 */
final class RadialStep extends SourceKernels {
    private static final int G = ZeusSolver.GHOST;
    private final RadialGrid g;
    /** The slot of the radius (2 in 1-D, 1 in 2-D), its stride, and whether there is a z (the last slot). */
    private final int rs;
    private final int or;
    private final boolean twoD;
    private final double[] q;
    private final double[] mf;
    private final double[] dNew;
    private final double[] eNew;
    private final double[] flux;

    /**
     * @param block this PE's block (1-D, or 2-D with the radius first)
     * @param q     scratch of one field's size, rewritten before it is read
     */
    RadialStep(final ZeusBlock block, final double[] q) {
        super(block);
        this.g = new RadialGrid(cfg);
        this.rs = 3 - dims;
        this.or = st[rs];
        this.twoD = dims == 2;
        this.q = q;
        this.mf = new double[sF];
        this.dNew = new double[sF];
        this.eNew = new double[sF];
        this.flux = new double[sF];
    }

    // ---------------------------------------------------------------- loops

    // Every kernel runs over the block's zones, extended by some zones below/above along the radius (r, the outer
    // loop) and along z (k, 2-D only; in 1-D the inner loop runs once): i is the radial grid index, z the offset.

    /** The offset of the first zone of radial row r, {@code zBelow} zones below the block along z (2-D). */
    private int rowStart(final int r, final int zBelow) {
        return twoD ? index(lo[0], r, lo[2] - zBelow) : index(lo[0], lo[1], r);
    }

    /** The first z index of a row, {@code zBelow} below the block (0 in 1-D). */
    private int kFirst(final int zBelow) {
        return twoD ? lo[2] - zBelow : 0;
    }

    /** The last z index of a row, {@code zAbove} above the block (0 in 1-D). */
    private int kLast(final int zAbove) {
        return twoD ? hi[2] + zAbove : 0;
    }

    // ---------------------------------------------------------------- the Courant step and the source step

    /**
     * ZEUS's Courant rate of the block's zones: the largest sum of inverse squares of the sound, flow and viscous
     * crossing times, each over the zone's own widths.
     *
     * @return the block's largest rate (0 for an empty block)
     */
    double courantRate() {
        double worst = 0;
        final double qcon = cfg.qcon();
        final double dz = dx[2];
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double w = g.dxa[i];
                final double dmin = twoD ? Math.min(w, dz) : w;
                final double cs2 = gamma * (gamma - 1) * pressureEnergy(a[E * sF + z]) / a[D * sF + z];
                final double vc = 0.5 * (a[V * sF + z] + a[V * sF + z + or]) / w;
                double sum = cs2 / (dmin * dmin) + vc * vc;
                double visc = Math.max(0, a[V * sF + z] - a[V * sF + z + or]) / w;
                if (twoD) {
                    final int vz = (V + 1) * sF + z;
                    final double wc = 0.5 * (a[vz] + a[vz + 1]) / dz;
                    sum += wc * wc;
                    visc = Math.max(visc, Math.max(0, a[vz] - a[vz + 1]) / dz);
                }
                final double qq = 4 * qcon * visc;
                worst = Math.max(worst, sum + qq * qq);
            }
        }
        return worst;
    }

    /**
     * The pressure force on the cell of each face: along the radius the pressure difference times the face's area
     * over the cell's mass (ZEUS's gradient over the centres' distance on a uniform Cartesian grid; on a curvilinear
     * one it makes the work of the force exactly what {@link #heating} takes from the internal energy, summed by
     * parts, which the gradient alone misses near the origin); along z the gradient.
     */
    @Override
    public void pressure(final double dt) {
        final double c = dt * (gamma - 1);
        final double cz = c / dx[2];
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                if (!wall(0, rs, r)) {
                    final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
                    final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - or]);
                    a[V * sF + z] -= c * de * g.area[i] / (g.volb[i] * dFace);
                }
                if (twoD && !wall(1, 2, k)) {
                    final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                    final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - 1]);
                    a[(V + 1) * sF + z] -= cz * de / dFace;
                }
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
        // Along z, as on a Cartesian grid.
        final int vb = (V + 1) * sF;
        final double dz = dx[2];
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(0); k++, z++) {
                final double dv = Math.min(0, a[vb + z + 1] - a[vb + z]);
                q[z] = qcon * a[D * sF + z] * dv * dv;
            }
        }
        if (!total) {
            for (int r = lo[rs]; r <= hi[rs]; r++) {
                int z = rowStart(r, 0);
                for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                    a[E * sF + z] -= dt * q[z] * (a[vb + z + 1] - a[vb + z]) / dz;
                }
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                if (!wall(1, 2, k)) {
                    final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                    a[vb + z] -= dt * (q[z] - q[z - 1]) / (dz * dFace);
                }
            }
        }
    }

    /** The divergence of the velocity in zone z (radial index i): area times velocity over volume, plus dv_z/dz. */
    private double divergence(final int z, final int i) {
        double div = (g.area[i + 1] * a[V * sF + z + or] - g.area[i] * a[V * sF + z]) / g.vol[i];
        if (twoD) {
            div += (a[(V + 1) * sF + z + 1] - a[(V + 1) * sF + z]) / dx[2];
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
                final double c = h * divergence(z, i);
                a[E * sF + z] *= (1 - c) / (1 + c);
            }
        }
    }

    // ---------------------------------------------------------------- the transport step along the radius

    /** The van Leer slope per unit length from the two one-sided slopes. */
    private static double slope(final double left, final double right) {
        final double p = left * right;
        return p > 0 ? 2 * p / (left + right) : 0;
    }

    /**
     * The upwind value at radial face i (zone offset z) of a zone-centred field (offset b, or the specific energy
     * when {@code specific}), moved from the upwind zone's centre to the face less the distance the flow travels.
     */
    private double upwindZone(final int b, final boolean specific, final int z, final int i, final double vel,
        final double dt) {
        final int c = vel > 0 ? z - or : z;
        final int gc = vel > 0 ? i - 1 : i;
        final double vm = value(b, specific, c - or);
        final double v0 = value(b, specific, c);
        final double vp = value(b, specific, c + or);
        final double sl = slope((v0 - vm) / g.dxb[gc], (vp - v0) / g.dxb[gc + 1]);
        return vel > 0 ? v0 + 0.5 * (g.dxa[gc] - vel * dt) * sl : v0 - 0.5 * (g.dxa[gc] + vel * dt) * sl;
    }

    private double value(final int b, final boolean specific, final int z) {
        return specific ? a[E * sF + z] / a[D * sF + z] : a[b + z];
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
                final double m = upwindZone(D * sF, false, z, i, vel, dt) * vel * g.area[i];
                mf[z] = m;
                flux[z] = upwindZone(0, true, z, i, vel, dt) * m;
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
            // The z-momentum, on the z-faces: through the radial faces of its cell with the mass flux averaged over
            // the two zones sharing the z-face, carrying the upwind z-velocity; its cell's volume is the zone's.
            final int wb = (V + 1) * sF;
            for (int r = lo[rs]; r <= hi[rs] + 1; r++) {
                final int i = r + G;
                int z = rowStart(r, 0);
                for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                    final double m = 0.5 * (mf[z] + mf[z - 1]);
                    final double vel = 0.5 * (a[V * sF + z] + a[V * sF + z - 1]);
                    flux[z] = upwindZone(wb, false, z, i, vel, dt) * m;
                }
            }
            for (int r = lo[rs]; r <= hi[rs]; r++) {
                final int i = r + G;
                int z = rowStart(r, 0);
                for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                    if (!wall(1, 2, k)) {
                        final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                        final double mom = dOld * a[wb + z] * g.vol[i] - dt * (flux[z + or] - flux[z]);
                        a[wb + z] = mom / (0.5 * (dNew[z] + dNew[z - 1]) * g.vol[i]);
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
     * The block's share of the conserved totals (ghosts refreshed): mass, momentum of the face-centred cells per
     * direction, and internal plus kinetic energy, each weighted by the real volumes (a face's kinetic energy over
     * its cell: near the origin the zones' volumes differ too much for a half of it to each).
     *
     * @param t receives {@code {mass, momentum..., energy}}, added to
     */
    void totals(final double[] t) {
        final double dz = twoD ? dx[2] : 1;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - or]) * a[V * sF + z] * g.volb[i] * dz;
                t[0] += a[D * sF + z] * g.vol[i] * dz;
                t[1] += mom;
                double energy = a[E * sF + z] * g.vol[i] * dz + 0.5 * mom * a[V * sF + z];
                if (twoD) {
                    final double momZ = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]) * a[(V + 1) * sF + z] * g.vol[i] * dz;
                    t[2] += momZ;
                    energy += 0.5 * momZ * a[(V + 1) * sF + z];
                }
                t[dims + 1] += energy;
            }
        }
    }

    // ---------------------------------------------------------------- the total-energy scheme

    /**
     * The kinetic energy per unit volume of zone z (radial index i) from the velocities in {@code v} (offset vb of the
     * radial field, the z field {@code sF} after it): each radial face's kinetic energy, its cell's mass at its
     * velocity, shared between its two zones in proportion to the part of the cell in each; each z-face's half and
     * half. Summed over the zones that is the kinetic energy {@link #totals} reports.
     */
    private double kineticZone(final double[] v, final int vb, final int z, final int i) {
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
            ke += 0.25 * (zl * wl * wl + zr * wr * wr);
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
                    div += (0.5 * (p0 + qr) * wr - 0.5 * (ql + p0) * wl) / dx[2];
                }
                q[z] = e + kineticZone(w, 0, z, i) - c * div; // neighbours still read e: commit below
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
        final double cz = dt / dx[2];
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 1);
            for (int k = kFirst(1); k <= kLast(1); k++, z++) {
                final double dv = Math.min(0, w[sF + z + 1] - w[sF + z]);
                q[z] = qcon * a[D * sF + z] * dv * dv;
            }
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            int z = rowStart(r, 0);
            for (int k = kFirst(0); k <= kLast(0); k++, z++) {
                final int vz = (V + 1) * sF + z;
                final double wl = 0.5 * (w[sF + z] + a[vz]);
                final double wr = 0.5 * (w[sF + z + 1] + a[vz + 1]);
                a[E * sF + z] -= cz * (0.5 * (q[z] + q[z + 1]) * wr - 0.5 * (q[z - 1] + q[z]) * wl);
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
                a[E * sF + z] -= kineticZone(a, V * sF, z, i);
            }
        }
    }
}
