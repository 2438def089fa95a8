package org.jhpvm.hydro;

import java.util.Arrays;

/**
 * The ghost layers each substep of the uniform Cartesian solver with the internal-energy scheme reads, below and
 * above the block in each dimension: ZEUS-MP exchanges only those, and so does the solver here, where the layer can
 * ({@link SolverComm#exchangeGhosts(int[], int[])}). Read off the kernels ({@link CourantTimestep},
 * {@link SourceStep}, {@link TransportStep}), dimension s the direction of a substep's loop:
 * <ul>
 *   <li>the Courant step reads each zone's upper face velocities (one above); the pressure gradient the density and
 *       energy of the zone below each face (one below): one layer all round at the start of a cycle;</li>
 *   <li>the viscosity makes q on the zones and one below from the velocities of their faces and the one above, and
 *       accelerates with the density of the zone below: one layer all round;</li>
 *   <li>the compressional heating reads each zone's upper face velocities: one layer above;</li>
 *   <li>a transport sweep along s interpolates (van Leer) the fields at the faces from the block's zones to one
 *       beyond in s, with two zones on the upwind side and one on the other: three layers below and two above in s;
 *       across s it works on the zones and one below them (the transverse momenta's neighbours): one layer below,
 *       and the edges between those.</li>
 * </ul>
 * The total-energy scheme and the ratioed and curvilinear grids have kernels of their own and refresh every layer.
 * A layer read but not refreshed would make the run differ from one that refreshes every layer (the MPI layer
 * does), which {@code MpiCommTest} and {@code GhostLayersTest} would see.
 */
final class GhostLayers {
    /** One layer all round (the start of a cycle, the viscosity). */
    final int[] oneLow;
    final int[] oneHigh;
    /** One layer above only (the compressional heating). */
    final int[] noneLow;
    /** Per sweep direction, below and above. */
    final int[][] sweepLow;
    final int[][] sweepHigh;

    /** @param dims the grid's dimensions */
    GhostLayers(final int dims) {
        this.oneLow = filled(dims, 1);
        this.oneHigh = filled(dims, 1);
        this.noneLow = filled(dims, 0);
        this.sweepLow = new int[dims][];
        this.sweepHigh = new int[dims][];
        for (int dir = 0; dir < dims; dir++) {
            sweepLow[dir] = filled(dims, 1);
            sweepHigh[dir] = filled(dims, 0);
            sweepLow[dir][dir] = ZeusSolver.GHOST;
            sweepHigh[dir][dir] = ZeusSolver.GHOST - 1;
        }
    }

    private static int[] filled(final int n, final int v) {
        final int[] a = new int[n];
        Arrays.fill(a, v);
        return a;
    }
}
