package org.jhpvm.apps.bench;

import java.time.Duration;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

import org.jhpvm.ga.GaType;
import org.jhpvm.ga.GlobalArray;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricDoubles;

/**
 * Global Arrays against SHMEM on 2 PEs, in the same job and the same pass: PE 0 puts, gets and accumulates
 * sections owned by PE 1 (1-D sections; 2-D patches of rows up to 128 doubles = 1 KiB wide; strided sections with
 * skip 2), and SHMEM moves the same bytes (contiguous put/get/acc; iput/iget for the strided ones). Put and acc are
 * streams closed by a fence/quiet, get is blocking, as the users of each call them. Then {@code updateGhosts} of a
 * 2-D array of N x N doubles (ghost width 1, row blocks) against a hand-written SHMEM halo exchange of the same data
 * with the same barriers. GA and SHMEM alternate in slices of each point (which goes first alternates too); a ratio
 * is the median over all trials of the ratios of adjacent slice pairs, which cancels the machine's drift.
 */
public final class GaBenchmark {
    /** Section sizes, bytes (8 B .. 1 MiB). */
    public static final int[] SIZES = {8, 64, 512, 1024, 4096, 16384, 65536, 262144, 1 << 20};
    /** Ghost-update array edges (N x N doubles). */
    public static final int[] GHOST_N = {64, 256, 1024};
    /** Slices per point in which GA and SHMEM alternate. */
    public static final int SLICES = 16;
    /** Widest 2-D patch row: 128 doubles. */
    public static final int ROW = 128;
    /**
     * Transfers rotate their remote start through this many places. One copy of a large range runs about a quarter
     * slower when its destination lies 40-200 bytes after its source modulo 4 KiB (the CPU takes the loads for
     * dependent on the stores: 4 KiB aliasing), and where the JVM put each array decided which side got that: a GA 1-D
     * get measured 0.61-0.86 of SHMEM's with no extra work. SHMEM and GA 1-D ops move in 64 steps of 72 bytes, which
     * cover 4 KiB, so they see every relative placement equally; a 2-D patch can only move by whole rows (1 KiB), so
     * it takes 4 places, and at worst one in four of its copies is slow where SHMEM's average over all of them.
     */
    private static final int SHIFTS = 64;
    private static final int SHIFT_DOUBLES = 9;
    private static final int ROW_SHIFTS = 4;

    /** Measured quantities per size: MB/s for GA and SHMEM. */
    public enum Op {
        /** 1-D section put vs SHMEM put. */
        PUT_1D,
        /** 2-D patch put vs SHMEM put of the same bytes. */
        PUT_2D,
        /** 1-D blocking get vs SHMEM get. */
        GET_1D,
        /** 2-D blocking get vs SHMEM get. */
        GET_2D,
        /** 1-D accumulate vs SHMEM acc. */
        ACC_1D,
        /** 2-D accumulate vs SHMEM acc. */
        ACC_2D,
        /** Strided (skip 2) put vs SHMEM iput. */
        STRIDED_PUT,
        /** Strided (skip 2) get vs SHMEM iget. */
        STRIDED_GET
    }

    private final int trials;
    private final int warmups;
    private final long bytesPerPoint;

    /**
     * Keeps the settings; nothing runs until {@link #run}. They are not checked here ({@code bench ga} checks its
     * options): trials below 1 fail only when the medians are taken.
     *
     * @param trials        measured trials
     * @param warmups       warm-up passes
     * @param bytesPerPoint bytes moved per point and trial (between 128 and 100,000 operations per point whatever the
     *                      size)
     */
    public GaBenchmark(final int trials, final int warmups, final long bytesPerPoint) {
        this.trials = trials;
        this.warmups = warmups;
        this.bytesPerPoint = bytesPerPoint;
    }

    /**
     * The length of a progress bar for {@link #run}: one step per pass, warm-up or measured.
     *
     * @return progress steps {@link #run} reports
     */
    public int steps() {
        return warmups + trials;
    }

