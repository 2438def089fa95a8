package org.jhpvm.apps.hydro;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.ga.GopOp;
import org.jhpvm.ga.LocalBlock;

/**
 * A ZEUS-type solver of the ideal-gas Euler equations (Stone &amp; Norman 1992, ZEUS-2D; the hydro part of Zeus-MP)
 * on one PE's block of a Global Array, for 1-, 2- and 3-D Cartesian grids of uniform zones.
 * <p>
 * Staggered mesh: density {@code d} and internal energy density {@code e} at zone centres, the velocity component
 * {@code v[dir]} at the zone's lower face in that direction. All fields live in one GA array of dimensions
 * {@code [2 + dims, n0, (n1, (n2))]}, three ghost layers in the spatial dimensions, never split along the field
 * dimension; one {@code updateGhosts} exchanges every field, then the physical-boundary ghosts are filled here.
 * A cycle: the Courant time step (one global max-reduction: exact, so every PE count gets the same {@code dt});
 * the source step (pressure gradient, von Neumann-Richtmyer artificial viscosity with its heating, compressional
 * heating in ZEUS's time-centred implicit form); the transport step, directionally split in alternating order,
 * with consistent advection (mass fluxes from van Leer-interpolated densities carry the specific energy and the
 * momenta, also van Leer-interpolated). Boundaries are refreshed before every substep that reads neighbours, so
 * every value is computed once, by its owner, from the same inputs whatever the decomposition: the fields are
 * bitwise identical on any number of PEs.
 * <p>
 * Kernels are plain loops over the PE's {@code double[]} block, innermost along the contiguous dimension.
 */
public final class ZeusSolver {
    /** Ghost layers: van Leer interpolation at a face and the new density one zone out need three. */
    public static final int GHOST = 3;
    /** Field number of the density. */
    public static final int D = 0;
    /** Field number of the internal energy density. */
    public static final int E = 1;
    /** Field number of the first velocity component (V + dir). */
    public static final int V = 2;

    private final GlobalArrays ga;
    private final HydroConfig cfg;
    private final GlobalArray u;
    private final int dims;
    private final double gamma;
    private final boolean[] periodic;
    private final double[] a;
    private final int sF;
    // Per slot 0..2 (slot = dir + 3 - dims; the last slot is the contiguous one); unused slots are [0,0], stride 0.
    private final int[] lo = new int[3];
    private final int[] hi = new int[3];
    private final int[] gw = new int[3];
    private final int[] st = new int[3];
    private final int[] n = new int[3];
    private final double[] dx = new double[3];
    private final boolean owns;
    private final double[] q;
    private final double[] mf;
    private final double[] dNew;
    private final double[] eNew;
    private final double[] flux;
    // Scratch ranges of face() (every boundary refresh) and sweep() (every transport sweep).
    private final int[] faceLo = new int[3];
    private final int[] faceHi = new int[3];
    private final int[] sweepLo = new int[3];
    private final int[] sweepHi = new int[3];
    private final double[] maxRate = new double[1];
    private final double[] point = new double[3];
    private final double[] state = new double[5];
    private Inflow inflow;
    private double time;
    private double dtOld;
    private int cycle;

    /**
     * Creates the fields (collective over the world).
     *
     * @param ga  the PE's Global Arrays
     * @param cfg the problem's grid, gas and boundaries
     */
    public ZeusSolver(final GlobalArrays ga, final HydroConfig cfg) {
        this.ga = ga;
        this.cfg = cfg;
        this.dims = cfg.dims();
        this.gamma = cfg.gamma();
        final int[] shape = new int[dims + 1];
        final int[] width = new int[dims + 1];
        final int[] chunk = new int[dims + 1];
        shape[0] = 2 + dims;
        chunk[0] = 2 + dims;
        this.periodic = new boolean[dims + 1];
        for (int d = 0; d < dims; d++) {
            shape[d + 1] = cfg.zones()[d];
            width[d + 1] = GHOST;
            periodic[d + 1] = cfg.lower()[d] == Boundary.PERIODIC;
        }
        this.u = ga.builder(GaType.DOUBLE, shape).ghosts(width).chunk(chunk).name("zeus").create();
        final LocalBlock b = u.access();
        this.a = b.doubles();
        this.owns = !b.isEmpty();
        final int[] strides = b.strides();
        this.sF = strides[0];
        final int[] blo = b.lo();
        final int[] bhi = b.hi();
        for (int s = 0; s < 3; s++) {
            final int d = s - (3 - dims);
            if (d >= 0) {
                lo[s] = blo[d + 1];
                hi[s] = bhi[d + 1];
                gw[s] = GHOST;
                st[s] = strides[d + 1];
                n[s] = cfg.zones()[d];
                dx[s] = (cfg.hi()[d] - cfg.lo()[d]) / cfg.zones()[d];
            } else {
                n[s] = 1;
                dx[s] = 1;
            }
        }
        this.q = new double[sF];
        this.mf = new double[sF];
        this.dNew = new double[sF];
        this.eNew = new double[sF];
        this.flux = new double[sF];
    }

