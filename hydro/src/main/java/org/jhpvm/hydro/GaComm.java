package org.jhpvm.hydro;

import java.util.Arrays;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.ga.GopOp;
import org.jhpvm.ga.LocalBlock;

/**
 * The solver on Global Arrays ({@code hydro --comm ga}, the default): every field in one GA array of dimensions
 * {@code [fields, zones...]} ({@link HydroConfig#fields}), never split along the field dimension, distributed by GA; GA's {@code updateGhosts}
 * exchanges the ghosts, {@code gop} reduces, and PE 0 reads or writes the whole array with one {@code get} or
 * {@code put}.
 */
final class GaComm implements SolverComm {
    private final GlobalArrays ga;
    private final GlobalArray u;
    private final boolean[] periodic;
    // Scratch of the partial exchange: widths per array dimension.
    private final int[] lowWidths;
    private final int[] highWidths;
    private final ZeusBlock block;

    /**
     * Creates the fields array (collective over the world).
     *
     * @param ga  the PE's Global Arrays
     * @param cfg the problem's grid, gas and boundaries
     * @throws IllegalArgumentException if GA refuses the grid (blocks thinner than the ghost layers), on every PE
     */
    GaComm(final GlobalArrays ga, final HydroConfig cfg) {
        this.ga = ga;
        final int dims = cfg.dims();
        final int[] shape = new int[dims + 1];
        final int[] width = new int[dims + 1];
        final int[] chunk = new int[dims + 1];
        shape[0] = cfg.fields();
        chunk[0] = cfg.fields();
        this.periodic = new boolean[dims + 1];
        this.lowWidths = new int[dims + 1];
        this.highWidths = new int[dims + 1];
        for (int d = 0; d < dims; d++) {
            shape[d + 1] = cfg.zones()[d];
            width[d + 1] = ZeusSolver.GHOST;
            periodic[d + 1] = cfg.lower()[d] == Boundary.PERIODIC;
        }
        this.u = ga.builder(GaType.DOUBLE, shape).ghosts(width).chunk(chunk).name("zeus").create();
        final LocalBlock b = u.access();
        this.block = new ZeusBlock(cfg, b.doubles(), b.strides(), b.lo(), b.hi(), !b.isEmpty());
    }

    @Override
    public int rank() {
        return ga.nodeid();
    }

    @Override
    public ZeusBlock block() {
        return block;
    }

    @Override
    public void exchangeGhosts() {
        u.updateGhosts(periodic);
    }

    @Override
    public void exchangeGhosts(final int[] low, final int[] high) {
        // The array's first dimension is the field number, without ghosts: 0 layers there.
        for (int d = 0; d < low.length; d++) {
            lowWidths[d + 1] = low[d];
            highWidths[d + 1] = high[d];
        }
        u.updateGhosts(periodic, lowWidths, highWidths);
    }

    @Override
    public void written() {
        u.releaseUpdate();
        ga.sync();
    }

    @Override
    public void max(final double[] v) {
        ga.gop(v, GopOp.MAX);
    }

    @Override
    public void sum(final double[] v) {
        ga.gop(v, GopOp.SUM);
    }

    @Override
    public void barrier() {
        ga.sync();
    }

    @Override
    public double[] gather() {
        ga.sync(); // every PE's last update is committed before PE 0 reads the blocks
        double[] all = null;
        if (ga.nodeid() == 0) {
            final int[] d = u.dims();
            long n = 1;
            for (final int e : d) {
                n *= e;
            }
            all = new double[(int) n];
            u.get(new int[d.length], last(d), all, Arrays.copyOfRange(d, 1, d.length));
        }
        ga.sync(); // no PE changes its block before PE 0 has read it
        return all;
    }

    @Override
    public void scatter(final double[] fields) {
        if (ga.nodeid() == 0) {
            final int[] d = u.dims();
            u.put(new int[d.length], last(d), fields, Arrays.copyOfRange(d, 1, d.length));
        }
        ga.sync();
    }

    private static int[] last(final int[] dims) {
        final int[] hi = dims.clone();
        for (int k = 0; k < hi.length; k++) {
            hi[k]--;
        }
        return hi;
    }
}
