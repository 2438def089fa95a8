package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-process RDMA soak (soak profile): a job of two processes ({@code bin/jhpvm launch -n 2}) makes ten million
 * one-sided operations on each other's heap arrays (puts from one word to 40,000, through frames and through the
 * host-memory rings; gets reading back what was written, after a quiet; fetching and non-fetching atomic adds;
 * quiets; stretches of computing that leave requests to the agents), while this test stops one process or the other
 * with {@code SIGSTOP} for 20-150 ms every half second or so and lets it go on ({@code SIGCONT}): a process that
 * stalls mid-transfer, rings full, answers late. Each PE then replays every stream (a function of the seed and the PE
 * alone, see {@code RdmaSoak.java}) and checks its whole memory: nothing lost, doubled or misplaced, every read
 * back right, every counter the sum of the adds made to it.
 */
@Tag("soak")
@Timeout(value = 1200, unit = TimeUnit.SECONDS)
class RdmaSoakLaunchTest {
    /** Ten million in all; {@code -Djhpvm.rdmaSoakOps=N} makes a shorter run (N per PE). */
    private static final long OPERATIONS_PER_PE = Long.getLong("jhpvm.rdmaSoakOps", 5_000_000);
    private static final long SEED = 20261129;

    @Test
    void millionsOfOperationsBetweenStallingProcessesShouldLoseNothing(@TempDir final Path dir) throws Exception {
        soak(dir, 2, OPERATIONS_PER_PE);
    }

    /**
     * Four PEs, two in each process: each PE's requests go to a PE of its own process (FM's message path inside one
     * JVM, its rings in that process's host memory) and to the two of the other, while whole processes stall.
     */
    @Test
    void pesSharingAProcessShouldLoseNothingEither(@TempDir final Path dir) throws Exception {
        soak(dir, 4, OPERATIONS_PER_PE / 10);
    }

    /** Runs the soak on {@code pes} PEs in two processes, {@code ops} operations each, and checks every PE's report. */
    private static void soak(final Path dir, final int pes, final long ops) throws Exception {
        final Path prog = dir.resolve("RdmaSoak.java");
        try (InputStream in = RdmaSoakLaunchTest.class.getResourceAsStream("/soak/RdmaSoak.java")) {
            Files.write(prog, in.readAllBytes());
        }
        final Set<String> before = SharedSegmentsLaunchTest.jobDirectories();
        final ProcessBuilder pb = new ProcessBuilder(LaunchTest.mainCommand("launch", "-n", "2", "--pes-per-process",
            Integer.toString(pes / 2), "--", "run", prog.toString(), Long.toString(ops), Long.toString(SEED)));
        pb.environment().keySet().removeIf(k -> k.startsWith("JHPVM_"));
        final Process launcher = pb.start();
        launcher.getOutputStream().close();
        final String[] text = new String[2];
        final Thread out = Thread.ofPlatform().start(() -> text[0] = read(launcher.getInputStream()));
        final Thread err = Thread.ofPlatform().start(() -> text[1] = read(launcher.getErrorStream()));
        final AtomicInteger stops = new AtomicInteger();
        final Thread faults = Thread.ofPlatform().start(() -> stall(launcher, stops));
        try {
            assertTrue(launcher.waitFor(1100, TimeUnit.SECONDS), "the soak did not end in 1100 s");
        } finally {
            faults.interrupt();
            faults.join(5_000);
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
        out.join(5_000);
        err.join(5_000);
        System.out.println("RdmaSoakLaunchTest, " + pes + " PEs: " + stops.get() + " stops\n" + text[0]);
        assertEquals(0, launcher.exitValue(), text[0] + text[1]);
        assertTrue(stops.get() >= 1, "the faults ran: " + stops.get() + " stops");
        for (int pe = 0; pe < pes; pe++) {
            assertTrue(text[0].contains("] RdmaSoak PE " + pe + ": " + ops + " operations in "), text[0]);
        }
        final long clean = text[0].lines().filter(l -> l.endsWith(
            "wrong words 0, wrong counters 0, wrong reads 0, bad fetches 0")).count();
        assertEquals(pes, clean, "every PE found its memory as the replay says: " + text[0]);
        assertEquals(Set.of(), SharedSegmentsLaunchTest.newSince(before), "job directories left in /dev/shm");
    }

    /**
     * Once the job's two processes have started and computed a while, stops one of them for 20-150 ms every 300-700
     * ms until interrupted or the job ends. Every wait is on the job's end, bounded by the fault schedule.
     */
    private static void stall(final Process launcher, final AtomicInteger stops) {
        final SplittableRandom r = new SplittableRandom(SEED);
        try {
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<ProcessHandle> children = List.of();
            // Started, joined and running: two processes, each with 2 s of CPU (JVM start and join take about 1 s).
            while ((children.size() < 2 || !children.stream().allMatch(h -> h.info().totalCpuDuration()
                .map(d -> d.toMillis() >= 2_000).orElse(true))) && System.nanoTime() - until < 0) {
                if (launcher.waitFor(50, TimeUnit.MILLISECONDS)) {
                    return;
                }
                children = launcher.children().sorted(Comparator.comparingLong(ProcessHandle::pid)).toList();
            }
            while (children.size() >= 2 && !launcher.waitFor(300 + r.nextInt(400), TimeUnit.MILLISECONDS)) {
                final ProcessHandle victim = children.get(r.nextInt(children.size()));
                if (!victim.isAlive()) {
                    return;
                }
                signal("STOP", victim);
                try {
                    launcher.waitFor(20 + r.nextInt(130), TimeUnit.MILLISECONDS); // the stall
                } finally {
                    signal("CONT", victim);
                }
                stops.incrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void signal(final String sig, final ProcessHandle p) throws Exception {
        final Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS)) {
            kill.destroyForcibly();
        }
    }

    private static String read(final InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
