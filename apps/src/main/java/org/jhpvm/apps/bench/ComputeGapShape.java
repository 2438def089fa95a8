package org.jhpvm.apps.bench;

import java.time.Duration;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;
import org.jhpvm.shmem.SymmetricSegment;

/**
 * A put after a phase of computation, as bulk-synchronous programs make them: PE 0 computes for {@code gapMs} (a busy
 * loop, not a sleep), then stores its clock into PE 1's word with an 8-byte put; PE 1 has been waiting in
 * {@code waitUntil} all that time, and takes the difference when its wait ends. Then PE 1 acknowledges, and the next
 * round begins. A waiter that has gone to sleep by then pays a wake-up, and one that a put cannot wake pays the rest
 * of its sleep: the benchmark's own ping-pong, with no gap, sees neither. Two figures: a heap array
 * ({@link SymmetricLongs#p}, a NIC message) and a host-memory segment ({@link SymmetricSegment#putLong}, a direct
 * store), each the median and 90th percentile over the rounds, in microseconds.
 */
public final class ComputeGapShape {
    /** The JSON key of the heap figure (its 90th percentile: the key and {@code _p90}). */
    public static final String HEAP_KEY = "user_put_after_compute_us_8B";
    /** The JSON key of the segment figure. */
    public static final String SEGMENT_KEY = "user_segment_put_after_compute_us_8B";

    private final int rounds;
    private final long gapNs;

    /**
     * The shape with its rounds and gap.
     *
     * @param rounds rounds per figure (after 5 untimed ones)
     * @param gapMs  PE 0's computation before each put, milliseconds
     */
    public ComputeGapShape(final int rounds, final int gapMs) {
        if (rounds < 1 || gapMs < 0) {
            throw new IllegalArgumentException("rounds=" + rounds + " must be at least 1, gapMs=" + gapMs
                + " at least 0");
        }
        this.rounds = rounds;
        this.gapNs = gapMs * 1_000_000L;
    }

    /**
     * One figure: per round, from PE 0's put to PE 1's wait's end.
     *
     * @param key the figure's JSON key
     * @param us  each round's time, microseconds
     */
    public record Figure(String key, double[] us) {
        /**
         * The median round.
         *
         * @return the median round, microseconds
         */
        public double medianUs() {
            return Stats.median(us);
        }

        /**
         * The 90th percentile of the rounds.
         *
         * @return the 90th percentile of the rounds, microseconds
         */
        public double p90Us() {
            return UserShapes.percentile(us, 0.9);
        }
    }

    /**
     * Measures both figures in one 2-PE job: in this JVM, or (in a process of a launched job, not
     * {@code inProcess}) over the launched fabric, PE 1 in the other process. PE 1 times the rounds; PE 0 fetches
     * them at the end, so the figures are PE 0's to report.
     *
     * @param inProcess both PEs in this JVM even in a process of a launched job
     * @return the heap figure, then the segment figure (filled where PE 0 runs)
     */
    public Figure[] run(final boolean inProcess) {
        final double[] heapUs = new double[rounds];
        final double[] segmentUs = new double[rounds];
        final ShmemJob.Builder job = ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(5));
        (inProcess ? job.inProcess() : job).build().run(sh -> {
            final SymmetricLongs heap = sh.mallocLongs(2);
            final SymmetricSegment segment = sh.mallocSegment(64);
            final SymmetricLongs times = sh.mallocLongs(2 * rounds); // PE 1's rounds, nanoseconds
            sh.barrierAll();
            long last = 0;
            long ack = 0;
            for (int kind = 0; kind < 2; kind++) {
                for (int r = -5; r < rounds; r++) {
                    ack++;
                    if (sh.myPe() == 0) {
                        compute(gapNs);
                        final long now = System.nanoTime(); // one clock for the processes of a host (monotonic)
                        if (kind == 0) {
                            heap.p(1, 0, now);
                        } else {
                            segment.putLong(1, 0, now);
                        }
                        heap.waitUntil(1, Cmp.GE, ack);
                    } else {
                        final long sent;
                        if (kind == 0) {
                            heap.waitUntil(0, Cmp.NE, last);
                            sent = heap.local()[0];
                        } else {
                            sent = segment.waitUntil(0, Cmp.NE, last);
                        }
                        final long ended = System.nanoTime();
                        last = sent;
                        if (r >= 0) {
                            times.local()[kind * rounds + r] = ended - sent;
                        }
                        heap.p(0, 1, ack);
                    }
                }
                last = 0;
                sh.barrierAll();
            }
            if (sh.myPe() == 0) {
                final long[] ns = new long[2 * rounds];
                times.get(1, 0, ns, 0, ns.length);
                for (int r = 0; r < rounds; r++) {
                    heapUs[r] = ns[r] / 1e3;
                    segmentUs[r] = ns[rounds + r] / 1e3;
                }
            }
            sh.barrierAll();
        });
        return new Figure[] {new Figure(HEAP_KEY, heapUs), new Figure(SEGMENT_KEY, segmentUs)};
    }

    /** A busy loop of {@code ns}: computation that keeps the core, as a solver's phase does. */
    private static void compute(final long ns) {
        final long end = System.nanoTime() + ns;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Prints the figures.
     *
     * @param figures what {@link #run} measured
     * @param gapMs   the computation before each put
     */
    public static void print(final Figure[] figures, final int gapMs) {
        System.out.printf("A put after %d ms of computation on PE 0, seen by PE 1 waiting in waitUntil (2 PEs; median "
            + "and 90th percentile of the rounds):%n", gapMs);
        for (final Figure f : figures) {
            System.out.printf("  %-38s median %9.1f us, p90 %9.1f us%n", f.key(), f.medianUs(), f.p90Us());
        }
    }

    /**
     * Adds the figures to a bench's {@code metrics}: each key and its {@code _p90}, after {@code prefix}
     * ({@code process_} for PEs in two processes of a launched job, else empty).
     *
     * @param metrics the bench's metrics
     * @param figures what {@link #run} measured
     * @param prefix  before each key
     */
    public static void toJson(final ObjectNode metrics, final Figure[] figures, final String prefix) {
        for (final Figure f : figures) {
            metrics.put(prefix + f.key(), f.medianUs());
            metrics.put(prefix + f.key() + "_p90", f.p90Us());
        }
    }
}
