package org.jhpvm.fabric.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The conservative rule's promises, step by step on one thread: the interleavings of a waiting NIC and a sender
 * that the threads of a busy machine produce now and then. NIC 1 waits; NIC 0 sends to it and then reads the others'
 * bound, as its own wait does.
 */
class VirtualClocksTest {
    private static final long LOOKAHEAD = 1_000;

    private static VirtualClocks twoNics(final long clock0, final long clock1) {
        final VirtualClocks clocks = new VirtualClocks(2, LOOKAHEAD, false);
        clocks.join(0, new Thread(() -> { }), clock0);
        clocks.join(1, new Thread(() -> { }), clock1);
        return clocks;
    }

    /**
     * The race a busy machine hit: NIC 1 has read its inbox (empty) and is about to promise its deadline; NIC 0's
     * frame lands meanwhile, its sender seeing no promise to lower. The promise must be refused (NIC 1 reads its
     * inbox again), and until a promise is out NIC 1 counts at its clock. A promise set without that check let NIC
     * 0 count NIC 1 at its 20 ms deadline and run its own wait on to its deadline.
     */
    @Test
    void aPromiseIsRefusedIfAFrameCameWhileItWasWorkedOut() {
        final long[] scratch = new long[3];
        final VirtualClocks clocks = twoNics(50_000, 10_000);
        clocks.openPromise(1);
        assertEquals(10_000, clocks.othersMin(0, false, scratch), "an opened promise counts as the clock");
        clocks.lowerPromise(1, 60_000); // NIC 0's frame, arriving at 60 ns
        assertFalse(clocks.promise(1, 20_000_000), "the promise did not know the frame");
        assertEquals(10_000, clocks.othersMin(0, false, scratch), "no promise yet: still the clock");
        clocks.openPromise(1);
        assertTrue(clocks.promise(1, 60_000), "worked out again, from an inbox that has the frame");
        assertEquals(60_000, clocks.othersMin(0, false, scratch));
    }

    /** Once out, a promise only comes down: a sender's frame lowers it, a later one does not raise it. */
    @Test
    void aPromiseOutIsLoweredBySendersAndNeverRaised() {
        final long[] scratch = new long[3];
        final VirtualClocks clocks = twoNics(50_000, 10_000);
        clocks.openPromise(1);
        assertTrue(clocks.promise(1, 20_000_000));
        assertEquals(20_000_000, clocks.othersMin(0, false, scratch), "waiting: counted at its promise");
        clocks.lowerPromise(1, 70_000);
        assertEquals(70_000, clocks.othersMin(0, false, scratch));
        clocks.lowerPromise(1, 90_000);
        assertEquals(70_000, clocks.othersMin(0, false, scratch), "a later frame does not raise it");
        clocks.clearPromise(1);
        clocks.lowerPromise(1, 5_000); // NIC 1 not waiting: nothing to lower
        assertEquals(10_000, clocks.othersMin(0, false, scratch), "no longer waiting: its clock");
    }

    /**
     * A full look names the NIC that holds the least clock (a waiting look then reads that one alone until it has
     * passed), and that NIC's own reading counts its promise as the full look does.
     */
    @Test
    void aLookNamesTheNicThatHoldsItBack() {
        final VirtualClocks clocks = new VirtualClocks(3, LOOKAHEAD, false);
        for (int nic = 0; nic < 3; nic++) {
            clocks.join(nic, new Thread(() -> { }), 0);
        }
        clocks.publish(0, 5_000);
        clocks.publish(1, 40_000);
        clocks.publish(2, 30_000);
        final long[] scratch = new long[4];
        assertEquals(30_000, clocks.othersMin(0, false, scratch));
        assertEquals(2, scratch[3], "NIC 2's clock is the least of the others");
        assertEquals(30_000, clocks.effective(2));
        clocks.openPromise(2);
        assertTrue(clocks.promise(2, 90_000));
        assertEquals(90_000, clocks.effective(2), "waiting: its promise");
        assertEquals(40_000, clocks.othersMin(0, false, scratch));
        assertEquals(1, scratch[3], "once NIC 2 waits to 90 ns, NIC 1 holds the others back");
        clocks.leave(1);
        clocks.leave(2);
        assertEquals(VirtualClocks.GONE, clocks.othersMin(0, false, scratch));
        assertEquals(-1, scratch[3], "no other NIC takes part");
    }
}
