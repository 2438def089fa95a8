package org.jhpvm.hydro;

import static org.jhpvm.hydro.ZeusSolver.D;
import static org.jhpvm.hydro.ZeusSolver.E;
import static org.jhpvm.hydro.ZeusSolver.V;

/**
 * The Courant time step (ZEUS): per zone the inverse squares of the sound crossing time, of the flow crossing time
 * per direction and of the viscous diffusion time are summed, the largest sum over the grid is found by one
 * max-reduction (exact, so every PE count gets the same step), and the step is cfl over its square root.
 */
final class CourantTimestep extends ZeusBlock {
    private final SolverComm comm;
    private final double[] maxRate = new double[1];

    CourantTimestep(final ZeusBlock block, final SolverComm comm) {
        super(block);
        this.comm = comm;
    }

    /**
     * ZEUS's largest sum of inverse squares over the block's zones (0 for an empty block); {@link #reduce} makes the
     * Courant-limited time step of it, maximised over the grid.
     */
    double localRate() {
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
                        final double cs2 = gamma * (gamma - 1) * pressureEnergy(a[E * sF + z]) / a[D * sF + z];
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
        return worst;
    }

    /**
     * The time step from every block's largest rate (collective: one exact max-reduction).
     *
     * @param worst this block's largest rate
     * @return the time step
     * @throws IllegalStateException if no zone has a signal speed
     */
    double reduce(final double worst) {
        final double[] m = maxRate;
        m[0] = worst;
        comm.max(m);
        if (!(m[0] > 0)) {
            throw new IllegalStateException("no signal speed anywhere: the time step is unbounded");
        }
        return cfg.cfl() / Math.sqrt(m[0]);
    }
}
