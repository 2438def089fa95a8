package org.jhpvm.hydro;

/**
 * Kelvin-Helmholtz instability in 2-D, the common periodic set-up (e.g. Athena's and Robertson et al.'s): on the
 * periodic unit square a band {@code |y - 1/2| < 1/4} of density 2 moves at +1/2 through gas of density 1 moving
 * at -1/2, pressure 2.5 everywhere, gamma 1.4, seeded with {@code v_y = 0.01 sin(4 pi x)} concentrated on the two
 * shear layers. There is no exact solution: the run reports how much the seed grew (the rolls), and conservation,
 * which the periodic box makes exact for mass and momentum.
 */
final class KelvinHelmholtz implements Problem {
    static final double AMPLITUDE = 0.01;

    private final HydroRun.Spec spec;

    KelvinHelmholtz(final Problem.Params p) {
        p.uniformOnly("kh");
        final int dims = p.dims(2);
        if (dims != 2) {
            throw new IllegalArgumentException("--dims " + dims + ": kh is 2-D");
        }
        final HydroConfig cfg = HydroConfig.cube(2, p.zones(128), p.gamma(1.4), Boundary.PERIODIC);
        final double sigma = 0.05 / Math.sqrt(2);
        final ZeusSolver.Initial init = x -> {
            final boolean band = Math.abs(x[1] - 0.5) < 0.25;
            final double a = x[1] - 0.25;
            final double b = x[1] - 0.75;
            final double seed = StrictMath.exp(-a * a / (2 * sigma * sigma))
                + StrictMath.exp(-b * b / (2 * sigma * sigma));
            return new double[] {band ? 2 : 1, band ? 0.5 : -0.5,
                AMPLITUDE * StrictMath.sin(4 * Math.PI * x[0]) * seed, 2.5};
        };
        this.spec = HydroRun.Spec.toTime(cfg, init, null, p.tEnd(1.0));
    }

    @Override
    public String name() {
        return "kh";
    }

    @Override
    public HydroRun.Spec spec() {
        return spec;
    }

    @Override
    public Analysis analyse(final HydroRun.Snapshot s) {
        final Analysis a = Analysis.empty();
        final int n = s.cfg().zones()[1];
        double vyMax = 0;
        double mixed = 0;
        for (int z = 0; z < s.zones(); z++) {
            vyMax = Math.max(vyMax, Math.abs(s.at(ZeusSolver.V + 1, z)));
            final double rho = s.at(ZeusSolver.D, z);
            if (rho > 1.1 && rho < 1.9) {
                mixed++;
            }
        }
        final double growth = vyMax / AMPLITUDE;
        a.metrics().put("vy_max", vyMax);
        a.metrics().put("vy_growth", growth);
        a.metrics().put("mixed_fraction", mixed / s.zones());
        a.lines().add(String.format("no exact solution; the seed v_y grew %.3g-fold to max |v_y| = %.4g; %.1f%% of the "
            + "zones mixed (1.1 < rho < 1.9)", growth, vyMax, 100 * mixed / s.zones()));
        // A vertical cut through the middle of the box.
        final double[] y = new double[n];
        final double[] rho = new double[n];
        final int i = s.cfg().zones()[0] / 2;
        for (int j = 0; j < n; j++) {
            y[j] = (j + 0.5) * s.cfg().dx(1);
            rho[j] = s.at(ZeusSolver.D, i * n + j);
        }
        a.panels().add(new Panel(String.format("density at x = 1/2, t = %.4g", s.time()), "y", "density", y, rho,
            null, null));
        return a;
    }
}
