package org.jhpvm.fabric.aeron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.HostMemory;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicInterruptedException;
import org.jhpvm.fabric.ProcessFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The host's doorbells: a futex in a file every process of the host maps. Two mappings of one file stand for two
 * processes (the kernel keys a shared futex on the page, not the mapping). A ring through one mapping wakes a sleeper
 * on the other; a ring with nobody asleep changes nothing; and a sleeper that counted itself in before the work was
 * published is never left asleep (500 rounds, each of which would otherwise sleep out its 10 s). A NIC of a job on
 * one host sleeps on its bell, and a frame's sender rings it, as does a store into the NIC's host memory.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DoorbellsTest {
    private static final long LONG_NS = 10_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void futexesShouldBeAvailableWhereTheBuildRunsItsTests() {
        final String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        final String arch = System.getProperty("os.arch");
        if (os.startsWith("linux") && ("amd64".equals(arch) || "aarch64".equals(arch))) {
            assertTrue(Futex.AVAILABLE, "the tests run with native access: " + Futex.UNAVAILABLE_BECAUSE);
        }
    }

    @Test
    void aRingThroughOneMappingShouldWakeASleeperOnAnother() throws Exception {
        final Doorbells mine = open();
        final Doorbells theirs = open();
        final long[] slept = new long[1];
        final Thread sleeper = new Thread(() -> {
            final MemorySegment ts = mine.timespec();
            final int w = mine.enter(3);
            final long t0 = System.nanoTime();
            mine.sleep(3, w, LONG_NS, ts);
            slept[0] = System.nanoTime() - t0;
            mine.leave(3);
        });
        sleeper.start();
        awaitSleeper(theirs, 3); // counted in: asleep in the kernel, or about to be (then the ring ends it at once)
        final int before = theirs.word(3);
        theirs.ring(3);
        sleeper.join(LONG_NS / 1_000_000);
        assertEquals(before + 1, theirs.word(3), "a ring that finds a sleeper changes the word");
        assertTrue(slept[0] < LONG_NS / 2, "the ring ended the sleep: it lasted " + slept[0] / 1_000_000 + " ms");
        // Nobody asleep now: a ring changes nothing (a fence and a load).
        theirs.ring(3);
        assertEquals(before + 1, mine.word(3));
        // The other bells were not touched.
        assertEquals(0, mine.word(2));
        assertEquals(0, mine.word(4));
    }

    @Test
    void aStoreShouldRingOnlySleepersThatWaitForStores() {
        final Doorbells mine = open();
        final Doorbells theirs = open();
        // An agent (rings only) counted in: a store into the NIC's memory counts, and wakes nobody.
        final int w = mine.enterForRings(2);
        final long stores = mine.stores(2);
        theirs.written(2);
        assertEquals(stores + 1, mine.stores(2), "the store is counted");
        assertEquals(w, mine.word(2), "a store rang a sleeper that waits for frames only");
        theirs.ring(2);
        assertTrue(mine.word(2) != w, "a frame's ring must still wake it");
        mine.leaveForRings(2);
        assertEquals(0, mine.sleepers(2));
        // The NIC's host (stores too) counted in: the store rings.
        final int w2 = mine.enter(2);
        theirs.written(2);
        assertTrue(mine.word(2) != w2, "a store must ring a sleeper that waits for stores");
        mine.leave(2);
        assertEquals(0, mine.sleepers(2));
        theirs.written(2);
        assertEquals(mine.word(2), theirs.word(2));
        final int after = mine.word(2);
        theirs.written(2);
        assertEquals(after, mine.word(2), "a store with nobody asleep rang");
    }

    @Test
    void aSleeperThatCountedItselfInShouldNeverMissTheWorkThatRings() throws Exception {
        final Doorbells mine = open();
        final Doorbells theirs = open();
        final int rounds = 500;
        final AtomicInteger published = new AtomicInteger();
        final AtomicLong longest = new AtomicLong();
        final Thread sleeper = new Thread(() -> {
            final MemorySegment ts = mine.timespec();
            for (int r = 1; r <= rounds; r++) {
                final long t0 = System.nanoTime();
                while (published.get() < r) {
                    final int w = mine.enter(0);
                    try {
                        if (published.get() >= r) {
                            break; // the last look, after counting in
                        }
                        mine.sleep(0, w, LONG_NS, ts);
                    } finally {
                        mine.leave(0);
                    }
                }
                longest.accumulateAndGet(System.nanoTime() - t0, Math::max);
            }
        });
        sleeper.start();
        for (int r = 1; r <= rounds; r++) {
            if ((r & 3) == 0) {
                awaitSleeper(theirs, 0); // sometimes once the sleeper has counted in, sometimes while it looks
            }
            published.set(r);
            theirs.ring(0);
        }
        sleeper.join(120_000);
        assertTrue(!sleeper.isAlive(), "the sleeper is stuck");
        assertTrue(longest.get() < LONG_NS / 2, "a round waited " + longest.get() / 1_000_000 + " ms: a lost ring");
    }

    @Test
    void aNicOfAJobOnOneHostShouldSleepOnItsBellAndTheSenderShouldRingIt() throws Exception {
        try (AeronCluster c = AeronCluster.start(2, 1, false, FabricConfig.builder(2).frameBytes(1024).build())) {
            final Nic sender = c.nic(0);
            final AeronNic sleeper = (AeronNic) c.nic(1);
            assertTrue(sleeper.sleepsOnBell(), "every process is on this host: the NIC sleeps on its bell");
            final Thread send = new Thread(() -> {
                awaitSleeper(c.rank(1).doorbells(), 1); // the NIC sleeps on its bell after 10 ms of idling
                final Frame f = sender.acquire();
                f.setDestination(1);
                f.putPayloadLong(0, 0xBE11L);
                f.setLength(8);
                sender.send(f);
            });
            send.start();
            final Frame got = sleeper.sleep(20_000_000_000L);
            send.join();
            assertNotNull(got);
            assertEquals(0xBE11L, got.getPayloadLong(0));
            sleeper.release(got);
            assertTrue(sleeper.rungSleeps() >= 1, "the sender's ring ended a sleep on the bell");
        }
    }

    @Test
    void aStoreIntoANicsHostMemoryShouldEndItsSleepAndCountOnce() throws Exception {
        try (AeronCluster c = AeronCluster.start(2, 1, false, FabricConfig.builder(2).frameBytes(1024).build())) {
            final AeronNic sleeper = (AeronNic) c.nic(1);
            final HostMemory storer = c.rank(0).hostMemory().orElseThrow();
            // Stored before the sleep (after the host's look at its memory): the sleep ends at once.
            storer.written(1);
            long t0 = System.nanoTime();
            assertNull(sleeper.sleep(LONG_NS));
            assertTrue(System.nanoTime() - t0 < LONG_NS / 2, "a store counted before the sleep ended it");
            // Counted once: the next sleep runs its length.
            t0 = System.nanoTime();
            assertNull(sleeper.sleep(50_000_000L));
            assertTrue(System.nanoTime() - t0 >= 50_000_000L, "the same store ended a second sleep");
            // Stored while the NIC sleeps on its bell: the ring ends that sleep.
            final long rung = sleeper.rungSleeps();
            final Thread store = new Thread(() -> {
                awaitSleeper(c.rank(1).doorbells(), 1); // the NIC sleeps on its bell after 10 ms of idling
                storer.written(1);
            });
            store.start();
            t0 = System.nanoTime();
            assertNull(sleeper.sleep(LONG_NS), "no frame: the store ended the sleep");
            store.join();
            assertTrue(System.nanoTime() - t0 < LONG_NS / 2, "the store's ring ended the sleep");
            assertEquals(rung + 1, sleeper.rungSleeps(), "a ring ended a sleep on the bell");
            assertEquals(2, c.rank(1).doorbells().stores(1), "two stores counted on NIC 1's bell");
            assertEquals(0, c.rank(1).doorbells().stores(0), "none on NIC 0's");
        }
    }

    @Test
    void anAgentsWaitForAnArrivalShouldEndAtTheSendersRingAndNotWaitWhenItsLastLookFindsWork() throws Exception {
        try (AeronCluster c = AeronCluster.start(2, 1, false, FabricConfig.builder(2).frameBytes(1024).build())) {
            final Nic sender = c.nic(0);
            final AeronNic target = (AeronNic) c.nic(1);
            final AtomicInteger looks = new AtomicInteger();
            final long t0 = System.nanoTime();
            target.awaitArrival(() -> looks.incrementAndGet() > 0, LONG_NS);
            assertEquals(1, looks.get(), "one last look");
            assertTrue(System.nanoTime() - t0 < LONG_NS / 2, "work found: no wait");
            final long[] waited = new long[1];
            final Thread agent = new Thread(() -> {
                final long t1 = System.nanoTime();
                target.awaitArrival(() -> false, LONG_NS);
                waited[0] = System.nanoTime() - t1;
            });
            agent.start();
            awaitSleeper(c.rank(1).doorbells(), 1);
            final Frame f = sender.acquire();
            f.setDestination(1);
            f.setLength(0);
            sender.send(f);
            agent.join(LONG_NS / 1_000_000);
            assertTrue(waited[0] > 0 && waited[0] < LONG_NS / 2, "the arrival ended the wait: " + waited[0] + " ns");
            assertEquals(1, target.rungAwaits(), "a ring ended it");
            final Frame got = target.receive(LONG_NS);
            assertNotNull(got, "the frame is the host's to take");
            target.release(got);
        }
    }

    /**
     * An abort interrupts the PEs, which does not reach a thread asleep on a futex; the control plane then rings the
     * process's NIC bells, so the sleep ends by a ring ({@code rungSleeps}), not at its bound of 200 ms. Both ways in:
     * another process's failure told to this one (its hooks interrupt), and this process's own failure (FM interrupts,
     * then reports). Without the rings the sleeps end at their bound and count no ring (tried).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anAbortShouldRingThePesAsleepOnTheirBells(final boolean toldByAnother) throws Exception {
        try (AeronCluster c = AeronCluster.start(2, 1, false, FabricConfig.builder(2).frameBytes(1024).build())) {
            final AeronNic sleeper = (AeronNic) c.nic(1);
            final AtomicReference<Throwable> ended = new AtomicReference<>();
            final Thread pe = new Thread(() -> {
                try {
                    sleeper.sleep(LONG_NS);
                } catch (RuntimeException e) {
                    ended.set(e);
                }
            });
            final ProcessFabric.JobSession s0 = c.rank(0).beginJob(RunningJobHooks.RUNNING);
            final ProcessFabric.JobSession s1 = c.rank(1).beginJob(new RunningJobHooks(pe));
            pe.start();
            awaitSleeper(c.rank(1).doorbells(), 1); // asleep on its bell
            final long rung = sleeper.rungSleeps();
            if (toldByAnother) {
                s0.reportFailure(0, "PE 0 failed"); // rank 1's control plane hears it: its hooks interrupt the PE
            } else {
                pe.interrupt(); // as FM does before it reports
                s1.reportFailure(1, "PE 1 failed");
            }
            pe.join(LONG_NS / 1_000_000);
            assertTrue(ended.get() instanceof NicInterruptedException, "the sleep ended by the interrupt: " + ended);
            assertEquals(rung + 1, sleeper.rungSleeps(), "a ring ended the sleep, not its bound");
            s0.close();
            s1.close();
        }
    }

    /** Waits (at most 10 s) until a thread has counted itself in on the bell. */
    private static void awaitSleeper(final Doorbells bells, final int slot) {
        final long deadline = System.nanoTime() + LONG_NS;
        while (bells.sleepers(slot) == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "nobody counted in on bell " + slot + " within 10 s");
            Thread.onSpinWait();
        }
    }

    private Doorbells open() {
        final Doorbells d = Doorbells.open(dir, 8);
        assertNotNull(d, "futexes are not available here: " + Futex.UNAVAILABLE_BECAUSE);
        assertTrue(Files.exists(dir.resolve(Doorbells.FILE)));
        return d;
    }
}
