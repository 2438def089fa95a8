package org.jhpvm.hydro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint and restart: a run restarted from a checkpoint ends with the same bits as the run that never stopped,
 * on another number of PEs (1 to 3, 4 to 2); the file reads back as written; truncated, corrupted and foreign files
 * are refused with one line, and writing never leaves a temporary file behind.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CheckpointTest {
    private static final ExactRiemann.State LEFT = new ExactRiemann.State(1, 0, 1);
    private static final ExactRiemann.State RIGHT = new ExactRiemann.State(0.125, 0, 0.1);

    /** Runs with checkpoints every {@code every} cycles; restarts from each on {@code restartPes} PEs. */
    private static void restartsShouldEndBitwiseAsTheRun(final HydroRun.Spec spec, final int pes,
        final int restartPes, final int every, final Path dir) throws Exception {
        final List<HydroRun.State> states = new ArrayList<>();
        final Path file = dir.resolve("run.ckpt");
        final Map<String, String> run = Map.of("problem", "test");
        final HydroRun.Snapshot whole = HydroRun.run(pes, Map.of(), spec, null, null,
            new HydroRun.Checkpoints(every, s -> {
                states.add(s);
                try {
                    Checkpoint.write(file, run, s);
                } catch (final java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }), null);
        assertTrue(states.size() >= 2, states.size() + " checkpoints");
        final HydroRun.Snapshot plain = HydroRun.run(pes, Map.of(), spec, null);
        assertArrayEquals(plain.fields(), whole.fields(), "checkpoints change no bit of the run");
        final Checkpoint.Read last = Checkpoint.read(file);
        final HydroRun.State written = states.get(states.size() - 1);
        assertEquals(run, last.run());
        assertEquals(written.time(), last.state().time());
        assertEquals(written.cycle(), last.state().cycle());
        assertEquals(written.dtPrev(), last.state().dtPrev());
        assertArrayEquals(written.before(), last.state().before());
        assertArrayEquals(written.fields(), last.state().fields(), "the file holds the state");
        for (final HydroRun.State from : List.of(states.get(0), last.state())) {
            final HydroRun.Snapshot again = HydroRun.run(restartPes, Map.of(), spec, null, null, null, from);
            assertArrayEquals(whole.fields(), again.fields(), "restart at cycle " + from.cycle() + " on "
                + restartPes + " PEs ends with the same bits");
            assertEquals(whole.cycles(), again.cycles());
            assertEquals(whole.time(), again.time());
            assertArrayEquals(whole.before(), again.before(), "the conservation report starts from the same totals");
        }
        try (var left = Files.list(dir)) {
            assertTrue(left.noneMatch(f -> f.toString().endsWith(".tmp")), "no temporary file left");
        }
    }

    @Test
    void shouldRestartSodFromOneOnThreePes(@TempDir final Path dir) throws Exception {
        restartsShouldEndBitwiseAsTheRun(Problem.of("sod", new Problem.Params(1, 1, 80, 0.1, null), LEFT, RIGHT,
            0.5).spec(), 1, 3, 15, dir);
    }

    @Test
    void shouldRestartSedovFromFourOnTwoPes(@TempDir final Path dir) throws Exception {
        restartsShouldEndBitwiseAsTheRun(Problem.of("sedov", new Problem.Params(4, 2, 24, 0.1, null), null, null,
            0).spec(), 4, 2, 3, dir);
    }

    @Test
    void shouldRestartWhileTheTimeStepGrowsAtItsLimit(@TempDir final Path dir) throws Exception {
        // A fast zone leaving through the outflow face: the Courant step then jumps, and ZEUS lets it grow 26% per
        // cycle over the step before (it does for cycles 1 to 4 here), so a restart must carry that step.
        final HydroRun.Spec spec = HydroRun.Spec.toTime(HydroConfig.cube(1, 64, 1.4, Boundary.OUTFLOW),
            x -> new double[] {1, x[0] > 0.97 ? 1000 : 0, 1e-3}, null, 0.002);
        restartsShouldEndBitwiseAsTheRun(spec, 2, 3, 1, dir);
    }

    @Test
    void shouldRefuseTruncatedCorruptedAndForeignFiles(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("x.ckpt");
        final HydroRun.State s = new HydroRun.State(0.5, 0.01, 7, new double[] {1, 2, 3}, new double[] {4, 5, 6, 7});
        Checkpoint.write(file, Map.of("problem", "sod", "zones", "2"), s);
        final byte[] good = Files.readAllBytes(file);
        assertArrayEquals(s.fields(), Checkpoint.read(file).state().fields());
        final byte[] flipped = good.clone();
        flipped[good.length / 2] ^= 1;
        Files.write(file, flipped);
        assertTrue(refusal(file).contains("checksum"), refusal(file));
        Files.write(file, Arrays.copyOf(good, good.length - 9));
        assertTrue(refusal(file).contains("checksum"), refusal(file));
        Files.write(file, Arrays.copyOf(good, 10));
        assertTrue(refusal(file).contains("not a jhpvm hydro checkpoint"), refusal(file));
        Files.writeString(file, "problem = sod\n");
        assertTrue(refusal(file).contains("not a jhpvm hydro checkpoint"), refusal(file));
        final byte[] future = good.clone();
        future[11] = 9; // the version's low byte
        Files.write(file, future);
        assertTrue(refusal(file).contains("format version 9"), refusal(file));
        assertTrue(refusal(dir.resolve("missing.ckpt")).contains("no such file"));
        // A restart state of another grid is refused before the job starts.
        final Problem p = Problem.of("sod", new Problem.Params(1, 1, 16, 0.1, null), LEFT, RIGHT, 0.5);
        assertThrows(IllegalArgumentException.class, () -> HydroRun.run(1, Map.of(), p.spec(), null, null, null, s));
    }

    private static String refusal(final Path file) {
        return assertThrows(IllegalArgumentException.class, () -> Checkpoint.read(file)).getMessage();
    }
}
