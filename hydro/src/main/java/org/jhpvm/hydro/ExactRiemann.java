package org.jhpvm.hydro;

/**
 * The exact solution of the Riemann problem of the 1-D Euler equations for an ideal gas (Toro, "Riemann Solvers
 * and Numerical Methods for Fluid Dynamics", ch. 4): the star-region pressure by Newton iteration on the pressure
 * function, the star velocity, and sampling of the self-similar solution at {@code x/t}. Vacuum is not handled (the
 * pressure positivity condition is checked). Immutable; the reference for Sod-type hydro problems.
 */
public final class ExactRiemann {
    /**
     * A primitive state: the solver's left and right data, and what {@link ExactRiemann#sample} returns.
     *
     * @param rho density
     * @param u   velocity (along x)
     * @param p   pressure
     */
    public record State(double rho, double u, double p) {
    }

    private final State left;
    private final State right;
    private final double gamma;
    private final double cl;
    private final double cr;
    private final double pStar;
    private final double uStar;

    /**
     * Solves the star region.
     *
     * @param left  state for x &lt; x0
     * @param right state for x &gt; x0
     * @param gamma ratio of specific heats, &gt; 1
     * @throws IllegalArgumentException for non-positive densities or pressures, gamma &lt;= 1, or data that would
     *                                  create a vacuum
     * @throws IllegalStateException    if the pressure iteration does not converge in 100 steps
     */
    public ExactRiemann(final State left, final State right, final double gamma) {
        if (!(gamma > 1) || !(left.rho() > 0) || !(right.rho() > 0) || !(left.p() > 0) || !(right.p() > 0)) {
            throw new IllegalArgumentException("need gamma > 1 and positive densities and pressures: " + left + ", "
                + right + ", gamma " + gamma);
        }
        this.left = left;
        this.right = right;
        this.gamma = gamma;
        this.cl = Math.sqrt(gamma * left.p() / left.rho());
        this.cr = Math.sqrt(gamma * right.p() / right.rho());
        if (2 * (cl + cr) / (gamma - 1) <= right.u() - left.u()) {
            throw new IllegalArgumentException("these states generate a vacuum, which this solver does not handle");
        }
        this.pStar = solvePressure();
        this.uStar = 0.5 * (left.u() + right.u()) + 0.5 * (f(pStar, right, cr) - f(pStar, left, cl));
    }

    /**
     * The pressure between the two waves, the same on both sides of the contact (Toro's p*), found by Newton
     * iteration when this solution was made.
     *
     * @return the star-region pressure
     */
    public double pStar() {
        return pStar;
    }

    /**
     * The velocity of the gas between the two waves, the same on both sides of the contact, which moves with it.
     *
     * @return the star-region (contact) velocity
     */
    public double uStar() {
        return uStar;
    }

    /**
     * The density between the left wave and the contact: behind the shock (Rankine-Hugoniot) if the left wave is a
     * shock, at the rarefaction's tail (isentropic) if it is a rarefaction.
     *
     * @return density left of the contact in the star region
     */
    public double rhoStarLeft() {
        return starDensity(left);
    }

    /**
     * The density between the contact and the right wave: behind the shock (Rankine-Hugoniot) if the right wave is a
     * shock, at the rarefaction's tail (isentropic) if it is a rarefaction.
     *
     * @return density right of the contact in the star region
     */
    public double rhoStarRight() {
        return starDensity(right);
    }

    /**
     * How fast the right wave's front moves, so that it is at {@code x0 + speed * t} at time t (Sod's shock position).
     *
     * @return the speed of the right-moving wave's front: the shock speed, or the rarefaction head
     */
    public double rightWaveSpeed() {
        if (pStar > right.p()) {
            return right.u()
                + cr * Math.sqrt((gamma + 1) / (2 * gamma) * pStar / right.p() + (gamma - 1) / (2 * gamma));
        }
        return right.u() + cr;
    }

    /**
     * How fast the left wave's front moves (negative when it moves left), so that it is at {@code x0 + speed * t} at
     * time t.
     *
     * @return the speed of the left-moving wave's front: the shock speed, or the rarefaction head
     */
    public double leftWaveSpeed() {
        if (pStar > left.p()) {
            return left.u()
                - cl * Math.sqrt((gamma + 1) / (2 * gamma) * pStar / left.p() + (gamma - 1) / (2 * gamma));
        }
        return left.u() - cl;
    }

