package org.jhpvm.fm;

import java.util.HashSet;
import java.util.Set;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FabricOption;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FM's option table and the job builder that passes fabric options down: listed if and only if accepted. */
class FmOptionsTest {
    @Test
    void shouldAcceptEveryListedKeyWithItsDefaultAndBuildTheDefaults() {
        final FmConfig.Builder b = FmConfig.builder();
        for (final FmOption o : FmConfig.options()) {
            assertTrue(o.key().startsWith("fm."), o.key());
            b.option(o.key(), o.defaultValue());
        }
        assertEquals(FmConfig.defaults(), b.build(), "the listed defaults are the real defaults");
    }

    @Test
    void shouldListFmsKeysThenEveryFabricKeyOnJobs() {
        final Set<String> keys = new HashSet<>();
        final FmJob.Builder job = FmJob.builder();
        for (final FmOption o : FmJob.options()) {
            assertTrue(keys.add(o.key()), "listed twice: " + o.key());
            job.option(o.key(), o.defaultValue());
        }
        assertEquals(FmConfig.options().size() + FabricConfig.options().size(), keys.size());
        for (final FabricOption o : FabricConfig.options()) {
            assertTrue(keys.contains("fabric." + o.key()), o.key());
        }
        assertEquals(FmJob.builder().build().fabricConfig(), job.build().fabricConfig());
    }

    @Test
    void shouldApplyFmKeysToTheJobsEndpoints() {
        final FmConfig c = FmConfig.builder().option("fm.windowFrames", "8").option("fm.alwaysChecksum", "true")
            .option("fm.rtoMinNs", "2000").option("fm.rtoMaxNs", "4000").build();
        assertEquals(8, c.windowFrames());
        assertTrue(c.alwaysChecksum());
        assertEquals(2000, c.rtoMinNs());
        assertEquals(4000, c.rtoMaxNs());
    }

    @Test
    void shouldRefuseUnknownKeysAndBadValuesChangingNothing() {
        final FmConfig.Builder b = FmConfig.builder();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.option("fm.window", "1")).getMessage()
            .contains("unknown option 'fm.window'"));
        assertThrows(IllegalArgumentException.class, () -> b.option("fm.alwaysChecksum", "yes"));
        assertThrows(IllegalArgumentException.class, () -> b.option("fm.ackDelayNs", "soon"));
        assertEquals(FmConfig.defaults(), b.build());
        assertThrows(IllegalArgumentException.class, () -> FmJob.builder().option("shmem.heapBytes", "1"));
        assertThrows(IllegalArgumentException.class, () -> FmJob.builder().option("fabric.frameBytes", "x"));
        assertThrows(IllegalArgumentException.class, () -> FmJob.builder().option("fm.maxParkNs", "x"));
        // a range error shows when the job is built, naming the setting
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FmJob.builder().option("fm.rtoMinNs", "0")
            .build()).getMessage().contains("rtoMinNs"));
    }
}
