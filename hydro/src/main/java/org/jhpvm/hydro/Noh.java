package org.jhpvm.hydro;

/**
 * Noh's implosion (Noh 1987) in 1-D (planar), 2-D (cylindrical) or 3-D (spherical), or on a 1-D cylindrical or
 * spherical grid ({@code --geometry}, where {@code dims} below reads as 2 or 3): cold gas (density 1, pressure
 * 1e-6, gamma 5/3) flowing at speed 1 towards the origin. A shock stands off the origin and moves out at
 * {@code (gamma - 1) / 2 = 1/3}; inside it the gas is at rest with density {@code ((gamma + 1) / (gamma - 1))^dims}
 * (4, 16, 64); outside, the converging flow has compressed the gas to {@code (1 + t / r)^(dims - 1)}. The grid is
 * [0, 1]^dims with walls on the lower faces (the symmetry planes) and the exact inflowing state on the upper faces.
 * Judged on the density L1 error and the shock radius (where the shell-averaged density crosses the mean of the
 * exact pre-shock density and the exact post-shock density, or the profile's peak if that is lower). ZEUS's
 * artificial viscosity leaves the well-known "wall heating" density dip at the origin; it is part of the error
 * reported.
 */
final class Noh implements Problem {
    static final double P0 = 1e-6;

    private final int dims;
    /** 1 planar, 2 cylindrical, 3 spherical: the dimensions, or the geometry of a curvilinear 1-D grid. */
    private final int nu;
    private final double gamma;
    /** Spherical: the flow is along the radius; cylindrical: in the (r, z) plane, no azimuthal velocity. */
    private final Geometry geometry;
    private final HydroConfig cfg;
    private final HydroRun.Spec spec;

    Noh(final Problem.Params p) {
        this.dims = p.dims(2);
        this.gamma = p.gamma(5.0 / 3);
        if (dims < 1 || dims > 3) {
            throw new IllegalArgumentException("--dims " + dims + ": 1, 2 or 3");
        }
        this.nu = Problem.symmetry(dims, p.geometry());
        this.geometry = p.geometry();
        final int n = p.zones(Problem.defaultZones(dims, p.geometry()));
        final HydroConfig base = HydroConfig.cube(dims, n, gamma, Boundary.REFLECT);
        final Boundary[] upper = new Boundary[dims];
        java.util.Arrays.fill(upper, Boundary.INFLOW);
        if (geometry == Geometry.SPHERICAL && dims >= 2) {
            upper[1] = Boundary.REFLECT; // the equator of (r, theta): the symmetry plane
        }
        if (geometry != Geometry.CARTESIAN && dims == 3) {
            upper[2] = Boundary.REFLECT; // the octant's other azimuthal plane
        }
        final HydroConfig octant = Problem.octant(base, p);
        this.cfg = new HydroConfig(dims, base.zones(), base.lo(), octant.hi(), gamma, base.cfl(), base.qcon(),
            base.lower(), upper).withGeometry(p.geometry(), p.ratio());
        final ZeusSolver.Initial init = x -> {
            final double[] c = new double[dims + 2];
            state(x, 0, c);
            return c;
        };
        this.spec = HydroRun.Spec.toTime(cfg, init, this::state, p.tEnd(0.6));
    }

    /** The exact solution at a point: {rho, v..., p}. */
    void state(final double[] x, final double t, final double[] out) {
        final double r = cfg.distance(x);
        final double shock = (gamma - 1) / 2 * t;
        if (r < shock) {
            out[0] = StrictMath.pow((gamma + 1) / (gamma - 1), nu); // inflow ghosts may be inside the shock
            for (int d = 0; d < dims; d++) {
                out[1 + d] = 0;
            }
            out[dims + 1] = (gamma - 1) * out[0] * 0.5;
            return;
        }
        final double rho = r == 0 ? 1 : StrictMath.pow(1 + t / r, nu - 1);
        out[0] = rho;
        for (int d = 0; d < dims; d++) {
            out[1 + d] = r == 0 ? 0 : switch (geometry) {
                case CARTESIAN -> -x[d] / r;
                case CYLINDRICAL -> d < 2 ? -x[d] / r : 0;
                case SPHERICAL -> d == 0 ? -1 : 0;
            };
        }
        out[dims + 1] = P0 * StrictMath.pow(rho, gamma);
    }

    @Override
    public String name() {
        return "noh";
    }

    @Override
    public HydroRun.Spec spec() {
        return spec;
    }

    @Override
    public Analysis analyse(final HydroRun.Snapshot s) {
        final Analysis a = Analysis.empty();
        final double t = s.time();
        final double shockExact = (gamma - 1) / 2 * t;
        final double inside = Math.pow((gamma + 1) / (gamma - 1), nu);
        final double outside = Math.pow(1 + 2 / (gamma - 1), nu - 1);
        final Radial prof = Radial.of(s);
        // Under-resolved (3-D at a few dozen zones) the plateau stays below the exact density: then the level is
        // half-way to the peak reached.
        final double shock = prof.crossing(0.5 * (outside + Math.min(inside, prof.peak())));
        final double[] c = new double[dims + 2];
        final double l1 = s.l1Density(x -> {
            state(x, t, c);
            return c[0];
        });
        a.metrics().put("l1_density", l1);
        a.metrics().put("shock_radius", shock);
        a.metrics().put("shock_radius_exact", shockExact);
        a.lines().add(String.format("density L1 error against Noh's solution: %.5g", l1));
        a.lines().add(String.format("shock at r = %.5f, exact %.5f (%.2f zones); post-shock density exact %.4g",
            shock, shockExact, (shock - shockExact) / s.cfg().dx(0), inside));
        final int m = 1000;
        final double reach = prof.r()[prof.r().length - 1];
        final double[] re = new double[m];
        final double[] rhoE = new double[m];
        final double[] p = new double[dims];
        for (int i = 0; i < m; i++) {
            re[i] = (i + 0.5) / m * reach;
            p[0] = re[i];
            state(p, t, c);
            rhoE[i] = c[0];
        }
        a.panels().add(new Panel("density at t = " + String.format("%.4g", t) + (dims > 1 ? " (shell means)" : ""),
            nu > 1 ? "r" : "x", "density", prof.r(), prof.rho(), re, rhoE));
        return a;
    }
}
