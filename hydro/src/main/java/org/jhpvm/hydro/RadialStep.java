package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * The ZEUS source step's kernels, the Courant step's rate and the totals on a grid whose first dimension is not
 * uniform Cartesian ({@link RadialGrid}: ratioed zones, cylindrical or spherical radius), in 1-D, 2-D with a uniform
 * second coordinate ({@link TransverseGrid}: the z of cylindrical (r, z), the polar angle of spherical (r, theta)),
 * or 3-D with a uniform third (the azimuth phi of (r, z, phi) and (r, theta, phi)), in the form of ZEUS's metric
 * terms: forces as a difference times the face's area over the mass of the face's cell, divergences as the difference
 * of area times velocity over the zone's volume, lengths along the second coordinate its difference times ZEUS's g2
 * and along the third times g31 g32. Curvature: on a spherical grid the polar velocity's centrifugal force pushes the
 * radial one; in 3-D the azimuthal velocity's pushes the radial one and, on a spherical grid, the polar one
 * ({@code v_phi^2 cot theta / r}). {@link RadialWork} holds the total-energy terms, {@link RadialTransport} is the
 * transport step on the same grids. On a uniform Cartesian grid everything reduces to {@link SourceStep},
 * {@link TransportStep} and {@link CourantTimestep}, which keep their own loops.
 */
final class RadialStep extends RadialWork {
    /**
     * @param block this PE's block (the radius first)
     * @param q     scratch of one field's size, rewritten before it is read
     */
    RadialStep(final ZeusBlock block, final double[] q) {
        super(block, q);
    }

