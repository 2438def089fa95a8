package org.jhpvm.apps.hydro;

import static org.jhpvm.apps.hydro.ZeusSolver.D;
import static org.jhpvm.apps.hydro.ZeusSolver.E;
import static org.jhpvm.apps.hydro.ZeusSolver.V;

/**
 * The ZEUS cycle's kernels on a 1-D grid that is not uniform Cartesian ({@link RadialGrid}: ratioed zones,
 * cylindrical or spherical radius), in the form of ZEUS-2D's metric terms restricted to one dimension: forces as
 * a difference times the face's area over the mass of the face's cell, divergences as the difference of area times
 * velocity over the zone's volume, transport fluxes through faces weighted by their areas, and van Leer
 * interpolation with slopes per unit length over the zones' real widths. On a uniform Cartesian grid they reduce to
 * {@link SourceStep}, {@link TransportStep} and {@link CourantTimestep}, which keep their own loops for speed.
 */
final class RadialStep extends ZeusBlock {
    private static final int G = ZeusSolver.GHOST;
    private final RadialGrid g;
    private final double[] q;
    private final double[] mf;
    private final double[] dNew;
    private final double[] eNew;
    private final double[] flux;
    /** Under the total-energy scheme: the velocities as the substep being accounted for found them. */
    private final double[] vOld;

    /**
     * @param block this PE's block (1-D)
     * @param q     scratch of one field's size, rewritten before it is read
     */
    RadialStep(final ZeusBlock block, final double[] q) {
        super(block);
        this.g = new RadialGrid(cfg);
        this.q = q;
        this.mf = new double[sF];
        this.dNew = new double[sF];
        this.eNew = new double[sF];
        this.flux = new double[sF];
        this.vOld = total ? new double[sF] : null;
    }

    /** The field offset of zone k (1-D: the only slot is the last). */
    private int at(final int k) {
        return index(lo[0], lo[1], k);
    }

