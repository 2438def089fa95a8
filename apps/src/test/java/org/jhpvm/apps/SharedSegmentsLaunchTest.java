package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SHMEM segments in host memory between real processes ({@code bin/jhpvm launch}): direct between the processes of a
 * host, messages between processes that share none, and a process that dies while others use its memory; and large
 * transfers of heap arrays, whose bytes FM moves through rings in host memory.
 */
@Timeout(240)
class SharedSegmentsLaunchTest {
    private static final String EXAMPLE = Path.of("..", "examples", "ShmemSegments.java").toString();

    @Test
    void segmentsShouldBeLoadsAndStoresBetweenTheProcessesOfAHost() throws Exception {
        final Set<String> before = jobDirectories();
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 120, "launch", "-n", "2", "--pes-per-process", "2", "--",
            "run", EXAMPLE, "20000");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PEs 0-1] PE 0: 4 of 4 PEs in its host memory"), r.out());
        assertTrue(r.out().contains("[PEs 2-3] PE 3: 4 of 4 PEs in its host memory"), r.out());
        assertTrue(r.out().contains("histogram of 80000 draws over 256 bins: every draw counted once"), r.out());
        assertEquals(Set.of(), newSince(before), "job directories (and their segments) left in /dev/shm");
    }

    @Test
    void segmentsShouldTravelInMessagesBetweenProcessesThatShareNoHost() throws Exception {
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 120, "launch", "-n", "2", "--pes-per-process", "2",
            "--transport", "udp", "--", "run", EXAMPLE, "5000");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PEs 0-1] PE 0: 2 of 4 PEs in its host memory"), "its own process's only: "
            + r.out());
        assertTrue(r.out().contains("histogram of 20000 draws over 256 bins: every draw counted once"), r.out());
    }

    @Test
    void aProcessDyingWhileAnotherUsesItsMemoryShouldEndTheJobAndLeaveNoSegment(@TempDir final Path dir)
        throws Exception {
        final Path prog = dir.resolve("Dies.java");
        Files.writeString(prog, """
            import org.jhpvm.runtime.Jhpvm;
            import org.jhpvm.shmem.*;
            public class Dies {
                public static void main(String[] args) {
                    Jhpvm.shmem(args, sh -> {
                        SymmetricSegment s = sh.mallocSegment(1 << 20);
                        if (sh.myPe() == 1) {
                            for (int i = 0; i < 1000; i++) {
                                s.putLong(0, 8, i); // straight into PE 0's memory
                            }
                            Runtime.getRuntime().halt(9); // as kill -9: no goodbye, nothing cleaned
                        }
                        s.waitUntil(0, Cmp.EQ, 1); // nobody will ever store it
                    });
                }
            }
            """);
        assertEndsNamingTheDeadProcess(prog);
    }

    @Test
    void largeTransfersOfHeapArraysShouldGoThroughHostMemoryAndLeaveNothing(@TempDir final Path dir)
        throws Exception {
        final Path prog = dir.resolve("Big.java");
        Files.writeString(prog, """
            import java.nio.file.*;
            import org.jhpvm.runtime.Jhpvm;
            import org.jhpvm.shmem.*;
            public class Big {
                public static void main(String[] args) {
                    Jhpvm.shmem(args, sh -> {
                        final int n = (3 << 17) + 1; // 3 MiB and a long: more pieces than a ring holds
                        SymmetricLongs a = sh.mallocLongs(n + 2);
                        long[] mine = new long[n];
                        for (int i = 0; i < n; i++) {
                            mine[i] = (long) sh.myPe() << 40 | i;
                        }
                        sh.barrierAll();
                        a.put(1 - sh.myPe(), 1, mine, 0, n); // both at once, each into the other's heap array
                        sh.quiet();
                        sh.barrierAll();
                        long[] back = new long[n];
                        a.get(1 - sh.myPe(), 1, back, 0, n); // what this PE put there
                        long bad = 0;
                        for (int i = 0; i < n; i++) {
                            bad += a.local()[1 + i] != ((long) (1 - sh.myPe()) << 40 | i) ? 1 : 0;
                            bad += back[i] != mine[i] ? 1 : 0;
                        }
                        bad += a.local()[0] != 0 || a.local()[n + 1] != 0 ? 1 : 0;
                        boolean ring = false;
                        try (var dirs = Files.list(Path.of("/dev/shm"))) {
                            for (Path d : (Iterable<Path>) dirs::iterator) {
                                // The first ring this process made: name -1, a file of the job's host memory.
                                Path f = d.resolve("shm-segments").resolve("nic" + sh.myPe() + "-4294967295");
                                ring |= d.getFileName().toString().startsWith("jhpvm-") && Files.exists(f);
                            }
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        System.out.println("PE " + sh.myPe() + ": " + bad + " wrong, ring in host memory " + ring);
                    });
                }
            }
            """);
        final Set<String> before = jobDirectories();
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 120, "launch", "-n", "2", "--", "run", prog.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PE 0] PE 0: 0 wrong, ring in host memory true"), r.out());
        assertTrue(r.out().contains("[PE 1] PE 1: 0 wrong, ring in host memory true"), r.out());
        assertEquals(Set.of(), newSince(before), "job directories (and their rings) left in /dev/shm");
    }

    @Test
    void aProcessDyingWhileAnotherFillsARingToItShouldEndTheJobAndLeaveNoSegment(@TempDir final Path dir)
        throws Exception {
        final Path prog = dir.resolve("DiesMidStream.java");
        Files.writeString(prog, """
            import org.jhpvm.runtime.Jhpvm;
            import org.jhpvm.shmem.*;
            public class DiesMidStream {
                public static void main(String[] args) {
                    Jhpvm.shmem(args, sh -> {
                        SymmetricLongs a = sh.mallocLongs(1 << 17);
                        long[] src = new long[1 << 17];
                        sh.barrierAll();
                        if (sh.myPe() == 1) {
                            long end = System.nanoTime() + 200_000_000L;
                            while (System.nanoTime() < end) {
                                Thread.onSpinWait(); // computing: PE 0's pieces pile up in the ring
                            }
                            Runtime.getRuntime().halt(9); // as kill -9: no goodbye, nothing cleaned
                        }
                        while (true) {
                            a.put(1, 0, src, 0, src.length); // 1 MiB, through the ring to PE 1
                        }
                    });
                }
            }
            """);
        assertEndsNamingTheDeadProcess(prog);
    }

    /** Runs a 2-process job whose process 1 halts: it must fail, name that process, and leave no job directory. */
    private static void assertEndsNamingTheDeadProcess(final Path prog) throws Exception {
        final Set<String> before = jobDirectories();
        final long t0 = System.nanoTime();
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 120, "launch", "-n", "2", "--", "run", prog.toString());
        System.out.println("SharedSegmentsLaunchTest: " + prog.getFileName() + " ended "
            + (System.nanoTime() - t0) / 1_000_000 + " ms after its start");
        assertNotEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("process 1 (PE 1 on localhost) lost"), r.err());
        assertEquals(Set.of(), newSince(before), "job directories (and their segments and rings) left in /dev/shm");
    }

    @Test
    void aMainClassThatReturnsShouldEndItsProcess() throws Exception {
        // Aeron's threads are not daemon threads: without LaunchedMain each process would outlive its main for ever.
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 60, "launch", "-n", "2", "--",
            PlainShmemMain.class.getName());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[PE 0] plain main: PE 0 got 11"), r.out());
        assertTrue(r.out().contains("[PE 1] plain main: PE 1 got 10"), r.out());
    }

    static Set<String> newSince(final Set<String> before) throws IOException {
        final Set<String> now = jobDirectories();
        now.removeAll(before);
        return now;
    }

    /** The jhpvm job directories under /dev/shm now (segments live inside them). */
    static Set<String> jobDirectories() throws IOException {
        final Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) {
            return new HashSet<>();
        }
        try (var s = Files.list(shm)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("jhpvm-"))
                .collect(Collectors.toCollection(HashSet::new));
        }
    }
}