    /**
     * ZEUS's Courant rate of the block's zones: the largest sum of inverse squares of the sound, flow and viscous
     * crossing times, each over the zone's own widths (along the second coordinate g2 times its difference, along
     * the third g31 g32 times its).
     *
     * @return the block's largest rate (0 for an empty block)
     */
    double courantRate() {
        double worst = 0;
        final double qcon = cfg.qcon();
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            final double w = g.dxa[i];
            final double hw = second ? g.g2[i] * tg.dw : w;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double hp = third ? h3(i, jOf(m, k)) * dp : w;
                    final double dmin = Math.min(w, Math.min(hw, hp));
                    final double cs2 = gamma * (gamma - 1) * pressureEnergy(a[E * sF + z]) / a[D * sF + z];
                    final double vc = 0.5 * (a[V * sF + z] + a[V * sF + z + or]) / w;
                    double sum = cs2 / (dmin * dmin) + vc * vc;
                    double visc = Math.max(0, a[V * sF + z] - a[V * sF + z + or]) / w;
                    if (second) {
                        final int vz = (V + 1) * sF + z;
                        final double wc = 0.5 * (a[vz] + a[vz + os]) / hw;
                        sum += wc * wc;
                        visc = Math.max(visc, Math.max(0, a[vz] - a[vz + os]) / hw);
                    }
                    if (third) {
                        final int vp = (V + 2) * sF + z;
                        final double uc = 0.5 * (a[vp] + a[vp + 1]) / hp;
                        sum += uc * uc;
                        visc = Math.max(visc, Math.max(0, a[vp] - a[vp + 1]) / hp);
                    }
                    final double qq = 4 * qcon * visc;
                    worst = Math.max(worst, sum + qq * qq);
                }
            }
        }
        return worst;
    }

    /**
     * The pressure force on the cell of each face: the pressure difference times the face's area over the cell's
     * mass (ZEUS's gradient over the centres' distance on a uniform Cartesian grid; on a curvilinear one it makes the
     * work of the force exactly what {@link #heating} takes from the internal energy, summed by parts, which the
     * gradient alone misses near the origin). The centrifugal forces first.
     */
    @Override
    public void pressure(final double dt) {
        if (polar || turning) {
            centrifugal(dt);
        }
        final double c = dt * (gamma - 1);
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            final double cr = c / g.g2[i];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    if (!wall(0, rs, r)) {
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
                        final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - or]);
                        a[V * sF + z] -= c * de * g.area[i] / (g.volb[i] * dFace);
                    }
                    if (second && !wall(1, rs + 1, secondIndex(m, k))) {
                        final int j = jOf(m, k);
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - os]);
                        final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - os]);
                        a[(V + 1) * sF + z] -= cr * de * tg.sa[j] / (tg.vtb[j] * dFace);
                    }
                    if (third && !wall(2, 2, k)) {
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                        final double de = pressureEnergy(a[E * sF + z]) - pressureEnergy(a[E * sF + z - 1]);
                        a[(V + 2) * sF + z] -= c * de / (h3(i, jOf(m, k)) * dp * dFace);
                    }
                }
            }
        }
    }

    /**
     * ZEUS's pseudo-forces of curvilinear coordinates, from the mean of the four velocities around each face: on
     * the radial faces {@code (v_theta^2 + v_phi^2) / r} (the terms the grid has); on the polar faces of a spherical
     * 3-D grid {@code v_phi^2 cot theta / r}. The velocities' losses as the gas moves are the transport of their
     * angular momenta. The radial loop reads only polar and azimuthal velocities, the polar loop (after it) only
     * azimuthal ones.
     */
    private void centrifugal(final double dt) {
        final int v2 = (V + 1) * sF;
        final int v3 = (V + 2) * sF;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            if (wall(0, rs, r) || g.xa[i] == 0) {
                continue;
            }
            final double c = dt / g.xa[i];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    double f = 0;
                    if (polar) {
                        final double w = 0.25 * (a[v2 + z] + a[v2 + z + os] + a[v2 + z - or] + a[v2 + z - or + os]);
                        f += w * w;
                    }
                    if (turning) {
                        final double u = 0.25 * (a[v3 + z] + a[v3 + z + 1] + a[v3 + z - or] + a[v3 + z - or + 1]);
                        f += u * u;
                    }
                    a[V * sF + z] += c * f;
                }
            }
        }
        if (!(polar && third)) {
            return;
        }
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                final double cot = tg.cot[m + G];
                if (wall(1, 1, m) || cot == 0) {
                    continue;
                }
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double u = 0.25 * (a[v3 + z] + a[v3 + z + 1] + a[v3 + z - os] + a[v3 + z - os + 1]);
                    a[v2 + z] += c * cot * u * u;
                }
            }
        }
    }

    /**
     * Von Neumann-Richtmyer viscosity per direction, q = qcon d (dv)^2 where the flow converges, acting as a
     * pressure: its force as {@link #pressure}'s, its heating {@code -q div v} with the divergence as
     * {@link #heating} makes it (ZEUS's {@code -q dv/dx} is the same on a Cartesian grid and creates energy near a
     * curvilinear origin: a fifth of a spherical blast's). Under the total-energy scheme it heats the separately
     * evolved internal energy ({@link #hb}), the total taking the viscous work in {@link #viscousWork}.
     */
    @Override
    public void viscosity(final double dt) {
        // Along the radius.
        viscousQ(a, V * sF, 0, 1, 0);
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    a[hb + z] -= dt * q[z] * (g.area[i + 1] * a[V * sF + z + or] - g.area[i] * a[V * sF + z])
                        / g.vol[i];
                    if (!wall(0, rs, r)) {
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - or]);
                        a[V * sF + z] -= dt * (q[z] - q[z - or]) * g.area[i] / (g.volb[i] * dFace);
                    }
                }
            }
        }
        if (second) {
            viscousQ(a, (V + 1) * sF, 1, 1, 0);
            secondViscosity(dt);
        }
        if (third) {
            viscousQ(a, (V + 2) * sF, 2, 1, 0);
            thirdViscosity(dt);
        }
    }

    /** Along the second coordinate: its heating q times that coordinate's part of the divergence. */
    private void secondViscosity(final double dt) {
        final int vb = (V + 1) * sF;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final double c = dt / g.g2[r + G];
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final int j = jOf(m, k);
                    a[hb + z] -= c * q[z] * (tg.sa[j + 1] * a[vb + z + os] - tg.sa[j] * a[vb + z]) / tg.vt[j];
                    if (!wall(1, rs + 1, secondIndex(m, k))) {
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - os]);
                        a[vb + z] -= c * (q[z] - q[z - os]) * tg.sa[j] / (tg.vtb[j] * dFace);
                    }
                }
            }
        }
    }

    /** Along the third coordinate, as on a Cartesian grid over the length g31 g32 dphi. */
    private void thirdViscosity(final double dt) {
        final int vb = (V + 2) * sF;
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double c = dt / (h3(i, jOf(m, k)) * dp);
                    a[hb + z] -= c * q[z] * (a[vb + z + 1] - a[vb + z]);
                    if (!wall(2, 2, k)) {
                        final double dFace = 0.5 * (a[D * sF + z] + a[D * sF + z - 1]);
                        a[vb + z] -= c * (q[z] - q[z - 1]) / dFace;
                    }
                }
            }
        }
    }

    /** The divergence of the velocity in zone z (indices i, j): area times velocity over volume along each. */
    private double divergence(final int z, final int i, final int j) {
        double div = (g.area[i + 1] * a[V * sF + z + or] - g.area[i] * a[V * sF + z]) / g.vol[i];
        if (second) {
            final int vz = (V + 1) * sF + z;
            div += (tg.sa[j + 1] * a[vz + os] - tg.sa[j] * a[vz]) / (g.g2[i] * tg.vt[j]);
        }
        if (third) {
            final int vp = (V + 2) * sF + z;
            div += (a[vp + 1] - a[vp]) / (h3(i, j) * dp);
        }
        return div;
    }

    /** Compressional heating, implicit and time-centred (under the total-energy scheme, of {@link #hb}). */
    @Override
    public void heating(final double dt) {
        final double h = 0.5 * dt * (gamma - 1);
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final double c = h * divergence(z, i, jOf(m, k));
                    a[hb + z] *= (1 - c) / (1 + c);
                }
            }
        }
    }

    /**
     * The block's share of the conserved totals (ghosts refreshed): mass, momentum of the face-centred cells per
     * direction, and internal plus kinetic energy (plus the dual-energy field's remainder), each weighted by the real
     * volumes (a face's kinetic energy over
     * its cell: near the origin the zones' volumes differ too much for a half of it to each).
     *
     * @param t receives {@code {mass, momentum..., energy}}, added to
     */
    void totals(final double[] t) {
        for (int r = lo[rs]; r <= hi[rs]; r++) {
            final int i = r + G;
            for (int m = mFirst(0); m <= mLast(0); m++) {
                int z = start(r, m, 0, 0);
                for (int k = kFirst(0, 0); k <= kLast(0, 0); k++, z++) {
                    final int j = jOf(m, k);
                    final double rho = a[D * sF + z];
                    final double across = (second ? tg.vt[j] * tg.norm : 1) * tsh;
                    final double mom = 0.5 * (rho + a[D * sF + z - or]) * a[V * sF + z] * g.volb[i] * across;
                    t[0] += rho * g.vol[i] * across;
                    t[1] += mom;
                    final double e = total ? a[E * sF + z] + a[xb + z] : a[E * sF + z];
                    double energy = e * g.vol[i] * across + 0.5 * mom * a[V * sF + z];
                    if (second) {
                        final double momS = 0.5 * (rho + a[D * sF + z - os]) * a[(V + 1) * sF + z] * g.vol[i]
                            * tg.vtb[j] * tg.norm * tsh;
                        t[2] += momS;
                        energy += 0.5 * momS * a[(V + 1) * sF + z];
                    }
                    if (third) {
                        final double momT = 0.5 * (rho + a[D * sF + z - 1]) * a[(V + 2) * sF + z] * g.vol[i]
                            * tg.vt[j] * tg.norm * tsh;
                        t[3] += momT;
                        energy += 0.5 * momT * a[(V + 2) * sF + z];
                    }
                    t[dims + 1] += energy;
                }
            }
        }
    }
}
