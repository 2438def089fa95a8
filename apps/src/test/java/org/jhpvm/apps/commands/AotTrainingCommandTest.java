package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training run of bin/jhpvm's ahead-of-time cache names example programs that exist: a renamed example would
 * fail the training, and bin/jhpvm would then run every command without its cache (about a third slower to start).
 */
class AotTrainingCommandTest {
    @Test
    void everyTrainingProgramIsAnExampleOfTheCheckout() {
        for (final List<String> example : AotTrainingCommand.EXAMPLES) {
            final Path file = Path.of("..", "examples", example.get(0));
            assertTrue(Files.isRegularFile(file), file + " is trained on but is not in the checkout");
        }
    }

    /** bin/jhpvm refuses a JHPVM_AOT it does not know before it builds or starts anything. */
    @Test
    void anUnknownCacheModeIsRefused() throws Exception {
        final ProcessBuilder pb = new ProcessBuilder("bash", Path.of("..", "bin", "jhpvm").toString(), "info")
            .redirectErrorStream(true);
        pb.environment().put("JHPVM_AOT", "yes");
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bin/jhpvm did not end");
        assertEquals(2, p.exitValue(), out);
        assertEquals("jhpvm: JHPVM_AOT=yes: expected on, classes or off\n", out);
    }

    @Test
    void aFailingStepEndsTheTrainingWithItsStatus(@TempDir final Path out) {
        // An examples directory without the programs: hydro sod runs (briefly, the test's cost), then run refuses
        // the missing program as a bad argument (status 2), and the training ends there with that status.
        final Path empty = out.resolve("no-examples");
        assertTrue(empty.toFile().mkdir());
        assertEquals(2, JhpvmCommand.execute("aot-training", "--out", out.toString(), "--examples", empty.toString()));
        assertTrue(Files.isRegularFile(out.resolve("sod.csv")), "hydro sod ran first and wrote its answer");
    }
}
