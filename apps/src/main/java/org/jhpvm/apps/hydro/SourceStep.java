package org.jhpvm.apps.hydro;

import static org.jhpvm.apps.hydro.ZeusSolver.D;
import static org.jhpvm.apps.hydro.ZeusSolver.E;
import static org.jhpvm.apps.hydro.ZeusSolver.V;

/**
 * ZEUS's source step on one PE's block, in three substeps the solver separates by ghost refreshes: the pressure
 * gradient, von Neumann-Richtmyer artificial viscosity with its heating, and compressional heating in ZEUS's
 * time-centred implicit form. Each is a plain loop over the block, innermost along the contiguous dimension.
 */
final class SourceStep extends ZeusBlock {
    private final double[] q;

    /**
     * @param block this PE's block
     * @param q     scratch of one field's size, rewritten before it is read (the transport step shares it)
     */
    SourceStep(final ZeusBlock block, final double[] q) {
        super(block);
        this.q = q;
    }

    /** The pressure gradient accelerates the face velocities: v -= dt (g-1) grad(e) / d, d averaged to the face. */
    void pressure(final double dt) {
        final double g1 = gamma - 1;
        for (int dir = 0; dir < dims; dir++) {
            final int s = dir + 3 - dims;
            final int o = st[s];
            final double c = dt * g1 / dx[s];
            for (int i = lo[0]; i <= hi[0]; i++) {
                for (int j = lo[1]; j <= hi[1]; j++) {
                    int z = index(i, j, lo[2]);
                    for (int k = lo[2]; k <= hi[2]; k++, z++) {
                        if (wall(dir, s, s == 0 ? i : s == 1 ? j : k)) {
                            continue;
                        }
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - o]);
                        a[(V + dir) * sF + z] -= c * (a[E * sF + z] - a[E * sF + z - o]) / dFace;
                    }
                }
            }
        }
    }

    /** Von Neumann-Richtmyer viscosity per direction: q = qcon d (dv)^2 where the flow converges. */
    void viscosity(final double dt) {
        final double qcon = cfg.qcon();
        for (int dir = 0; dir < dims; dir++) {
            final int s = dir + 3 - dims;
            final int o = st[s];
            final int vb = (V + dir) * sF;
            // q on the zones and one zone below in this direction.
            for (int i = lo[0] - (s == 0 ? 1 : 0); i <= hi[0]; i++) {
                for (int j = lo[1] - (s == 1 ? 1 : 0); j <= hi[1]; j++) {
                    int z = index(i, j, lo[2] - (s == 2 ? 1 : 0));
                    for (int k = lo[2] - (s == 2 ? 1 : 0); k <= hi[2]; k++, z++) {
                        final double dv = Math.min(0, a[vb + z + o] - a[vb + z]);
                        q[z] = qcon * a[D * sF + z] * dv * dv;
                    }
                }
            }
            for (int i = lo[0]; i <= hi[0]; i++) {
                for (int j = lo[1]; j <= hi[1]; j++) {
                    int z = index(i, j, lo[2]);
                    for (int k = lo[2]; k <= hi[2]; k++, z++) {
                        // Viscous heating with the velocity difference q was made from, before the velocity moves.
                        a[E * sF + z] -= dt * q[z] * (a[vb + z + o] - a[vb + z]) / dx[s];
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
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - o]);
                        a[vb + z] -= dt * (q[z] - q[z - o]) / (dx[s] * dFace);
                    }
                }
            }
        }
    }

    /** Compressional heating, time-centred and implicit in e (ZEUS): e *= (1 - c) / (1 + c), c = dt/2 (g-1) div v. */
    void heating(final double dt) {
        final double h = 0.5 * dt * (gamma - 1);
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    double div = 0;
                    for (int dir = 0; dir < dims; dir++) {
                        final int s = dir + 3 - dims;
                        final int vz = (V + dir) * sF + z;
                        div += (a[vz + st[s]] - a[vz]) / dx[s];
                    }
                    final double c = h * div;
                    a[E * sF + z] *= (1 - c) / (1 + c);
                }
            }
        }
    }
}
