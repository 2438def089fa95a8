package org.jhpvm.apps.hydro;

import java.time.Duration;
import java.util.Map;

import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;

/**
 * Sod's shock tube and any 1-D Riemann problem: (rho, u, p) left and right of x0 on [0, 1], outflow boundaries,
 * along x of a 1-, 2- or 3-D grid (the other dimensions periodic, so a multi-D run must reproduce the 1-D one).
 * Compared with {@link ExactRiemann}: density L1 error and the shock position.
 */
public final class Sod {
    private Sod() {
    }

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
     * @param pes     PEs
     * @param dims    grid dimensions (x is the shock tube)
     * @param zones   zones per dimension along x (transverse dimensions get {@link ZeusSolver#GHOST} zones)
     * @param left    left state
     * @param right   right state
     * @param x0      initial discontinuity
     * @param gamma   ratio of specific heats
     * @param tEnd    end time
     * @param options job options (fault plan: "fabric.faults.*")
     * @return the result
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
        final ExactRiemann exact = new ExactRiemann(left, right, gamma);
        final int[] z = new int[dims];
        final double[] lo = new double[dims];
        final double[] hi = new double[dims];
        final Boundary[] lower = new Boundary[dims];
        final Boundary[] upper = new Boundary[dims];
        z[0] = zones;
        hi[0] = 1;
        lower[0] = Boundary.OUTFLOW;
        upper[0] = Boundary.OUTFLOW;
        for (int d = 1; d < dims; d++) {
            z[d] = Math.max(ZeusSolver.GHOST, pes);
            hi[d] = z[d] * (1.0 / zones);
            lower[d] = Boundary.PERIODIC;
            upper[d] = Boundary.PERIODIC;
        }
        final HydroConfig cfg = new HydroConfig(dims, z, lo, hi, gamma, 0.5, 2.0, lower, upper);
        final Result[] out = new Result[1];
        final ShmemJob.Builder job = ShmemJob.builder().pes(pes).timeout(Duration.ofMinutes(10));
        options.forEach(job::option);
        job.build().run(sh -> {
            final GlobalArrays ga = new GlobalArrays(sh);
            final ZeusSolver zeus = new ZeusSolver(ga, cfg);
            zeus.initialise(x -> {
                final ExactRiemann.State s = x[0] < x0 ? left : right;
                final double[] c = new double[dims + 2];
                c[0] = s.rho();
                c[1] = s.u();
                c[dims + 1] = s.p();
                return c;
            });
            final long t0 = System.nanoTime();
            zeus.run(0, tEnd, ga.nodeid() == 0 ? progress : null);
            final double seconds = (System.nanoTime() - t0) / 1e9;
            ga.sync();
            if (ga.nodeid() == 0) {
                out[0] = result(zeus, cfg, exact, x0, tEnd, seconds);
            }
            ga.sync();
        });
        return out[0];
    }

    /** Reads the first x row of every field (one-sided gets from PE 0) and compares with the exact solution. */
    private static Result result(final ZeusSolver zeus, final HydroConfig cfg, final ExactRiemann exact,
        final double x0, final double t, final double seconds) {
        final int n = cfg.zones()[0];
        final int dims = cfg.dims();
        final GlobalArray f = zeus.fields();
        final double[] d = row(f, ZeusSolver.D, n, dims);
        final double[] e = row(f, ZeusSolver.E, n, dims);
        final double[] v = rowWithUpperFace(f, n, dims);
        final double dx = cfg.dx(0);
        final double[] x = new double[n];
        final double[] u = new double[n];
        final double[] p = new double[n];
        final double[] ex = new double[n];
        double l1 = 0;
        for (int i = 0; i < n; i++) {
            x[i] = (i + 0.5) * dx;
            u[i] = 0.5 * (v[i] + v[i + 1]);
            p[i] = (cfg.gamma() - 1) * e[i];
            ex[i] = exact.sample((x[i] - x0) / t).rho();
            l1 += Math.abs(d[i] - ex[i]) * dx;
        }
        final double shockExact = x0 + exact.rightWaveSpeed() * t;
        final double mid = 0.5 * (exact.rhoStarRight() + exact.sample(1e9).rho());
        double shock = Double.NaN;
        for (int i = n - 1; i > 0; i--) {
            if ((d[i - 1] - mid) * (d[i] - mid) <= 0 && d[i - 1] != d[i]) {
                shock = x[i - 1] + (mid - d[i - 1]) / (d[i] - d[i - 1]) * dx;
                break;
            }
        }
        return new Result(n, zeus.cycles(), x, d, u, p, ex, l1, shock, shockExact, seconds);
    }

    private static int[] rowLo(final int field, final int dims) {
        final int[] lo = new int[dims + 1];
        lo[0] = field;
        return lo;
    }

    private static double[] row(final GlobalArray f, final int field, final int n, final int dims) {
        final int[] lo = rowLo(field, dims);
        final int[] hi = lo.clone();
        hi[1] = n - 1;
        final double[] out = new double[n];
        final int[] ld = new int[dims];
        java.util.Arrays.fill(ld, 1);
        ld[0] = n;
        f.get(lo, hi, out, ld);
        return out;
    }

    /** The x velocities of the n faces of the row, plus the upper boundary face (outflow: equal to the last). */
    private static double[] rowWithUpperFace(final GlobalArray f, final int n, final int dims) {
        final double[] v = row(f, ZeusSolver.V, n, dims);
        final double[] w = java.util.Arrays.copyOf(v, n + 1);
        w[n] = v[n - 1];
        return w;
    }
}
