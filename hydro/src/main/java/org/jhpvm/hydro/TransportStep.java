package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * ZEUS's transport step on one PE's block, one directional sweep at a time (the solver alternates their order every
 * cycle and refreshes the ghosts before each): consistent advection, where mass fluxes from van Leer-interpolated
 * densities carry the specific energy and the momenta, also van Leer-interpolated; momenta across the sweep use the
 * mass flux averaged over the two zones sharing their face. Plain loops, innermost along the contiguous dimension.
 * <p>
 * In 3-D a sweep goes slab by slab across a dimension other than its own (the outermost, or the middle one for a
 * sweep along the outermost): each slab's steps run one after another on a few planes that stay in the core's
 * caches, instead of each step streaming the whole block through them (eight arrays of the block in all, about
 * 3.5 MB at 32^3, more than a core's L2). Two steps lag one slab behind: the transverse momenta of a slab read the
 * density and this direction's velocity of the slab below as they were before the sweep, so that slab's momentum
 * along the sweep and its new density are committed only once the next slab is done. Every zone's arithmetic is the
 * same, so the results are bit for bit those of whole-block steps ({@code TransportSlabsTest}).
 */
final class TransportStep extends ZeusBlock {
    private final double[] q;
    private final double[] mf;
    private final double[] dNew;
    private final double[] flux;
    /** Under the total-energy scheme the fluxes of the dual-energy field, else null. */
    private final double[] dualFlux;
    // The boxes of a sweep's steps, inclusive, per slot (allocation-free): the fluxes' (the zones, one below in every
    // dimension and one above in the sweep's), the zones and one below, the block's zones, the zones and one above in
    // the sweep's; and one of them cut to a slab.
    private final int[] fluxFrom = new int[3];
    private final int[] fluxTo = new int[3];
    private final int[] belowFrom = new int[3];
    private final int[] belowTo = new int[3];
    private final int[] zonesFrom = new int[3];
    private final int[] zonesTo = new int[3];
    private final int[] aboveFrom = new int[3];
    private final int[] aboveTo = new int[3];
    private final int[] cutFrom = new int[3];
    private final int[] cutTo = new int[3];
    /** Whether 3-D sweeps go slab by slab (the default); false runs each step over the whole block, for tests. */
    private boolean slabs = true;

    /**
     * @param block this PE's block
     * @param q     scratch of one field's size, rewritten before it is read (the source step shares it)
     */
    TransportStep(final ZeusBlock block, final double[] q) {
        super(block);
        this.q = q;
        this.mf = new double[sF];
        this.dNew = new double[sF];
        // The fluxes of steps 1-3 are dead before step 4 writes q, and q is rewritten before it is read: one array
        // serves both, a scratch array less per PE (eight PEs' blocks overflowed the 32 MiB L3 of the 2-core
        // machine; independent one-PE solvers measured 0.81-0.84 per core at 8 against 0.84-0.94 at 4).
        this.flux = q;
        this.dualFlux = total ? new double[sF] : null;
    }

    /** The van Leer monotone slope of a cell from its two one-sided differences (harmonic mean, 0 at extrema). */
    static double slope(final double left, final double right) {
        final double p = left * right;
        return p > 0 ? 2 * p / (left + right) : 0;
    }

    /**
     * The van Leer upwind value at the face between cells {@code z-o} and {@code z} of field {@code f} (offset
     * {@code b}) for a face velocity {@code vel}: the upwind cell's value moved half a cell minus the distance the
     * flow travels in dt, along its limited slope.
     */
    double upwind(final int b, final int z, final int o, final double vel, final double dtdx) {
        final double xi = vel * dtdx;
        if (vel > 0) {
            final int c = b + z - o;
            return a[c] + 0.5 * (1 - xi) * slope(a[c] - a[c - o], a[c + o] - a[c]);
        }
        final int c = b + z;
        return a[c] - 0.5 * (1 + xi) * slope(a[c] - a[c - o], a[c + o] - a[c]);
    }

    /**
     * As {@link #upwind} for a specific energy: the energy field's (e/d, {@code eb = E * sF}) or the dual-energy
     * field's ({@link #xb}).
     */
    double upwindSpecific(final int eb, final int z, final int o, final double vel, final double dtdx) {
        final double xi = vel * dtdx;
        final int c = vel > 0 ? z - o : z;
        final double sm = a[eb + c - o] / a[D * sF + c - o];
        final double s0 = a[eb + c] / a[D * sF + c];
        final double sp = a[eb + c + o] / a[D * sF + c + o];
        final double sl = slope(s0 - sm, sp - s0);
        return vel > 0 ? s0 + 0.5 * (1 - xi) * sl : s0 - 0.5 * (1 + xi) * sl;
    }

    /**
     * One directional sweep along {@code dir}: mass and energy fluxes through the faces of dir, the new density and
     * energy (the energy in place), the momenta across dir, then the momentum along dir, then the commit of density.
     *
     * @param dir the direction
     * @param dt  the time step
     */
    void sweep(final int dir, final double dt) {
        final int s = dir + 3 - dims;
        final int o = st[s];
        final double dtdx = dt / dx[s];
        final int vb = (V + dir) * sF;
        for (int t = 0; t < 3; t++) {
            // Faces/zones one below the block in every direction (transverse momenta need the zone below in their
            // own direction), and up to one above in this direction (the flux through the block's upper face).
            final int below = t >= 3 - dims ? 1 : 0;
            belowFrom[t] = lo[t] - below;
            belowTo[t] = hi[t];
            zonesFrom[t] = lo[t];
            zonesTo[t] = hi[t];
        }
        System.arraycopy(belowFrom, 0, fluxFrom, 0, 3);
        System.arraycopy(belowTo, 0, fluxTo, 0, 3);
        fluxTo[s] = hi[s] + 1;
        System.arraycopy(zonesFrom, 0, aboveFrom, 0, 3);
        System.arraycopy(zonesTo, 0, aboveTo, 0, 3);
        aboveTo[s] = hi[s] + 1;
        final int slab = dims == 3 && slabs ? (s == 0 ? 1 : 0) : -1;
        if (slab < 0) {
            fluxes(o, dtdx, vb, fluxFrom, fluxTo);
            newDensity(o, dtdx, belowFrom, belowTo);
            energy(o, dtdx, zonesFrom, zonesTo);
            transverse(dir, o, dtdx, aboveFrom, aboveTo, zonesFrom, zonesTo);
            momentumFluxes(o, dtdx, vb, belowFrom, belowTo);
            momentum(dir, s, o, dtdx, vb, zonesFrom, zonesTo);
            commitDensity(zonesFrom, zonesTo);
            return;
        }
        for (int p = belowFrom[slab]; p <= hi[slab]; p++) {
            fluxes(o, dtdx, vb, cut(fluxFrom, fluxTo, slab, p), cutTo);
            newDensity(o, dtdx, cut(belowFrom, belowTo, slab, p), cutTo);
            if (p >= lo[slab]) {
                energy(o, dtdx, cut(zonesFrom, zonesTo, slab, p), cutTo);
                transverseSlab(dir, o, dtdx, slab, p);
            }
            momentumFluxes(o, dtdx, vb, cut(belowFrom, belowTo, slab, p), cutTo);
            if (p > lo[slab]) {
                momentum(dir, s, o, dtdx, vb, cut(zonesFrom, zonesTo, slab, p - 1), cutTo);
                commitDensity(cut(zonesFrom, zonesTo, slab, p - 1), cutTo);
            }
        }
        momentum(dir, s, o, dtdx, vb, cut(zonesFrom, zonesTo, slab, hi[slab]), cutTo);
        commitDensity(cut(zonesFrom, zonesTo, slab, hi[slab]), cutTo);
    }

    /** Cuts the box {@code from..to} to slab {@code p} of slot {@code slab} into {@link #cutFrom}/{@link #cutTo}. */
    private int[] cut(final int[] from, final int[] to, final int slab, final int p) {
        System.arraycopy(from, 0, cutFrom, 0, 3);
        System.arraycopy(to, 0, cutTo, 0, 3);
        cutFrom[slab] = p;
        cutTo[slab] = p;
        return cutFrom;
    }

    /** Makes 3-D sweeps go slab by slab (true, the default) or run each step over the whole block (tests). */
    void slabs(final boolean bySlab) {
        this.slabs = bySlab;
    }

    /**
     * 1. Mass and energy fluxes through the lower face of each zone: flux[] holds the energy flux, mf[] the mass (and
     * dualFlux[] the dual-energy field's).
     */
    private void fluxes(final int o, final double dtdx, final int vb, final int[] f, final int[] t) {
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    final double vel = a[vb + z];
                    final double m = upwind(D * sF, z, o, vel, dtdx) * vel;
                    mf[z] = m;
                    flux[z] = upwindSpecific(E * sF, z, o, vel, dtdx) * m;
                    if (total) {
                        dualFlux[z] = upwindSpecific(xb, z, o, vel, dtdx) * m;
                    }
                }
            }
        }
    }

    /**
     * 2. New density on the zones and one zone below in every direction (the momenta need it there), kept apart until
     * {@link #commitDensity} because the momenta read the old one too.
     */
    private void newDensity(final int o, final double dtdx, final int[] f, final int[] t) {
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    dNew[z] = a[D * sF + z] - dtdx * (mf[z + o] - mf[z]);
                }
            }
        }
    }

    /**
     * New energy on the zones, in place: nothing after this reads the old one, and a scratch array less keeps more
     * PEs' blocks in the caches.
     */
    private void energy(final int o, final double dtdx, final int[] f, final int[] t) {
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    a[E * sF + z] -= dtdx * (flux[z + o] - flux[z]);
                    if (total) {
                        a[xb + z] -= dtdx * (dualFlux[z + o] - dualFlux[z]);
                    }
                }
            }
        }
    }

    /**
     * 3. Momenta across this direction (centred on the faces of their own direction), first: their fluxes are
     * upwinded with this direction's velocity as it was before this sweep, on every PE alike.
     */
    private void transverse(final int dir, final int o, final double dtdx, final int[] af, final int[] at,
        final int[] zf, final int[] zt) {
        for (int other = 0; other < dims; other++) {
            if (other != dir) {
                transverseFluxes(dir, o, dtdx, other, af, at);
                transverseMomenta(o, dtdx, other, zf, zt);
            }
        }
    }

    /** {@link #transverse} on one slab. */
    private void transverseSlab(final int dir, final int o, final double dtdx, final int slab, final int p) {
        for (int other = 0; other < dims; other++) {
            if (other != dir) {
                transverseFluxes(dir, o, dtdx, other, cut(aboveFrom, aboveTo, slab, p), cutTo);
                transverseMomenta(o, dtdx, other, cut(zonesFrom, zonesTo, slab, p), cutTo);
            }
        }
    }

    /**
     * Fluxes of the momentum of direction {@code other}, which sits on the faces of direction {@code other}, through
     * the dir-faces of the block's zones (and one above in dir): the mass flux averaged over the two zones that share
     * the other-face carries the van Leer upwind value of the other velocity.
     */
    private void transverseFluxes(final int dir, final int o, final double dtdx, final int other, final int[] f,
        final int[] t) {
        final int ot = st[other + 3 - dims];
        final int wb = (V + other) * sF;
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    final double m = 0.5 * (mf[z] + mf[z - ot]);
                    final double vel = 0.5 * (a[(V + dir) * sF + z] + a[(V + dir) * sF + z - ot]);
                    flux[z] = upwind(wb, z, o, vel, dtdx) * m;
                }
            }
        }
    }

    /** The momentum of direction {@code other} moved by {@link #transverseFluxes}, as velocity over the new density. */
    private void transverseMomenta(final int o, final double dtdx, final int other, final int[] f, final int[] t) {
        final int tt = other + 3 - dims;
        final int ot = st[tt];
        final int wb = (V + other) * sF;
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    if (wall(other, tt, tt == 0 ? i : tt == 1 ? j : k)) {
                        continue;
                    }
                    final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - ot]);
                    final double mom = dOld * a[wb + z] - dtdx * (flux[z + o] - flux[z]);
                    a[wb + z] = mom / (0.5 * (dNew[z] + dNew[z - ot]));
                }
            }
        }
    }

    /**
     * 4. Fluxes of the momentum along this direction, centred on faces: at zone centres (between faces z and z+o), on
     * the zones and one below in every direction.
     */
    private void momentumFluxes(final int o, final double dtdx, final int vb, final int[] f, final int[] t) {
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    final double mc = 0.5 * (mf[z] + mf[z + o]);
                    final double vc = 0.5 * (a[vb + z] + a[vb + z + o]);
                    // Upwind face velocity interpolated to the centre: the centre is the "face" between faces z
                    // and z+o, so shift by one cell.
                    q[z] = upwind(vb, z + o, o, vc, dtdx) * mc;
                }
            }
        }
    }

    /** The momentum along this direction moved by {@link #momentumFluxes}, as velocity over the new density. */
    private void momentum(final int dir, final int s, final int o, final double dtdx, final int vb, final int[] f,
        final int[] t) {
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    if (wall(dir, s, s == 0 ? i : s == 1 ? j : k)) {
                        continue;
                    }
                    final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - o]) * a[vb + z]
                        - dtdx * (q[z] - q[z - o]);
                    a[vb + z] = mom / (0.5 * (dNew[z] + dNew[z - o]));
                }
            }
        }
    }

    /** 5. Commit density. */
    private void commitDensity(final int[] f, final int[] t) {
        for (int i = f[0]; i <= t[0]; i++) {
            for (int j = f[1]; j <= t[1]; j++) {
                int z = index(i, j, f[2]);
                for (int k = f[2]; k <= t[2]; k++, z++) {
                    a[D * sF + z] = dNew[z];
                }
            }
        }
    }
}