    private double starDensity(final State k) {
        final double r = pStar / k.p();
        final double g = (gamma - 1) / (gamma + 1);
        if (pStar > k.p()) {
            return k.rho() * (r + g) / (g * r + 1); // behind a shock (Rankine-Hugoniot)
        }
        return k.rho() * Math.pow(r, 1 / gamma); // through a rarefaction (isentropic)
    }

    /** Toro's pressure function f_K and its derivative for one side. */
    private double f(final double p, final State k, final double c) {
        if (p > k.p()) {
            final double a = 2 / ((gamma + 1) * k.rho());
            final double b = (gamma - 1) / (gamma + 1) * k.p();
            return (p - k.p()) * Math.sqrt(a / (p + b));
        }
        return 2 * c / (gamma - 1) * (Math.pow(p / k.p(), (gamma - 1) / (2 * gamma)) - 1);
    }

    private double df(final double p, final State k, final double c) {
        if (p > k.p()) {
            final double a = 2 / ((gamma + 1) * k.rho());
            final double b = (gamma - 1) / (gamma + 1) * k.p();
            return Math.sqrt(a / (b + p)) * (1 - (p - k.p()) / (2 * (b + p)));
        }
        return 1 / (k.rho() * c) * Math.pow(p / k.p(), -(gamma + 1) / (2 * gamma));
    }

    private double solvePressure() {
        // Initial guess: the primitive-variable (PVRS) estimate, kept positive.
        final double pv = 0.5 * (left.p() + right.p())
            - 0.125 * (right.u() - left.u()) * (left.rho() + right.rho()) * (cl + cr);
        double p = Math.max(1e-8 * Math.min(left.p(), right.p()), pv);
        for (int i = 0; i < 100; i++) {
            final double g = f(p, left, cl) + f(p, right, cr) + right.u() - left.u();
            final double next = Math.max(1e-14 * p, p - g / (df(p, left, cl) + df(p, right, cr)));
            if (Math.abs(next - p) <= 1e-14 * (next + p)) {
                return next;
            }
            p = next;
        }
        throw new IllegalStateException("the pressure iteration did not converge for " + left + ", " + right);
    }

    /**
     * The solution at speed {@code s = (x - x0) / t}.
     *
     * @param s the similarity variable
     * @return the state there
     */
    public State sample(final double s) {
        final double g1 = (gamma - 1) / (gamma + 1);
        if (s <= uStar) {
            if (pStar > left.p()) {
                return s <= leftWaveSpeed() ? left : new State(rhoStarLeft(), uStar, pStar);
            }
            final double cStar = cl * Math.pow(pStar / left.p(), (gamma - 1) / (2 * gamma));
            if (s <= left.u() - cl) {
                return left;
            }
            if (s >= uStar - cStar) {
                return new State(rhoStarLeft(), uStar, pStar);
            }
            // Inside the left rarefaction fan.
            final double c = 2 / (gamma + 1) * cl + g1 * (left.u() - s);
            final double u = 2 / (gamma + 1) * (cl + (gamma - 1) / 2 * left.u() + s);
            final double rho = left.rho() * Math.pow(c / cl, 2 / (gamma - 1));
            return new State(rho, u, left.p() * Math.pow(c / cl, 2 * gamma / (gamma - 1)));
        }
        if (pStar > right.p()) {
            return s >= rightWaveSpeed() ? right : new State(rhoStarRight(), uStar, pStar);
        }
        final double cStar = cr * Math.pow(pStar / right.p(), (gamma - 1) / (2 * gamma));
        if (s >= right.u() + cr) {
            return right;
        }
        if (s <= uStar + cStar) {
            return new State(rhoStarRight(), uStar, pStar);
        }
        // Inside the right rarefaction fan.
        final double c = 2 / (gamma + 1) * cr - g1 * (right.u() - s);
        final double u = 2 / (gamma + 1) * (-cr + (gamma - 1) / 2 * right.u() + s);
        final double rho = right.rho() * Math.pow(c / cr, 2 / (gamma - 1));
        return new State(rho, u, right.p() * Math.pow(c / cr, 2 * gamma / (gamma - 1)));
    }
}
