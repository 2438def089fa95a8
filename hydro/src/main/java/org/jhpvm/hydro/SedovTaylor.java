package org.jhpvm.hydro;

/**
 * The Sedov-Taylor self-similar blast wave in a cold uniform gas: a point energy {@code E} released at t = 0 in gas
 * of density {@code rho0}; the strong shock is at {@code R(t) = xi0 (E t^2 / rho0)^(1 / (nu + 2))} for planar
 * ({@code nu = 1}, E per unit area over both sides), cylindrical ({@code nu = 2}, E per unit length) and spherical
 * ({@code nu = 3}) symmetry.
 * <p>
 * The profile is found by integrating the similarity equations from the shock inwards, not from tables: with
 * {@code lambda = r / R}, {@code u = R' U(lambda)}, {@code rho = rho0 G(lambda)}, {@code p = rho0 R'^2 P(lambda)}
 * and {@code R ~ t^delta}, {@code delta = 2 / (nu + 2)}, the Euler equations become three linear equations in
 * {@code G', U', P'}:
 * <pre>
 *   (U - l) G' + G U' = -j G U / l                                (mass, j = nu - 1)
 *   (U - l) U' + P' / G = (1 - delta) / delta U                   (momentum)
 *   (U - l) (P' / P - gamma G' / G) = 2 (1 - delta) / delta       (entropy)
 * </pre>
 * from the strong-shock jump {@code U = P = 2 / (gamma + 1)}, {@code G = (gamma + 1) / (gamma - 1)} at l = 1 (RK4).
 * The energy integral {@code alpha = sigma delta^2 int (G U^2 / 2 + P / (gamma - 1)) l^j dl} ({@code sigma} = 2,
 * 2 pi, 4 pi) gives {@code E = alpha rho0 R^(nu + 2) / t^2}, so {@code xi0 = alpha^(-1 / (nu + 2))}. For gamma
 * 1.4 this gives alpha = 1.0775, 0.9841, 0.8511 (Kamm &amp; Timmes 2007 quote 0.9840 and 0.8511, and 0.5385 for
 * the planar energy of one side).
 */
public final class SedovTaylor {
    private static final int STEPS = 20_000;
    /** Below this the post-shock layer is so thin that the inward integration fails (alpha NaN near 1). */
    static final double MIN_GAMMA = 1.1;
    /** From gamma 7 on, the spherical solution has a vacuum core, which integrating inwards does not produce. */
    static final double MAX_GAMMA = 5;

    private final double gamma;
    private final int nu;
    private final double alpha;
    private final double[] g = new double[STEPS + 1];

    /**
     * Integrates the similarity profile and the energy integral for one gas and symmetry (20,000 RK4 steps, done
     * once here; the queries below are cheap).
     *
     * @param gamma ratio of specific heats (&gt; 1), from 1.1 to 5 (below, the inward integration fails; towards 7
     *              the spherical solution gets a vacuum core, which it cannot produce)
     * @param nu    1 planar, 2 cylindrical, 3 spherical
     * @throws IllegalArgumentException if gamma is outside 1.1..5 or nu outside 1..3
     * @throws IllegalStateException    if the integration does not give a positive, finite alpha and a density that
     *                                  falls monotonically from the shock to the centre
     */
    public SedovTaylor(final double gamma, final int nu) {
        if (!(gamma >= MIN_GAMMA && gamma <= MAX_GAMMA) || nu < 1 || nu > 3) {
            throw new IllegalArgumentException("Sedov-Taylor reference: need " + MIN_GAMMA + " <= gamma <= "
                + MAX_GAMMA + " (got " + gamma + ") and 1, 2 or 3 dimensions (got " + nu + ")");
        }
        this.gamma = gamma;
        this.nu = nu;
        final int j = nu - 1;
        final double delta = 2.0 / (nu + 2);
        final double h = 1.0 / STEPS;
        final double[] y = {(gamma + 1) / (gamma - 1), 2 / (gamma + 1), 2 / (gamma + 1)};
        final double[][] k = new double[4][3];
        final double[] tmp = new double[3];
        double integral = 0;
        double prev = integrand(y, 1, j);
        g[STEPS] = y[0];
        for (int step = STEPS; step > 1; step--) {
            final double l = step * h;
            // RK4 inwards (dl = -h), down to l = h: the equations are singular at the centre itself.
            derivative(l, y, j, delta, k[0]);
            axpy(y, -0.5 * h, k[0], tmp);
            derivative(l - 0.5 * h, tmp, j, delta, k[1]);
            axpy(y, -0.5 * h, k[1], tmp);
            derivative(l - 0.5 * h, tmp, j, delta, k[2]);
            axpy(y, -h, k[2], tmp);
            derivative(l - h, tmp, j, delta, k[3]);
            for (int c = 0; c < 3; c++) {
                y[c] -= h / 6 * (k[0][c] + 2 * k[1][c] + 2 * k[2][c] + k[3][c]);
            }
            g[step - 1] = y[0];
            final double next = integrand(y, l - h, j);
            integral += 0.5 * h * (prev + next);
            prev = next;
        }
        // The centre: no density (G ~ l^((j + 1) / (gamma - 1))) and no velocity; the pressure stays finite.
        g[0] = 0;
        integral += 0.5 * h * (prev + (j == 0 ? y[2] / (gamma - 1) : 0));
        final double sigma = nu == 1 ? 2 : nu == 2 ? 2 * Math.PI : 4 * Math.PI;
        this.alpha = sigma * delta * delta * integral;
        // The solution must be a density falling monotonically from the shock to the centre, never negative.
        boolean sound = Double.isFinite(alpha) && alpha > 0;
        for (int i = 0; i < STEPS && sound; i++) {
            sound = g[i] >= -1e-12 && g[i] <= g[i + 1] + 1e-12;
        }
        if (!sound) {
            throw new IllegalStateException("the Sedov-Taylor integration failed for gamma " + gamma + " in " + nu
                + "-D");
        }
    }

