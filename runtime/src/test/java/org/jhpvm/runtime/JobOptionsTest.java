package org.jhpvm.runtime;

import java.util.List;
import java.util.Map;

import org.jhpvm.shmem.ShmemOption;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options of a user's program, checked whole before anything runs. */
class JobOptionsTest {
    @Test
    void shouldNameTheNearestKeyOfAMistypedOne() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> JobOptions.parse(List.of("fabric.faults.dorp=0.1")));
        assertEquals("unknown option 'fabric.faults.dorp' (did you mean 'fabric.faults.drop'?) (bin/jhpvm info --all "
            + "lists every key)", e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("fm.windowframes=2")))
            .getMessage().contains("did you mean 'fm.windowFrames'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("colour=blue")))
            .getMessage().startsWith("unknown option 'colour' (bin/jhpvm"), "no far-fetched suggestion");
    }

    @Test
    void mpiOptionsShouldBeKnownCheckedAndKeptFromTheShmemJob() {
        final JobOptions o = JobOptions.parse(List.of("mpi.eagerBytes=0", "mpi.unexpectedBytes=1M",
            "fm.windowFrames=8"));
        assertEquals(Map.of("mpi.eagerBytes", "0", "mpi.unexpectedBytes", "1M", "fm.windowFrames", "8"), o.values());
        // The SHMEM job gets only what it takes (mpi.* would be an unknown SHMEM option).
        o.applyTo(org.jhpvm.shmem.ShmemJob.builder()).build();
        o.applyTo(org.jhpvm.mpi.MpiJob.builder()).build();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("mpi.eagerBytes=-1")))
            .getMessage().contains("mpi.eagerBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("mpi.eagerbytes=1")))
            .getMessage().contains("did you mean 'mpi.eagerBytes'"));
        assertTrue(JobOptions.known().stream().anyMatch(k -> k.key().equals("mpi.unexpectedBytes")));
    }

    @Test
    void shouldRefuseBadPairsAndValues() {
        assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("shmem.heapBytes")));
        assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("=1")));
        assertThrows(IllegalArgumentException.class,
            () -> JobOptions.parse(List.of("shmem.heapBytes=1M", "shmem.heapBytes=2M")));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("shmem.heapBytes=lots")))
            .getMessage().contains("shmem.heapBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobOptions.parse(List.of("fabric.frameBytes=0")))
            .getMessage().contains("frameBytes"), "ranges are checked before anything runs");
    }

    @Test
    void shouldAcceptEveryKnownKeyWithItsDefault() {
        for (final ShmemOption o : JobOptions.known()) {
            assertEquals(Map.of(o.key(), o.defaultValue()), JobOptions.parse(List.of(o.key() + "=" + o.defaultValue()))
                .values());
        }
        assertEquals(List.of("shmem.heapBytes=1M", "fm.windowFrames=4"),
            JobOptions.parse(List.of("shmem.heapBytes=1M", " fm.windowFrames = 4")).asPairs());
    }
}