    /**
     * Runs everything in one 2-PE job.
     *
     * @param progress told of each finished pass
     * @return medians
     */
    public Result run(final IntConsumer progress) {
        final int ops = Op.values().length;
        final double[][][] ga = new double[ops][SIZES.length][trials];
        final double[][][] sh = new double[ops][SIZES.length][trials];
        final double[][][] ratio = new double[ops][SIZES.length][trials * SLICES];
        final double[][] ghostNs = new double[GHOST_N.length][trials];
        final double[][] haloNs = new double[GHOST_N.length][trials];
        final double[][] ghostRatio = new double[GHOST_N.length][trials * SLICES];
        final int maxElems = SIZES[SIZES.length - 1] / 8;
        ShmemJob.builder().pes(2).timeout(Duration.ofMinutes(20)).option("shmem.heapBytes", "1G").build().run(s -> {
            final GlobalArrays g = new GlobalArrays(s);
            // PE 1 owns [maxElems, 2*maxElems) of the 1-D array (x2 for the strided sections) and rows of the 2-D.
            final GlobalArray a1 = g.builder(GaType.DOUBLE, 4 * maxElems).procGrid(2).name("a1").create();
            final GlobalArray a2 = g.builder(GaType.DOUBLE, 2 * (maxElems / ROW + ROW_SHIFTS), ROW).procGrid(2, 1).name("a2")
                .create();
            final SymmetricDoubles base = s.mallocDoubles(2 * maxElems);
            final double[] buf = new double[2 * maxElems];
            for (int i = 0; i < buf.length; i++) {
                buf[i] = i % 7;
            }
            final Ghost[] ghosts = new Ghost[GHOST_N.length];
            for (int i = 0; i < GHOST_N.length; i++) {
                ghosts[i] = new Ghost(g, s, GHOST_N[i]);
            }
            for (int pass = 0; pass < warmups + trials; pass++) {
                final int t = pass - warmups;
                for (int i = 0; i < SIZES.length; i++) {
                    final int n = Math.max(1, SIZES[i] / 8);
                    final int m = messages(SIZES[i], pass >= warmups);
                    for (final Op op : Op.values()) {
                        final int[][][] sec = new int[SHIFTS][][];
                        for (int j = 0; j < SHIFTS; j++) {
                            sec[j] = section(op, n, maxElems, j);
                        }
                        final int[] turns = new int[2];
                        final double[] mbps = timePair(s, m, n,
                            () -> gaOp(op, a1, a2, buf, sec[turns[0]++ & (SHIFTS - 1)]),
                            () -> shmemOp(op, s, base, buf, n, shift(op, turns[1]++ & (SHIFTS - 1))));
                        final double gaMBps = mbps[0];
                        final double shMBps = mbps[1];
                        if (t >= 0 && s.myPe() == 0) {
                            ga[op.ordinal()][i][t] = gaMBps;
                            sh[op.ordinal()][i][t] = shMBps;
                            System.arraycopy(mbps, 2, ratio[op.ordinal()][i], t * SLICES, SLICES);
                        }
                    }
                }
                for (int i = 0; i < GHOST_N.length; i++) {
                    final int k = Math.max(20, (int) Math.min(2000, bytesPerPoint / (8L * GHOST_N[i] * 4)));
                    final double[] ns = ghosts[i].timePair(k);
                    final double gNs = ns[0];
                    final double hNs = ns[1];
                    ghosts[i].check();
                    if (t >= 0 && s.myPe() == 0) {
                        ghostNs[i][t] = gNs;
                        haloNs[i][t] = hNs;
                        System.arraycopy(ns, 2, ghostRatio[i], t * SLICES, SLICES);
                    }
                }
                if (s.myPe() == 0) {
                    progress.accept(1);
                }
            }
        });
        final double[][] gaM = new double[ops][];
        final double[][] shM = new double[ops][];
        final double[][] rM = new double[ops][];
        for (int o = 0; o < ops; o++) {
            gaM[o] = Stats.medians(ga[o]);
            shM[o] = Stats.medians(sh[o]);
            rM[o] = Stats.medians(ratio[o]);
        }
        return new Result(gaM, shM, rM, Stats.medians(ghostNs), Stats.medians(haloNs), Stats.medians(ghostRatio));
    }

    /** SHMEM's remote start, in elements, on turn {@code j} ({@link #SHIFTS}); 0 for the strided ops. */
    private static int shift(final Op op, final int j) {
        return op == Op.STRIDED_PUT || op == Op.STRIDED_GET ? 0 : j * SHIFT_DOUBLES;
    }

    /**
     * The section of an op and size on turn {@code j}: lo, hi, skip, ld (allocated once, outside the timed loop).
     * 1-D sections start {@code j} steps of {@link #SHIFT_DOUBLES} into PE 1's block, 2-D patches {@code j %
     * ROW_SHIFTS} rows into it.
     */
    private static int[][] section(final Op op, final int n, final int maxElems, final int j) {
        final int rows = Math.max(1, n / ROW);
        final int cols = Math.min(n, ROW);
        final int r0 = maxElems / ROW + ROW_SHIFTS + j % ROW_SHIFTS; // PE 1's rows start at maxElems/ROW + ROW_SHIFTS
        final int first = 2 * maxElems; // PE 1's first element of the 1-D array
        return switch (op) {
            case PUT_2D, GET_2D, ACC_2D -> new int[][] {{r0, 0}, {r0 + rows - 1, cols - 1}, {1, 1}, {cols}};
            case STRIDED_PUT, STRIDED_GET -> new int[][] {{first}, {first + 2 * n - 2}, {2}, {}};
            default -> new int[][] {{first + shift(op, j)}, {first + shift(op, j) + n - 1}, {1}, {}};
        };
    }

