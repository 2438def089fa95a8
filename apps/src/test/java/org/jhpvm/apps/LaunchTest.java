package org.jhpvm.apps;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jhpvm launch} end to end: real processes over Aeron, started the way a user starts them (a JVM running
 * {@code Main launch ...}), with this test JVM's class path. Every launch starts JVMs, so the default run keeps the
 * basics and the ways a job ends; the workloads, UDP, the heartbeat timeout and the namespace hosts are tagged
 * {@code soak} ({@code mvn -B verify -Psoak}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LaunchTest {
    /** A finished command: exit status and its output. */
    record Run(int status, String out, String err) {
    }

    /**
     * A JVM running {@code Main args} with this test JVM's class path and options, as a user runs {@code bin/jhpvm}
     * (also for {@link ClusterLauncherTest}).
     */
    static List<String> mainCommand(final String... args) {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> !a.startsWith("-agentlib") && !a.startsWith("-javaagent")).toList());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static ProcessBuilder launcher(final Map<String, String> extraEnv, final String... args) {
        final ProcessBuilder pb = new ProcessBuilder(mainCommand(args));
        pb.environment().keySet().removeIf(k -> k.startsWith("JHPVM_"));
        pb.environment().putAll(extraEnv);
        return pb;
    }

    private static Run run(final Map<String, String> env, final String... args) throws Exception {
        return run(env, 100, args);
    }

    /** Runs {@code Main args} to its end, at most {@code seconds} (also for {@link LaunchedBenchTest}). */
    static Run run(final Map<String, String> env, final long seconds, final String... args) throws Exception {
        final Process p = launcher(env, args).start();
        p.getOutputStream().close();
        final var out = p.getInputStream();
        final var err = p.getErrorStream();
        final Thread[] readers = new Thread[2];
        final String[] text = new String[2];
        readers[0] = Thread.ofPlatform().start(() -> text[0] = read(out));
        readers[1] = Thread.ofPlatform().start(() -> text[1] = read(err));
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("launch did not finish in " + seconds + " s: " + String.join(" ", args));
        }
        readers[0].join(5_000);
        readers[1].join(5_000);
        return new Run(p.exitValue(), text[0], text[1]);
    }

    private static Run run(final String... args) throws Exception {
        return run(Map.of(), args);
    }

    private static String read(final java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** @return p such that UDP ports p .. p+n-1 were free a moment ago (also for {@link ClusterLauncherTest}) */
    static int freePorts(final int n) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            final int base = 42_000 + (int) (Math.random() * 18_000);
            boolean free = true;
            for (int i = 0; i < n && free; i++) {
                try (DatagramSocket s = new DatagramSocket(base + i)) {
                    free = s.getLocalPort() == base + i;
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free UDP ports");
    }

    @Test
    void aShmemProgramShouldRunAsTwoProcessesAndPrintEachPeWithItsPrefix() throws Exception {
        final Run r = run("launch", "-n", "2", "--", "hello");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("[PE 0] Hello from PE 0 of 2: PE 1 wrote to me"), r.out());
        assertTrue(r.out().contains("[PE 1] Hello from PE 1 of 2: PE 0 wrote to me"), r.out());
    }

    @Test
    @Tag("soak")
    void aGaProgramShouldRunWithSeveralPesPerProcess() throws Exception {
        final Run r = run("launch", "-n", "2", "--pes-per-process", "2", "--", "jacobi", "--n", "16");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PEs 0-1] jacobi: 16 x 16 interior points on 4 PEs"), r.out());
        assertTrue(r.out().contains("(ok)"), r.out());
        assertFalse(r.out().contains("[PEs 2-3] jacobi"), "only rank 0 reports: " + r.out());
    }

    @Test
    @Tag("soak")
    void aUsersProgramShouldRunUnchangedAsAJobOfProcesses() throws Exception {
        final Run r = run("launch", "-n", "2", "--pes-per-process", "2", "--", "run",
            Path.of("..", "examples", "GaHeat.java").toString(), "32", "20");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PEs 0-1] heat on 32 x 32, 20 steps, 4 PEs"), r.out());
        final Run faults = run("launch", "-n", "2", "--", "run", "--option", "fabric.faults.drop=0.1",
            Path.of("..", "examples", "ShmemRing.java").toString());
        assertEquals(2, faults.status(), faults.out() + faults.err());
        assertTrue(faults.err().contains("option fabric.faults.drop sets the emulated Myrinet, but this is a launched "
            + "job"), faults.err());
    }

    @Test
    @Tag("soak")
    void anMpiProgramShouldRunUnchangedAsAJobOfProcesses() throws Exception {
        final Run r = run("launch", "-n", "2", "--pes-per-process", "2", "--", "run",
            Path.of("..", "examples", "MpiStencil.java").toString(), "40", "30");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PEs 0-1] MPI stencil 40 x 40, 30 sweeps on a 2 x 2 grid of ranks: residual "
            + "8.082209e-03, every point equal to one array's"), r.out());
    }

    @Test
    @Tag("soak")
    void globalExitOnOnePeShouldEndEveryProcessWithItsStatus(@TempDir final Path dir) throws Exception {
        final Path prog = dir.resolve("Exits.java");
        Files.writeString(prog, """
            public class Exits {
                public static void main(String[] args) {
                    org.jhpvm.runtime.Jhpvm.shmem(args, sh -> {
                        if (sh.myPe() == 3) {
                            sh.globalExit(7);
                        }
                        sh.barrierAll();
                    });
                    System.out.println("after the exit on PE " + org.jhpvm.runtime.Jhpvm.pe());
                }
            }
            """);
        final Run r = run("launch", "-n", "2", "--pes-per-process", "2", "--", "run", prog.toString());
        assertEquals(7, r.status(), r.out() + r.err());
        assertFalse(r.out().contains("after the exit"), "nothing after Jhpvm.shmem ran: " + r.out());
        assertFalse(r.err().contains("failed"), "an exit is not a failure: " + r.err());
    }

    @Tag("soak")
    @Test
    void aDeadlockAcrossProcessesShouldBeReportedOnceNamingEveryPe(@TempDir final Path dir) throws Exception {
        final Path prog = dir.resolve("Stuck.java");
        Files.writeString(prog, """
            import org.jhpvm.runtime.Jhpvm;
            import org.jhpvm.shmem.*;
            public class Stuck {
                public static void main(String[] args) {
                    Jhpvm.shmem(args, sh -> {
                        SymmetricLongs flag = sh.mallocLongs(1);
                        if (sh.myPe() == 3) {
                            sh.barrierAll();
                        } else {
                            flag.waitUntil(0, Cmp.EQ, 1);
                        }
                    });
                }
            }
            """);
        final Run r = run("launch", "-n", "2", "--pes-per-process", "2", "--", "run", prog.toString());
        assertEquals(1, r.status(), r.out() + r.err());
        final String all = r.out() + r.err();
        assertEquals(1, all.split("deadlock: every PE waits", -1).length - 1, "printed once: " + all);
        assertTrue(all.contains("PE 3: Shmem.barrierAll at Stuck.java:8"), all);
        for (int pe = 0; pe < 3; pe++) {
            assertTrue(all.contains("PE " + pe + ": SymmetricLongs.waitUntil at Stuck.java:10"), all);
        }
    }

    @Test
    void aPeThatFailsShouldBeReportedOnceNotByEveryProcess(@TempDir final Path dir) throws Exception {
        final Path prog = dir.resolve("Fails.java");
        Files.writeString(prog, """
            public class Fails {
                public static void main(String[] args) {
                    org.jhpvm.runtime.Jhpvm.shmem(args, sh -> {
                        if (sh.myPe() == 2) {
                            throw new IllegalStateException("wrong answer on PE two");
                        }
                        sh.barrierAll();
                    });
                }
            }
            """);
        // PE 2 lives in process 1; process 0 hears of it and must not print it again.
        final Run r = run("launch", "-n", "2", "--pes-per-process", "2", "--", "run", prog.toString());
        assertEquals(1, r.status(), r.out() + r.err());
        final String all = r.out() + r.err();
        assertEquals(1, all.split("wrong answer on PE two", -1).length - 1, "printed once: " + all);
        assertTrue(all.contains("PE 2 failed"), all);
    }

    @Test
    @Tag("soak")
    void mirroredArraysShouldKeepOneCopyPerProcessAndMergeAcrossThem(@TempDir final Path dir) throws Exception {
        final Path prog = dir.resolve("Mirrored.java");
        Files.writeString(prog, """
            import org.jhpvm.ga.*;
            public class Mirrored {
                public static void main(String[] args) {
                    org.jhpvm.runtime.Jhpvm.ga(args, ga -> {
                        if (ga.clusterNnodes() != 2 || ga.pgroupGetMirror().nnodes() != 2) {
                            throw new IllegalStateException("nodes " + ga.clusterNnodes());
                        }
                        GlobalArray m = ga.builder(GaType.LONG, 6).group(ga.pgroupGetMirror()).create();
                        m.fill(ga.clusterNodeid() + 1);      // node 0's copy all 1, node 1's all 2
                        m.mergeMirrored();                  // every copy: 3
                        long[] v = new long[6];
                        m.get(new int[] {0}, new int[] {5}, v, null);
                        GlobalArray b = ga.create(GaType.LONG, new int[] {6}, "b");
                        m.mergeDistrPatch(new int[] {0}, new int[] {5}, b, new int[] {0}, new int[] {5});
                        long[] w = new long[6];
                        b.get(new int[] {0}, new int[] {5}, w, null);
                        for (int i = 0; i < 6; i++) {
                            if (v[i] != 3 || w[i] != 6) {
                                throw new IllegalStateException("element " + i + ": " + v[i] + ", " + w[i]);
                            }
                        }
                        if (ga.nodeid() == 0) {
                            System.out.println("mirrored copies merged: 3 everywhere, 6 in the distributed array");
                        }
                    });
                }
            }
            """);
        final Run r = run("launch", "-n", "2", "--pes-per-process", "2", "--", "run", prog.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("mirrored copies merged: 3 everywhere, 6 in the distributed array"), r.out());
    }

    @Test
    @Tag("soak")
    void hydroSodOnFourProcessesShouldGiveTheSameBytesAsOneJvm(@TempDir final Path dir) throws Exception {
        final Path launched = dir.resolve("launched");
        final Path inJvm = dir.resolve("jvm");
        final Run r = run("launch", "-n", "4", "--", "hydro", "sod", "--zones", "100", "--out", launched.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(0, Main.execute("hydro", "sod", "--zones", "100", "--pes", "4", "--out", inJvm.toString()));
        assertArrayEquals(Files.readAllBytes(inJvm.resolve("sod.csv")), Files.readAllBytes(launched.resolve("sod.csv")),
            "the launched run's fields differ from the single-JVM run's");
    }

    @Test
    @Tag("soak")
    void hydroOnMpiOverThreeProcessesShouldGiveTheGaRunsBytes(@TempDir final Path dir) throws Exception {
        final Path launched = dir.resolve("launched");
        final Path inJvm = dir.resolve("jvm");
        final Run r = run("launch", "-n", "3", "--", "hydro", "sedov", "--zones", "24", "--t-end", "0.05", "--comm",
            "mpi", "--out", launched.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("on 3 PEs (MPI)"), r.out());
        assertEquals(0, Main.execute("hydro", "sedov", "--zones", "24", "--t-end", "0.05", "--pes", "1", "--out",
            inJvm.toString()));
        assertArrayEquals(Files.readAllBytes(inJvm.resolve("sedov.csv")),
            Files.readAllBytes(launched.resolve("sedov.csv")), "MPI ranks as processes against GA in one JVM");
    }

    /** A launched 3-process job whose processes have all joined and computed for a while. */
    private record RunningJob(Process launcher, List<ProcessHandle> children, String[] err, Thread reader,
                              Thread drain) {
    }

    private static RunningJob computingJob() throws Exception {
        final Process launcher = launcher(Map.of(), "launch", "-n", "3", "--", "hydro", "sod", "--zones", "50000")
            .start();
        launcher.getOutputStream().close();
        final String[] err = new String[1];
        final Thread reader = Thread.ofPlatform().start(() -> err[0] = read(launcher.getErrorStream()));
        final Thread drain = Thread.ofPlatform().start(() -> read(launcher.getInputStream()));
        // Wait until all three processes run (in the order they started).
        List<ProcessHandle> children = List.of();
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (children.size() < 3 && System.nanoTime() - until < 0) {
            children = launcher.children().sorted(Comparator.comparing(
                (ProcessHandle h) -> h.info().startInstant().orElseThrow()).thenComparing(ProcessHandle::pid)).toList();
            assertFalse(launcher.waitFor(50, TimeUnit.MILLISECONDS), "the job ended before its processes were seen");
        }
        assertEquals(3, children.size(), "the job's processes did not start");
        // Joined and computing: every process has used 3 s of CPU (JVM start and join take about 1 s).
        while (!children.stream().allMatch(h -> h.info().totalCpuDuration()
            .map(d -> d.toMillis() >= 3_000).orElse(true)) && System.nanoTime() - until < 0) {
            assertFalse(launcher.waitFor(50, TimeUnit.MILLISECONDS), "the job ended before the fault");
        }
        assertTrue(launcher.isAlive(), "the job ended before the fault");
        return new RunningJob(launcher, children, err, reader, drain);
    }

    /** Waits for the job's end after a fault at {@code t0}; returns the milliseconds it took. */
    private static long awaitEnd(final RunningJob job, final long t0) throws Exception {
        assertTrue(job.launcher().waitFor(30, TimeUnit.SECONDS), "the job did not end after the fault");
        final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        job.reader().join(5_000);
        job.drain().join(5_000);
        assertNotEquals(0, job.launcher().exitValue());
        for (final ProcessHandle h : job.children()) {
            assertTrue(h.onExit().isDone() || !h.isAlive(), "process " + h.pid() + " left running");
        }
        return ms;
    }

    @Tag("soak")
    @Test
    void killingOneProcessShouldEndTheJobWithinASecondNamingTheLostPe() throws Exception {
        final Set<String> dirsBefore = aeronDirectories();
        final RunningJob job = computingJob();
        final long t0 = System.nanoTime();
        job.children().get(1).destroyForcibly(); // rank 1, without warning
        final long ms = awaitEnd(job, t0);
        System.out.println("LaunchTest: the job ended " + ms + " ms after the kill");
        // Its host's processes see its process end (its id came in its hello) at their next heartbeat.
        // Not a timing assertion (a busy machine stretches it): the message says the process's end was seen,
        // not a missed heartbeat, which is what keeps this within a second on a quiet machine.
        assertTrue(job.err()[0].contains("process 1 (PE 1 on localhost) lost: its process (pid "), job.err()[0]);
        // The launcher killed what was left (the driver's process among them) and removed the job's directory.
        final Set<String> left = aeronDirectories();
        left.removeAll(dirsBefore);
        assertEquals(Set.of(), left, "Aeron directories left in /dev/shm");
    }

    /** The jhpvm Aeron directories under /dev/shm now. */
    private static Set<String> aeronDirectories() throws IOException {
        final Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) {
            return new java.util.HashSet<>();
        }
        try (var s = Files.list(shm)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("jhpvm-"))
                .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
        }
    }

    @Test
    @Tag("soak")
    void aProcessThatStopsAnsweringShouldBeLostAfterTheHeartbeatTimeout() throws Exception {
        final RunningJob job = computingJob();
        final long t0 = System.nanoTime();
        // Rank 2 stops (SIGSTOP): alive, silent. The launcher kills it once the others have ended.
        assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(job.children().get(2).pid())).start()
            .waitFor());
        final long ms = awaitEnd(job, t0);
        assertTrue(ms >= 1_500, "lost after " + ms + " ms, before the heartbeat timeout");
        assertTrue(job.err()[0].contains("process 2 (PE 2 on localhost) lost: no heartbeat for 1500 ms"),
            job.err()[0]);
    }

    @Tag("soak")
    @Test
    void badConfigurationShouldBeAOneLineErrorBeforeAnyProcessStarts() throws Exception {
        final Run unknown = run("launch", "-n", "2", "--hosts", "no-such-host.invalid:2", "--", "hello");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("unknown host 'no-such-host.invalid'"), unknown.err());
        assertFalse(unknown.out().contains("Hello"), "a PE ran: " + unknown.out());
        final Run typo = run("launch", "-n", "2", "--", "nosuchcmd");
        assertEquals(2, typo.status(), typo.err());
        assertTrue(typo.err().contains("unknown command 'nosuchcmd'"), typo.err());
        assertEquals(1, typo.err().strip().lines().count(), "one line, no process's output: " + typo.err());
        final Run noClass = run("launch", "-n", "2", "--", "org.example.NoSuchMain");
        assertEquals(2, noClass.status(), noClass.err());
        assertTrue(noClass.err().contains("no main class 'org.example.NoSuchMain'"), noClass.err());
        final Run size = run("launch", "-n", "2", "--hosts", "localhost:3", "--", "hello");
        assertEquals(2, size.status());
        assertTrue(size.err().contains("job size mismatch"), size.err());
        try (DatagramSocket taken = new DatagramSocket(null)) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final Run port = run("launch", "-n", "2", "--transport", "udp", "--port",
                String.valueOf(taken.getLocalPort()), "--", "hello");
            assertEquals(2, port.status());
            assertTrue(port.err().contains("UDP port " + taken.getLocalPort() + " on localhost is in use"), port.err());
        }
        final Run secret = run(Map.of("JHPVM_RANK", "0", "JHPVM_PROCESSES", "2"), "hello");
        assertEquals(2, secret.status());
        assertTrue(secret.err().contains("JHPVM_SECRET is not set"), secret.err());
        assertEquals(1, secret.err().strip().lines().count(), secret.err());
    }

    @Test
    @Tag("soak")
    void aProgramShouldRunOverUdpToo() throws Exception {
        final Run r = run("launch", "-n", "2", "--transport", "udp", "--port", String.valueOf(freePorts(2)), "--",
            "hello");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("[PE 1] Hello from PE 1 of 2: PE 0 wrote to me"), r.out());
    }

    /**
     * Several hosts on this one machine: each "host" is a network namespace with its own address on a veth pair
     * (a private 10.213.x.0/24 that exists only between the two namespaces), processes are started in their host's
     * namespace by {@code --spawn 'ip netns exec NS{index}'}, and every frame between hosts is UDP over the veth.
     * Needs root and {@code ip netns}; skipped with the reason where the machine does not allow it.
     */
    @Nested
    @Tag("soak")
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class HostsInNetworkNamespaces {
        private final String ns = "jhpvm" + ProcessHandle.current().pid() + "-";
        private final String subnet = "10.213." + (ProcessHandle.current().pid() % 250 + 1) + ".";
        private final List<String> created = new ArrayList<>();

        @BeforeAll
        void createHosts() throws Exception {
            ip("netns", "del", ns + 0); // left by an earlier run of this process id, if any
            ip("netns", "del", ns + 1);
            final String why = ip("netns", "add", ns + 0);
            Assumptions.assumeTrue(why == null, "skipped: network namespaces need root and iproute2's ip netns ("
                + why + ")");
            created.add(ns + 0);
            require(ip("netns", "add", ns + 1));
            created.add(ns + 1);
            final String veth = "jhv" + ProcessHandle.current().pid();
            require(ip("link", "add", veth + "a", "type", "veth", "peer", "name", veth + "b"));
            for (int h = 0; h < 2; h++) {
                final String dev = veth + (h == 0 ? "a" : "b");
                require(ip("link", "set", dev, "netns", ns + h));
                require(ip("-n", ns + h, "addr", "add", subnet + (h + 1) + "/24", "dev", dev));
                require(ip("-n", ns + h, "link", "set", dev, "up"));
                require(ip("-n", ns + h, "link", "set", "lo", "up"));
            }
        }

        @AfterAll
        void deleteHosts() throws Exception {
            for (final String name : created) {
                ip("netns", "del", name); // takes its end of the veth pair with it
            }
        }

        private String hosts(final int perHost) {
            return subnet + 1 + ":" + perHost + "," + subnet + 2 + ":" + perHost;
        }

        private String spawn() {
            return "ip netns exec " + ns + "{index}";
        }

        @Test
        void aShmemProgramShouldRunOnTwoHosts() throws Exception {
            final Run r = run("launch", "-n", "2", "--hosts", hosts(1), "--spawn", spawn(), "--", "hello");
            assertEquals(0, r.status(), r.out() + r.err());
            assertTrue(r.out().contains("[PE 0] Hello from PE 0 of 2: PE 1 wrote to me"), r.out());
            assertTrue(r.out().contains("[PE 1] Hello from PE 1 of 2: PE 0 wrote to me"), r.out());
        }

        @Test
        void aGaProgramShouldRunOnTwoHostsOfTwoProcessesEach() throws Exception {
            // IPC between the two processes of a host (one media driver per namespace), UDP between the hosts.
            // 8 x 8 (about 400 iterations): each iteration's exchanges cross the hosts by UDP.
            final Run r = run("launch", "-n", "4", "--hosts", hosts(2), "--spawn", spawn(), "--", "jacobi", "--n",
                "8");
            assertEquals(0, r.status(), r.out() + r.err());
            assertTrue(r.out().contains("[PE 0] jacobi: 8 x 8 interior points on 4 PEs"), r.out());
            assertTrue(r.out().contains("(ok)"), r.out());
        }

        @Test
        void aHostThatCannotBeReachedShouldNotBeStartedWithoutSpawn() throws Exception {
            // The namespaces' addresses are not this (root) namespace's: without --spawn nothing can start there.
            final Run r = run("launch", "-n", "2", "--hosts", hosts(1), "--", "hello");
            assertEquals(2, r.status(), r.out() + r.err());
            assertTrue(r.err().contains("host '" + subnet + "1' is not this machine: give --spawn"), r.err());
            assertFalse(r.out().contains("Hello"), "a PE ran: " + r.out());
        }
    }

    /** Runs {@code ip args}; @return null if it succeeded, else what it printed and its status */
    private static String ip(final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        final Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            return "cannot run ip: " + e.getMessage();
        }
        p.getOutputStream().close();
        final String out = read(p.getInputStream()).strip();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", cmd) + " did not finish";
        }
        return p.exitValue() == 0 ? null : String.join(" ", cmd) + ": exit " + p.exitValue() + ": " + out;
    }

    private static void require(final String ipFailure) {
        assertEquals(null, ipFailure, "setting up the namespaces failed");
    }
}