    /**
     * ZEUS's Courant rate of the block's zones: the largest sum of inverse squares of the sound, flow and viscous
     * crossing times, each over the zone's own width.
     *
     * @return the block's largest rate (0 for an empty block)
     */
    double courantRate() {
        double worst = 0;
        final double qcon = cfg.qcon();
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            final double w = g.dxa[k + G];
            final double cs2 = gamma * (gamma - 1) * pressureEnergy(a[E * sF + z]) / a[D * sF + z];
            final double vc = 0.5 * (a[V * sF + z] + a[V * sF + z + 1]) / w;
            final double qq = 4 * qcon * Math.max(0, a[V * sF + z] - a[V * sF + z + 1]) / w;
            worst = Math.max(worst, cs2 / (w * w) + vc * vc + qq * qq);
        }
        return worst;
    }

    /**
     * The pressure force on the cell of each face (centre to centre): the pressure difference times the face's area,
     * over the cell's mass. On a uniform Cartesian grid that is ZEUS's gradient over the centres' distance; on a
     * curvilinear one it makes the work of the force on the velocities exactly what {@link #heating} takes from the
     * internal energy (the area times the pressure, summed by parts), which the gradient alone misses near the
     * origin, where the cells' volumes are far from area times width.
     */
    void pressure(final double dt) {
        final double c = dt * (gamma - 1);
        for (int k = lo[2]; k <= hi[2]; k++) {
            if (wall(0, 2, k)) {
                continue;
            }
            final int z = at(k);
            final int i = k + G;
            final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
            final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - 1]);
            a[V * sF + z] -= c * de * g.area[i] / (g.volb[i] * dFace);
        }
    }

    /**
     * Von Neumann-Richtmyer viscosity, q = qcon d (dv)^2 where the flow converges, acting as a pressure: its force
     * as {@link #pressure}'s, its heating {@code -q div v} with the divergence as {@link #heating} makes it, so that
     * the kinetic energy it takes is the heat it gives (ZEUS's heating {@code -q dv/dx} is the same on a Cartesian
     * grid, and creates energy near a curvilinear origin: a fifth of a spherical blast's).
     */
    void viscosity(final double dt) {
        final double qcon = cfg.qcon();
        for (int k = lo[2] - 1; k <= hi[2]; k++) {
            final int z = at(k);
            final double dv = Math.min(0, a[V * sF + z + 1] - a[V * sF + z]);
            q[z] = qcon * a[D * sF + z] * dv * dv;
        }
        for (int k = lo[2]; k <= hi[2] && !total; k++) { // the total-energy scheme: viscousWork instead
            final int z = at(k);
            final int i = k + G;
            a[E * sF + z] -= dt * q[z] * (g.area[i + 1] * a[V * sF + z + 1] - g.area[i] * a[V * sF + z]) / g.vol[i];
        }
        for (int k = lo[2]; k <= hi[2]; k++) {
            if (wall(0, 2, k)) {
                continue;
            }
            final int z = at(k);
            final int i = k + G;
            final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
            a[V * sF + z] -= dt * (q[z] - q[z - 1]) * g.area[i] / (g.volb[i] * dFace);
        }
    }

    /** Compressional heating, implicit and time-centred, with div v = (area v)(upper - lower) / volume. */
    void heating(final double dt) {
        final double h = 0.5 * dt * (gamma - 1);
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            final int i = k + G;
            final double div = (g.area[i + 1] * a[V * sF + z + 1] - g.area[i] * a[V * sF + z]) / g.vol[i];
            final double c = h * div;
            a[E * sF + z] *= (1 - c) / (1 + c);
        }
    }

    /** The van Leer slope per unit length from the two one-sided slopes. */
    private static double slope(final double left, final double right) {
        final double p = left * right;
        return p > 0 ? 2 * p / (left + right) : 0;
    }

    /**
     * The upwind value at face k (zone offset z, grid index i) of the zone-centred values {@code v} (offset b, or
     * the specific energy when {@code specific}), moved from the upwind zone's centre to the face less the distance
     * the flow travels in dt.
     */
    private double upwindZone(final int b, final boolean specific, final int z, final int i, final double vel,
        final double dt) {
        final int c = vel > 0 ? z - 1 : z;
        final int gc = vel > 0 ? i - 1 : i;
        final double vm = value(b, specific, c - 1);
        final double v0 = value(b, specific, c);
        final double vp = value(b, specific, c + 1);
        final double sl = slope((v0 - vm) / g.dxb[gc], (vp - v0) / g.dxb[gc + 1]);
        return vel > 0 ? v0 + 0.5 * (g.dxa[gc] - vel * dt) * sl : v0 - 0.5 * (g.dxa[gc] + vel * dt) * sl;
    }

    private double value(final int b, final boolean specific, final int z) {
        return specific ? a[E * sF + z] / a[D * sF + z] : a[b + z];
    }

    /**
     * The upwind face velocity at the centre of zone k (between faces k and k + 1), for a flow {@code vc}: the cells
     * of the face-centred velocity reach from centre to centre, and their centres are a zone's width apart.
     */
    private double upwindFace(final int z, final int i, final double vc, final double dt) {
        final int c = vc > 0 ? z : z + 1;
        final int gc = vc > 0 ? i : i + 1;
        final int b = V * sF;
        final double sl = slope((a[b + c] - a[b + c - 1]) / g.dxa[gc - 1], (a[b + c + 1] - a[b + c]) / g.dxa[gc]);
        return vc > 0 ? a[b + c] + 0.5 * (g.dxb[gc] - vc * dt) * sl : a[b + c] - 0.5 * (g.dxb[gc] + vc * dt) * sl;
    }

    /**
     * The transport step: mass and energy fluxes through each face times its area, the new density and energy
     * from their difference over the zone's volume, then the momentum of the face-centred cells (centre to centre)
     * with fluxes at the zone centres, then the commit.
     */
    void sweep(final double dt) {
        for (int k = lo[2] - 1; k <= hi[2] + 1; k++) {
            final int z = at(k);
            final int i = k + G;
            final double vel = a[V * sF + z];
            final double m = upwindZone(D * sF, false, z, i, vel, dt) * vel * g.area[i];
            mf[z] = m;
            flux[z] = upwindZone(0, true, z, i, vel, dt) * m;
        }
        for (int k = lo[2] - 1; k <= hi[2]; k++) {
            final int z = at(k);
            final double c = dt / g.vol[k + G];
            dNew[z] = a[D * sF + z] - c * (mf[z + 1] - mf[z]);
            eNew[z] = a[E * sF + z] - c * (flux[z + 1] - flux[z]);
        }
        for (int k = lo[2] - 1; k <= hi[2]; k++) {
            final int z = at(k);
            final double vc = 0.5 * (a[V * sF + z] + a[V * sF + z + 1]);
            q[z] = upwindFace(z, k + G, vc, dt) * 0.5 * (mf[z] + mf[z + 1]);
        }
        for (int k = lo[2]; k <= hi[2]; k++) {
            if (wall(0, 2, k)) {
                continue;
            }
            final int z = at(k);
            final double vb = g.volb[k + G];
            final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]) * a[V * sF + z] * vb - dt * (q[z] - q[z - 1]);
            a[V * sF + z] = mom / (0.5 * (dNew[z] + dNew[z - 1]) * vb);
        }
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            a[D * sF + z] = dNew[z];
            a[E * sF + z] = eNew[z];
        }
    }

    /**
     * The block's share of the conserved totals (ghosts refreshed): mass, momentum of the face-centred cells, and
     * internal plus kinetic energy, each weighted by the real volumes (a face's kinetic energy over the volume of its
     * cell, from the centre below to the centre above: near the origin the zones' volumes differ too much for a
     * half of it to each).
     *
     * @param t receives {@code {mass, momentum, energy}}, added to
     */
    void totals(final double[] t) {
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            final int i = k + G;
            final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]) * a[V * sF + z] * g.volb[i];
            t[0] += a[D * sF + z] * g.vol[i];
            t[1] += mom;
            // Face k's kinetic energy, its momentum's mass (the cell from centre to centre) moving at its velocity.
            t[2] += a[E * sF + z] * g.vol[i] + 0.5 * mom * a[V * sF + z];
        }
    }

    // ---------------------------------------------------------------- the total-energy scheme

    /**
     * The kinetic energy per unit volume of zone z (grid index i): each face's kinetic energy, its cell's mass at its
     * velocity, shared between the two zones in proportion to the part of the cell in each; summed over the zones
     * that is the kinetic energy {@link #totals} reports.
     */
    private double kineticZone(final double[] v, final int vb, final int z, final int i) {
        final double rl = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
        final double rr = 0.5 * (a[D * sF + z] + a[D * sF + z + 1]);
        final double vl = v[vb + z];
        final double vr = v[vb + z + 1];
        return 0.5 * (rl * vl * vl * g.vup[i] + rr * vr * vr * g.vdn[i]) / g.vol[i];
    }

    /**
     * The value at face i of a zone quantity for the work flux through it: weighted so that each zone's internal
     * energy changes by exactly {@code -p div v} (the zone below gets the weight of the face cell's part in the zone
     * above, and the other way round; on a uniform grid, the mean).
     */
    private double atFace(final double below, final double above, final int i) {
        return (g.vdn[i - 1] * above + g.vup[i] * below) / g.volb[i];
    }

    /** Keeps the velocities as they are now, ghosts included, for the work of the substep that follows. */
    void saveVelocities() {
        System.arraycopy(a, V * sF, vOld, 0, sF);
    }

    /**
     * As {@link SourceStep#pressureWork}: the energy of the block's zones becomes their total, internal plus kinetic
     * energy before {@link #pressure}, less dt times the divergence of the pressure's work through the faces (area
     * times face pressure times time-centred velocity).
     *
     * @param dt the time step
     */
    void pressureWork(final double dt) {
        final double c = dt * (gamma - 1);
        final double[] w = vOld;
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            final int i = k + G;
            final double e = a[E * sF + z];
            final double pm = pressureEnergy(a[E * sF + z - 1]);
            final double p0 = pressureEnergy(e);
            final double pp = pressureEnergy(a[E * sF + z + 1]);
            final double vl = 0.5 * (w[z] + a[V * sF + z]);
            final double vr = 0.5 * (w[z + 1] + a[V * sF + z + 1]);
            final double div = g.area[i + 1] * atFace(p0, pp, i + 1) * vr - g.area[i] * atFace(pm, p0, i) * vl;
            q[z] = e + kineticZone(w, 0, z, i) - c * div / g.vol[i]; // neighbours still read e: commit below
        }
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            a[E * sF + z] = q[z];
        }
    }

    /**
     * As {@link SourceStep#viscousWork}: takes the viscous work through the faces out of the total energy, q made
     * as {@link #viscosity} made it from the velocities {@link #saveVelocities} kept.
     *
     * @param dt the time step
     */
    void viscousWork(final double dt) {
        final double qcon = cfg.qcon();
        final double[] w = vOld;
        for (int k = lo[2] - 1; k <= hi[2] + 1; k++) {
            final int z = at(k);
            final double dv = Math.min(0, w[z + 1] - w[z]);
            q[z] = qcon * a[D * sF + z] * dv * dv;
        }
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            final int i = k + G;
            final double vl = 0.5 * (w[z] + a[V * sF + z]);
            final double vr = 0.5 * (w[z + 1] + a[V * sF + z + 1]);
            final double div = g.area[i + 1] * atFace(q[z], q[z + 1], i + 1) * vr
                - g.area[i] * atFace(q[z - 1], q[z], i) * vl;
            a[E * sF + z] -= dt * div / g.vol[i];
        }
    }

    /**
     * As {@link SourceStep#internalFromTotal}: the internal energy of the block's zones is the total less the
     * kinetic energy, a debt where that is negative.
     */
    void internalFromTotal() {
        for (int k = lo[2]; k <= hi[2]; k++) {
            final int z = at(k);
            a[E * sF + z] -= kineticZone(a, V * sF, z, k + G);
        }
    }
}