    private double integrand(final double[] y, final double l, final int j) {
        return (0.5 * y[0] * y[1] * y[1] + y[2] / (gamma - 1)) * Math.pow(l, j);
    }

    private static void axpy(final double[] y, final double a, final double[] k, final double[] out) {
        for (int c = 0; c < 3; c++) {
            out[c] = y[c] + a * k[c];
        }
    }

    /** dG/dl, dU/dl, dP/dl from the three similarity equations. */
    private void derivative(final double l, final double[] y, final int j, final double delta, final double[] d) {
        final double gg = y[0];
        final double uu = y[1];
        final double pp = y[2];
        final double w = uu - l;
        final double a = (1 - delta) / delta * uu;
        final double b = 2 * (1 - delta) / delta;
        final double du = (a * w * gg - pp * b + gamma * j * pp * uu / l) / (w * w * gg - gamma * pp);
        final double dg = (-j * gg * uu / l - gg * du) / w;
        d[0] = dg;
        d[1] = du;
        d[2] = pp * b / w + gamma * pp / gg * dg;
    }

    /**
     * The dimensionless energy of the similarity solution (for gamma 1.4: 1.0775, 0.9841, 0.8511 for nu = 1, 2, 3).
     *
     * @return alpha in {@code E = alpha rho0 R^(nu + 2) / t^2}
     */
    public double alpha() {
        return alpha;
    }

    /**
     * The constant of the shock's law of motion, {@code alpha^(-1 / (nu + 2))}.
     *
     * @return xi0 in {@code R = xi0 (E t^2 / rho0)^(1 / (nu + 2))}
     */
    public double xi0() {
        return Math.pow(alpha, -1.0 / (nu + 2));
    }

    /**
     * Where the shock is at a time after the blast.
     *
     * @param energy blast energy (planar: per unit area, both sides; cylindrical: per unit length)
     * @param rho0   ambient density
     * @param t      time
     * @return the shock radius
     */
    public double radius(final double energy, final double rho0, final double t) {
        return xi0() * Math.pow(energy * t * t / rho0, 1.0 / (nu + 2));
    }

    /**
     * When the shock reaches a radius: the inverse of {@link #radius}, with which a problem picks its end time.
     *
     * @param energy blast energy (as for {@link #radius})
     * @param rho0   ambient density
     * @param radius a shock radius
     * @return the time at which the shock is at {@code radius}
     */
    public double time(final double energy, final double rho0, final double radius) {
        return Math.sqrt(Math.pow(radius / xi0(), nu + 2) * rho0 / energy);
    }

    /**
     * The exact density at a distance from the centre, interpolated linearly in the tabulated profile.
     *
     * @param r      distance from the centre
     * @param radius shock radius at this time
     * @param rho0   ambient density
     * @return the density at r (ambient beyond the shock)
     */
    public double density(final double r, final double radius, final double rho0) {
        if (r >= radius) {
            return rho0;
        }
        final double x = r / radius * STEPS;
        final int i = (int) x;
        final double f = x - i;
        return rho0 * (i >= STEPS ? g[STEPS] : g[i] * (1 - f) + g[i + 1] * f);
    }
}
