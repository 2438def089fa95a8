package org.jhpvm.fabric.internal;

import java.util.HashSet;
import java.util.Set;

import org.jhpvm.fabric.Frame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RingAndPoolTest {
    private static final Object ORIGIN = new Object();

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 16, 17})
    void ringShouldHoldExactlyItsCapacityInOrder(final int capacity) {
        final Ring ring = new Ring(capacity);
        final Frame[] frames = new Frame[capacity + 1];
        for (int i = 0; i <= capacity; i++) {
            frames[i] = new Frame(ORIGIN, 0, 0, 0, 8);
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < capacity; i++) {
                assertTrue(ring.offer(frames[i]), "slot " + i + " of " + capacity);
            }
            assertFalse(ring.offer(frames[capacity]), "ring of " + capacity + " took one more");
            assertEquals(capacity, ring.size());
            assertSame(frames[0], ring.peek());
            for (int i = 0; i < capacity; i++) {
                assertSame(frames[i], ring.poll());
            }
            assertNull(ring.poll());
            assertTrue(ring.isEmpty());
        }
    }

    @Test
    void poolShouldHandOutEachFrameOnceAndTakeThemBack() {
        final FramePool pool = new FramePool(ORIGIN, 3, 0, 16, 64, 5);
        final Set<Frame> taken = new HashSet<>();
        Frame frame;
        while ((frame = pool.take()) != null) {
            assertTrue(taken.add(frame), "frame handed out twice");
            assertEquals(3, frame.owner());
            assertEquals(64, frame.frameBytes());
        }
        assertEquals(5, taken.size());
        for (final Frame f : taken) {
            pool.give(f); // from "another thread": through the MPSC queue
        }
        final Set<Frame> again = new HashSet<>();
        while ((frame = pool.take()) != null) {
            again.add(frame);
        }
        assertEquals(taken, again);
        final Frame one = again.iterator().next();
        pool.giveLocal(one);
        assertSame(one, pool.take());
    }

    @Test
    void poolShouldDetectMoreFramesComingBackThanItOwns() {
        final FramePool pool = new FramePool(ORIGIN, 0, 0, 0, 8, 2);
        final Frame stranger = new Frame(ORIGIN, 0, 0, 0, 8);
        pool.give(pool.take());
        pool.give(pool.take());
        assertThrows(IllegalStateException.class, () -> pool.give(stranger));
    }
}
