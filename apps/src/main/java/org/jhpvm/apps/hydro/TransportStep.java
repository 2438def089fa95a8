package org.jhpvm.apps.hydro;

import static org.jhpvm.apps.hydro.ZeusSolver.D;
import static org.jhpvm.apps.hydro.ZeusSolver.E;
import static org.jhpvm.apps.hydro.ZeusSolver.V;

/**
 * ZEUS's transport step on one PE's block, one directional sweep at a time (the solver alternates their order every
 * cycle and refreshes the ghosts before each): consistent advection, where mass fluxes from van Leer-interpolated
 * densities carry the specific energy and the momenta, also van Leer-interpolated; momenta across the sweep use the
 * mass flux averaged over the two zones sharing their face. Plain loops over the block, innermost along the
 * contiguous dimension.
 */
final class TransportStep extends ZeusBlock {
    private final double[] q;
    private final double[] mf;
    private final double[] dNew;
    private final double[] flux;
    // Scratch ranges of sweep() (every transport sweep).
    private final int[] sweepLo = new int[3];
    private final int[] sweepHi = new int[3];

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

    /** As {@link #upwind} for the specific energy e/d. */
    double upwindSpecific(final int z, final int o, final double vel, final double dtdx) {
        final double xi = vel * dtdx;
        final int c = vel > 0 ? z - o : z;
        final double sm = a[E * sF + c - o] / a[D * sF + c - o];
        final double s0 = a[E * sF + c] / a[D * sF + c];
        final double sp = a[E * sF + c + o] / a[D * sF + c + o];
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
        // Ranges: faces/zones one below the block in every direction (transverse momenta need the zone below in
        // their own direction), and up to one above in this direction (the flux through the block's upper face).
        final int[] r0 = sweepLo;
        final int[] r1 = sweepHi;
        for (int t = 0; t < 3; t++) {
            r0[t] = lo[t] - (t >= 3 - dims ? 1 : 0);
            r1[t] = hi[t];
        }
        r1[s] = hi[s] + 1;
        // 1. Mass and energy fluxes through the lower face of each zone: flux[] holds e flux, mf[] mass flux.
        for (int i = r0[0]; i <= r1[0]; i++) {
            for (int j = r0[1]; j <= r1[1]; j++) {
                int z = index(i, j, r0[2]);
                for (int k = r0[2]; k <= r1[2]; k++, z++) {
                    final double vel = a[vb + z];
                    final double m = upwind(D * sF, z, o, vel, dtdx) * vel;
                    mf[z] = m;
                    flux[z] = upwindSpecific(z, o, vel, dtdx) * m;
                }
            }
        }
        // 2. New density on the zones and one zone below in every direction (the momenta need it there), kept apart
        //    until step 5 because steps 3 and 4 read the old one too; new energy on the zones, in place: nothing
        //    after this reads the old one, and a scratch array less keeps more PEs' blocks in the caches.
        r1[s] = hi[s];
        for (int i = r0[0]; i <= r1[0]; i++) {
            for (int j = r0[1]; j <= r1[1]; j++) {
                int z = index(i, j, r0[2]);
                for (int k = r0[2]; k <= r1[2]; k++, z++) {
                    dNew[z] = a[D * sF + z] - dtdx * (mf[z + o] - mf[z]);
                }
            }
        }
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    a[E * sF + z] -= dtdx * (flux[z + o] - flux[z]);
                }
            }
        }
        // 3. Momenta across this direction (centred on the faces of their own direction t), first: their fluxes are
        //    upwinded with this direction's velocity as it was before this sweep, on every PE alike.
        for (int other = 0; other < dims; other++) {
            if (other != dir) {
                transverse(dir, s, o, dtdx, other);
            }
        }
        // 4. Momentum along this direction, centred on faces: fluxes at zone centres (between faces z and z+o).
        for (int i = r0[0]; i <= r1[0]; i++) {
            for (int j = r0[1]; j <= r1[1]; j++) {
                int z = index(i, j, r0[2]);
                for (int k = r0[2]; k <= r1[2]; k++, z++) {
                    final double mc = 0.5 * (mf[z] + mf[z + o]);
                    final double vc = 0.5 * (a[vb + z] + a[vb + z + o]);
                    // Upwind face velocity interpolated to the centre: the centre is the "face" between faces z
                    // and z+o, so shift by one cell.
                    q[z] = upwind(vb, z + o, o, vc, dtdx) * mc;
                }
            }
        }
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    if (wall(dir, s, s == 0 ? i : s == 1 ? j : k)) {
                        continue;
                    }
                    final double mom = 0.5 * (a[D * sF + z] + a[D * sF + z - o]) * a[vb + z]
                        - dtdx * (q[z] - q[z - o]);
                    a[vb + z] = mom / (0.5 * (dNew[z] + dNew[z - o]));
                }
            }
        }
        // 5. Commit density.
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    a[D * sF + z] = dNew[z];
                }
            }
        }
    }

    /**
     * Transport along {@code dir} of the momentum of direction {@code other}, which sits on the faces of direction
     * {@code other}: the mass flux through each face of dir is averaged over the two zones that share the
     * other-face, and carries the van Leer upwind value of the other velocity.
     */
    private void transverse(final int dir, final int s, final int o, final double dtdx, final int other) {
        final int t = other + 3 - dims;
        final int ot = st[t];
        final int wb = (V + other) * sF;
        // Fluxes through the dir-faces of the other-faces of the block's zones (and one above in dir).
        for (int i = lo[0]; i <= hi[0] + (s == 0 ? 1 : 0); i++) {
            for (int j = lo[1]; j <= hi[1] + (s == 1 ? 1 : 0); j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2] + (s == 2 ? 1 : 0); k++, z++) {
                    final double m = 0.5 * (mf[z] + mf[z - ot]);
                    final double vel = 0.5 * (a[(V + dir) * sF + z] + a[(V + dir) * sF + z - ot]);
                    flux[z] = upwind(wb, z, o, vel, dtdx) * m;
                }
            }
        }
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    if (wall(other, t, t == 0 ? i : t == 1 ? j : k)) {
                        continue;
                    }
                    final double dOld = 0.5 * (a[D * sF + z] + a[D * sF + z - ot]);
                    final double mom = dOld * a[wb + z] - dtdx * (flux[z + o] - flux[z]);
                    a[wb + z] = mom / (0.5 * (dNew[z] + dNew[z - ot]));
                }
            }
        }
    }
}
