package org.jhpvm.apps;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job started by Open MPI's own launcher, as clusters start programs: {@code mpirun -np N} running jhpvm's main
 * class with nothing of jhpvm's in the environment (no {@code JHPVM_SECRET}, no {@code JHPVM_HOSTS}) is one job of
 * N processes. Runs where {@code mpirun} is on the path (Debian's {@code openmpi-bin}); elsewhere it is skipped and
 * says so.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterLauncherTest {
    private static Path mpirun() {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            final Path p = Path.of(dir, "mpirun");
            if (!dir.isEmpty() && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private static List<String> jhpvmJobDirs() throws IOException {
        final Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(shm)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("jhpvm-ompi-")).toList();
        }
    }

    @Test
    void mpirunShouldStartOneJobOfItsProcessesWithoutJhpvmsVariables() throws Exception {
        final Path mpirun = mpirun();
        if (mpirun == null) {
            System.out.println("ClusterLauncherTest skipped: no mpirun on PATH (Debian: apt-get install openmpi-bin)");
        }
        Assumptions.assumeTrue(mpirun != null, "no mpirun on PATH (Debian: apt-get install openmpi-bin)");
        final List<String> before = jhpvmJobDirs();
        final List<String> cmd = new ArrayList<>(List.of(mpirun.toString(), "--oversubscribe", "-np", "3",
            "-x", "JHPVM_PORT"));
        cmd.addAll(LaunchTest.mainCommand("hello"));
        final ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("JHPVM_"));
        pb.environment().put("JHPVM_PORT", Integer.toString(LaunchTest.freePorts(3)));
        // Open MPI refuses to start as root unless told; test machines often run as root.
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        pb.redirectErrorStream(true);
        final Process p = pb.start();
        p.getOutputStream().close();
        final String[] out = new String[1];
        final Thread reader = Thread.ofPlatform().start(() -> {
            try {
                out[0] = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                out[0] = "(unreadable: " + e + ")";
            }
        });
        if (!p.waitFor(100, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        reader.join(10_000);
        assertEquals(0, p.exitValue(), out[0]);
        // One job of three PEs: each PE was written by its left neighbour in another process.
        for (int pe = 0; pe < 3; pe++) {
            assertTrue(out[0].contains("Hello from PE " + pe + " of 3: PE " + (pe + 2) % 3 + " wrote to me"), out[0]);
        }
        assertTrue(out[0].contains("JHPVM_SECRET is not set; this job's secret is derived"), out[0]);
        assertEquals(before, jhpvmJobDirs(), "the job's Aeron directories are gone");
    }
}
