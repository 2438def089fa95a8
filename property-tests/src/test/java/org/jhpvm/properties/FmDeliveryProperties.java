package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.LinkDownWindow;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fm.FmConfig;
import org.jhpvm.fm.FmCounters;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmJob;
import org.jhpvm.fm.FmOutputStream;
import org.jhpvm.fm.Scheduling;

/**
 * FM over a faulty fabric, checked against a plain model (a list of messages per sender-receiver pair): random
 * message sets (0 .. 1 MiB), random piece splits on both sides, random pacing of extract, 2..16 PEs, random fault
 * plans. Every message arrives exactly once, in order per pair, byte-identical; faults the fabric injected were
 * recovered by the protocol's retransmission and rejection. The case (traffic and fault plan, seed included) is
 * generated, so jqwik's printed seed replays it and shrinking reduces the plan and the traffic.
 */
class FmDeliveryProperties {
    private static final int HANDLER = 5;
    private static final AtomicInteger TRIES_WITH_DROPS = new AtomicInteger();
    private static final AtomicInteger TRIES_RETRANSMITTED = new AtomicInteger();
    private static final AtomicInteger TRIES_CRC_REJECTED = new AtomicInteger();
    private static final AtomicInteger TRIES_SEQ_REJECTED = new AtomicInteger();
    private static final AtomicInteger TRIES = new AtomicInteger();

    /** One message: its destination, length, extra declared bytes, and the seeds of its piece splits. */
    record Msg(int dest, int length, int slack, int sendSplit, int receiveSplit) {
    }

    /**
     * A case.
     *
     * @param pes        number of PEs
     * @param sends      per PE, what it sends in order
     * @param extractMax per PE, the maxBytes of its extract calls between sends
     * @param plan       the fabric's fault plan
     * @param scheduling how the PE threads share the cores (run slots or not)
     * @param cores      the cores the run slots stand for
     */
    record Case(int pes, List<List<Msg>> sends, List<Integer> extractMax, FaultPlan plan, Scheduling scheduling,
                int cores) {
    }