    private static void gaOp(final Op op, final GlobalArray a1, final GlobalArray a2, final double[] buf,
        final int[][] sec) {
        final int[] lo = sec[0];
        final int[] hi = sec[1];
        final int[] ld = sec[3];
        switch (op) {
            case PUT_1D -> a1.put(lo, hi, buf, ld);
            case GET_1D -> a1.get(lo, hi, buf, ld);
            case ACC_1D -> a1.acc(lo, hi, buf, ld, 1.0);
            case PUT_2D -> a2.put(lo, hi, buf, ld);
            case GET_2D -> a2.get(lo, hi, buf, ld);
            case ACC_2D -> a2.acc(lo, hi, buf, ld, 1.0);
            case STRIDED_PUT -> a1.stridedPut(lo, hi, sec[2], buf, ld);
            case STRIDED_GET -> a1.stridedGet(lo, hi, sec[2], buf, ld);
        }
    }

    private static void shmemOp(final Op op, final Shmem s, final SymmetricDoubles base, final double[] buf,
        final int n, final int shift) {
        switch (op) {
            case PUT_1D, PUT_2D -> base.put(1, shift, buf, 0, n);
            case GET_1D, GET_2D -> base.get(1, shift, buf, 0, n);
            case ACC_1D, ACC_2D -> base.acc(1, shift, buf, 0, n, 1.0);
            case STRIDED_PUT -> base.iput(1, 0, 2, buf, 0, 1, n);
            case STRIDED_GET -> base.iget(1, 0, 2, buf, 0, 1, n);
        }
    }

    /**
     * MB/s of {@code m} operations of {@code n} doubles issued by PE 0 through GA and through SHMEM, interleaved in
     * {@link #SLICES} slices (alternating which goes first) so that the machine's drift hits both alike; each slice
     * closed by a quiet (= GA fence).
     */
    private static double[] timePair(final Shmem s, final int m, final int n, final Runnable ga,
        final Runnable shmem) {
        final int per = Math.max(1, m / SLICES);
        final long[][] ns = alternate(() -> slice(s, per, ga), () -> slice(s, per, shmem));
        final double[] out = new double[2 + SLICES];
        long gaNs = 0;
        long shNs = 0;
        for (int slice = 0; slice < SLICES; slice++) {
            gaNs += ns[0][slice];
            shNs += ns[1][slice];
            out[2 + slice] = (double) ns[1][slice] / ns[0][slice]; // bandwidth ratio GA / SHMEM of this pair
        }
        final double bytes = (double) SLICES * per * n * 8;
        out[0] = bytes * 1e3 / gaNs;
        out[1] = bytes * 1e3 / shNs;
        return out;
    }

    /**
     * Runs {@code ga} and {@code other} in {@link #SLICES} adjacent pairs, alternating which goes first.
     *
     * @return per slice, the ns of ga ({@code [0]}) and of other ({@code [1]})
     */
    private static long[][] alternate(final LongSupplier ga, final LongSupplier other) {
        final long[][] ns = new long[2][SLICES];
        for (int slice = 0; slice < SLICES; slice++) {
            final boolean gaFirst = slice % 2 == 0;
            final long first = gaFirst ? ga.getAsLong() : other.getAsLong();
            final long second = gaFirst ? other.getAsLong() : ga.getAsLong();
            ns[0][slice] = gaFirst ? first : second;
            ns[1][slice] = gaFirst ? second : first;
        }
        return ns;
    }

    private static long slice(final Shmem s, final int count, final Runnable op) {
        s.barrierAll();
        final long t0 = System.nanoTime();
        if (s.myPe() == 0) {
            for (int k = 0; k < count; k++) {
                op.run();
            }
            s.quiet();
        }
        final long ns = System.nanoTime() - t0;
        s.barrierAll();
        return ns;
    }

    private int messages(final int size, final boolean measured) {
        final int n = (int) Math.max(8L * SLICES, Math.min(100_000, bytesPerPoint / size));
        return measured ? n : n / 10 + 1;
    }

    /** An N x N array with one ghost layer, updated by GA and by hand, and a check that both agree. */
    private static final class Ghost {
        private final Shmem s;
        private final GlobalArray a;
        private final SymmetricDoubles h;
        private final int n;
        private final int rows;
        private final int stride;

        Ghost(final GlobalArrays g, final Shmem s, final int n) {
            this.s = s;
            this.n = n;
            this.a = g.builder(GaType.DOUBLE, n, n).ghosts(1, 1).procGrid(2, 1).name("ghosts" + n).create();
            this.rows = n / 2;
            this.stride = n + 2;
            // The hand-written layout is GA's: (rows + 2) x (n + 2), interior from (1, 1).
            this.h = s.mallocDoubles((rows + 2) * stride);
            final double[] local = a.access().doubles();
            for (int i = 0; i < local.length; i++) {
                local[i] = s.myPe() * 1e6 + i;
                h.local()[i] = local[i];
            }
        }

