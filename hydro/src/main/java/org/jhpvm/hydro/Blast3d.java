package org.jhpvm.hydro;

/**
 * A 3-D blast wave, the scaling workload (Zeus-MP's figures were blast waves too): a sphere of radius 0.1 at the
 * centre of a periodic box at pressure 10 in gas at pressure 0.1, density 1 everywhere, gamma 5/3. The box is
 * {@code zones / block} units on a side, {@code block} zones per unit, so a weak-scaling run keeps the zone size and
 * grows the box with the PEs ({@link #weak}). No exact solution: the run reports conservation (exact for mass and
 * momentum in the periodic box) and the mid-plane density image.
 */
public final class Blast3d implements Problem {
    private final HydroRun.Spec spec;

    Blast3d(final Problem.Params p) {
        this(p, null);
    }

    /**
     * @param p     options
     * @param zones zones per dimension (a weak-scaling box), or null for a cube of {@code p.zones()}
     */
    Blast3d(final Problem.Params p, final int[] zones) {
        p.uniformOnly("blast3d");
        final int dims = p.dims(3);
        if (dims != 3) {
            throw new IllegalArgumentException("--dims " + dims + ": blast3d is 3-D");
        }
        final int block = p.zones(48);
        final int[] z = zones == null ? new int[] {block, block, block} : zones;
        final double[] lo = new double[3];
        final double[] hi = new double[3];
        final double[] centre = new double[3];
        final Boundary[] b = new Boundary[3];
        for (int d = 0; d < 3; d++) {
            hi[d] = (double) z[d] / block;
            centre[d] = 0.5 * hi[d];
            b[d] = Boundary.PERIODIC;
        }
        final HydroConfig cfg = new HydroConfig(3, z, lo, hi, p.gamma(5.0 / 3), 0.5, 2.0, b, b.clone());
        final ZeusSolver.Initial init = x -> {
            double r2 = 0;
            for (int d = 0; d < 3; d++) {
                r2 += (x[d] - centre[d]) * (x[d] - centre[d]);
            }
            return new double[] {1, 0, 0, 0, r2 < 0.01 ? 10 : 0.1};
        };
        this.spec = HydroRun.Spec.toTime(cfg, init, null, p.tEnd(0.2));
    }

    /**
     * The weak-scaling box for {@code pes} PEs of {@code block}^3 zones each: the PEs' factors of 2 (then the rest)
     * spread over the dimensions in turn, as GA's block grid splits it, so every PE owns one cube.
     *
     * @param pes   PEs
     * @param block zones per PE per dimension
     * @return zones per dimension
     */
    public static int[] weak(final int pes, final int block) {
        final int[] z = {block, block, block};
        int rest = pes;
        int d = 0;
        for (int f = 2; rest > 1; ) {
            if (rest % f == 0) {
                z[d] *= f;
                d = (d + 1) % 3;
                rest /= f;
            } else {
                f++;
            }
        }
        return z;
    }

    /**
     * A cycle-count run of the weak-scaling box: fields not read back.
     *
     * @param pes    PEs
     * @param block  zones per PE per dimension
     * @param warmup untimed cycles
     * @param cycles timed cycles
     * @return the spec
     */
    public static HydroRun.Spec scaling(final int pes, final int block, final int warmup, final int cycles) {
        final HydroRun.Spec s = new Blast3d(new Problem.Params(pes, 3, block, null, null), weak(pes, block)).spec();
        return new HydroRun.Spec(s.cfg(), s.initial(), null, 0, warmup, cycles, false);
    }

    @Override
    public String name() {
        return "blast3d";
    }

    @Override
    public HydroRun.Spec spec() {
        return spec;
    }

    @Override
    public Analysis analyse(final HydroRun.Snapshot s) {
        final Analysis a = Analysis.empty();
        double max = 0;
        for (int z = 0; z < s.zones(); z++) {
            max = Math.max(max, s.at(ZeusSolver.D, z));
        }
        a.metrics().put("rho_max", max);
        a.lines().add(String.format("no exact solution; peak density %.4g", max));
        return a;
    }
}
