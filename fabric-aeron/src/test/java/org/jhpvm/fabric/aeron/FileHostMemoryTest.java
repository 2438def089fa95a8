package org.jhpvm.fabric.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The host memory of a launched job ({@link FileHostMemory}), as two processes of one host see it: each "process" is
 * its own instance over the same job directory, as two JVMs would be (a file mapped twice is the same memory whether
 * the mappings are in one process or two).
 */
@Timeout(60)
class FileHostMemoryTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private Path dir;

    private List<JobEnvironment> job(final boolean udp) {
        final List<JobEnvironment> envs = AeronCluster.environments(2, 2, udp, "0123456789abcdef-secret", 1_500);
        dir = Path.of(envs.get(0).aeronDir());
        return envs;
    }

    @AfterEach
    void removeDirectory() throws IOException {
        if (dir != null && Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void shouldShareOneSegmentBetweenTheProcessesOfAHost() {
        final List<JobEnvironment> envs = job(false);
        final FileHostMemory rank0 = new FileHostMemory(envs.get(0), 0, 2, null);
        final FileHostMemory rank1 = new FileHostMemory(envs.get(1), 2, 2, null);
        for (int nic = 0; nic < 4; nic++) {
            assertTrue(rank0.reaches(nic) && rank1.reaches(nic), "NIC " + nic + " is on this host");
        }
        assertFalse(rank0.reaches(4) || rank0.reaches(-1), "not a NIC of the job");

        final MemorySegment created = rank0.create(1, 7, 4096);
        assertEquals(4096, created.byteSize());
        assertEquals(0, created.get(ValueLayout.JAVA_LONG, 4088), "zeroed");
        created.set(ValueLayout.JAVA_LONG, 8, 99L);
        final MemorySegment mapped = rank1.map(1, 7);
        assertSame(mapped, rank1.map(1, 7), "one mapping per process");
        assertSame(created, rank0.map(1, 7), "the creator's own process answers its segment");
        assertEquals(99L, mapped.get(ValueLayout.JAVA_LONG, 8), "the creator's store, seen in the other process");
        for (int i = 0; i < 1000; i++) {
            WORD.getAndAdd(mapped, 16L, 2L);
            WORD.getAndAdd(created, 16L, 1L);
        }
        assertEquals(3000L, (long) WORD.getVolatile(created, 16L), "atomics of both processes on one word");
        assertEquals(1, rank1.liveEntries());

        rank0.remove(1, 7);
        assertFalse(Files.exists(dir.resolve(FileHostMemory.DIRECTORY).resolve("nic1-7")), "the file is gone");
        assertThrows(IllegalStateException.class, () -> created.get(ValueLayout.JAVA_LONG, 8),
            "the creator's use ends at its removal");
        assertEquals(99L, mapped.get(ValueLayout.JAVA_LONG, 8), "another process's mapping stays valid until unmapped");
        rank1.unmap(1, 7);
        rank1.unmap(1, 7);
        assertThrows(IllegalStateException.class, () -> mapped.get(ValueLayout.JAVA_LONG, 8), "unmapped");
        assertThrows(IllegalArgumentException.class, () -> rank1.unmap(1, 7), "more unmaps than maps");
        assertEquals(0, rank1.liveEntries());
        rank0.unmap(1, 7); // the creator's own map, after its removal: given back quietly
        assertEquals(0, rank0.liveEntries());
    }

    @Test
    void shouldRefuseWhatCannotBeDoneNamingIt() {
        final List<JobEnvironment> envs = job(false);
        final FileHostMemory rank0 = new FileHostMemory(envs.get(0), 0, 2, null);
        final FileHostMemory rank1 = new FileHostMemory(envs.get(1), 2, 2, null);
        assertThrows(IllegalArgumentException.class, () -> rank0.create(2, 1, 64), "NIC 2 is rank 1's");
        assertThrows(IllegalArgumentException.class, () -> rank0.create(0, 1, -1));
        rank0.create(0, 1, 64);
        assertThrows(IllegalArgumentException.class, () -> rank0.create(0, 1, 64), "the name is taken");
        final var missing = assertThrows(IllegalStateException.class, () -> rank1.map(0, 2));
        assertTrue(missing.getMessage().contains("no host memory segment 2"), missing.getMessage());
        assertEquals(0, rank1.liveEntries(), "a failed map holds nothing");
        final var huge = assertThrows(IllegalStateException.class, () -> rank0.create(1, 3, Long.MAX_VALUE / 2));
        assertTrue(huge.getMessage().contains("free in"), huge.getMessage());
        assertFalse(Files.exists(dir.resolve(FileHostMemory.DIRECTORY).resolve("nic1-3")), "nothing left of it");
        assertThrows(IllegalArgumentException.class, () -> rank1.remove(0, 1), "only the creator removes");
        final MemorySegment empty = rank0.create(1, 4, 0);
        assertEquals(0, empty.byteSize());
        assertEquals(0, rank1.map(1, 4).byteSize());
        rank0.closeAll();
        assertEquals(0, rank0.liveEntries());
        try (Stream<Path> left = Files.list(dir.resolve(FileHostMemory.DIRECTORY))) {
            assertEquals(0, left.count(), "closing removes every segment the process created");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldReachNoOtherProcessOverUdp() {
        final List<JobEnvironment> envs = job(true);
        final FileHostMemory rank0 = new FileHostMemory(envs.get(0), 0, 2, null);
        assertTrue(rank0.reaches(0) && rank0.reaches(1), "its own NICs");
        assertFalse(rank0.reaches(2) || rank0.reaches(3), "JHPVM_TRANSPORT=udp: every other process is remote");
        assertThrows(IllegalArgumentException.class, () -> rank0.map(2, 1));
    }
}
