package org.jhpvm.shmem;

import java.util.HashSet;
import java.util.Set;

import org.jhpvm.fm.FmJob;
import org.jhpvm.fm.FmOption;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SHMEM's options: its own and every one of the layers below, listed if and only if accepted. */
class OptionsTest {
    @Test
    void shouldListSharedOptionsThenEveryLowerLayersOption() {
        final Set<String> keys = new HashSet<>();
        final ShmemJob.Builder b = ShmemJob.builder();
        for (final ShmemOption o : ShmemJob.options()) {
            assertTrue(keys.add(o.key()), "listed twice: " + o.key());
            b.option(o.key(), o.defaultValue());
        }
        b.build();
        assertTrue(keys.contains("shmem.heapBytes") && keys.contains("shmem.progressMaxParkNs")
            && keys.contains("shmem.threadLevel") && keys.contains("shmem.aggregateBytes")
            && keys.contains("shmem.aggregateDelayNs") && keys.contains("shmem.hostMemory"), keys.toString());
        for (final FmOption o : FmJob.options()) {
            assertTrue(keys.contains(o.key()), o.key());
        }
        assertEquals(6 + FmJob.options().size(), keys.size());
    }

    @Test
    void shouldTakeTheHostMemoryModeAsAnOption() {
        ShmemJob.builder().pes(2).option("shmem.hostMemory", "MESSAGES").build()
            .run(sh -> assertEquals(null, sh.mallocSegment(8).ptr(1 - sh.myPe())));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ShmemJob.builder().option("shmem.hostMemory", "shared"));
        assertTrue(e.getMessage().contains("shmem.hostMemory=shared: direct or messages"), e.getMessage());
    }

    @Test
    void shouldTakeTheThreadLevelAsAnOption() {
        ShmemJob.builder().pes(1).option("shmem.threadLevel", "multiple").build()
            .run(sh -> assertEquals(ThreadLevel.MULTIPLE, sh.queryThread()));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ShmemJob.builder().option("shmem.threadLevel", "ALL"));
        assertTrue(e.getMessage().contains("shmem.threadLevel=ALL"), e.getMessage());
    }

    @Test
    void shouldRefuseWhatItDoesNotList() {
        for (final String key : new String[] {"shmem.heapbytes", "heapBytes", "ga.x", "fm.nope", "fabric.nope"}) {
            assertThrows(IllegalArgumentException.class, () -> ShmemJob.builder().option(key, "1"), key);
        }
    }

    @Test
    void shouldRefuseALowerLayerRangeErrorWhenTheJobIsBuilt() {
        final ShmemJob.Builder b = ShmemJob.builder().option("fabric.frameBytes", "0");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("frameBytes"), e.getMessage());
    }
}