    @Provide
    Arbitrary<Case> cases() {
        final Arbitrary<Integer> length = Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(12, Arbitraries.integers().between(0, 2048)),
            net.jqwik.api.Tuple.of(4, Arbitraries.integers().between(2049, 70_000)),
            net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(70_001, 1 << 20)));
        final Arbitrary<Double> p = Arbitraries.doubles().between(0.005, 0.05).ofScale(3);
        final Arbitrary<Double> maybe = Arbitraries.oneOf(Arbitraries.just(0.0), p);
        return Arbitraries.integers().between(2, 16).flatMap(pes -> {
            final Arbitrary<Msg> msg = Combinators.combine(Arbitraries.integers().between(0, pes - 1), length,
                Arbitraries.integers().between(0, 3), Arbitraries.integers(), Arbitraries.integers())
                .as(Msg::new);
            final Arbitrary<List<List<Msg>>> sends = msg.list().ofMinSize(1).ofMaxSize(Math.max(4, 48 / pes))
                .list().ofSize(pes);
            final Arbitrary<List<Integer>> pacing = Arbitraries.of(1, 100, 16_384, 1 << 20).list().ofSize(pes);
            final Arbitrary<FaultPlan> plan = Combinators.combine(Arbitraries.longs(), maybe, maybe, maybe, maybe,
                maybe, Arbitraries.integers().between(0, pes - 1), Arbitraries.integers().between(0, 40))
                .as((seed, drop, corrupt, duplicate, reorder, stall, downNic, downFrom) -> {
                    final FaultPlan.Builder b = FaultPlan.builder(seed).drop(drop).corrupt(corrupt)
                        .duplicate(duplicate).reorder(reorder).receiverStall(stall, 20_000);
                    if (drop > 0) {
                        b.linkDown(new LinkDownWindow(downNic, downFrom, downFrom + 5));
                    }
                    return b.build();
                });
            return Combinators.combine(sends, pacing, plan, Arbitraries.of(Scheduling.class),
                Arbitraries.integers().between(1, 2)).as((s, x, f, sched, cores) -> new Case(pes, s, x, f, sched,
                cores));
        });
    }

    @Property(tries = 80)
    void everyMessageExactlyOnceInOrderByteIdentical(@ForAll("cases") final Case c) {
        final int pes = c.pes();
        TRIES.incrementAndGet();
        // received[dst][src]: ordinals handled, in handling order
        final List<List<ConcurrentLinkedQueue<Integer>>> received = new ArrayList<>();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final int[][] expectedCount = new int[pes][pes];
        final List<List<List<Msg>>> perPair = new ArrayList<>();
        for (int d = 0; d < pes; d++) {
            final List<ConcurrentLinkedQueue<Integer>> row = new ArrayList<>();
            final List<List<Msg>> pairRow = new ArrayList<>();
            for (int s = 0; s < pes; s++) {
                row.add(new ConcurrentLinkedQueue<>());
                pairRow.add(new ArrayList<>());
            }
            received.add(row);
            perPair.add(pairRow);
        }
        for (int s = 0; s < pes; s++) {
            for (final Msg m : c.sends().get(s)) {
                perPair.get(m.dest()).get(s).add(m);
                expectedCount[m.dest()][s]++;
            }
        }
        final FmJob job = FmJob.builder().fabric(FabricConfig.builder(pes).faultPlan(c.plan()).build())
            .fm(FmConfig.builder().scheduling(c.scheduling(), c.cores(), 500_000).build())
            .timeout(Duration.ofSeconds(100)).build(); // up to 16 PEs on 1 or 2 slots of a busy machine
        final FmJob.Report report = job.run(fm -> {
            final int me = fm.pe();
            final int[] ordinal = new int[pes];
            fm.register(HANDLER, (FmHandler) (in, sender) -> {
                final int k = ordinal[sender]++;
                final Msg m = perPair.get(me).get(sender).get(k);
                check(in.declaredLength() == m.length() + m.slack(), failures, "declared length of " + k);
                final byte[] got = new byte[m.length() + m.slack()];
                final Random split = new Random(m.receiveSplit());
                final int bound = 1 + split.nextInt(split.nextBoolean() ? 64 : 70_000);
                int pos = 0;
                while (true) {
                    final int want = Math.min(1 + split.nextInt(bound), got.length - pos);
                    final int n = in.receiveUpTo(got, pos, want);
                    pos += n;
                    if (n < want || pos == got.length) {
                        break;
                    }
                }
                check(pos == m.length(), failures, "message " + k + " from " + sender + " to " + me + " had " + pos
                    + " bytes, sent " + m.length());
                for (int i = 0; i < m.length(); i++) {
                    if (got[i] != pattern(sender, me, k, i)) {
                        failures.add("message " + k + " from " + sender + " to " + me + " differs at byte " + i);
                        break;
                    }
                }
                received.get(me).get(sender).add(k);
            });
            final int[] sentPerDest = new int[pes];
            for (final Msg m : c.sends().get(me)) {
                final int k = sentPerDest[m.dest()]++;
                final byte[] body = new byte[m.length()];
                for (int i = 0; i < body.length; i++) {
                    body[i] = pattern(me, m.dest(), k, i);
                }
                final FmOutputStream out = fm.beginMessage(m.dest(), m.length() + m.slack(), HANDLER);
                final Random split = new Random(m.sendSplit());
                final int bound = 1 + split.nextInt(split.nextBoolean() ? 100 : 100_000);
                int pos = 0;
                while (pos < body.length) {
                    final int n = Math.min(1 + split.nextInt(bound), body.length - pos);
                    out.sendPiece(body, pos, n);
                    pos += n;
                }
                out.endMessage();
                fm.extract(c.extractMax().get(me));
            }
            final boolean done = fm.extractUntil(() -> {
                for (int s = 0; s < pes; s++) {
                    if (received.get(me).get(s).size() < expectedCount[me][s]) {
                        return false;
                    }
                }
                return true;
            }, 100_000_000_000L);
            check(done, failures, "PE " + me + " timed out waiting for its messages");
        });
        assertTrue(failures.isEmpty(), failures.toString());
        for (int d = 0; d < pes; d++) {
            for (int s = 0; s < pes; s++) {
                final List<Integer> got = new ArrayList<>(received.get(d).get(s));
                final List<Integer> want = new ArrayList<>();
                for (int k = 0; k < expectedCount[d][s]; k++) {
                    want.add(k);
                }
                assertEquals(want, got, "messages from " + s + " to " + d + " (exactly once, in order)");
            }
        }
        final NicCounters fabric = report.fabricTotals();
        final FmCounters fm = report.totals();
        if (fabric.framesDropped() + fabric.linkDownDrops() > 0) {
            TRIES_WITH_DROPS.incrementAndGet();
        }
        if (fm.framesRetransmitted() > 0) {
            TRIES_RETRANSMITTED.incrementAndGet();
        }
        if (fm.checksumRejects() > 0) {
            TRIES_CRC_REJECTED.incrementAndGet();
        }
        if (fm.duplicateRejects() + fm.orderRejects() > 0) {
            TRIES_SEQ_REJECTED.incrementAndGet();
        }
        // No per-try "corruption was caught" check: a corrupted trailing acknowledgement may still sit unread in a
        // receive ring when the job ends (CI found such a try). That corruption never reaches a handler is what the
        // byte-identical check above proves; that the checksum rejects corrupt frames is checked over all tries.
    }

    /**
     * Over all tries the faults happened and were recovered: frames were dropped and retransmitted, corrupted ones
     * rejected by the checksum, duplicates and gaps rejected by the sequence numbers. (Per try this need not hold:
     * a dropped acknowledgement is covered by the next one and needs no retransmission.)
     */
    @AfterContainer
    static void theFaultsHappened() {
        System.out.println("FmDeliveryProperties: " + TRIES.get() + " tries; " + TRIES_WITH_DROPS.get()
            + " dropped frames, " + TRIES_RETRANSMITTED.get() + " retransmitted, " + TRIES_CRC_REJECTED.get()
            + " rejected corrupt frames, " + TRIES_SEQ_REJECTED.get() + " rejected duplicates or gaps");
        assertTrue(TRIES_WITH_DROPS.get() > 0, "no try dropped a frame: the property tested no recovery");
        assertTrue(TRIES_RETRANSMITTED.get() > 0, "no try retransmitted");
        assertTrue(TRIES_CRC_REJECTED.get() > 0, "no try rejected a corrupt frame");
        assertTrue(TRIES_SEQ_REJECTED.get() > 0, "no try rejected a duplicate or out-of-order frame");
    }

    private static void check(final boolean ok, final ConcurrentLinkedQueue<String> failures, final String what) {
        if (!ok) {
            failures.add(what);
        }
    }

    static byte pattern(final int src, final int dst, final int k, final int i) {
        long x = (long) src * 0x9E3779B97F4A7C15L ^ (long) dst << 20 ^ (long) k * 0xBF58476D1CE4E5B9L ^ i;
        x ^= x >>> 31;
        x *= 0x94D049BB133111EBL;
        return (byte) (x ^ x >>> 29);
    }

}
