package org.jhpvm.properties;

import static org.jhpvm.properties.MpiJobs.mpiJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import mpi.MPI;
import mpi.Request;
import mpi.Status;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * MPI matching checked against its definition: random programs of sends (standard, non-blocking and synchronous,
 * 0 B .. 4 MiB, random tags) and receives (posted in a random order, with exact patterns or wildcards), on 2..6
 * ranks over a fabric with random faults. Whatever the timing, every message must be received exactly once, intact,
 * with the right status, and MPI's non-overtaking rule must hold: a receive may not take a sender's later message
 * while an earlier one from that sender that it matches is still unreceived (so a receive posted before another never
 * gets the later of two messages the earlier receive matches). Fairness among the sources of an ANY_SOURCE receive is
 * not assumed. The case, its fault plan's seed included, is generated, so jqwik's printed seed replays it.
 */
class MpiMatchingProperties {
    private static final AtomicInteger TRIES = new AtomicInteger();
    private static final AtomicLong MESSAGES = new AtomicLong();
    private static final AtomicLong LARGEST = new AtomicLong();

    @net.jqwik.api.lifecycle.AfterContainer
    static void report() {
        System.out.println("MpiMatchingProperties: " + TRIES.get() + " tries, " + MESSAGES.get() + " messages, the "
            + "largest " + LARGEST.get() + " bytes");
    }

    /** A send: destination, tag (0..2), length in bytes, and how ({@code 0} send, {@code 1} iSend, {@code 2} sSend). */
    record Send(int dest, int tag, int bytes, int mode) {
    }

    /**
     * A case.
     *
     * @param ranks   ranks
     * @param sends   per rank, its sends in order
     * @param style   per rank, its receives' patterns: 0 exact, 1 ANY_SOURCE, 2 ANY_TAG, 3 both wildcards
     * @param shuffle per rank, the seed of the order it posts its receives in
     * @param drop    the fabric's drop (and duplicate and reorder) probability
     * @param seed    the fault plan's seed
     */
    record Case(int ranks, List<List<Send>> sends, List<Integer> style, List<Long> shuffle, double drop, long seed) {
    }

    /** What a receive was, and what it got. */
    record Got(int posted, int patternSource, int patternTag, int source, int seq, int tag, int bytes) {
    }

