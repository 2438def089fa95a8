package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The solver on MPI ({@code --comm mpi}): every field bitwise the Global Arrays run's on 1, 2, 3, 4 and 8 ranks, for
 * every kind of boundary (outflow, wall, inflow, periodic: corners through the wrap), both energy schemes and a
 * cylindrical grid; snapshots, checkpoints and restarts across the two layers; too thin a block refused.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MpiCommTest {
    private static final int[] RANKS = {1, 2, 3, 4, 8};

    private static HydroRun.Spec spec(final String name, final Integer dims, final int zones, final double tEnd,
        final Geometry geometry) {
        return Problem.of(name, new Problem.Params(1, dims, zones, tEnd, null, geometry, 1),
            new ExactRiemann.State(1, 0, 1), new ExactRiemann.State(0.125, 0, 0.1), 0.5).spec();
    }

    private static void sameBitsOnEveryRankCount(final String what, final HydroRun.Spec spec) {
        final HydroRun.Snapshot ga = HydroRun.run(1, Map.of(), spec, null);
        for (final int ranks : RANKS) {
            final HydroRun.Snapshot mpi = HydroRun.run(ranks, Map.of(), spec.withComm(Communication.MPI), null);
            assertArrayEquals(ga.fields(), mpi.fields(), 0.0, what + ": MPI on " + ranks + " ranks against GA");
            assertEquals(ga.cycles(), mpi.cycles(), what + ": cycles on " + ranks + " ranks");
            assertEquals(ga.time(), mpi.time(), what);
            assertEquals(ranks, mpi.pes());
            // The totals are sums: their rounding may depend on the decomposition, not their value.
            for (int k = 0; k < ga.after().length; k++) {
                assertEquals(ga.after()[k], mpi.after()[k], 1e-12 * (1 + Math.abs(ga.after()[k])), what);
            }
        }
    }

    @Test
    void oneDimensionalRunsShouldBeBitwiseTheGaRuns() {
        sameBitsOnEveryRankCount("sod 1-D (outflow)", spec("sod", 1, 96, 0.1, Geometry.CARTESIAN));
        sameBitsOnEveryRankCount("noh 1-D (wall, inflow), total energy", spec("noh", 1, 48, 0.3,
            Geometry.CARTESIAN).withEnergy(EnergyScheme.TOTAL));
        sameBitsOnEveryRankCount("sedov 1-D spherical", spec("sedov", 1, 48, 0.05, Geometry.SPHERICAL));
    }

    @Test
    void twoDimensionalRunsShouldBeBitwiseTheGaRuns() {
        sameBitsOnEveryRankCount("kh (periodic)", spec("kh", 2, 24, 0.1, Geometry.CARTESIAN));
        sameBitsOnEveryRankCount("noh 2-D (walls and inflow)", spec("noh", 2, 24, 0.2, Geometry.CARTESIAN));
        sameBitsOnEveryRankCount("sedov (r, z), total energy", spec("sedov", 2, 24, 0.05, Geometry.CYLINDRICAL)
            .withEnergy(EnergyScheme.TOTAL));
        sameBitsOnEveryRankCount("uniform flow in (r, theta), inflow all round", PolarGridTest.uniformFlow(16, 0.05));
        final HydroConfig cfg = HydroConfig.cube(2, 16, 1.4, Boundary.PERIODIC);
        sameBitsOnEveryRankCount("drifting blob, periodic", HydroRun.Spec.toTime(cfg,
            x -> SodTest.blobState(x, Boundary.PERIODIC), null, 0.1));
    }

    @Test
    void threeDimensionalRunsShouldBeBitwiseTheGaRuns() {
        sameBitsOnEveryRankCount("blast3d (periodic)", spec("blast3d", 3, 12, 0.02, Geometry.CARTESIAN));
        sameBitsOnEveryRankCount("uniform flow in (r, theta, phi), inflow all round",
            CurvilinearThreeDTest.uniformFlow(Geometry.SPHERICAL, 12, 0.03));
        final HydroConfig cfg = HydroConfig.cube(3, 9, 1.4, Boundary.REFLECT);
        sameBitsOnEveryRankCount("blob in a box (walls)", HydroRun.Spec.toTime(cfg,
            x -> SodTest.blobState(x, Boundary.REFLECT), null, 0.08));
    }

    @Test
    void snapshotsAndCheckpointsShouldCrossTheLayers() {
        final HydroRun.Spec spec = spec("sedov", 2, 24, 0.06, Geometry.CARTESIAN);
        final List<HydroRun.Snapshot> gaShots = new ArrayList<>();
        final List<HydroRun.State> gaStates = new ArrayList<>();
        final HydroRun.Snapshot ga = HydroRun.run(2, Map.of(), spec, null,
            new HydroRun.Output(new double[] {0.02, 0.06}, gaShots::add), new HydroRun.Checkpoints(4, gaStates::add),
            null);
        final List<HydroRun.Snapshot> mpiShots = new ArrayList<>();
        final List<HydroRun.State> mpiStates = new ArrayList<>();
        final HydroRun.Snapshot mpi = HydroRun.run(4, Map.of(), spec.withComm(Communication.MPI), null,
            new HydroRun.Output(new double[] {0.02, 0.06}, mpiShots::add), new HydroRun.Checkpoints(4,
                mpiStates::add), null);
        assertArrayEquals(ga.fields(), mpi.fields(), 0.0);
        assertEquals(3, gaShots.size());
        assertEquals(gaShots.size(), mpiShots.size());
        for (int k = 0; k < gaShots.size(); k++) {
            assertEquals(gaShots.get(k).time(), mpiShots.get(k).time());
            assertArrayEquals(gaShots.get(k).fields(), mpiShots.get(k).fields(), 0.0, "snapshot " + k);
        }
        assertTrue(gaStates.size() >= 2, gaStates.size() + " checkpoints");
        assertEquals(gaStates.size(), mpiStates.size());
        for (int k = 0; k < gaStates.size(); k++) {
            assertEquals(gaStates.get(k).cycle(), mpiStates.get(k).cycle());
            assertEquals(gaStates.get(k).dtPrev(), mpiStates.get(k).dtPrev());
            assertArrayEquals(gaStates.get(k).fields(), mpiStates.get(k).fields(), 0.0, "checkpoint " + k);
        }
        // A GA checkpoint restarted on MPI (3 ranks), and an MPI one on GA, end with the uninterrupted run's bits.
        final HydroRun.State fromGa = gaStates.get(0);
        final HydroRun.Snapshot onMpi = HydroRun.run(3, Map.of(), spec.withComm(Communication.MPI), null, null,
            null, fromGa);
        assertArrayEquals(ga.fields(), onMpi.fields(), 0.0, "GA checkpoint at cycle " + fromGa.cycle() + " on MPI");
        final HydroRun.State fromMpi = mpiStates.get(mpiStates.size() - 1);
        final HydroRun.Snapshot onGa = HydroRun.run(1, Map.of(), spec, null, null, null, fromMpi);
        assertArrayEquals(ga.fields(), onGa.fields(), 0.0, "MPI checkpoint at cycle " + fromMpi.cycle() + " on GA");
        assertEquals(ga.cycles(), onGa.cycles());
    }

    @Test
    void blocksThinnerThanTheGhostsShouldBeRefusedOnEveryRank() {
        final HydroRun.Spec spec = spec("sod", 1, 20, 0.1, Geometry.CARTESIAN).withComm(Communication.MPI);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> HydroRun.run(8, Map.of(), spec, null));
        assertTrue(e.getMessage().contains("1-D grid of [20] zones on 8 PEs") && e.getMessage().contains(
            "ghost width 3"), e.getMessage());
        // 20 zones over 6 ranks: blocks of 3 and 4 zones, the thinnest allowed.
        final HydroRun.Snapshot six = HydroRun.run(6, Map.of(), spec, null);
        assertNotNull(six.fields());
        assertArrayEquals(HydroRun.run(1, Map.of(), spec, null).fields(), six.fields(), 0.0);
    }

    @Test
    void aLossyFabricShouldChangeNoBit() {
        final HydroRun.Spec spec = spec("sedov", 2, 16, 0.05, Geometry.CARTESIAN);
        final HydroRun.Snapshot clean = HydroRun.run(1, Map.of(), spec, null);
        final HydroRun.Snapshot lossy = HydroRun.run(4, Map.of("fabric.faults.seed", "7", "fabric.faults.drop",
            "0.02", "fabric.faults.duplicate", "0.01", "fabric.faults.corrupt", "0.01"),
            spec.withComm(Communication.MPI), null);
        assertArrayEquals(clean.fields(), lossy.fields(), 0.0, "4 MPI ranks over a lossy fabric");
    }
}
