package org.jhpvm.hydro;

import java.util.Map;

/**
 * Sod's shock tube and any 1-D Riemann problem: (rho, u, p) left and right of x0 on [0, 1], outflow boundaries,
 * along x of a 1-, 2- or 3-D grid (the other dimensions periodic, so a multi-D run must reproduce the 1-D one).
 * Compared with {@link ExactRiemann}: density L1 error and the shock position.
 */
public final class Sod implements Problem {
    private final ExactRiemann exact;
    /** The inner radius of the shell a curvilinear tube lies in: far enough out that the tube is all but planar. */
    static final double SHELL = 1000;
    private final double x0;
    /** Where the tube starts: 0, or {@link #SHELL} on a curvilinear grid. */
    private final double r0;
    private final HydroRun.Spec spec;

    /**
     * A finished run.
     *
     * @param zones    zones along x
     * @param cycles   cycles done
     * @param x        zone centres
     * @param rho      density along x (the first row for multi-D)
     * @param u        velocity at zone centres (the mean of the two faces)
     * @param p        pressure
     * @param exactRho the exact density at the zone centres
     * @param l1       density L1 error
     * @param shockX   the shock position found (where the density crosses the mid value between the two sides
     *                 of the exact shock, searching from the right)
     * @param exactShockX the exact shock position
     * @param seconds  wall time of the integration
     */
    public record Result(int zones, int cycles, double[] x, double[] rho, double[] u, double[] p, double[] exactRho,
                         double l1, double shockX, double exactShockX, double seconds) {
    }

    /**
     * Runs a Riemann problem on [0, 1] to {@code tEnd} in a job of {@code pes} PEs and compares the first x row with
     * the exact solution.
     *
     * @param pes     PEs
     * @param dims    grid dimensions (x is the shock tube)
     * @param zones   zones per dimension along x (transverse dimensions get max({@link ZeusSolver#GHOST}, pes) zones
     *                of the same width)
     * @param left    left state
     * @param right   right state
     * @param x0      initial discontinuity
     * @param gamma   ratio of specific heats
     * @param tEnd    end time
     * @param options job options (fault plan: "fabric.faults.*")
     * @return the result
     * @throws IllegalArgumentException for dims outside 1..3, states {@link ExactRiemann} rejects, or a grid too small
     *                                  (fewer than {@link ZeusSolver#GHOST} zones, or blocks thinner than the ghosts
     *                                  on this many PEs)
     */
    public static Result run(final int pes, final int dims, final int zones, final ExactRiemann.State left,
        final ExactRiemann.State right, final double x0, final double gamma, final double tEnd,
        final Map<String, String> options) {
        return run(pes, dims, zones, left, right, x0, gamma, tEnd, options, null);
    }

    /**
     * As {@link #run(int, int, int, ExactRiemann.State, ExactRiemann.State, double, double, double, Map)}, telling
     * {@code progress} (on PE 0's thread) the simulated time after each cycle.
     *
     * @param pes      PEs
     * @param dims     grid dimensions
     * @param zones    zones along x
     * @param left     left state
     * @param right    right state
     * @param x0       initial discontinuity
     * @param gamma    ratio of specific heats
     * @param tEnd     end time
     * @param options  job options
     * @param progress told the time reached, or null
     * @return the result
     */
    public static Result run(final int pes, final int dims, final int zones, final ExactRiemann.State left,
        final ExactRiemann.State right, final double x0, final double gamma, final double tEnd,
        final Map<String, String> options, final java.util.function.DoubleConsumer progress) {
        final Sod sod = new Sod(new Problem.Params(pes, dims, zones, tEnd, gamma), left, right, x0);
        return sod.result(HydroRun.run(pes, options, sod.spec(), progress));
    }

