package org.jhpvm.apps;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jhpvm run} as people use it: the examples, and every kind of bad input. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RunCommandTest {
    private static final Path EXAMPLES = Path.of("..", "examples");

    /** A finished command: exit code, standard output and error. */
    private record Run(int exitCode, String out, String err) {
    }

    private static synchronized Run run(final String... args) {
        final PrintStream savedOut = System.out;
        final PrintStream savedErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            final int code = Main.execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    @ParameterizedTest(name = "{0} on {1} PEs")
    @CsvSource({
        "ShmemRing.java, 4, ring of 4 PEs: token 60 after 10 laps, as expected",
        "ShmemRing.java, 3, ring of 3 PEs: token 30 after 10 laps, as expected",
        "ShmemTour.java, 4, 'SHMEM tour on 4 PEs: put/get, p/g, iput, atomics, put-signal, reduction: all answers right'",
        "ShmemTour.java, 1, 'SHMEM tour on 1 PEs: put/get, p/g, iput, atomics, put-signal, reduction: all answers right'",
        "GaHeat.java, 4, 'heat on 64 x 64, 100 steps, 4 PEs: amplitude 0.380660'",
        "GaHeat.java, 3, 'heat on 64 x 64, 100 steps, 3 PEs: amplitude 0.380660'",
        "GaTaskPool.java, 4, '200 tasks on 4 PEs, each done once, every answer right'",
        "GaTaskPool.java, 5, '200 tasks on 5 PEs, each done once, every answer right'",
        "GaSparseJacobi.java, 4, 'sparse Jacobi on 32 x 32 (1024 unknowns, 4992 stored elements), 4 PEs: converged'",
        "GaSparseJacobi.java, 3, 'sparse Jacobi on 32 x 32 (1024 unknowns, 4992 stored elements), 3 PEs: converged'",
        "MpiStencil.java, 4, '60 sweeps on a 2 x 2 grid of ranks: residual 4.004875e-03, every point equal'",
        "MpiStencil.java, 3, '60 sweeps on a 3 x 1 grid of ranks: residual 4.004875e-03, every point equal'",
        "MpiStencil.java, 1, '60 sweeps on a 1 x 1 grid of ranks: residual 4.004875e-03, every point equal'",
        "HydroSod.java, 1, 'HydroSod: ok'",
        "ShmemSegments.java, 4, 'histogram of 400000 draws over 256 bins: every draw counted once'",
        "ShmemSegments.java, 1, 'histogram of 100000 draws over 64 bins: every draw counted once'",
    })
    void everyExampleShouldRunAndFindItsOwnAnswerRight(final String example, final int pes, final String expected) {
        final Run r = run("run", "--pes", Integer.toString(pes), EXAMPLES.resolve(example).toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains(expected), r.out());
    }

    @Test
    void argumentsAfterTheProgramShouldBeTheProgramsEvenWhenTheyLookLikeOptions() {
        final Run r = run("run", "--pes", "2", EXAMPLES.resolve("GaHeat.java").toString(), "16", "3");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("heat on 16 x 16, 3 steps, 2 PEs"), r.out());
        final Run looksLikeOption = run("run", "--pes", "2", EXAMPLES.resolve("ShmemRing.java").toString(), "--pes");
        assertEquals(1, looksLikeOption.exitCode(), "the program got '--pes' and failed to parse it");
        assertTrue(looksLikeOption.err().contains("NumberFormatException"), looksLikeOption.err());
    }

    @Test
    void aProgramShouldGetTheThreadLevelItOrTheCommandAsksFor(@TempDir final Path dir) throws IOException {
        final Path prog = dir.resolve("Level.java");
        Files.writeString(prog, """
            import org.jhpvm.runtime.Jhpvm;
            import org.jhpvm.shmem.ThreadLevel;
            public class Level {
                public static void main(String[] args) {
                    ThreadLevel asked = args.length > 0 ? ThreadLevel.valueOf(args[0]) : null;
                    Jhpvm.shmem(args, asked, sh -> System.out.println("PE " + sh.myPe() + " " + sh.queryThread()));
                }
            }
            """);
        final Run byDefault = run("run", "--pes", "2", prog.toString());
        assertEquals(0, byDefault.exitCode(), byDefault.err());
        assertTrue(byDefault.out().contains("PE 0 FUNNELED") && byDefault.out().contains("PE 1 FUNNELED"),
            byDefault.out());
        final Run asked = run("run", "--pes", "2", prog.toString(), "MULTIPLE");
        assertEquals(0, asked.exitCode(), asked.err());
        assertTrue(asked.out().contains("PE 0 MULTIPLE") && asked.out().contains("PE 1 MULTIPLE"), asked.out());
        final Run option = run("run", "--pes", "2", "--thread-level", "serialized", prog.toString());
        assertEquals(0, option.exitCode(), option.err());
        assertTrue(option.out().contains("PE 1 SERIALIZED"), option.out());
        // the option gives at least its level: a program asking for less gets the option's
        final Run higher = run("run", "--pes", "2", "--thread-level", "MULTIPLE", prog.toString(), "SINGLE");
        assertTrue(higher.out().contains("PE 0 MULTIPLE"), higher.out());
        final Run bad = run("run", "--pes", "2", "--thread-level", "bogus", prog.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("shmem.threadLevel=bogus: one of SINGLE, FUNNELED, SERIALIZED, MULTIPLE"),
            bad.err());
    }

    @Test
    void aDeadlockShouldEndTheRunWithALinePerPeNamingItsCallAndLine(@TempDir final Path dir) throws IOException {
        final Path prog = dir.resolve("Stuck.java");
        Files.writeString(prog, """
            import org.jhpvm.runtime.Jhpvm;
            import org.jhpvm.shmem.*;
            public class Stuck {
                public static void main(String[] args) {
                    Jhpvm.shmem(args, sh -> {
                        SymmetricLongs flag = sh.mallocLongs(2);
                        if (sh.myPe() == 0) {
                            sh.barrierAll();
                        } else {
                            flag.waitUntil(1, Cmp.EQ, 7);
                        }
                    });
                }
            }
            """);
        final Run r = run("run", "--pes", "3", prog.toString());
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("jhpvm run: the program failed: deadlock: every PE waits"), r.err());
        assertTrue(r.err().contains("PE 0: Shmem.barrierAll at Stuck.java:8, waiting for PE "), r.err());
        assertTrue(r.err().contains("PE 1: SymmetricLongs.waitUntil at Stuck.java:10, waiting for SymmetricLongs#0[1]"
            + " (now 0) EQ 7"), r.err());
        assertTrue(r.err().contains("PE 2: SymmetricLongs.waitUntil at Stuck.java:10"), r.err());
        assertFalse(r.err().contains("\tat "), "a report, not a stack trace: " + r.err());
        // With the test off, the timeout names each PE's state the same way.
        final Run t = run("run", "--pes", "2", "--timeout", "2", "--option", "fm.deadlockAfterNs=0", prog.toString());
        assertEquals(1, t.exitCode(), t.out() + t.err());
        assertTrue(t.err().contains("job did not finish within PT2S:"), t.err());
        assertTrue(t.err().contains("PE 1: SymmetricLongs.waitUntil at Stuck.java:10"), t.err());
    }

    @Test
    void aPeThatThrowsShouldEndTheRunNamingThePeAndTheUsersLine(@TempDir final Path dir) throws IOException {
        final Path prog = dir.resolve("Thrower.java");
        Files.writeString(prog, """
            public class Thrower {
                public static void main(String[] args) {
                    org.jhpvm.runtime.Jhpvm.shmem(args, sh -> {
                        if (sh.myPe() == 3) {
                            throw new ArithmeticException("PE 3 divided by zero");
                        }
                        sh.barrierAll();
                    });
                }
            }
            """);
        final long startNs = System.nanoTime();
        final Run r = run("run", "--pes", "5", prog.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().startsWith("jhpvm run: PE 3 failed: java.lang.ArithmeticException: PE 3 divided by zero\n"
            + "\tat Thrower.lambda$main$0(Thrower.java:5)"), r.err());
        assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(30), "the other PEs were released");
    }

    @Test
    void anMpiProgramShouldHaveStaticsPerRankAndEndAsMpirunEndsIt(@TempDir final Path dir) throws IOException {
        final Path prog = dir.resolve("Ranks.java");
        Files.writeString(prog, """
            import mpi.*;
            public class Ranks {
                static int inits;
                public static void main(String[] args) throws MPIException {
                    if (args[0].equals("noinit") && org.jhpvm.runtime.Jhpvm.pe() == 1) {
                        return;
                    }
                    MPI.Init(args);
                    inits++;
                    int me = MPI.COMM_WORLD.getRank();
                    if (args[0].equals("abort") && me == 1) {
                        MPI.COMM_WORLD.abort(9);
                    }
                    if (args[0].equals("throw") && me == 2) {
                        throw new ArithmeticException("rank 2 divided by zero");
                    }
                    if (args[0].equals("skip") && me == 0) {
                        return;
                    }
                    int[] v = {inits};
                    MPI.COMM_WORLD.allReduce(v, 1, MPI.INT, MPI.SUM);
                    if (me == 0) {
                        System.out.println("ranks " + MPI.COMM_WORLD.getSize() + ", inits summed " + v[0]);
                    }
                    MPI.Finalize();
                }
            }
            """);
        final Run ok = run("run", "--pes", "3", prog.toString(), "ok");
        assertEquals(0, ok.exitCode(), ok.err());
        assertTrue(ok.out().contains("ranks 3, inits summed 3"), "statics shared between ranks: " + ok.out());
        final Run rendezvous = run("run", "--pes", "3", "--option", "mpi.eagerBytes=0", prog.toString(), "ok");
        assertEquals(0, rendezvous.exitCode(), rendezvous.err());
        assertTrue(rendezvous.out().contains("ranks 3, inits summed 3"), rendezvous.out());
        final Run badOption = run("run", "--pes", "3", "--option", "mpi.eagerBytes=-5", prog.toString(), "ok");
        assertEquals(2, badOption.exitCode(), "a bad MPI option is bad input");
        final Run abort = run("run", "--pes", "3", prog.toString(), "abort");
        assertEquals(9, abort.exitCode(), abort.out() + abort.err());
        final long startNs = System.nanoTime();
        final Run thrown = run("run", "--pes", "4", prog.toString(), "throw");
        assertEquals(1, thrown.exitCode());
        assertTrue(thrown.err().startsWith("jhpvm run: PE 2 failed: java.lang.ArithmeticException: rank 2 divided "
            + "by zero\n\tat Ranks.main(Ranks.java:15)"), thrown.err());
        assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(30), "the other ranks were released");
        final Run skipped = run("run", "--pes", "2", prog.toString(), "skip");
        assertEquals(1, skipped.exitCode());
        assertTrue(skipped.err().startsWith("jhpvm run: PE 0 failed: java.lang.IllegalStateException: PE 0's program "
            + "ended without calling MPI.Finalize"), skipped.err());
        final Run noInit = run("run", "--pes", "3", prog.toString(), "noinit");
        assertEquals(1, noInit.exitCode());
        assertTrue(noInit.err().contains("PE 1's program ended without calling MPI.Finalize"), noInit.err());
    }

    @Test
    void aCompileErrorShouldBeReportedAsTheUsersWithFileAndLine(@TempDir final Path dir) throws IOException {
        final Path prog = dir.resolve("Typo.java");
        Files.writeString(prog, "public class Typo {\n    public static void main(String[] args) {\n"
            + "        Sytem.out.println(1);\n    }\n}\n");
        final Run r = run("run", prog.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("Typo.java:3: error: package Sytem does not exist"), r.err());
        assertFalse(r.err().contains("at org.jhpvm"), "no jhpvm stack trace: " + r.err());
    }

    @Test
    void badInputShouldBeOneLineExitTwoAndStartNothing(@TempDir final Path dir) throws IOException {
        final String ring = EXAMPLES.resolve("ShmemRing.java").toString();
        final Run missing = run("run", dir.resolve("Missing.java").toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("jhpvm: no such file: "), missing.err());
        final Path noMain = dir.resolve("NoMain.java");
        Files.writeString(noMain, "public class NoMain { }\n");
        final Run withoutMain = run("run", noMain.toString());
        assertEquals(2, withoutMain.exitCode());
        assertTrue(withoutMain.err().contains("class NoMain has no main method"), withoutMain.err());
        final Run zero = run("run", "--pes", "0", ring);
        assertEquals(2, zero.exitCode());
        assertTrue(zero.err().contains("--pes 0: must be at least 1"), zero.err());
        final Run unknown = run("run", "--option", "shmem.heapbytes=1G", ring);
        assertEquals(2, unknown.exitCode());
        assertEquals("jhpvm: unknown option 'shmem.heapbytes' (did you mean 'shmem.heapBytes'?) (bin/jhpvm info --all "
            + "lists every key) (see: jhpvm run --help)\n", unknown.err());
        final Run badValue = run("run", "--option", "fabric.faults.drop=2", ring);
        assertEquals(2, badValue.exitCode());
        assertTrue(badValue.err().contains("fabric.faults.drop=2"), badValue.err());
        for (final Run r : new Run[] {missing, withoutMain, zero, unknown, badValue}) {
            assertEquals("", r.out(), "nothing started");
            assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        }
    }

    @Test
    void optionsShouldReachTheLayersAndTheProgram(@TempDir final Path dir) throws IOException {
        final Path prog = dir.resolve("Heap.java");
        Files.writeString(prog, """
            import org.jhpvm.runtime.Jhpvm;
            public class Heap {
                public static void main(String[] args) {
                    Jhpvm.shmem(args, sh -> {
                        if (sh.myPe() == 0) {
                            System.out.println("heap " + sh.heapBytes() + " options " + Jhpvm.options());
                        }
                    });
                }
            }
            """);
        final Run r = run("run", "--pes", "2", "--option", "shmem.heapBytes=3M", "--option", "fm.alwaysChecksum=true",
            prog.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("heap 3145728 options {shmem.heapBytes=3M, fm.alwaysChecksum=true}"), r.out());
        final Run lossy = run("run", "--pes", "4", "--option", "fabric.faults.drop=0.02", "--option",
            "fabric.faults.seed=5", EXAMPLES.resolve("ShmemTour.java").toString());
        assertEquals(0, lossy.exitCode(), lossy.err());
        assertTrue(lossy.out().contains("all answers right"), lossy.out());
    }
}
