package org.jhpvm.apps.bench;

import java.util.concurrent.atomic.AtomicInteger;

import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * The SPSC hop measured on the two PE threads of a SHMEM job in one JVM, block by block beside SHMEM's 8-byte put,
 * get and fetch-add, so that {@code put_latency_spsc_ratio} and its kin compare like with like. The raw baseline
 * measured once per run cannot judge them: this VM's cross-core hop moves between about 60 and 280 ns over minutes,
 * within a run too (the same FM ping-pong then goes from about 230 to 575 ns), while a CPU-bound loop keeps its speed.
 * Each pair of blocks is an SPSC ping-pong between the PE threads (two JCTools queues, as the raw baseline), then a
 * put/{@code waitUntil} ping-pong, then PE 0's blocking gets and fetch-adds to PE 1; each ratio is the median over the
 * blocks of the operation's time over the hop's just before it.
 * <p>
 * Made before the job and shared by its PEs; under {@code launch} each process has its own, so {@link #shared} is
 * false on both and neither runs the blocks.
 */
public final class SpscPairing {
    /** Pairs of blocks per measured pass. */
    static final int BLOCKS = 15;
    private static final long TIMEOUT_NS = 120_000_000_000L;

    /** The hop, as the raw baseline measures it. */
    private final SpscPingPong spsc = new SpscPingPong(32);
    private final AtomicInteger joined = new AtomicInteger();
    /** Each PE's count of the put's values (PE p's at {@code 8 * p}: a cache line of its own); both count alike. */
    private final long[] seqs = new long[16];

    /** An unshared pairing: each PE of the job joins it. */
    SpscPairing() {
    }

    /**
     * Figures of one pass.
     *
     * @param hopNs    the hop's one-way ns, median over the blocks
     * @param put      8-byte put one-way over the hop, median over the blocks
     * @param get      8-byte blocking get over the hop, median over the blocks
     * @param fetchAdd fetch-add over the hop, median over the blocks
     */
    public record Ratios(double hopNs, double put, double get, double fetchAdd) {
        /** No pairing (the PEs are not threads of one JVM). */
        static final Ratios NONE = new Ratios(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        /**
         * Whether the figures were measured.
         *
         * @return true if the pass was paired
         */
        public boolean measured() {
            return !Double.isNaN(hopNs);
        }
    }

    /**
     * A PE of the job comes in (each once, then a barrier, before {@link #shared}).
     */
    void join() {
        joined.incrementAndGet();
    }

    /** @return true if both PEs of the job joined this object (threads of one JVM) */
    boolean shared() {
        return joined.get() == 2;
    }

    /**
     * Runs {@link #BLOCKS} pairs of blocks of {@code n} operations each (both PEs call it, after {@link #shared} said
     * true on both).
     *
     * @param sh  the PE's SHMEM
     * @param buf a symmetric buffer of at least 3 elements: its second and third last hold the put's flag and the
     *            fetch-add's counter (the put's values only grow, so a 0 or an earlier value left there is no match)
     * @param one a one-element local array
     * @param n   operations per block, at least 1
     * @return on PE 0 the pass's ratios; on PE 1 {@link Ratios#NONE}
     */
    Ratios run(final Shmem sh, final SymmetricLongs buf, final long[] one, final int n) {
        final int me = sh.myPe();
        final int putIndex = buf.local().length - 2;
        final int addIndex = buf.local().length - 3;
        final double[] hop = new double[BLOCKS];
        final double[] put = new double[BLOCKS];
        final double[] get = new double[BLOCKS];
        final double[] add = new double[BLOCKS];
        for (int b = 0; b < BLOCKS; b++) {
            sh.barrierAll();
            final double hopNs = hopNs(me, n);
            sh.barrierAll();
            long t0 = System.nanoTime();
            for (int k = 0; k < n; k++) {
                final long s = ++seqs[8 * me];
                one[0] = s;
                if (me == 0) {
                    buf.put(1, putIndex, one, 0, 1);
                    buf.waitUntil(putIndex, Cmp.EQ, s);
                } else {
                    buf.waitUntil(putIndex, Cmp.EQ, s);
                    buf.put(0, putIndex, one, 0, 1);
                }
            }
            final double putNs = (System.nanoTime() - t0) / (2.0 * n);
            sh.barrierAll();
            double getNs = 0;
            double addNs = 0;
            if (me == 0) {
                t0 = System.nanoTime();
                for (int k = 0; k < n; k++) {
                    buf.get(1, 0, one, 0, 1);
                }
                getNs = (System.nanoTime() - t0) / (double) n;
                t0 = System.nanoTime();
                for (int k = 0; k < n; k++) {
                    buf.atomicFetchAdd(1, addIndex, 1);
                }
                addNs = (System.nanoTime() - t0) / (double) n;
            }
            if (me == 0) {
                hop[b] = hopNs;
                put[b] = putNs / hopNs;
                get[b] = getNs / hopNs;
                add[b] = addNs / hopNs;
            }
        }
        sh.barrierAll();
        return me == 0 ? new Ratios(Stats.median(hop), Stats.median(put), Stats.median(get), Stats.median(add))
            : Ratios.NONE;
    }

    /** An SPSC ping-pong of {@code n} round trips between the two PE threads: PE 0's one-way ns (PE 1: 0). */
    private double hopNs(final int me, final int n) {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        if (me == 0) {
            return spsc.ping(n, deadline) / (2.0 * n);
        }
        spsc.pong(n, deadline);
        return 0;
    }
}
