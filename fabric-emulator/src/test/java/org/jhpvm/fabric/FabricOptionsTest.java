package org.jhpvm.fabric;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fabric's option table: what it lists is what {@link FabricConfig.Builder#option} accepts, defaults included. */
class FabricOptionsTest {
    @Test
    void shouldAcceptEveryListedKeyWithItsDefaultAndBuildTheDefaultConfig() {
        final FabricConfig.Builder b = FabricConfig.builder(4);
        for (final FabricOption o : FabricConfig.options()) {
            b.option(o.key(), o.defaultValue());
        }
        assertEquals(FabricConfig.builder(4).build(), b.build(), "the listed defaults are the real defaults");
    }

    @Test
    void shouldListEachKeyOnceWithTypeAndMeaning() {
        final Set<String> keys = new HashSet<>();
        for (final FabricOption o : FabricConfig.options()) {
            assertTrue(keys.add(o.key()), "listed twice: " + o.key());
            assertFalse(o.type().isBlank() || o.meaning().isBlank() || o.defaultValue().isBlank(), o.toString());
        }
        assertTrue(keys.containsAll(List.of("frameBytes", "receiveRingCapacity", "faults.drop", "faults.seed")));
    }

    @Test
    void shouldApplyEachKeyToItsSetting() {
        final FabricConfig c = FabricConfig.builder(2).option("frameBytes", "4096").option("poolFrames", "100")
            .option("maxParkNs", "5000").option("faults.seed", "9").option("faults.drop", "0.25").build();
        assertEquals(4096, c.frameBytes());
        assertEquals(100, c.poolFrames());
        assertEquals(5000, c.maxParkNs());
        assertEquals(9, c.faultPlan().seed());
        assertEquals(0.25, c.faultPlan().drop());
        assertEquals(FabricConfig.builder(2).build().poolFrames(), FabricConfig.builder(2).option("poolFrames", "auto")
            .build().poolFrames());
    }

    @Test
    void shouldRefuseUnknownKeysAndBadValuesChangingNothing() {
        final FabricConfig.Builder b = FabricConfig.builder(2);
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> b.option("frameByte", "1"));
        assertTrue(unknown.getMessage().contains("unknown option 'fabric.frameByte'"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("frameBytes"), "names the known keys: " + unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.option("frameBytes", "lots"));
        assertThrows(IllegalArgumentException.class, () -> b.option("poolFrames", "-1"));
        assertThrows(IllegalArgumentException.class, () -> b.option("faults.drop", "1.5"));
        assertThrows(IllegalArgumentException.class, () -> b.option("faults.corrupt", "NaN"));
        assertThrows(IllegalArgumentException.class, () -> b.option("frameBytes", null));
        assertEquals(FabricConfig.builder(2).build(), b.build(), "a refused option changed nothing");
        assertNotEquals(FabricConfig.builder(2).build(), FabricConfig.builder(2).option("faults.drop", "0.1").build());
    }
}