        /** ns per update by GA and by hand, in alternating slices (k updates of each on every PE). */
        double[] timePair(final int k) {
            final int per = Math.max(1, k / SLICES);
            final long[][] ns = alternate(() -> time(per, true), () -> time(per, false));
            final double[] out = new double[2 + SLICES];
            long gaNs = 0;
            long handNs = 0;
            for (int slice = 0; slice < SLICES; slice++) {
                gaNs += ns[0][slice];
                handNs += ns[1][slice];
                out[2 + slice] = (double) ns[0][slice] / ns[1][slice]; // time ratio GA / hand-written of this pair
            }
            out[0] = gaNs / (double) (SLICES * per);
            out[1] = handNs / (double) (SLICES * per);
            return out;
        }

        private long time(final int k, final boolean useGa) {
            s.barrierAll();
            final long t0 = System.nanoTime();
            for (int i = 0; i < k; i++) {
                if (useGa) {
                    a.updateGhosts();
                } else {
                    halo();
                }
            }
            final long ns = System.nanoTime() - t0;
            s.barrierAll();
            return ns;
        }

        /**
         * The same data and barriers by hand: rows to the other PE's ghost rows (both neighbours are the other PE,
         * periodic), then the periodic column wrap inside each PE's own block.
         */
        private void halo() {
            final int other = 1 - s.myPe();
            s.barrierAll();
            h.put(other, (rows + 1) * stride + 1, h.local(), stride + 1, n);     // my first row: its upper ghosts
            h.put(other, 1, h.local(), rows * stride + 1, n);                     // my last row: its lower ghosts
            s.quiet();
            s.barrierAll();
            final double[] x = h.local();
            for (int r = 0; r < rows + 2; r++) {
                x[r * stride] = x[r * stride + n];
                x[r * stride + n + 1] = x[r * stride + 1];
            }
            s.barrierAll();
        }

        /** Both updates produced the same block, ghosts included. */
        void check() {
            final double[] x = a.access().doubles();
            for (int i = 0; i < (rows + 2) * stride; i++) {
                if (x[i] != h.local()[i]) {
                    throw new IllegalStateException("updateGhosts and the hand-written halo disagree at local index "
                        + i + " on PE " + s.myPe() + " (N=" + n + ")");
                }
            }
            s.barrierAll();
        }
    }

    /**
     * Medians.
     *
     * @param gaMBps     per {@link Op} and size, GA bandwidth
     * @param shmemMBps  per op and size, SHMEM bandwidth
     * @param ratio      per op and size, median of the GA/SHMEM ratios of adjacent slice pairs
     * @param ghostNs    updateGhosts ns per {@link #GHOST_N}
     * @param haloNs     hand-written halo ns
     * @param ghostRatio median of the GA/hand-written time ratios of adjacent slice pairs
     */
    public record Result(double[][] gaMBps, double[][] shmemMBps, double[][] ratio, double[] ghostNs,
                         double[] haloNs, double[] ghostRatio) {
        /**
         * GA's put efficiency where it matters: the worst bandwidth ratio of GA to SHMEM over the sizes from 1 KiB
         * up, 1-D and 2-D ({@code bench ga} holds it to its efficiency target).
         *
         * @return the smallest GA/SHMEM put ratio over 1-D and 2-D sections of at least 1 KiB
         */
        public double minPutEfficiency1KiB() {
            return min(Op.PUT_1D, Op.PUT_2D);
        }

        /**
         * GA's get efficiency where it matters: the worst bandwidth ratio of GA to SHMEM over the sizes from 1 KiB
         * up, 1-D and 2-D ({@code bench ga} holds it to its efficiency target).
         *
         * @return the smallest GA/SHMEM get ratio over 1-D and 2-D sections of at least 1 KiB
         */
        public double minGetEfficiency1KiB() {
            return min(Op.GET_1D, Op.GET_2D);
        }

        /**
         * What {@code updateGhosts} costs over the hand-written SHMEM halo exchange, at the worst of the
         * {@link #GHOST_N} sizes (lower is better; {@code bench ga} holds it to its ghost target).
         *
         * @return the largest updateGhosts / hand-written halo time ratio over the sizes
         */
        public double ghostUpdateRatio() {
            return Stats.peak(ghostRatio);
        }

        private double min(final Op a, final Op b) {
            double m = Double.MAX_VALUE;
            for (int i = 0; i < SIZES.length; i++) {
                if (SIZES[i] >= 1024) {
                    m = Math.min(m, Math.min(ratio[a.ordinal()][i], ratio[b.ordinal()][i]));
                }
            }
            return m;
        }
    }
}
