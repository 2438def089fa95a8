package org.jhpvm.fabric;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FabricConfigTest {
    @Test
    void shouldRejectNonPositiveRingCapacitiesNamingTheSetting() {
        for (final int capacity : new int[] {0, -1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FabricConfig.builder(2).receiveRingCapacity(capacity).build());
            assertTrue(e.getMessage().startsWith("receiveRingCapacity=" + capacity), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                () -> FabricConfig.builder(2).sendRingCapacity(capacity).build());
            assertTrue(e.getMessage().startsWith("sendRingCapacity=" + capacity), e.getMessage());
        }
    }

    @Test
    void shouldRejectOtherSettingsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> FabricConfig.builder(0).build());
        assertThrows(IllegalArgumentException.class, () -> FabricConfig.builder(2).frameBytes(0).build());
        assertThrows(IllegalArgumentException.class, () -> FabricConfig.builder(2).headerBytes(-1).build());
        assertThrows(IllegalArgumentException.class, () -> FabricConfig.builder(2).frameBytes(100).inlineBytes(101)
            .build());
        assertThrows(IllegalArgumentException.class, () -> FabricConfig.builder(2).poolFrames(0).build());
        assertThrows(IllegalArgumentException.class, () -> FabricConfig.builder(2).idle(1, 1, 0, 10).build());
        assertThrows(IllegalArgumentException.class, () -> FabricConfig.builder(2)
            .faultPlan(FaultPlan.builder(1).linkDown(new LinkDownWindow(2, 0, 1)).build()).build());
    }

    @Test
    void shouldDefaultPoolBudgetAndInlineFromRingsAndFrameSize() {
        final FabricConfig config = FabricConfig.builder(4).frameBytes(512).sendRingCapacity(3).receiveRingCapacity(5)
            .build();
        assertEquals(8, config.poolFrames());
        assertEquals(3, config.pumpBudget());
        assertEquals(512, config.inlineBytes());
        assertEquals(FabricConfig.DEFAULT_INLINE_BYTES, FabricConfig.builder(2).build().inlineBytes());
        assertEquals(16 + 32 + 512, config.frameArrayBytes());
    }

    @Test
    void idleStrategyShouldSpinThenYieldThenParkAndResetOnWork() {
        final BackoffIdleStrategy idle = new BackoffIdleStrategy(2, 1, 1_000, 4_000);
        assertFalse(idle.nextIdleParks());
        idle.idle(0);
        idle.idle(0);
        assertFalse(idle.nextIdleParks(), "yield phase next");
        idle.idle(0);
        assertTrue(idle.nextIdleParks());
        idle.idle(0);
        assertTrue(idle.nextIdleParks());
        idle.idle(1);
        assertFalse(idle.nextIdleParks(), "work resets the back-off");
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(-1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(0, 0, 10, 1));
    }
}
