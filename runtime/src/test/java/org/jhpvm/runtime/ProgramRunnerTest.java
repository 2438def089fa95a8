package org.jhpvm.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Users' programs run through {@link ProgramRunner}, as {@code bin/jhpvm run} runs them, in this JVM. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProgramRunnerTest {
    private static final Path PROGRAMS = Path.of("src/test/resources/programs");

    @TempDir
    Path out;

    private static ProgramRunner.Result run(final String program, final int pes, final String... args) {
        return ProgramRunner.builder(Program.of(PROGRAMS.resolve(program).toString(), null)).pes(pes)
            .args(List.of(args)).build().run();
    }

    @Test
    void shouldGiveEveryPeItsOwnStaticFields() throws IOException {
        final ProgramRunner.Result r = ProgramRunner.builder(Program.of(PROGRAMS.resolve("StaticRank.java").toString(),
                null)).pes(4).options(JobOptions.parse(List.of("shmem.heapBytes=1M"))).args(List.of(out.toString(),
                "x")).build().run();
        assertFalse(r.failed(), r::describe);
        assertEquals(0, r.exitStatus());
        for (int pe = 0; pe < 4; pe++) {
            assertEquals(pe + " 4 {shmem.heapBytes=1M} " + out + ",x jhpvm-pe-" + pe,
                Files.readString(out.resolve("pe-" + pe)));
        }
    }

    @Test
    void shouldNameThePeAndTheUsersLineWhenABodyThrows() {
        final ProgramRunner.Result r = run("Fails.java", 4, "2");
        assertTrue(r.failed());
        assertEquals(1, r.exitStatus());
        assertEquals(2, r.failedPe());
        assertInstanceOf(IllegalArgumentException.class, r.failure());
        final String report = r.describe();
        assertTrue(report.startsWith("PE 2 failed: java.lang.IllegalArgumentException: bad value on PE 2\n"), report);
        assertTrue(report.contains("at Fails.lambda$main$0(Fails.java:9)"), report);
        assertFalse(report.contains("org.jhpvm.shmem"), "jhpvm's frames are left out: " + report);
    }

    @Test
    void shouldReleaseThePesWaitingForOneThatFailedInMain() {
        final ProgramRunner.Result r = run("FailsInMain.java", 3);
        assertEquals(1, r.exitStatus());
        assertEquals(1, r.failedPe());
        assertInstanceOf(IllegalStateException.class, r.failure());
        assertTrue(r.describe().contains("at FailsInMain.main(FailsInMain.java:7)"), r.describe());
    }

    /**
     * An option FM refuses only once it sees the fabric (a window beyond half the frames) ends the run with FM's
     * reason on every PE count, where the PEs waiting for the one that started the job used to wait for ever.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldEndTheRunWhenTheJobCannotStart() throws IOException {
        for (final int pes : new int[] {1, 3}) {
            final ProgramRunner.Result r = ProgramRunner.builder(Program.of(PROGRAMS.resolve("GaSum.java").toString(),
                null)).pes(pes).options(JobOptions.parse(List.of("fm.windowFrames=33"))).args(List.of(out.toString()))
                .build().run();
            assertTrue(r.failed(), pes + " PEs");
            assertEquals(1, r.exitStatus());
            assertInstanceOf(IllegalArgumentException.class, r.failure(), r.describe());
            assertTrue(r.describe().contains("windowFrames=33 exceeds half the fabric's poolFrames"), r.describe());
            assertFalse(Files.exists(out.resolve("sum")), "no body ran");
        }
    }

    @Test
    void shouldNameThePeThatEndedWithoutJoining() {
        final ProgramRunner.Result r = run("SkipsShmem.java", 4);
        assertEquals(1, r.exitStatus());
        assertEquals(2, r.failedPe());
        assertInstanceOf(JhpvmAbortException.class, r.failure());
        assertTrue(r.failure().getMessage().contains("PE 2's program ended without calling Jhpvm.shmem"),
            r.failure().getMessage());
    }

    @Test
    void shouldEndEveryPeWithTheGlobalExitStatus() throws IOException {
        final ProgramRunner.Result r = run("Exits.java", 3, out.toString());
        assertFalse(r.failed(), r::describe);
        assertEquals(5, r.exitStatus());
        try (var files = Files.list(out)) {
            assertEquals(0, files.count(), "nothing after Jhpvm.shmem ran");
        }
    }

    @Test
    void anMpiAbortShouldEndTheJobWhileOtherRanksAreOutsideMpi() {
        final long start = System.nanoTime();
        final ProgramRunner.Result r = run("AbortsWhileOthersSleep.java", 3);
        final long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(3, r.exitStatus(), r::describe);
        assertTrue(ms < 60_000, "ended in " + ms + " ms, not after the sleeping ranks' two minutes");
    }

    @Test
    void shouldCompileOtherSourceFilesOnDemandAndNeverTheUnneededOnes() throws IOException {
        final ProgramRunner.Result r = run("multi/app/Main.java", 2, out.toString());
        assertFalse(r.failed(), r::describe);
        assertEquals("helper reflective", Files.readString(out.resolve("multi-0")));
        assertEquals("helper reflective", Files.readString(out.resolve("multi-1")));
    }

    @Test
    void shouldStartCompactSourceFilesAndInstanceMainMethods() throws IOException {
        assertFalse(run("Compact.java", 2, out.toString()).failed());
        assertFalse(run("Instance.java", 2, out.toString()).failed());
        assertEquals("compact", Files.readString(out.resolve("compact-1")));
        assertEquals("made", Files.readString(out.resolve("instance-1")));
    }

    @Test
    void shouldRunGlobalArraysBodies() throws IOException {
        final ProgramRunner.Result r = run("GaSum.java", 3, out.toString());
        assertFalse(r.failed(), r::describe);
        assertEquals("100.0", Files.readString(out.resolve("sum")));
    }

    @Test
    void shouldRunAJarAndAClassPath(@TempDir final Path build) throws IOException {
        final Path classes = build.resolve("classes");
        Files.createDirectories(classes);
        final SourceProgram compiled = SourceProgram.compile(PROGRAMS.resolve("StaticRank.java"),
            System.getProperty("java.class.path"));
        Files.write(classes.resolve("StaticRank.class"), compiled.classBytes("StaticRank"));
        final Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "StaticRank");
        final Path jar = build.resolve("static-rank.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar), m)) {
            j.putNextEntry(new JarEntry("StaticRank.class"));
            j.write(compiled.classBytes("StaticRank"));
        }
        final ProgramRunner.Result fromJar = ProgramRunner.builder(Program.of(jar.toString(), null)).pes(3)
            .args(List.of(out.toString())).build().run();
        assertFalse(fromJar.failed(), fromJar::describe);
        assertTrue(Files.readString(out.resolve("pe-2")).startsWith("2 3 "));
        final ProgramRunner.Result fromDir = ProgramRunner.builder(Program.of("StaticRank", classes.toString()))
            .pes(2).args(List.of(out.toString())).build().run();
        assertFalse(fromDir.failed(), fromDir::describe);
        assertTrue(Files.readString(out.resolve("pe-1")).startsWith("1 2 "));

        final Path noMain = build.resolve("no-main.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(noMain))) {
            j.putNextEntry(new JarEntry("x.txt"));
        }
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ProgramRunner.builder(Program.of(noMain.toString(), null)).build().run());
        assertTrue(e.getMessage().contains("no Main-Class"), e.getMessage());
    }

    @Test
    void shouldReportCompileErrorsWithFileAndLine() {
        final ProgramException e = assertThrows(ProgramException.class, () -> run("Broken.java", 2));
        assertTrue(e.getMessage().contains("Broken.java:3: error: incompatible types"), e.getMessage());
        assertTrue(e.getMessage().endsWith("1 error"), e.getMessage());
    }

    @Test
    void shouldRefuseWhatCannotStartBeforeAnyPeRuns() {
        final IllegalArgumentException noMain = assertThrows(IllegalArgumentException.class,
            () -> run("NoMain.java", 2));
        assertTrue(noMain.getMessage().contains("class NoMain has no main method"), noMain.getMessage());
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> Program.of(PROGRAMS.resolve("Missing.java").toString(), null));
        assertTrue(missing.getMessage().startsWith("no such file:"), missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Program.of("not a class", null));
        assertThrows(IllegalArgumentException.class, () -> ProgramRunner.builder(Program.of(
            PROGRAMS.resolve("Fails.java").toString(), null)).pes(-1));
        final IllegalArgumentException notFound = assertThrows(IllegalArgumentException.class,
            () -> ProgramRunner.builder(Program.of("NoSuchClass", out.toString())).build().run());
        assertTrue(notFound.getMessage().contains("class NoSuchClass not found"), notFound.getMessage());
    }

    @Test
    void shouldFailARunThatOutlivesItsTimeout() {
        final long startNs = System.nanoTime();
        final ProgramRunner.Result r = ProgramRunner.builder(Program.of(PROGRAMS.resolve("Spins.java").toString(),
            null)).pes(2).timeout(java.time.Duration.ofMillis(500)).build().run();
        assertEquals(1, r.exitStatus());
        assertInstanceOf(TimeoutException.class, r.failure());
        assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(10));
    }

    @Test
    void shouldRefuseTheRuntimeQueriesOutsideAPe() {
        assertThrows(IllegalStateException.class, Jhpvm::pe);
        assertThrows(IllegalStateException.class, Jhpvm::options);
    }

    @Test
    void shouldRunAPlainProgramsBodyOnThePesItsArgumentsAsk() {
        final int[] seen = new int[3];
        final Map<String, String>[] options = new Map[1];
        Jhpvm.shmem(new String[] {"a", "--pes", "3", "--option", "shmem.heapBytes=2M", "b"}, sh -> {
            seen[sh.myPe()] = Jhpvm.pe() + 1;
            if (sh.myPe() == 0) {
                options[0] = Jhpvm.options();
                assertEquals(List.of("a", "b"), Jhpvm.args());
                assertEquals(2L << 20, sh.heapBytes());
                assertEquals(3, Jhpvm.npes());
            }
            assertThrows(IllegalStateException.class, () -> Jhpvm.shmem(new String[0], s -> { }));
        });
        assertEquals(List.of(1, 2, 3), List.of(seen[0], seen[1], seen[2]));
        assertEquals(Map.of("shmem.heapBytes", "2M"), options[0]);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Jhpvm.shmem(new String[] {"--option", "shmem.heapByte=2M"}, sh -> { }));
        assertTrue(e.getMessage().contains("did you mean 'shmem.heapBytes'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Jhpvm.shmem(new String[] {"--pes", "0"}, sh -> { }));
    }
}