    // ---------------------------------------------------------------- set-up and inspection

    /** The initial state at a point: density, velocity components (at faces), pressure. */
    public interface Initial {
        /**
         * @param x coordinates of the point, one per dimension
         * @return {@code {rho, v0, (v1, (v2)), p}}
         */
        double[] at(double[] x);
    }

    /**
     * Fills this PE's zones: scalars from the state at the zone centre, each velocity component from the state at
     * the centre of the zone's lower face in that direction. For results that are bitwise the same on any number of
     * PEs the function must be too: use {@code StrictMath} for transcendental functions ({@code Math.exp} may
     * differ in the last bit between interpreted and compiled code).
     *
     * @param init the initial state
     */
    public void initialise(final Initial init) {
        if (!owns) {
            return;
        }
        final double[] x = new double[dims];
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                for (int k = lo[2]; k <= hi[2]; k++) {
                    final int z = index(i, j, k);
                    centre(i, j, k, x);
                    final double[] c = init.at(x);
                    a[D * sF + z] = c[0];
                    a[E * sF + z] = c[dims + 1] / (gamma - 1);
                    for (int dir = 0; dir < dims; dir++) {
                        centre(i, j, k, x);
                        x[dir] -= 0.5 * dx[dir + 3 - dims];
                        a[(V + dir) * sF + z] = init.at(x)[1 + dir];
                    }
                }
            }
        }
        u.releaseUpdate();
        ga.sync();
    }

    /** The state that flows in through {@link Boundary#INFLOW} faces, as a function of place and time. */
    public interface Inflow {
        /**
         * Must be a pure function of its arguments (the same bits on every PE: {@code StrictMath}).
         *
         * @param x   coordinates of a point beyond the domain (a ghost zone's centre or face centre)
         * @param t   time
         * @param out receives {@code {rho, v0, (v1, (v2)), p}}
         */
        void at(double[] x, double t, double[] out);
    }

    /**
     * Sets the state of the {@link Boundary#INFLOW} faces (required when the configuration has one).
     *
     * @param f the inflow state
     */
    public void inflow(final Inflow f) {
        this.inflow = f;
    }

    private void centre(final int i, final int j, final int k, final double[] x) {
        for (int d = 0; d < dims; d++) {
            final int s = d + 3 - dims;
            x[d] = cfg.lo()[d] + ((s == 0 ? i : s == 1 ? j : k) + 0.5) * dx[s];
        }
    }

    private int index(final int i, final int j, final int k) {
        return (i - lo[0] + gw[0]) * st[0] + (j - lo[1] + gw[1]) * st[1] + (k - lo[2] + gw[2]) * st[2];
    }

    /** @return the global array of the fields ({@code [field, zones...]}: d, e, v0, v1, v2) */
    public GlobalArray fields() {
        return u;
    }

    /** @return cycles done */
    public int cycles() {
        return cycle;
    }

    /** @return the simulated time reached */
    public double time() {
        return time;
    }

    /**
     * Conserved totals over the grid (collective): mass, momentum per direction (face momenta, each face's density
     * the mean of its two zones), total energy (internal plus kinetic from zone-centred velocities). For
     * conservation checks; the sums' rounding depends on the decomposition.
     *
     * @return {@code {mass, momentum..., energy}}
     */
    public double[] totals() {
        boundary(); // face momenta need the neighbouring zone's current density
        final double[] t = new double[dims + 2];
        if (owns) {
            final double vol = cfg.zoneVolume();
            for (int i = lo[0]; i <= hi[0]; i++) {
                for (int j = lo[1]; j <= hi[1]; j++) {
                    int z = index(i, j, lo[2]);
                    for (int k = lo[2]; k <= hi[2]; k++, z++) {
                        final double rho = a[D * sF + z];
                        double kin = 0;
                        t[0] += rho * vol;
                        for (int dir = 0; dir < dims; dir++) {
                            final int s = dir + 3 - dims;
                            final int vz = (V + dir) * sF + z;
                            t[1 + dir] += 0.5 * (rho + a[D * sF + z - st[s]]) * a[vz] * vol;
                            final double vc = 0.5 * (a[vz] + a[vz + st[s]]);
                            kin += 0.5 * rho * vc * vc;
                        }
                        t[dims + 1] += (a[E * sF + z] + kin) * vol;
                    }
                }
            }
        }
        ga.gop(t, GopOp.SUM);
        return t;
    }

    // ---------------------------------------------------------------- the cycle

    /**
     * Advances to {@code tEnd} (the last step is shortened to land on it).
     *
     * @param t        current time
     * @param tEnd     end time
     * @param progress called after each cycle with the time reached (may be null)
     * @return the time reached (tEnd)
     */
    public double run(final double t, final double tEnd, final java.util.function.DoubleConsumer progress) {
        time = t;
        while (time < tEnd) {
            step(tEnd);
            if (progress != null) {
                progress.accept(time);
            }
        }
        return time;
    }

    /**
     * One cycle from the current time (0 at first, or where {@link #run} left off), never past {@code tEnd}
     * (collective).
     *
     * @param tEnd a time not to step beyond
     * @return the time reached
     */
    public double step(final double tEnd) {
        boundary();
        double dt = courant();
        if (dtOld > 0) {
            dt = Math.min(dt, 1.26 * dtOld); // ZEUS: the time step grows at most 26% per cycle
        }
        dt = Math.min(dt, tEnd - time);
        source(dt);
        transport(dt);
        time = time + dt == time ? tEnd : time + dt;
        dtOld = dt;
        cycle++;
        return time;
    }

    /** Exchanges every field's ghosts between blocks, then fills the physical-boundary ghosts. */
    void boundary() {
        u.updateGhosts(periodic);
        if (!owns) {
            return;
        }
        for (int dir = 0; dir < dims; dir++) {
            final int s = dir + 3 - dims;
            if (cfg.lower()[dir] != Boundary.PERIODIC && lo[s] == 0) {
                face(dir, s, false, cfg.lower()[dir]);
            }
            if (cfg.upper()[dir] != Boundary.PERIODIC && hi[s] == n[s] - 1) {
                face(dir, s, true, cfg.upper()[dir]);
            }
        }
    }

    /**
     * Fills the ghost layers beyond one physical face, over the whole ghost-inclusive extent of the other
     * dimensions (so edges and corners are filled too). The face at the upper boundary is the lower face of the
     * first ghost zone: for a wall its normal velocity is 0.
     */
    private void face(final int dir, final int s, final boolean upper, final Boundary type) {
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
            inflowFace(s, upper, r0, r1);
            return;
        }
        final boolean wall = type == Boundary.REFLECT;
        for (int i = r0[0]; i <= r1[0]; i++) {
            for (int j = r0[1]; j <= r1[1]; j++) {
                for (int k = r0[2]; k <= r1[2]; k++) {
                    final int z = index(i, j, k); // the active zone at the face
                    for (int f = 0; f < 2 + dims; f++) {
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
     * set here too and then left alone by the updates, as a wall's is).
     */
    private void inflowFace(final int s, final boolean upper, final int[] r0, final int[] r1) {
        if (inflow == null) {
            throw new IllegalStateException("an INFLOW face needs ZeusSolver.inflow(...)");
        }
        final double[] x = point;
        final double[] c = state;
        final int dir = s - (3 - dims);
        if (!upper) {
            for (int i = r0[0]; i <= r1[0]; i++) {
                for (int j = r0[1]; j <= r1[1]; j++) {
                    for (int k = r0[2]; k <= r1[2]; k++) {
                        centre(i, j, k, x);
                        x[dir] -= 0.5 * dx[s];
                        inflow.at(x, time, c);
                        a[(V + dir) * sF + index(i, j, k)] = c[1 + dir];
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
                        centre(i, j, k, x);
                        inflow.at(x, time, c);
                        a[D * sF + z] = c[0];
                        a[E * sF + z] = c[dims + 1] / (gamma - 1);
                        for (int v = 0; v < dims; v++) {
                            centre(i, j, k, x);
                            x[v] -= 0.5 * dx[v + 3 - dims];
                            inflow.at(x, time, c);
                            a[(V + v) * sF + z] = c[1 + v];
                        }
                    }
                }
            }
        }
    }

    /** The Courant-limited time step: ZEUS's sum of inverse squares per zone, maximised over the grid. */
    double courant() {
        double worst = 0;
        if (owns) {
            double dmin = Double.MAX_VALUE;
            for (int s = 3 - dims; s < 3; s++) {
                dmin = Math.min(dmin, dx[s]);
            }
            for (int i = lo[0]; i <= hi[0]; i++) {
                for (int j = lo[1]; j <= hi[1]; j++) {
                    int z = index(i, j, lo[2]);
                    for (int k = lo[2]; k <= hi[2]; k++, z++) {
                        final double cs2 = gamma * (gamma - 1) * a[E * sF + z] / a[D * sF + z];
                        double sum = cs2 / (dmin * dmin);
                        double visc = 0;
                        for (int dir = 0; dir < dims; dir++) {
                            final int s = dir + 3 - dims;
                            final int vz = (V + dir) * sF + z;
                            final double vc = 0.5 * (a[vz] + a[vz + st[s]]) / dx[s];
                            sum += vc * vc;
                            visc = Math.max(visc, Math.max(0, a[vz] - a[vz + st[s]]) / dx[s]);
                        }
                        final double qq = 4 * cfg.qcon() * visc;
                        worst = Math.max(worst, sum + qq * qq);
                    }
                }
            }
        }
        final double[] m = maxRate;
        m[0] = worst;
        ga.gop(m, GopOp.MAX);
        if (!(m[0] > 0)) {
            throw new IllegalStateException("no signal speed anywhere: the time step is unbounded");
        }
        return cfg.cfl() / Math.sqrt(m[0]);
    }

    // ---------------------------------------------------------------- source step

    void source(final double dt) {
        if (owns) {
            pressure(dt);
        }
        boundary();
        if (owns) {
            viscosity(dt);
        }
        boundary();
        if (owns) {
            heating(dt);
        }
    }

    /**
     * Whether the lower face of zone index c in slot s is a boundary face whose normal velocity the boundary sets:
     * a wall (0) or an inflow face (the inflow state's).
     */
    private boolean wall(final int dir, final int s, final int c) {
        return c == 0 && (cfg.lower()[dir] == Boundary.REFLECT || cfg.lower()[dir] == Boundary.INFLOW);
    }

    private void pressure(final double dt) {
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
    private void viscosity(final double dt) {
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
    private void heating(final double dt) {
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

    // ---------------------------------------------------------------- transport step

    void transport(final double dt) {
        // Directionally split; the order alternates every cycle (x, y, z then z, y, x).
        for (int m = 0; m < dims; m++) {
            final int dir = cycle % 2 == 0 ? m : dims - 1 - m;
            boundary();
            if (owns) {
                sweep(dir, dt);
            }
        }
    }

    /** The van Leer monotone slope of a cell from its two one-sided differences (harmonic mean, 0 at extrema). */
    private static double slope(final double left, final double right) {
        final double p = left * right;
        return p > 0 ? 2 * p / (left + right) : 0;
    }

    /**
     * The van Leer upwind value at the face between cells {@code z-o} and {@code z} of field {@code f} (offset
     * {@code b}) for a face velocity {@code vel}: the upwind cell's value moved half a cell minus the distance the
     * flow travels in dt, along its limited slope.
     */
    private double upwind(final int b, final int z, final int o, final double vel, final double dtdx) {
        final double xi = vel * dtdx;
        if (vel > 0) {
            final int c = b + z - o;
            return a[c] + 0.5 * (1 - xi) * slope(a[c] - a[c - o], a[c + o] - a[c]);
        }
        final int c = b + z;
        return a[c] - 0.5 * (1 + xi) * slope(a[c] - a[c - o], a[c + o] - a[c]);
    }

    /** As {@link #upwind} for the specific energy e/d. */
    private double upwindSpecific(final int z, final int o, final double vel, final double dtdx) {
        final double xi = vel * dtdx;
        final int c = vel > 0 ? z - o : z;
        final double sm = a[E * sF + c - o] / a[D * sF + c - o];
        final double s0 = a[E * sF + c] / a[D * sF + c];
        final double sp = a[E * sF + c + o] / a[D * sF + c + o];
        final double sl = slope(s0 - sm, sp - s0);
        return vel > 0 ? s0 + 0.5 * (1 - xi) * sl : s0 - 0.5 * (1 + xi) * sl;
    }

    private void sweep(final int dir, final double dt) {
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
        // 2. New density and energy on the zones (and one zone below in every direction, for momenta).
        r1[s] = hi[s];
        for (int i = r0[0]; i <= r1[0]; i++) {
            for (int j = r0[1]; j <= r1[1]; j++) {
                int z = index(i, j, r0[2]);
                for (int k = r0[2]; k <= r1[2]; k++, z++) {
                    dNew[z] = a[D * sF + z] - dtdx * (mf[z + o] - mf[z]);
                    eNew[z] = a[E * sF + z] - dtdx * (flux[z + o] - flux[z]);
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
        // 5. Commit density and energy.
        for (int i = lo[0]; i <= hi[0]; i++) {
            for (int j = lo[1]; j <= hi[1]; j++) {
                int z = index(i, j, lo[2]);
                for (int k = lo[2]; k <= hi[2]; k++, z++) {
                    a[D * sF + z] = dNew[z];
                    a[E * sF + z] = eNew[z];
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
