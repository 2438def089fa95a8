package org.jhpvm.hydro;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hydro test problem: its set-up ({@link #spec}) and how a finished run is judged ({@link #analyse}).
 */
public interface Problem {
    /** The problems' names. */
    java.util.List<String> NAMES = java.util.List.of("sod", "sedov", "noh", "kh", "blast3d");
    /** The problems that take {@code --geometry} and {@code --ratio} (the others refuse them, naming these). */
    java.util.List<String> CURVILINEAR = java.util.List.of("sod", "sedov", "noh");

    /**
     * The problem {@code jhpvm hydro PROBLEM} runs, set up from the command's options; null options take the
     * problem's defaults.
     *
     * @param name  sod, sedov, noh, kh or blast3d
     * @param p     options
     * @param left  sod's left state
     * @param right sod's right state
     * @param x0    sod's initial discontinuity
     * @return the problem
     * @throws IllegalArgumentException for an unknown name or options the problem does not take
     */
    static Problem of(final String name, final Params p, final ExactRiemann.State left,
        final ExactRiemann.State right, final double x0) {
        return switch (name) {
            case "sod" -> new Sod(p, left, right, x0);
            case "sedov" -> new Sedov(p);
            case "noh" -> new Noh(p);
            case "kh" -> new KelvinHelmholtz(p);
            case "blast3d" -> new Blast3d(p);
            default -> throw new IllegalArgumentException("PROBLEM '" + name + "': one of " + String.join(", ", NAMES));
        };
    }

    /**
     * The name the command line knows the problem by, also used for its output files.
     *
     * @return the problem's name (sod, sedov, noh, kh, blast3d)
     */
    String name();

    /**
     * What to run, for {@link HydroRun#run}.
     *
     * @return grid, initial state, boundaries and end time
     */
    HydroRun.Spec spec();

    /**
     * Judges a finished run: its figures for JSON, the lines to print and the profiles to plot.
     *
     * @param s a finished run with its fields read back
     * @return errors against the exact solution where there is one, and plots
     */
    Analysis analyse(HydroRun.Snapshot s);

    /**
     * The problems' options; null means the problem's default.
     *
     * @param pes      PEs (Sod's transverse zones in 2-D/3-D)
     * @param dims     grid dimensions
     * @param zones    zones per dimension
     * @param tEnd     end time
     * @param gamma    ratio of specific heats
     * @param geometry the coordinates (sod, sedov and noh take curvilinear ones in 1-3 dimensions; spherical ones of
     *                 2-D and 3-D only sedov and noh)
     * @param ratio    the ratio of neighbouring zone widths along the first dimension (sod, sedov, noh)
     */
    record Params(int pes, Integer dims, Integer zones, Double tEnd, Double gamma, Geometry geometry, double ratio) {
        /**
         * Options on a uniform Cartesian grid.
         *
         * @param pes   PEs
         * @param dims  grid dimensions
         * @param zones zones per dimension
         * @param tEnd  end time
         * @param gamma ratio of specific heats
         */
        public Params(final int pes, final Integer dims, final Integer zones, final Double tEnd, final Double gamma) {
            this(pes, dims, zones, tEnd, gamma, Geometry.CARTESIAN, 1);
        }

        /** Refuses a curvilinear or ratioed grid for a problem that has none. */
        void uniformOnly(final String problem) {
            if (geometry != Geometry.CARTESIAN || ratio != 1) {
                throw new IllegalArgumentException(problem + ": --geometry and --ratio are for "
                    + String.join(", ", CURVILINEAR.subList(0, CURVILINEAR.size() - 1)) + " and "
                    + CURVILINEAR.get(CURVILINEAR.size() - 1));
            }
        }

        int dims(final int dflt) {
            return dims == null ? dflt : dims;
        }

        int zones(final int dflt) {
            return zones == null ? dflt : zones;
        }

        double tEnd(final double dflt) {
            return tEnd == null ? dflt : tEnd;
        }

        double gamma(final double dflt) {
            return gamma == null ? dflt : gamma;
        }
    }

    /**
     * The verdict on a run.
     *
     * @param metrics named figures for JSON (l1_density, shock positions, ...), in print order
     * @param lines   what to print
     * @param panels  1-D or radial profiles to plot, with the exact solution where there is one
     */
    record Analysis(Map<String, Double> metrics, List<String> lines, List<Panel> panels) {
        /**
         * A new analysis with empty, modifiable collections that keep the order things are added in.
         *
         * @return an empty analysis to fill
         */
        public static Analysis empty() {
            return new Analysis(new LinkedHashMap<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    /**
     * One plot: a computed profile, and the exact one (or null).
     *
     * @param title  plot title
     * @param xLabel abscissa (x or r)
     * @param yLabel ordinate
     * @param x      computed abscissae
     * @param y      computed values
     * @param xExact exact abscissae, or null
     * @param yExact exact values, or null
     */
    record Panel(String title, String xLabel, String yLabel, double[] x, double[] y, double[] xExact,
                 double[] yExact) {
    }

    /**
     * A radial density profile about the origin, averaged in shells one zone wide.
     *
     * @param r   shell centres
     * @param rho mean density in each shell (NaN where no zone centre falls)
     */
    record Radial(double[] r, double[] rho) {
        /**
         * Bins the run's density by the distance of each zone centre from the origin, in shells as wide as the
         * narrowest zone, out to the farthest corner of the domain (on a 1-D grid of unequal zones, each zone is a
         * shell; on a spherical (r, theta) grid each radial zone, its density the mean over the angles weighted by
         * the zones' volumes).
         *
         * @param s a finished run, its fields read back
         * @return the profile
         */
        public static Radial of(final HydroRun.Snapshot s) {
            final HydroConfig cfg = s.cfg();
            final int dims = cfg.dims();
            if (!cfg.uniform() && (dims == 1 || cfg.geometry() == Geometry.SPHERICAL)) {
                // A 1-D grid of unequal zones, or a spherical radius: each radial zone is its own shell (over the
                // polar angles of (r, theta), the mean weighted by the zones' volumes).
                final int n = cfg.zones()[0];
                final int nt = (int) (s.zones() / cfg.zones()[0]);
                final double[] r = new double[n];
                final double[] rho = new double[n];
                for (int i = 0; i < n; i++) {
                    r[i] = Math.abs(cfg.centre(0, i));
                    double mass = 0;
                    double vol = 0;
                    for (int j = 0; j < nt; j++) {
                        final double v = cfg.zoneVolume(i * nt + j);
                        mass += s.at(ZeusSolver.D, i * nt + j) * v;
                        vol += v;
                    }
                    rho[i] = mass / vol;
                }
                return new Radial(r, rho);
            }
            double width = Double.MAX_VALUE;
            double reach = 0;
            if (!cfg.uniform()) {
                // Ratioed radial zones: shells as wide as the widest zone, so that none is empty.
                width = Math.max(Math.max(cfg.face(1) - cfg.face(0), cfg.face(cfg.zones()[0])
                    - cfg.face(cfg.zones()[0] - 1)), cfg.dx(1));
            }
            // The plane a cylindrical grid turns: its azimuth moves no point away from the origin.
            for (int d = 0; d < (cfg.geometry() == Geometry.CYLINDRICAL ? Math.min(dims, 2) : dims); d++) {
                width = cfg.uniform() ? Math.min(width, cfg.dx(d)) : width;
                final double far = Math.max(Math.abs(cfg.lo()[d]), Math.abs(cfg.hi()[d]));
                reach += far * far;
            }
            final int bins = (int) Math.ceil(Math.sqrt(reach) / width);
            final double[] sum = new double[bins];
            final int[] count = new int[bins];
            final double[] x = new double[dims];
            for (int z = 0; z < s.zones(); z++) {
                s.centre(z, x);
                final int b = (int) (cfg.distance(x) / width);
                sum[b] += s.at(ZeusSolver.D, z);
                count[b]++;
            }
            final double[] r = new double[bins];
            final double[] rho = new double[bins];
            for (int b = 0; b < bins; b++) {
                r[b] = (b + 0.5) * width;
                rho[b] = count[b] == 0 ? Double.NaN : sum[b] / count[b];
            }
            return new Radial(r, rho);
        }

        /**
         * The shock: the outermost place where the profile rises through {@code level} going inwards (linear
         * between shells).
         *
         * @param level density level
         * @return the radius, NaN if the profile never reaches the level
         */
        public double crossing(final double level) {
            for (int b = r.length - 1; b > 0; b--) {
                final double in = rho[b - 1];
                final double out = rho[b];
                if (!Double.isNaN(in) && !Double.isNaN(out) && in >= level && out < level) {
                    return r[b - 1] + (in - level) / (in - out) * (r[b] - r[b - 1]);
                }
            }
            return Double.NaN;
        }

        /**
         * The density peak of the profile, e.g. the compressed shell behind a blast wave's shock.
         *
         * @return the highest shell mean (negative infinity if every shell is empty)
         */
        public double peak() {
            double m = Double.NEGATIVE_INFINITY;
            for (final double v : rho) {
                if (!Double.isNaN(v)) {
                    m = Math.max(m, v);
                }
            }
            return m;
        }
    }

    /**
     * Adds the conservation errors of the run where its boundaries conserve: mass when every face is periodic or a
     * wall; the momentum along a periodic dimension too; total energy then as well, relative, and said to be
     * approximate (ZEUS evolves internal energy: its transport and source terms do not conserve the total exactly).
     *
     * @param s a finished run
     * @param a the analysis to add to
     */
    static void conservation(final HydroRun.Snapshot s, final Analysis a) {
        final HydroConfig cfg = s.cfg();
        final int dims = cfg.dims();
        for (int d = 0; d < dims; d++) {
            for (final Boundary b : new Boundary[] {cfg.lower()[d], cfg.upper()[d]}) {
                if (b != Boundary.PERIODIC && b != Boundary.REFLECT) {
                    a.lines().add("conservation: not checked (" + b.name().toLowerCase(java.util.Locale.ROOT)
                        + " faces let mass, momentum and energy through)");
                    return;
                }
            }
        }
        final double[] t0 = s.before();
        final double[] t1 = s.after();
        final double mass = (t1[0] - t0[0]) / t0[0];
        a.metrics().put("mass_error", mass);
        final StringBuilder line = new StringBuilder(String.format("conservation: mass %.2e (relative)", mass));
        final String[] axis = {"x", "y", "z"};
        for (int d = 0; d < dims; d++) {
            if (cfg.lower()[d] == Boundary.PERIODIC) {
                final double m = t1[1 + d] - t0[1 + d];
                a.metrics().put("momentum_" + axis[d] + "_error", m);
                line.append(String.format(", %s-momentum %.2e (absolute, of %.4g)", axis[d], m, t0[1 + d]));
            }
        }
        final double energy = (t1[dims + 1] - t0[dims + 1]) / t0[dims + 1];
        a.metrics().put("energy_error", energy);
        line.append(cfg.energy() == EnergyScheme.TOTAL
            ? String.format(", total energy %.2e (relative; the total-energy scheme conserves it)", energy)
            : String.format(", total energy %.2e (relative; ZEUS's internal-energy scheme conserves it only "
                + "approximately: --energy total conserves it)", energy));
        a.lines().add(line.toString());
    }

    /**
     * The zones per dimension of {@code sedov} and {@code noh} by default: 400 in 1-D, 128 in 2-D and 48 in 3-D, but
     * fewer on the multi-dimensional grids whose time step the origin sets (the innermost zones' widths along the
     * angles shrink as the square of the resolution, so the cycles grow as its cube): (r, theta) 48, (r, z, phi) 16,
     * (r, theta, phi) 12, so that every default run finishes within a minute on 2 cores (measured with the default
     * 4 PEs: sedov (r, theta) 128^2 took 354 637 cycles and about 15 minutes, 48^2 17 383 cycles and 10 s).
     *
     * @param dims     the grid's dimensions
     * @param geometry its coordinates
     * @return zones per dimension
     */
    static int defaultZones(final int dims, final Geometry geometry) {
        return switch (dims) {
            case 1 -> 400;
            case 2 -> geometry == Geometry.SPHERICAL ? 48 : 128;
            default -> switch (geometry) {
                case CARTESIAN -> 48;
                case CYLINDRICAL -> 16;
                case SPHERICAL -> 12;
            };
        };
    }

    /**
     * How many dimensions a blast or implosion centred on the origin of this grid spreads in: the grid's own
     * (planar, cylindrical, spherical), plus the one a cylindrical radius turns through, or 3 about a spherical
     * radius ((r, z), (r, theta) and their 3-D grids are spherical blasts).
     *
     * @param dims     the grid's dimensions
     * @param geometry its coordinates
     * @return 1, 2 or 3
     */
    static int symmetry(final int dims, final Geometry geometry) {
        return switch (geometry) {
            case CARTESIAN -> dims;
            case CYLINDRICAL -> dims == 1 ? 2 : 3;
            case SPHERICAL -> 3;
        };
    }

    /**
     * The grid of a problem centred on the origin ([0, 1] along every dimension, {@code cube}) on the options'
     * coordinates: a spherical grid's polar angle runs from the axis to the equator, [0, pi/2], so that the grid is
     * the half of the sphere above the symmetry plane, and the azimuth of a 3-D curvilinear grid a quarter turn,
     * [0, pi/2], so that it is an octant as the Cartesian one is.
     *
     * @param cube the unit-cube grid of the problem
     * @param p    the options
     * @return the grid
     */
    static HydroConfig octant(final HydroConfig cube, final Params p) {
        final double[] hi = cube.hi().clone();
        if (p.geometry() == Geometry.SPHERICAL && cube.dims() >= 2) {
            hi[1] = Math.PI / 2;
        }
        if (p.geometry() != Geometry.CARTESIAN && cube.dims() == 3) {
            hi[2] = Math.PI / 2;
        }
        return new HydroConfig(cube.dims(), cube.zones(), cube.lo(), hi, cube.gamma(), cube.cfl(), cube.qcon(),
            cube.lower(), cube.upper()).withGeometry(p.geometry(), p.ratio());
    }
}