    /**
     * The problem for {@code jhpvm hydro sod}.
     *
     * @param p     options (defaults: 1-D, 400 zones, t = 0.2, gamma 1.4)
     * @param left  left state
     * @param right right state
     * @param x0    initial discontinuity
     */
    Sod(final Problem.Params p, final ExactRiemann.State left, final ExactRiemann.State right, final double x0) {
        final int dims = p.dims(1);
        final double gamma = p.gamma(1.4);
        final int zones = p.zones(400);
        if (dims < 1 || dims > 3) {
            throw new IllegalArgumentException("--dims " + dims + ": 1, 2 or 3");
        }
        if (p.geometry() == Geometry.SPHERICAL && dims > 1) {
            throw new IllegalArgumentException("sod: --geometry spherical is a tube along the radius, 1-D");
        }
        this.exact = new ExactRiemann(left, right, gamma);
        this.x0 = x0;
        // On a curvilinear grid the tube is a shell far from the centre, where it is all but planar.
        this.r0 = p.geometry() == Geometry.CARTESIAN ? 0 : SHELL;
        final int[] z = new int[dims];
        final double[] lo = new double[dims];
        final double[] hi = new double[dims];
        final Boundary[] lower = new Boundary[dims];
        final Boundary[] upper = new Boundary[dims];
        z[0] = zones;
        lo[0] = r0;
        hi[0] = r0 + 1;
        lower[0] = Boundary.OUTFLOW;
        upper[0] = Boundary.OUTFLOW;
        for (int d = 1; d < dims; d++) {
            z[d] = Math.max(ZeusSolver.GHOST, p.pes());
            hi[d] = z[d] * (1.0 / zones);
            lower[d] = Boundary.PERIODIC;
            upper[d] = Boundary.PERIODIC;
        }
        final HydroConfig cfg = new HydroConfig(dims, z, lo, hi, gamma, 0.5, 2.0, lower, upper)
            .withGeometry(p.geometry(), p.ratio());
        final double r = r0;
        final ZeusSolver.Initial init = x -> {
            final ExactRiemann.State s = x[0] - r < x0 ? left : right;
            final double[] c = new double[dims + 2];
            c[0] = s.rho();
            c[1] = s.u();
            c[dims + 1] = s.p();
            return c;
        };
        this.spec = HydroRun.Spec.toTime(cfg, init, null, p.tEnd(0.2));
    }

    @Override
    public String name() {
        return "sod";
    }

    @Override
    public HydroRun.Spec spec() {
        return spec;
    }

    /** Reads the first x row of every field and compares with the exact solution. */
    Result result(final HydroRun.Snapshot s) {
        final HydroConfig cfg = s.cfg();
        final int n = cfg.zones()[0];
        final int stride = (int) (s.zones() / n);
        final double t = s.time();
        final double dx = cfg.dx(0);
        final double[] x = new double[n];
        final double[] d = new double[n];
        final double[] u = new double[n];
        final double[] p = new double[n];
        final double[] ex = new double[n];
        double l1 = 0;
        for (int i = 0; i < n; i++) {
            final int z = i * stride;
            // Positions and widths along the tube, from its start (the shell's inner radius when curvilinear).
            x[i] = cfg.uniform() ? (i + 0.5) * dx : cfg.centre(0, i) - r0;
            final double w = cfg.uniform() ? dx : cfg.face(i + 1) - cfg.face(i);
            d[i] = s.at(ZeusSolver.D, z);
            u[i] = s.centredVelocity(0, z);
            p[i] = (cfg.gamma() - 1) * s.at(ZeusSolver.E, z);
            ex[i] = exact.sample((x[i] - x0) / t).rho();
            l1 += Math.abs(d[i] - ex[i]) * w;
        }
        final double shockExact = x0 + exact.rightWaveSpeed() * t;
        final double mid = 0.5 * (exact.rhoStarRight() + exact.sample(1e9).rho());
        double shock = Double.NaN;
        for (int i = n - 1; i > 0; i--) {
            if ((d[i - 1] - mid) * (d[i] - mid) <= 0 && d[i - 1] != d[i]) {
                final double gap = cfg.uniform() ? dx : x[i] - x[i - 1];
                shock = x[i - 1] + (mid - d[i - 1]) / (d[i] - d[i - 1]) * gap;
                break;
            }
        }
        return new Result(n, s.cycles(), x, d, u, p, ex, l1, shock, shockExact, s.seconds());
    }

    @Override
    public Analysis analyse(final HydroRun.Snapshot s) {
        final Result r = result(s);
        final Analysis a = Analysis.empty();
        a.metrics().put("l1_density", r.l1());
        a.metrics().put("shock_x", r.shockX());
        a.metrics().put("shock_x_exact", r.exactShockX());
        a.lines().add(String.format("density L1 error against the exact solution: %.5g", r.l1()));
        a.lines().add(String.format("shock at x = %.5f, exact %.5f (%.2f zones)", r.shockX(), r.exactShockX(),
            (r.shockX() - r.exactShockX()) / s.cfg().dx(0)));
        final int m = 1000;
        final double[] xe = new double[m];
        final double[][] ye = new double[3][m];
        for (int i = 0; i < m; i++) {
            xe[i] = (i + 0.5) / m;
            final ExactRiemann.State e = exact.sample((xe[i] - x0) / s.time());
            ye[0][i] = e.rho();
            ye[1][i] = e.u();
            ye[2][i] = e.p();
        }
        final String[] names = {"density", "velocity", "pressure"};
        final double[][] ys = {r.rho(), r.u(), r.p()};
        for (int k = 0; k < 3; k++) {
            a.panels().add(new Panel(String.format("%s at t = %.4g", names[k], s.time()), "x", names[k], r.x(), ys[k],
                xe, ye[k]));
        }
        return a;
    }
}
