package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.GHOST;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * The ghost zones of one PE's block: the layer's ghost exchange ({@link SolverComm#exchangeGhosts}) fills every
 * field's ghosts from the blocks that own them (periodic dimensions wrap), then the ghosts beyond the grid's physical faces are filled here: copied outwards at an
 * outflow face, mirrored at a wall (the normal velocity odd, 0 on the wall), or taken from the inflow state at their
 * place and time. The solver refreshes them before every substep that reads neighbours.
 */
final class GhostZones extends ZeusBlock {
    private final SolverComm comm;
    // Scratch of face() and inflowFace() (every boundary refresh).
    private final int[] faceLo = new int[3];
    private final int[] faceHi = new int[3];
    private final double[] point = new double[3];
    private final double[] state = new double[5];
    private ZeusSolver.Inflow inflow;
    private boolean totalEnergy;
    /** Fields per zone ({@link HydroConfig#fields}). */
    private final int fields;
    /**
     * Per face (slot times 2, plus 1 for the upper face) of this block that is an {@link Boundary#INFLOW} face, the
     * inflow state of its ghosts at {@link #inflowTime}: the boundary face's velocities (a lower face), then per ghost
     * zone its density, internal and total energy density and face velocities; null for the other faces.
     */
    private final double[][] inflowValues = new double[6][];
    private final double[] inflowTime = new double[6];
    /** Whether the inflow state is kept between the refreshes of a time (the default); false for tests. */
    private boolean keepInflow = true;

    /**
     * @param block this PE's block
     * @param comm  the layer that exchanges the ghosts between blocks
     */
    GhostZones(final ZeusBlock block, final SolverComm comm) {
        super(block);
        this.comm = comm;
        this.fields = cfg.fields();
        java.util.Arrays.fill(inflowTime, Double.NaN);
        for (int dir = 0; owns && dir < dims; dir++) {
            final int s = dir + 3 - dims;
            // The ghost-inclusive extent of the other slots, as face() fills them.
            int across = 1;
            for (int t = 0; t < 3; t++) {
                across *= t == s ? 1 : hi[t] - lo[t] + 1 + 2 * gw[t];
            }
            if (cfg.lower()[dir] == Boundary.INFLOW && lo[s] == 0) {
                inflowValues[2 * s] = new double[across + GHOST * across * (3 + dims)];
            }
            if (cfg.upper()[dir] == Boundary.INFLOW && hi[s] == n[s] - 1) {
                inflowValues[2 * s + 1] = new double[GHOST * across * (3 + dims)];
            }
        }
    }

    /**
     * Evaluates the inflow state once per time and keeps it for the other refreshes of that time (true, the default),
     * or at every refresh (false), so that tests can compare the two bit for bit.
     *
     * @param keep whether to keep the inflow state
     */
    void keepInflow(final boolean keep) {
        this.keepInflow = keep;
    }

    /** Sets the state of the {@link Boundary#INFLOW} faces. */
    void inflow(final ZeusSolver.Inflow f) {
        this.inflow = f;
    }

    /**
     * Says what the energy field holds until said otherwise, for the inflow ghosts: total energy (from the total-energy
     * scheme's pressure work to the end of its cycle) or internal energy.
     *
     * @param total whether it holds total energy
     */
    void totalEnergy(final boolean total) {
        this.totalEnergy = total;
    }

    /**
     * Exchanges every field's ghosts between blocks (with {@code low}, only {@code low[d]} layers below and
     * {@code high[d]} above each block where the layer can), then fills the physical-boundary ghosts, every layer
     * (collective).
     *
     * @param time the time the inflow state is taken at
     * @param low  ghost layers below the block per dimension, or null for every layer
     * @param high ghost layers above the block per dimension (read only with {@code low})
     */
    void update(final double time, final int[] low, final int[] high) {
        if (low == null) {
            comm.exchangeGhosts();
        } else {
            comm.exchangeGhosts(low, high);
        }
        if (!owns) {
            return;
        }
        for (int dir = 0; dir < dims; dir++) {
            final int s = dir + 3 - dims;
            if (cfg.lower()[dir] != Boundary.PERIODIC && lo[s] == 0) {
                face(dir, s, false, cfg.lower()[dir], time);
            }
            if (cfg.upper()[dir] != Boundary.PERIODIC && hi[s] == n[s] - 1) {
                face(dir, s, true, cfg.upper()[dir], time);
            }
        }
    }

    /**
     * Fills the ghost layers beyond one physical face, over the whole ghost-inclusive extent of the other
     * dimensions (so edges and corners are filled too). The face at the upper boundary is the lower face of the
     * first ghost zone: for a wall its normal velocity is 0.
     */
    private void face(final int dir, final int s, final boolean upper, final Boundary type, final double time) {
        final int o = st[s];
        final int edge = upper ? n[s] - 1 : 0;
        final int[] r0 = faceLo;
        final int[] r1 = faceHi;
        for (int t = 0; t < 3; t++) {
            r0[t] = lo[t] - gw[t];
            r1[t] = hi[t] + gw[t];
        }
        r0[s] = edge;
        r1[s] = edge;
        if (type == Boundary.INFLOW) {
            inflowFace(s, upper, r0, r1, time);
            return;
        }
        final boolean wall = type == Boundary.REFLECT;
        for (int i = r0[0]; i <= r1[0]; i++) {
            for (int j = r0[1]; j <= r1[1]; j++) {
                for (int k = r0[2]; k <= r1[2]; k++) {
                    final int z = index(i, j, k); // the active zone at the face
                    for (int f = 0; f < fields; f++) {
                        final int base = f * sF + z;
                        final boolean normal = f == V + dir;
                        for (int g = 1; g <= GHOST; g++) {
                            final int ghost = upper ? base + g * o : base - g * o;
                            if (!wall) {
                                a[ghost] = a[base];
                            } else if (!normal) {
                                a[ghost] = a[upper ? base - (g - 1) * o : base + (g - 1) * o];
                            } else if (upper) {
                                // Faces: n is the wall (0), n+g mirrors n-g.
                                a[ghost] = g == 1 ? 0 : -a[base + o - (g - 1) * o];
                            } else {
                                // Faces: 0 is the wall (0), -g mirrors g.
                                a[base] = 0;
                                a[ghost] = -a[base + g * o];
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * Fills the ghost zones beyond a face from the inflow state at the current time: scalars at the ghost zones'
     * centres, each velocity at the centre of the ghost zone's lower face in its direction (beyond an upper face the
     * first of those is the boundary face itself; at a lower face the boundary face is the first zone's lower face,
     * set here too and then left alone by the updates, as a wall's is). The state is a pure function of place and
     * time, and every refresh of a cycle is at the cycle's start time: it is evaluated at the first refresh of a
     * time and kept ({@link #inflowValues}) for the others, the same values in the same order (Noh's exact state at
     * every refresh had made a 3-D run's inflow faces cost more than its zones).
     */
    private void inflowFace(final int s, final boolean upper, final int[] r0, final int[] r1, final double time) {
        if (inflow == null) {
            throw new IllegalStateException("an INFLOW face needs ZeusSolver.inflow(...)");
        }
        final double[] x = point;
        final double[] c = state;
        final int dir = s - (3 - dims);
        final int f = 2 * s + (upper ? 1 : 0);
        final double[] kept = inflowValues[f];
        final boolean fresh = keepInflow && inflowTime[f] == time;
        int m = 0;
        if (!upper) {
            for (int i = r0[0]; i <= r1[0]; i++) {
                for (int j = r0[1]; j <= r1[1]; j++) {
                    for (int k = r0[2]; k <= r1[2]; k++) {
                        if (!fresh) {
                            faceCentre(dir, i, j, k, x);
                            inflow.at(x, time, c);
                            kept[m] = c[1 + dir];
                        }
                        a[(V + dir) * sF + index(i, j, k)] = kept[m++];
                    }
                }
            }
        }
        for (int g = 1; g <= GHOST; g++) {
            final int layer = upper ? n[s] - 1 + g : -g;
            for (int i = s == 0 ? layer : r0[0]; i <= (s == 0 ? layer : r1[0]); i++) {
                for (int j = s == 1 ? layer : r0[1]; j <= (s == 1 ? layer : r1[1]); j++) {
                    for (int k = s == 2 ? layer : r0[2]; k <= (s == 2 ? layer : r1[2]); k++) {
                        final int z = index(i, j, k);
                        if (!fresh) {
                            centre(i, j, k, x);
                            inflow.at(x, time, c);
                            final double internal = c[dims + 1] / (gamma - 1);
                            // Inflow is not conserved anyway: the kinetic energy of the zone-centre velocity.
                            double withKinetic = internal;
                            for (int v = 0; v < dims; v++) {
                                withKinetic += 0.5 * c[0] * c[1 + v] * c[1 + v];
                            }
                            kept[m] = c[0];
                            kept[m + 1] = internal;
                            kept[m + 2] = withKinetic;
                        }
                        a[D * sF + z] = kept[m];
                        a[E * sF + z] = totalEnergy ? kept[m + 2] : kept[m + 1];
                        if (total) {
                            // During a cycle the separately evolved internal energy; between cycles no remainder.
                            a[xb + z] = totalEnergy ? kept[m + 1] : 0;
                        }
                        m += 3;
                        for (int v = 0; v < dims; v++) {
                            if (!fresh) {
                                faceCentre(v, i, j, k, x);
                                inflow.at(x, time, c);
                                kept[m] = c[1 + v];
                            }
                            a[(V + v) * sF + z] = kept[m++];
                        }
                    }
                }
            }
        }
        inflowTime[f] = time;
    }
}
