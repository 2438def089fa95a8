package org.jhpvm.fm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import org.jhpvm.fm.Scheduling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The run slots' grants, in the order and within the bounds the policies promise. */
@Timeout(30)
class RunSlotsTest {
    private static final long LONG_QUANTUM_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * A PE thread driven by the test: it runs the steps it is given, one at a time, and reports each as done. A step
     * that waits for a slot reports only once it holds one.
     */
    private static final class Pe {
        private final BlockingQueue<Runnable> steps = new LinkedBlockingQueue<>();
        private final BlockingQueue<String> done = new LinkedBlockingQueue<>();
        private final Thread thread;
        final RunSlots.Slot slot;

        Pe(final RunSlots slots, final String name) {
            this(slots, name, NEVER);
        }

        Pe(final RunSlots slots, final String name, final BooleanSupplier abandoned) {
            this.slot = slots.newSlot(abandoned);
            this.thread = Thread.ofPlatform().daemon(true).name(name).start(() -> {
                try {
                    while (true) {
                        final Runnable r = steps.take();
                        r.run();
                        done.add(name);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        void run(final Runnable step) {
            steps.add(step);
        }

        /** Runs a step and waits for it. */
        void runAndWait(final Runnable step) throws InterruptedException {
            run(step);
            assertTrue(done.poll(10, TimeUnit.SECONDS) != null, thread.getName() + " did not finish its step");
        }

        boolean finishedWithin(final long ms) throws InterruptedException {
            return done.poll(ms, TimeUnit.MILLISECONDS) != null;
        }
    }

    private static void awaitWaiting(final RunSlots slots, final int n) throws InterruptedException {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (slots.waiting() != n) {
            assertTrue(System.nanoTime() < end, "waiting stayed at " + slots.waiting() + ", expected " + n);
            Thread.sleep(1);
        }
    }

    private static final BooleanSupplier NEVER = () -> false;

    @Test
    void dcsShouldKeepTheSlotsOfAJobWhosePesAllRunForOneQuantumOnly() {
        // 600 ms: the checks within the quantum must come before it ends, even on a busy machine.
        final long quantum = TimeUnit.MILLISECONDS.toNanos(600);
        final RunSlots slots = new RunSlots(Scheduling.DCS, 2, quantum);
        final Object job = new Object();
        final RunSlots.Slot x1 = slots.newSlot(job, NEVER);
        final RunSlots.Slot x2 = slots.newSlot(job, NEVER);
        final RunSlots.Slot other = slots.newSlot(new Object(), NEVER);
        final long start = System.nanoTime(); // before the slot's quantum starts
        slots.enter(x1);
        assertFalse(slots.keeps(x1, System.nanoTime()), "its partner does not run: it may need this core");
        slots.enter(x2);
        assertTrue(slots.keeps(x1, System.nanoTime()) && slots.keeps(x2, System.nanoTime()), "both PEs of the job run");
        assertFalse(slots.keeps(other, System.nanoTime()), "a PE without a slot keeps none");
        slots.release(x2);
        assertFalse(slots.keeps(x1, System.nanoTime()), "its partner gave its slot up");
        assertTrue(slots.tryAcquire(x2));
        assertTrue(slots.keeps(x1, System.nanoTime()), "both run again, within x1's quantum");
        // The quantum is what is measured: poll until it ends, bounded.
        final long deadline = start + TimeUnit.SECONDS.toNanos(10);
        while (slots.keeps(x1, System.nanoTime()) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertFalse(slots.keeps(x1, System.nanoTime()), "still keeping after 10 s");
        assertTrue(System.nanoTime() - start >= quantum, "kept for less than its quantum");
        for (final Scheduling p : new Scheduling[] {Scheduling.NONE, Scheduling.GANG}) {
            final RunSlots s = new RunSlots(p, 2, LONG_QUANTUM_NS);
            final RunSlots.Slot only = s.newSlot(job, NEVER);
            s.enter(only);
            assertFalse(s.keeps(only, System.nanoTime()), p + " never keeps a slot through a wait");
        }
    }

    @Test
    void dcsShouldRunAtMostCoresPesAndGiveAFreedSlotToAPeWokenByAMessageFirst() throws InterruptedException {
        final RunSlots slots = new RunSlots(Scheduling.DCS, 2, LONG_QUANTUM_NS);
        final Pe a = new Pe(slots, "a");
        final Pe b = new Pe(slots, "b");
        final Pe c = new Pe(slots, "c");
        final Pe w = new Pe(slots, "w");
        a.runAndWait(() -> slots.enter(a.slot));
        w.runAndWait(() -> slots.enter(w.slot));
        w.runAndWait(() -> slots.release(w.slot)); // w blocks in a wait
        b.runAndWait(() -> slots.enter(b.slot));
        assertEquals(2, slots.running());
        assertFalse(slots.contended(a.slot), "nobody waits yet");
        c.run(() -> slots.enter(c.slot)); // a third PE starts: no core for it
        awaitWaiting(slots, 1);
        assertTrue(slots.contended(a.slot), "a running PE must see that another wants its core");
        w.run(() -> slots.acquire(w.slot, true)); // a message ends w's wait
        awaitWaiting(slots, 2);
        assertFalse(c.finishedWithin(50), "c ran beyond the cores");
        a.runAndWait(() -> slots.release(a.slot));
        assertTrue(w.finishedWithin(5_000), "the freed slot went to the PE woken by a message");
        assertFalse(c.finishedWithin(50), "c ran although w came first");
        assertEquals(2, slots.running());
        b.runAndWait(() -> slots.release(b.slot));
        assertTrue(c.finishedWithin(5_000), "the next freed slot goes to c");
        assertTrue(c.slot.held() && w.slot.held() && !a.slot.held() && !b.slot.held());
        assertEquals(0, slots.overAdmissions());
        assertEquals(2, slots.grants());
    }

    @Test
    void dcsShouldGiveASlotToAPeThatWaitedAQuantumBeforeAWokenPe() throws InterruptedException {
        final long quantum = TimeUnit.MILLISECONDS.toNanos(300);
        final RunSlots slots = new RunSlots(Scheduling.DCS, 1, quantum);
        final Pe a = new Pe(slots, "a");
        final Pe c = new Pe(slots, "c");
        final Pe w = new Pe(slots, "w");
        w.runAndWait(() -> slots.enter(w.slot));
        w.runAndWait(() -> slots.release(w.slot));
        a.runAndWait(() -> slots.enter(a.slot));
        c.run(() -> slots.enter(c.slot));
        awaitWaiting(slots, 1);
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(quantum) + 50); // c has now waited more than a quantum
        w.run(() -> slots.acquire(w.slot, true));
        awaitWaiting(slots, 2);
        a.runAndWait(() -> slots.release(a.slot));
        assertTrue(c.finishedWithin(5_000), "the PE that waited a quantum goes first");
        assertFalse(w.slot.held(), "w waits behind c");
        c.runAndWait(() -> slots.release(c.slot));
        assertTrue(w.finishedWithin(5_000));
    }

    @Test
    void aSlotHolderThatNeverBlocksShouldNotStallTheOthersBeyondTwoQuanta() throws InterruptedException {
        final long quantum = TimeUnit.MILLISECONDS.toNanos(50);
        final RunSlots slots = new RunSlots(Scheduling.DCS, 1, quantum);
        final Pe computing = new Pe(slots, "computing");
        final Pe other = new Pe(slots, "other");
        final Pe third = new Pe(slots, "third");
        final long start = System.nanoTime();
        computing.runAndWait(() -> slots.enter(computing.slot)); // and never gives it up
        other.run(() -> slots.enter(other.slot));
        assertTrue(other.finishedWithin(5_000), "the waiter starved");
        final long waited = System.nanoTime() - start;
        assertTrue(waited >= 2 * quantum, "it ran after " + waited + " ns, before two quanta");
        assertEquals(2, slots.running());
        assertTrue(slots.contended(computing.slot), "two PEs on one core: each must see the other");
        // While the holder keeps its slot, the PEs beside it take turns on the slot it adds, without waiting again.
        other.runAndWait(() -> slots.release(other.slot));
        third.run(() -> slots.enter(third.slot));
        assertTrue(third.finishedWithin(1_000), "the slot the holder adds was not handed on");
        other.run(() -> slots.acquire(other.slot, true));
        awaitWaiting(slots, 1);
        third.runAndWait(() -> slots.release(third.slot));
        assertTrue(other.finishedWithin(1_000));
        computing.runAndWait(() -> slots.release(computing.slot));
        assertEquals(1, slots.running());
        assertEquals(0, slots.overAdmissions());
    }

    @Test
    void anAbortShouldLetEveryWaiterGoAtOnce() throws InterruptedException {
        final AtomicBoolean aborted = new AtomicBoolean();
        final RunSlots slots = new RunSlots(Scheduling.DCS, 1, LONG_QUANTUM_NS);
        final Pe holder = new Pe(slots, "holder");
        holder.runAndWait(() -> slots.enter(holder.slot));
        final Pe[] waiters = new Pe[3];
        for (int i = 0; i < waiters.length; i++) {
            final Pe p = new Pe(slots, "waiter" + i, aborted::get);
            waiters[i] = p;
            p.run(() -> slots.enter(p.slot));
        }
        awaitWaiting(slots, 3);
        aborted.set(true);
        for (final Pe p : waiters) {
            assertTrue(p.finishedWithin(1_000), "a waiter stayed after the abort");
        }
        assertEquals(0, slots.waiting());
        assertEquals(3, slots.overAdmissions());
    }

    @Test
    void gangShouldRunOnlyTheCurrentGangsPesUntilItsTurnEnds() throws InterruptedException {
        // 1.2 s: the turns' clock starts with the slots, and gang 0's turn must outlast the thread hand-offs before
        // the check even on a busy machine.
        final long quantum = TimeUnit.MILLISECONDS.toNanos(1_200);
        final RunSlots slots = new RunSlots(Scheduling.GANG, 1, quantum);
        final Pe first = new Pe(slots, "gang0");
        final Pe second = new Pe(slots, "gang1");
        first.runAndWait(() -> slots.enter(first.slot));
        second.run(() -> slots.enter(second.slot));
        awaitWaiting(slots, 1);
        first.runAndWait(() -> slots.release(first.slot));
        assertFalse(second.finishedWithin(100), "gang 1 ran during gang 0's turn although a core was free");
        assertTrue(second.finishedWithin(5_000), "gang 1 never got its turn");
        assertTrue(slots.contended(first.slot), "gang 0's turn is over");
        assertEquals(0, slots.overAdmissions());
    }

    @Test
    void gangShouldFormEachJobsGangsFromItsOwnPesHoweverTheirSlotsInterleave() {
        final RunSlots slots = new RunSlots(Scheduling.GANG, 2, LONG_QUANTUM_NS);
        final Object a = new Object();
        final Object b = new Object();
        final RunSlots.Slot a1 = slots.newSlot(a, NEVER);
        final RunSlots.Slot b1 = slots.newSlot(b, NEVER);
        final RunSlots.Slot a2 = slots.newSlot(a, NEVER);
        final RunSlots.Slot b2 = slots.newSlot(b, NEVER);
        final RunSlots.Slot a3 = slots.newSlot(a, NEVER);
        // Gang 0, whose turn it is, is a's first two PEs; in the order the slots were made it would be a1 and b1.
        assertFalse(slots.contended(a1) || slots.contended(a2), "a's first two PEs form the current gang");
        assertTrue(slots.contended(b1) && slots.contended(b2), "b's PEs are another gang");
        assertTrue(slots.contended(a3), "a's third PE is a gang of its own: 2 cores");
    }

    @Test
    void noneShouldNeverMakeAPeWaitButTellWhenPesOutnumberCores() throws InterruptedException {
        final RunSlots slots = new RunSlots(Scheduling.NONE, 1, LONG_QUANTUM_NS);
        final Pe[] pes = new Pe[3];
        for (int i = 0; i < pes.length; i++) {
            final Pe p = new Pe(slots, "pe" + i);
            pes[i] = p;
            p.runAndWait(() -> slots.enter(p.slot));
        }
        assertEquals(3, slots.running());
        assertEquals(0, slots.waiting());
        assertTrue(slots.contended(pes[0].slot));
        pes[1].runAndWait(() -> slots.release(pes[1].slot));
        pes[2].runAndWait(() -> slots.release(pes[2].slot));
        assertFalse(slots.contended(pes[0].slot), "one PE runs on one core");
        pes[0].runAndWait(() -> slots.leave(pes[0].slot));
        assertEquals(0, slots.running());
        assertFalse(pes[0].slot.isThread(Thread.currentThread()));
    }
}
