package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * ZEUS's source step on one PE's block, in three substeps the solver separates by ghost refreshes: the pressure
 * gradient, von Neumann-Richtmyer artificial viscosity with its heating, and compressional heating in ZEUS's
 * time-centred implicit form. Each is a plain loop over the block, innermost along the contiguous dimension.
 */
final class SourceStep extends SourceKernels {
    private final double[] q;
    /** Per slot, one over the zone width (the total-energy scheme's work terms multiply by it). */
    private final double[] inverseWidths;

    /**
     * @param block this PE's block
     * @param q     scratch of one field's size, rewritten before it is read (the transport step shares it)
     */
    SourceStep(final ZeusBlock block, final double[] q) {
        super(block);
        this.q = q;
        this.inverseWidths = new double[3];
        for (int t = 0; t < 3; t++) {
            inverseWidths[t] = 1 / dx[t];
        }
    }

    /** The pressure gradient accelerates the face velocities: v -= dt (g-1) grad(e) / d, d averaged to the face. */
    @Override
    public void pressure(final double dt) {
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
                        final double dE = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - o]);
                        a[(V + dir) * sF + z] -= c * dE / dFace;
                    }
                }
            }
        }
    }

    /**
     * Von Neumann-Richtmyer viscosity per direction: q = qcon d (dv)^2 where the flow converges. Heats the gas (under
     * the total-energy scheme the separately evolved internal energy, the total taking the viscous work in
     * {@link #viscousWork}).
     */
    @Override
    public void viscosity(final double dt) {
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
                        a[hb + z] -= dt * q[z] * (a[vb + z + o] - a[vb + z]) / dx[s];
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

    /**
     * Compressional heating, time-centred and implicit in e (ZEUS): e *= (1 - c) / (1 + c), c = dt/2 (g-1) div v; under
     * the total-energy scheme on the separately evolved internal energy.
     */
    @Override
    public void heating(final double dt) {
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
                    a[hb + z] *= (1 - c) / (1 + c);
                }
            }
        }
    }

    // ---------------------------------------------------------------- the total-energy scheme

    /**
     * After {@link #pressure} and a ghost refresh, under the total-energy scheme: turns the energy field of the
     * block's zones into total energy, {@code e + x + kinetic(velocities before the substep) - dt div(p v)} (x the
     * dual-energy field's remainder), where the pressure work through each face is the mean pressure of its two
     * zones times the face's time-centred velocity (the mean of its velocity before and after). Both zones of a face
     * compute the same flux from the same values, so what one loses the other gains. The dual-energy field takes the
     * internal energy e, which the heating terms then evolve by its own equation.
     *
     * @param dt the time step
     */
    @Override
    public void pressureWork(final double dt) {
        final double c = dt * (gamma - 1);
        final double[] w = vOld;
        final double[] rdx = inverseWidths;
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    final double e = a[E * sF + z];
                    final double p = pressureEnergy(e);
                    final double rho = a[D * sF + z];
                    double div = 0;
                    double kin = 0;
                    for (int dir = 0; dir < dims; dir++) {
                        final int s = dir + 3 - dims;
                        final int o = st[s];
                        final int vz = (V + dir) * sF + z;
                        final int wz = dir * sF + z;
                        final double wl = w[wz];
                        final double wr = w[wz + o];
                        final double vl = 0.5 * (wl + a[vz]);
                        final double vr = 0.5 * (wr + a[vz + o]);
                        final double pl = pressureEnergy(a[E * sF + z - o]);
                        final double pr = pressureEnergy(a[E * sF + z + o]);
                        div += (0.5 * (p + pr) * vr - 0.5 * (pl + p) * vl) * rdx[s];
                        // The kinetic energy before the substep, as kinetic() makes it.
                        kin += (rho + a[D * sF + z - o]) * wl * wl + (rho + a[D * sF + z + o]) * wr * wr;
                    }
                    q[z] = e + a[xb + z] + 0.125 * kin - c * div; // neighbours still read this zone's e: commit
                    a[xb + z] = e;                                   // below; its own x they do not read
                }
            }
        }
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    a[E * sF + z] = q[z];
                }
            }
        }
    }

    /**
     * After {@link #viscosity} and a ghost refresh, under the total-energy scheme: takes the viscous work out of
     * the total energy, {@code - dt div(q v)}, with q per direction as {@link #viscosity} made it from the
     * velocities {@link #saveVelocities} kept, its mean over the face's two zones, times the face's time-centred
     * velocity. Per direction, q is made once for the block's zones and one more on either side.
     *
     * @param dt the time step
     */
    @Override
    public void viscousWork(final double dt) {
        final double qcon = cfg.qcon();
        final double[] w = vOld;
        for (int dir = 0; dir < dims; dir++) {
            final int s = dir + 3 - dims;
            final int o = st[s];
            final int wb = dir * sF;
            for (int i = lo[0] - (s == 0 ? 1 : 0); i <= hi[0] + (s == 0 ? 1 : 0); i++) {
                for (int j = lo[1] - (s == 1 ? 1 : 0); j <= hi[1] + (s == 1 ? 1 : 0); j++) {
                    int z = index(i, j, lo[2] - (s == 2 ? 1 : 0));
                    for (int k = lo[2] - (s == 2 ? 1 : 0); k <= hi[2] + (s == 2 ? 1 : 0); k++, z++) {
                        final double dv = Math.min(0, w[wb + z + o] - w[wb + z]);
                        q[z] = qcon * a[D * sF + z] * dv * dv;
                    }
                }
            }
            final double c = dt * inverseWidths[s];
            final int vb = (V + dir) * sF;
            for (int i = lo[0]; i <= hi[0]; i++) {
                for (int j = lo[1]; j <= hi[1]; j++) {
                    int z = index(i, j, lo[2]);
                    for (int k = lo[2]; k <= hi[2]; k++, z++) {
                        final double vl = 0.5 * (w[wb + z] + a[vb + z]);
                        final double vr = 0.5 * (w[wb + z + o] + a[vb + z + o]);
                        final double q0 = q[z];
                        a[E * sF + z] -= c * (0.5 * (q0 + q[z + o]) * vr - 0.5 * (q[z - o] + q0) * vl);
                    }
                }
            }
        }
    }

    /**
     * At the end of a cycle under the total-energy scheme, after a ghost refresh: recovers the internal energy of
     * the block's zones, {@link #dualEnergy}.
     */
    @Override
    public void internalFromTotal() {
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    dualEnergy(z, kinetic(a, V * sF, z));
                }
            }
        }
    }
}
