package org.jhpvm.fabric.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Aeron directories of jobs that are gone are removed when a host's next driver starts; live ones are kept. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaleDirectoriesTest {
    private static File dir(final Path parent, final String name, final long ageMs) throws IOException {
        final File d = parent.resolve(name).toFile();
        assertTrue(d.mkdirs() || d.isDirectory());
        Files.writeString(d.toPath().resolve("cnc.dat"), "not a CnC file");
        assertTrue(d.setLastModified(System.currentTimeMillis() - ageMs));
        return d;
    }

    @Test
    void shouldRemoveOldDirectoriesWithoutADriverAndKeepTheOthers(@TempDir final Path parent) throws IOException {
        final long old = TimeUnit.MINUTES.toMillis(5);
        final File own = dir(parent, "jhpvm-jown-h0", old);
        final File dead = dir(parent, "jhpvm-jdead-h0", old);
        final File young = dir(parent, "jhpvm-jyoung-h0", 0);
        final File notOurs = dir(parent, "aeron-root", old);
        final File live = parent.resolve("jhpvm-jlive-h0").toFile();
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(live.getPath())
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true))) {
            assertTrue(live.setLastModified(System.currentTimeMillis() - old));
            assertEquals(1, StaleDirectories.sweep(own.getPath(), System.currentTimeMillis()));
            assertFalse(dead.exists(), "a job that is gone");
            assertTrue(own.exists(), "this job's own");
            assertTrue(young.exists(), "a job that may be starting");
            assertTrue(notOurs.exists(), "not a jhpvm directory");
            assertTrue(live.exists(), "a job whose driver runs");
        }
    }
}
