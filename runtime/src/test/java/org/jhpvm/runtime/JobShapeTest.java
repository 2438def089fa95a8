package org.jhpvm.runtime;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which PEs of a program's job run in this process: all of them, or a launched job's share. */
class JobShapeTest {
    private static final Map<String, String> LAUNCHED = Map.of("JHPVM_RANK", "1", "JHPVM_PROCESSES", "3",
        "JHPVM_PES_PER_PROCESS", "2", "JHPVM_SECRET", "0123456789abcdef0123");

    @Test
    void shouldRunEveryPeHereOutsideALaunchedJob() {
        assertEquals(new JobShape(4, 0, 4, false), JobShape.of(0, Map.of()));
        assertEquals(new JobShape(7, 0, 7, false), JobShape.of(7, Map.of()));
    }

    @Test
    void shouldRunThisProcesssShareOfALaunchedJob() {
        assertEquals(new JobShape(6, 2, 2, true), JobShape.of(0, LAUNCHED));
        assertEquals(new JobShape(6, 2, 2, true), JobShape.of(6, LAUNCHED));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobShape.of(4, LAUNCHED));
        assertTrue(e.getMessage().contains("--pes 4 does not match the launched job, which has 6 PEs"), e.getMessage());
    }

    @Test
    void shouldRefuseEmulatedFabricOptionsInALaunchedJobOnly() {
        final JobOptions faults = JobOptions.parse(List.of("fabric.faults.drop=0.1"));
        assertDoesNotThrow(() -> JobShape.of(0, Map.of()).check(faults));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobShape.of(0, LAUNCHED).check(faults))
            .getMessage().contains("fabric.faults.drop"));
        assertDoesNotThrow(() -> JobShape.of(0, LAUNCHED).check(JobOptions.parse(List.of("shmem.heapBytes=1M"))));
        assertThrows(IllegalArgumentException.class, () -> JobShape.of(-1, Map.of()));
    }
}