    @Provide
    Arbitrary<Case> cases() {
        final Arbitrary<Integer> length = Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, Arbitraries.just(0)),
            net.jqwik.api.Tuple.of(12, Arbitraries.integers().between(8, 2048)),
            net.jqwik.api.Tuple.of(4, Arbitraries.integers().between(2049, 70_000)),
            net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(70_001, 4 << 20)
                .withDistribution(net.jqwik.api.RandomDistribution.uniform())));
        return Arbitraries.integers().between(2, 6).flatMap(ranks -> {
            final Arbitrary<Send> send = Combinators.combine(Arbitraries.integers().between(0, ranks - 1),
                Arbitraries.integers().between(0, 2), length, Arbitraries.of(0, 1, 1, 1, 2)).as(Send::new);
            return Combinators.combine(send.list().ofMinSize(1).ofMaxSize(Math.max(4, 60 / ranks)).list()
                    .ofSize(ranks), Arbitraries.integers().between(0, 3).list().ofSize(ranks),
                Arbitraries.longs().list().ofSize(ranks), Arbitraries.of(0.0, 0.0, 0.01, 0.03), Arbitraries.longs())
                .as((s, st, sh, d, seed) -> new Case(ranks, s, st, sh, d, seed));
        });
    }

    /** A message's identity in its bytes: source and its sequence number to that destination. */
    private static byte[] body(final int source, final int seq, final int bytes) {
        final byte[] b = new byte[bytes];
        if (bytes >= 8) {
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(source).putInt(seq);
            for (int i = 8; i < bytes; i++) {
                b[i] = (byte) (source * 31 + seq * 7 + i);
            }
        }
        return b;
    }

    @Property(tries = 50)
    void everyMessageOnceIntactAndNeverOvertaking(@ForAll("cases") final Case c) {
        final int n = c.ranks();
        TRIES.incrementAndGet();
        for (final List<Send> l : c.sends()) {
            MESSAGES.addAndGet(l.size());
            for (final Send m : l) {
                LARGEST.accumulateAndGet(m.bytes(), Math::max);
            }
        }
        // Zero-byte messages are told apart by a tag of their own (100 + their sequence number to that rank).
        final List<List<int[]>> incoming = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            incoming.add(new ArrayList<>());
        }
        final int[][] seqTo = new int[n][n];
        final List<List<int[]>> plans = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            final List<int[]> plan = new ArrayList<>();
            for (final Send m : c.sends().get(s)) {
                final int seq = seqTo[s][m.dest()]++;
                final int tag = m.bytes() == 0 ? 100 + seq : m.tag();
                plan.add(new int[] {m.dest(), tag, m.bytes(), m.mode(), seq});
                incoming.get(m.dest()).add(new int[] {s, tag, m.bytes(), seq});
            }
            plans.add(plan);
        }
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final List<List<Got>> got = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            got.add(Collections.synchronizedList(new ArrayList<>()));
        }
        mpiJob(n, c.drop(), c.seed()).run(() -> {
            MPI.Init(new String[0]);
            final int me = MPI.COMM_WORLD.getRank();
            final List<int[]> mine = new ArrayList<>(incoming.get(me));
            Collections.shuffle(mine, new Random(c.shuffle().get(me)));
            final int style = c.style().get(me);
            final Request[] rs = new Request[mine.size()];
            final byte[][] bufs = new byte[mine.size()][];
            final int[][] patterns = new int[mine.size()][];
            int largest = 0;
            for (final int[] m : mine) {
                largest = Math.max(largest, m[2]);
            }
            // Receives are posted in a random order, interleaved at random with the non-blocking sends before the
            // first blocking one, so that messages also arrive before their receive (unexpected, eager and by
            // rendezvous); the rest of the sends come after every receive is posted, as a correct program needs.
            // Each rank sends in its plan's order, the order sequence numbers follow.
            final List<int[]> plan = plans.get(me);
            int early = 0;
            while (early < plan.size() && plan.get(early)[3] == 1) {
                early++;
            }
            final Random r = new Random(c.shuffle().get(me) * 31 + 7);
            if (r.nextBoolean()) {
                // A late starter that probes first: the others' early sends are taken in before its receives are
                // posted, as unexpected messages (eager data, and requests to send).
                final long until = System.nanoTime() + 5_000_000;
                while (System.nanoTime() < until) {
                    MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                }
            }
            final List<Request> sends = new ArrayList<>();
            int posted = 0;
            int sent = 0;
            while (posted < mine.size() || sent < plan.size()) {
                final boolean post = posted < mine.size() && (sent >= early || r.nextBoolean());
                if (!post) {
                    final int[] m = plan.get(sent++);
                    final byte[] data = body(me, m[4], m[2]);
                    switch (m[3]) {
                        case 0 -> MPI.COMM_WORLD.send(data, m[2], MPI.BYTE, m[0], m[1]);
                        case 1 -> sends.add(MPI.COMM_WORLD.iSend(data, m[2], MPI.BYTE, m[0], m[1]));
                        default -> MPI.COMM_WORLD.sSend(data, m[2], MPI.BYTE, m[0], m[1]);
                    }
                    continue;
                }
                final int[] m = mine.get(posted);
                final int src = style == 1 || style == 3 ? MPI.ANY_SOURCE : m[0];
                // One wildcard style per rank: the receives of each source (or each tag) are as many as its messages,
                // so any matching order succeeds, as a correct MPI program must.
                final int tag = style >= 2 ? MPI.ANY_TAG : m[1];
                patterns[posted] = new int[] {src, tag};
                bufs[posted] = new byte[largest];
                rs[posted] = MPI.COMM_WORLD.iRecv(bufs[posted], largest, MPI.BYTE, src, tag);
                posted++;
            }
            final Status[] st = Request.waitAllStatus(rs);
            Request.waitAll(sends.toArray(new Request[0]));
            for (int i = 0; i < st.length; i++) {
                final int bytes = st[i].getCount(MPI.BYTE);
                int seq = -1;
                if (bytes >= 8) {
                    final ByteBuffer bb = ByteBuffer.wrap(bufs[i]).order(ByteOrder.LITTLE_ENDIAN);
                    if (bb.getInt(0) != st[i].getSource()) {
                        failures.add("rank " + me + ": status source " + st[i].getSource() + ", bytes say "
                            + bb.getInt(0));
                    }
                    seq = bb.getInt(4);
                    if (!java.util.Arrays.equals(java.util.Arrays.copyOf(bufs[i], bytes), body(st[i].getSource(),
                        seq, bytes))) {
                        failures.add("rank " + me + ": message " + seq + " from " + st[i].getSource() + " altered");
                    }
                } else {
                    seq = st[i].getTag() - 100;
                }
                got.get(me).add(new Got(i, patterns[i][0], patterns[i][1], st[i].getSource(), seq, st[i].getTag(),
                    bytes));
            }
            MPI.Finalize();
        });
        assertTrue(failures.isEmpty(), failures.toString());
        for (int d = 0; d < n; d++) {
            final List<Got> g = got.get(d);
            // Exactly once: the (source, seq) pairs received are those sent, each once, with tag and length.
            final List<String> want = new ArrayList<>();
            for (final int[] m : incoming.get(d)) {
                want.add(m[0] + ":" + m[3] + ":" + m[1] + ":" + m[2]);
            }
            final List<String> have = new ArrayList<>();
            for (final Got x : g) {
                have.add(x.source() + ":" + x.seq() + ":" + x.tag() + ":" + x.bytes());
            }
            Collections.sort(want);
            Collections.sort(have);
            assertEquals(want, have, "rank " + d + " received (source:seq:tag:bytes)");
            // Non-overtaking: a receive posted earlier never holds the later of two messages of one sender that it
            // matches while a receive posted later holds the earlier.
            for (final Got early : g) {
                for (final Got late : g) {
                    if (late.posted() > early.posted() && late.source() == early.source()
                        && late.seq() < early.seq() && matches(early, late)) {
                        throw new AssertionError("rank " + d + ": receive " + early.posted() + " (" + early
                            + ") took message " + early.seq() + " of rank " + early.source() + " while its message "
                            + late.seq() + ", which it also matches, went to receive " + late.posted());
                    }
                }
            }
        }
    }

    private static boolean matches(final Got receive, final Got message) {
        return (receive.patternSource() == MPI.ANY_SOURCE || receive.patternSource() == message.source())
            && (receive.patternTag() == MPI.ANY_TAG || receive.patternTag() == message.tag());
    }
}
