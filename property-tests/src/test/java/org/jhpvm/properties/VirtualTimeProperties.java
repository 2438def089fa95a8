package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.VirtualTime;
import org.jhpvm.fabric.timing.TimingModel;

/**
 * The emulated Myrinet in virtual time, against what a discrete-event simulation must keep: random traffic between
 * 2..5 NICs (destinations, sizes, declared computation between sends, polls between sends), on a random machine of the
 * bundled ones. Every frame arrives, in order per sender-receiver pair; none is received before its departure plus
 * the machine's least latency (causality); and what each receiver sees and when, in virtual time, is the same
 * whatever the operating system does with the threads (random sleeps are injected between calls in one of the two
 * runs). The case is generated, so jqwik's printed seed replays it, sleeps included.
 */
class VirtualTimeProperties {
    /** One send: destination, payload length, and the computation declared before it (ns). */
    record Send(int dest, int length, int computeNs, boolean pollAfter) {
    }

    /** A case: the machine, each NIC's sends in order, and the seed of the injected sleeps. */
    record Case(String machine, List<List<Send>> sends, long sleepSeed) {
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.integers().between(2, 5).flatMap(nics -> {
            final Arbitrary<Send> send = Combinators.combine(Arbitraries.integers().between(0, nics - 1),
                Arbitraries.integers().between(0, 4096), Arbitraries.integers().between(0, 20_000),
                Arbitraries.of(true, false)).as(Send::new);
            return Combinators.combine(Arbitraries.of("sparc-sbus-1995", "ppro-pci-1998", "modern-100g"),
                send.list().ofMaxSize(40).list().ofSize(nics), Arbitraries.longs()).as(Case::new);
        });
    }

    @Property(tries = 25)
    void framesArriveInOrderAfterTheyLeftAndWhenTheModelSaysWhateverTheScheduling(@ForAll("cases") final Case c)
        throws Exception {
        final List<List<String>> calm = run(c, false);
        final List<List<String>> shaken = run(c, true);
        assertEquals(calm, shaken, "what each NIC saw, and when, changed with the threads' scheduling");
    }

    /** Runs the case; returns per NIC what it received: "source:tag@virtual ns". */
    private static List<List<String>> run(final Case c, final boolean sleeps) throws Exception {
        final int nics = c.sends().size();
        final int[] expected = new int[nics];
        for (final List<Send> list : c.sends()) {
            for (final Send s : list) {
                expected[s.dest()]++;
            }
        }
        final List<List<String>> seen = new ArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final FabricConfig config = FabricConfig.builder(nics).frameBytes(4096).option("clock", "virtual")
            .option("machine", c.machine()).option("cpu", "declared").build();
        try (Fabric fabric = EmulatedMyrinet.create(config)) {
            final Nic[] nic = new Nic[nics];
            for (int i = 0; i < nics; i++) {
                nic[i] = fabric.nic(i);
                seen.add(new ArrayList<>());
            }
            final long leastNs = new TimingModel(config.clock().model()).lookaheadPs() / 1000;
            final Thread[] threads = new Thread[nics];
            for (int i = 0; i < nics; i++) {
                final int me = i;
                threads[i] = new Thread(() -> {
                    try {
                        nic[me].progress(); // this thread is the NIC's host from here (main gave it out)
                        final Random r = new Random(c.sleepSeed() + me);
                        final long[] nextTag = new long[nics];
                        final long[] sent = new long[nics];
                        int received = 0;
                        for (final Send s : c.sends().get(me)) {
                            VirtualTime.charge(s.computeNs());
                            final Frame f = nic[me].acquire();
                            f.setDestination(s.dest()).setLength(s.length()).putHeaderLong(0, sent[s.dest()]++);
                            f.putHeaderLong(8, VirtualTime.nanoTime());
                            nic[me].send(f);
                            sleep(sleeps, r);
                            if (s.pollAfter()) {
                                received += take(nic[me], nic[me].poll(), nextTag, seen.get(me), leastNs);
                            }
                        }
                        while (received < expected[me]) {
                            final Frame f = nic[me].receive(TimeUnit.SECONDS.toNanos(60));
                            assertTrue(f != null, "NIC " + me + " waited 60 virtual seconds");
                            received += take(nic[me], f, nextTag, seen.get(me), leastNs);
                            sleep(sleeps, r);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "vt-nic-" + i);
            }
            for (final Thread t : threads) {
                t.start();
            }
            for (final Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(120));
                assertTrue(!t.isAlive(), t.getName() + " did not finish");
            }
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return seen;
    }

    /** Checks a received frame (if any) and records it; returns 1 for a frame, 0 for none. */
    private static int take(final Nic nic, final Frame f, final long[] nextTag, final List<String> seen,
                            final long leastNs) {
        if (f == null) {
            return 0;
        }
        final long now = VirtualTime.nanoTime();
        final long departed = f.getHeaderLong(8);
        assertTrue(now >= departed + leastNs, "frame from NIC " + f.source() + " received at " + now
            + " ns, sent at " + departed + " ns: sooner than the least latency " + leastNs + " ns");
        assertEquals(nextTag[f.source()]++, f.getHeaderLong(0), "order of NIC " + f.source() + "'s frames");
        seen.add(f.source() + ":" + f.getHeaderLong(0) + "@" + now);
        nic.release(f);
        return 1;
    }

    private static void sleep(final boolean sleeps, final Random r) throws InterruptedException {
        if (!sleeps) {
            return;
        }
        final int k = r.nextInt(8);
        if (k == 0) {
            Thread.sleep(0, 200_000);
        } else if (k < 3) {
            Thread.yield();
        }
    }
}
