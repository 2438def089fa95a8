package org.jhpvm.properties;

import static org.jhpvm.properties.MpiJobs.mpiJob;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Collectives, blocking and non-blocking, interleaved at random on one communicator, on 1..7 ranks over a fabric
 * with random faults: every rank runs the same random sequence of bcasts, allReduces, gathers, scans and barriers,
 * each either blocking or started and waited for later in a random order; every result must be what the sequential
 * definition gives. Collectives in flight at once must never take each other's messages, whatever the order their
 * steps run in. The case, its fault plan's seed included, is generated, so jqwik's printed seed replays it.
 */
class MpiCollectiveProperties {
    /** One collective: what ({@code 0} bcast, {@code 1} allReduce, {@code 2} gather, {@code 3} scan, {@code 4}
     * barrier), its root, whether non-blocking, and its length in longs. */
    record Op(int kind, int root, boolean nonBlocking, int length) {
    }

    /**
     * A case.
     *
     * @param ranks ranks
     * @param ops   the collectives, in the order every rank calls them
     * @param waits the seed of the order the requests are waited for in
     * @param drop  the fabric's drop (and duplicate and reorder) probability
     * @param seed  the fault plan's seed
     */
    record Case(int ranks, List<Op> ops, long waits, double drop, long seed) {
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.integers().between(1, 7).flatMap(ranks -> {
            final Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, ranks - 1), Arbitraries.of(true, true, false),
                Arbitraries.of(0, 1, 5, 300, 5000)).as(Op::new);
            return Combinators.combine(op.list().ofMinSize(1).ofMaxSize(12), Arbitraries.longs(),
                Arbitraries.of(0.0, 0.0, 0.02), Arbitraries.longs())
                .as((o, w, d, s) -> new Case(ranks, o, w, d, s));
        });
    }

    /** The value rank {@code r} contributes at position {@code i} of collective {@code k}. */
    private static long value(final int k, final int r, final int i) {
        return k * 1_000_003L + r * 1009L + i;
    }

    @Property(tries = 40)
    void interleavedCollectivesGiveTheirSequentialResults(@ForAll("cases") final Case c) {
        final int n = c.ranks();
        mpiJob(n, c.drop(), c.seed()).run(() -> {
            MPI.Init(new String[0]);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final List<Request> requests = new ArrayList<>();
            final List<long[]> results = new ArrayList<>();
            for (int k = 0; k < c.ops().size(); k++) {
                final Op o = c.ops().get(k);
                final int len = o.length();
                final long[] in = new long[len];
                for (int i = 0; i < len; i++) {
                    in[i] = value(k, me, i);
                }
                final long[] out;
                Request r = null;
                switch (o.kind()) {
                    case 0 -> {
                        out = me == o.root() ? in : new long[len];
                        if (o.nonBlocking()) {
                            r = w.iBcast(out, len, MPI.LONG, o.root());
                        } else {
                            w.bcast(out, len, MPI.LONG, o.root());
                        }
                    }
                    case 1 -> {
                        out = new long[len];
                        if (o.nonBlocking()) {
                            r = w.iAllReduce(in, out, len, MPI.LONG, MPI.SUM);
                        } else {
                            w.allReduce(in, out, len, MPI.LONG, MPI.SUM);
                        }
                    }
                    case 2 -> {
                        out = new long[len * n];
                        if (o.nonBlocking()) {
                            r = w.iGather(in, len, MPI.LONG, out, len, MPI.LONG, o.root());
                        } else {
                            w.gather(in, len, MPI.LONG, out, len, MPI.LONG, o.root());
                        }
                    }
                    case 3 -> {
                        out = new long[len];
                        if (o.nonBlocking()) {
                            r = w.iScan(in, out, len, MPI.LONG, MPI.SUM);
                        } else {
                            w.scan(in, out, len, MPI.LONG, MPI.SUM);
                        }
                    }
                    default -> {
                        out = new long[0];
                        if (o.nonBlocking()) {
                            r = w.iBarrier();
                        } else {
                            w.barrier();
                        }
                    }
                }
                results.add(out);
                if (r != null) {
                    requests.add(r);
                }
            }
            final java.util.Random order = new java.util.Random(c.waits() + me);
            while (!requests.isEmpty()) {
                requests.remove(order.nextInt(requests.size())).waitFor();
            }
            for (int k = 0; k < c.ops().size(); k++) {
                final Op o = c.ops().get(k);
                final long[] out = results.get(k);
                for (int i = 0; i < o.length(); i++) {
                    final String at = "collective " + k + " " + o + " on rank " + me + " of " + n + ", item " + i;
                    switch (o.kind()) {
                        case 0 -> assertEquals(value(k, o.root(), i), out[i], at);
                        case 1, 3 -> {
                            long sum = 0;
                            for (int r = 0; r < (o.kind() == 1 ? n : me + 1); r++) {
                                sum += value(k, r, i);
                            }
                            assertEquals(sum, out[i], at);
                        }
                        case 2 -> {
                            for (int r = 0; r < n; r++) {
                                assertEquals(me == o.root() ? value(k, r, i) : 0, out[r * o.length() + i], at);
                            }
                        }
                        default -> {
                        }
                    }
                }
            }
            MPI.Finalize();
        });
    }
}
