package org.jhpvm.apps;

import static org.jhpvm.apps.Commands.run;
import static org.jhpvm.apps.Commands.runWithErrors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.jhpvm.apps.Commands.Run;
import org.jhpvm.hydro.Checkpoint;
import org.jhpvm.hydro.HydroRun;
import org.jhpvm.hydro.ZeusSolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code jhpvm hydro} says about what it writes: restarts and checkpoints announced, and a state no gas can be
 * in (here planted in a checkpoint: the schemes no longer make one) never written silently.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HydroWritersTest {
    @Test
    void aSphericalGridShouldBeDrawnInItsMeridionalPlane(@TempDir final Path dir) throws Exception {
        // The same blast on the Cartesian quadrant and on (r, theta) over the quarter circle: drawn in the plane,
        // the (r, theta) zones cover a quarter disc of radius 1, pi/4 of the quadrant's square (in index space they
        // filled the square as the Cartesian ones do).
        final double[] coloured = new double[2];
        for (int k = 0; k < 2; k++) {
            final Path out = dir.resolve("g" + k);
            final Run r = run("hydro", "sedov", "--zones", "16", "--t-end", "0.05", "--pes", "1", "--geometry",
                k == 0 ? "cartesian" : "spherical", "--out", out.toString());
            assertEquals(0, r.exitCode(), r.out());
            final BufferedImage img = ImageIO.read(out.resolve("sedov.png").toFile());
            for (int x = 0; x < img.getWidth(); x++) {
                for (int y = 0; y < img.getHeight(); y++) {
                    final int rgb = img.getRGB(x, y);
                    final int red = rgb >> 16 & 255;
                    // Viridis is never grey; the background, frame and text are.
                    coloured[k] += red == (rgb >> 8 & 255) && red == (rgb & 255) ? 0 : 1;
                }
            }
        }
        // Each image also has its colour bar, 24 x 512 pixels beside the 512 x 512 plot.
        final double bar = 24 * 512;
        assertEquals(512 * 512 + bar, coloured[0], 0.02 * coloured[0], "the square");
        assertEquals(Math.PI / 4 * 512 * 512 + bar, coloured[1], 0.02 * coloured[1], "the quarter disc");
        final Path csv = dir.resolve("g1/sedov.csv");
        assertEquals("r,theta,rho,v_r,v_theta,p,e", Files.readAllLines(csv).get(0));
    }

    @Test
    void everyFileOfARunShouldGetTheSamePermissions(@TempDir final Path dir) throws Exception {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        final Path out = dir.resolve("o");
        final Run r = run("hydro", "sod", "--pes", "1", "--zones", "40", "--t-end", "0.1", "--snapshots", "1",
            "--checkpoint-every", "10", "--checkpoint", out.toString(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.out());
        // The CSV is written as a plain new file: the umask's permissions (0644 where it is 022). The files written
        // through a temporary file (decks, snapshots, checkpoints) were 0600.
        final Set<PosixFilePermission> plain = Files.getPosixFilePermissions(out.resolve("sod.csv"));
        for (final String f : new String[] {"sod.deck", "sod_0001.vti", "sod.pvd", "sod.ckpt", "sod.png"}) {
            assertEquals(PosixFilePermissions.toString(plain), PosixFilePermissions.toString(
                Files.getPosixFilePermissions(out.resolve(f))), f);
        }
    }

    @Test
    void hydroShouldFlagANonPhysicalStateAndNeverReplaceACheckpointWithOne(@TempDir final Path dir) throws Exception {
        final Path ckpt = dir.resolve("ckpt");
        final Run first = run("hydro", "sod", "--pes", "1", "--zones", "40", "--t-end", "0.1", "--checkpoint-every",
            "10", "--checkpoint", ckpt.toString());
        assertEquals(0, first.exitCode(), first.out());
        assertTrue(first.out().contains("wrote checkpoint " + ckpt.resolve("sod.ckpt") + " (cycle 10, t = "),
            first.out());
        // The ten zones at rest nearest the outflow face with a negative internal energy: a cycle or two changes
        // only the edge of that region.
        final Checkpoint.Read good = Checkpoint.read(ckpt.resolve("sod.ckpt"));
        final HydroRun.State s = good.state();
        final double[] fields = s.fields().clone();
        java.util.Arrays.fill(fields, ZeusSolver.E * 40, ZeusSolver.E * 40 + 10, -1e-3);
        final Path planted = dir.resolve("planted/sod.ckpt");
        Checkpoint.write(planted, good.run(), new HydroRun.State(s.time(), s.dtPrev(), s.cycle(), s.before(), fields));

        // Restarted at its own time: no cycle, the end state is the planted one.
        final Path a = dir.resolve("a");
        final Run end = runWithErrors("hydro", "sod", "--pes", "1", "--zones", "40", "--t-end",
            Double.toString(s.time()), "--restart", planted.toString(), "--out", a.toString());
        assertEquals(1, end.exitCode(), "a run that ends non-physical failed: " + end.out());
        assertTrue(end.out().contains("resumed from cycle " + s.cycle() + " (t = "), end.out());
        assertTrue(end.out().contains("jhpvm: warning: sod.csv, sod.png: 10 of 40 zones hold a non-positive pressure "
            + "or internal energy (min pressure -0.0004000"), end.out());
        assertTrue(Files.exists(a.resolve("sod.csv")), "written, to be looked at");

        // Three cycles on: the snapshots are flagged, the checkpoints refused (the directory keeps what it had:
        // nothing).
        final Path c = dir.resolve("c");
        final Run on = runWithErrors("hydro", "sod", "--pes", "1", "--zones", "40", "--t-end",
            Double.toString(s.time() + 3 * s.dtPrev()), "--restart", planted.toString(), "--checkpoint-every", "1",
            "--checkpoint", c.toString(), "--snapshots", "1", "--out", dir.resolve("b").toString());
        assertEquals(1, on.exitCode(), on.out());
        assertTrue(on.out().contains("jhpvm: warning: sod_0000.vti (t = "), on.out());
        assertTrue(on.out().contains("jhpvm: warning: checkpoint of cycle " + (s.cycle() + 1)) && on.out().contains(
            "not written: ") && on.out().contains("zones hold a non-positive pressure"), on.out());
        assertFalse(Files.exists(c.resolve("sod.ckpt")), "no checkpoint of a non-physical state");
        assertFalse(on.out().contains("wrote checkpoint"), on.out());
    }
}
