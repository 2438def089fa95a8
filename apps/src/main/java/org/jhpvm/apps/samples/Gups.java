package org.jhpvm.apps.samples;

import java.time.Duration;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jhpvm.shmem.ReduceOp;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;
import org.jhpvm.shmem.SymmetricSegment;

/**
 * HPCC RandomAccess (GUPS) with SHMEM atomic XOR: a table of {@code 2^m} longs, {@code T[i] = i} initially, spread
 * evenly over the PEs; {@code 4 * 2^m} updates {@code T[ran & (size-1)] ^= ran} with HPCC's pseudo-random stream
 * (x &lt;- x*2 over GF(2) modulo the polynomial 7), each PE doing its share starting at its own point of the stream.
 * Verification as in HPCC: XOR is its own inverse, so each PE generates the whole stream again and applies, locally,
 * the updates that fall in its part; every entry must be back at {@code T[i] = i}. A wrong target or index in the
 * timed pass shows as wrong entries here. HPCC accepts up to 1% wrong entries (its reference code races), with
 * atomics there must be none.
 * <p>
 * Two ways to send the updates: one atomic XOR per update in the order generated ({@link #run(int, int)}), or
 * batched as HPCC's rules allow ({@link #run(int, int, boolean)}): each PE generates {@value #LOOK_AHEAD} updates
 * (HPCC's look-ahead limit), buckets them by target PE, issues each bucket's atomics back to back, which SHMEM
 * combines into one NIC message per target, and sends what it holds with a fence before it generates the next
 * {@value #LOOK_AHEAD}: no PE ever holds more than that many updates unsent.
 * <p>
 * Two kinds of table: a {@link SymmetricLongs} (Java arrays; another process's part is reached by messages it serves),
 * or a {@link SymmetricSegment} in host memory ({@code --memory segment}), whose atomics on a PE of the same host, in
 * one JVM or another process, are {@code VarHandle} atomics straight on that PE's memory.
 */
public final class Gups {
    static final long POLY = 0x7L;
    static final long PERIOD = 1317624576693539401L;
    /** HPCC RandomAccess: a process may hold at most this many updates before it sends them. */
    public static final int LOOK_AHEAD = 1024;

    private Gups() {
    }

    /**
     * What a run found.
     *
     * @param logTableSize m, the table has 2^m entries
     * @param pes          PEs
     * @param updates      updates done (per pass)
     * @param errors       entries that were not restored by the verification pass
     * @param seconds      time of the timed pass
     * @param gups         updates per second / 1e9
     * @param batched      whether the updates were bucketed per target ({@link #run(int, int, boolean)})
     * @param segment      whether the table was a segment in host memory ({@link #run(int, int, boolean, boolean)})
     */
    public record Result(int logTableSize, int pes, long updates, long errors, double seconds, double gups,
                         boolean batched, boolean segment) {
        /**
         * The rate in HPCC's other unit.
         *
         * @return millions of updates per second
         */
        public double mups() {
            return gups * 1e3;
        }
    }

    /** The next element of HPCC's stream. */
    static long next(final long ran) {
        return (ran << 1) ^ (ran < 0 ? POLY : 0);
    }

    /** HPCC_starts: the n-th element of the stream, in O(log n) steps of GF(2) polynomial arithmetic. */
    static long starts(final long start) {
        long n = start;
        while (n < 0) {
            n += PERIOD;
        }
        while (n > PERIOD) {
            n -= PERIOD;
        }
        if (n == 0) {
            return 0x1;
        }
        final long[] m2 = new long[64]; // m2[i] = x^(2i) as a polynomial: squaring is spreading the bits
        long temp = 0x1;
        for (int i = 0; i < 64; i++) {
            m2[i] = temp;
            temp = next(next(temp));
        }
        int i = 62;
        while (i >= 0 && ((n >> i) & 1) == 0) {
            i--;
        }
        long ran = 0x2;
        while (i > 0) {
            temp = 0;
            for (int j = 0; j < 64; j++) {
                if (((ran >> j) & 1) != 0) {
                    temp ^= m2[j];
                }
            }
            ran = temp;
            i--;
            if (((n >> i) & 1) != 0) {
                ran = next(ran);
            }
        }
        return ran;
    }

    /**
     * Runs GUPS in a job of {@code pes} PEs: a timed pass of the updates, then the same updates again to verify.
     *
     * @param pes          PEs (a power of two up to 2^m)
     * @param logTableSize m, 4..26
     * @return the result; null in a process of a launched job that does not host PE 0
     * @throws IllegalArgumentException if m is outside 4..26 or {@code pes} is not a power of two up to 2^m
     */
    public static Result run(final int pes, final int logTableSize) {
        return run(pes, logTableSize, false);
    }

    /**
     * Runs GUPS in a job of {@code pes} PEs, one atomic per update in the order generated or (batched) bucketed per
     * target {@value #LOOK_AHEAD} updates at a time: a timed pass, then the same updates again to verify.
     *
     * @param pes          PEs (a power of two up to 2^m)
     * @param logTableSize m, 4..26
     * @param batched      bucket each {@value #LOOK_AHEAD} updates by target PE before sending them
     * @return the result; null in a process of a launched job that does not host PE 0
     * @throws IllegalArgumentException if m is outside 4..26 or {@code pes} is not a power of two up to 2^m
     */
    public static Result run(final int pes, final int logTableSize, final boolean batched) {
        return run(pes, logTableSize, batched, false);
    }

    /**
     * As {@link #run(int, int, boolean)}, with the table a segment in host memory when {@code segment} is true.
     *
     * @param pes          PEs (a power of two up to 2^m)
     * @param logTableSize m, 4..26
     * @param batched      bucket each {@value #LOOK_AHEAD} updates by target PE before sending them
     * @param segment      the table in host memory ({@link Shmem#mallocSegment}) rather than Java arrays
     * @return the result; null in a process of a launched job that does not host PE 0
     * @throws IllegalArgumentException if m is outside 4..26 or {@code pes} is not a power of two up to 2^m
     */
    public static Result run(final int pes, final int logTableSize, final boolean batched, final boolean segment) {
        if (logTableSize < 4 || logTableSize > 26) {
            throw new IllegalArgumentException("--log-size " + logTableSize + ": 4..26");
        }
        if (Integer.bitCount(pes) != 1 || pes > 1 << logTableSize) {
            throw new IllegalArgumentException("--pes " + pes + ": a power of two, at most the table size");
        }
        final long size = 1L << logTableSize;
        final int local = (int) (size / pes);
        final long updates = 4 * size;
        final long perPe = updates / pes;
        final Result[] out = new Result[1];
        ShmemJob.builder().pes(pes).timeout(Duration.ofMinutes(20)).option("shmem.heapBytes", "2G").build()
            .run(sh -> {
                final int me = sh.myPe();
                final Table table = segment ? new SegmentTable(sh.mallocSegment((long) local * Long.BYTES))
                    : new ArrayTable(sh.mallocLongs(local));
                final long[] t = new long[local];
                for (int i = 0; i < local; i++) {
                    t[i] = (long) me * local + i;
                }
                table.load(t);
                sh.barrierAll();
                final Buckets buckets = batched ? new Buckets(sh.nPes()) : null;
                final long t0 = System.nanoTime();
                update(sh, table, me * perPe, perPe, size, local, buckets);
                sh.barrierAll();
                final double seconds = (System.nanoTime() - t0) / 1e9;
                table.store(t);
                verify(t, me, local, size, updates);
                final long[] errors = {0};
                for (int i = 0; i < local; i++) {
                    if (t[i] != (long) me * local + i) {
                        errors[0]++;
                    }
                }
                sh.reduce(sh.teamWorld(), ReduceOp.SUM, errors, errors, 1);
                if (me == 0) {
                    out[0] = new Result(logTableSize, pes, updates, errors[0], seconds, updates / seconds / 1e9,
                        batched, segment);
                }
            });
        return out[0];
    }

    /** The distributed table: an atomic XOR on a PE's entry, and this PE's part to and from a plain array. */
    private sealed interface Table permits ArrayTable, SegmentTable {
        void xor(int pe, int index, long value);

        void load(long[] from);

        void store(long[] into);
    }

    private record ArrayTable(SymmetricLongs s) implements Table {
        @Override
        public void xor(final int pe, final int index, final long value) {
            s.atomicXor(pe, index, value);
        }

        @Override
        public void load(final long[] from) {
            System.arraycopy(from, 0, s.local(), 0, from.length);
        }

        @Override
        public void store(final long[] into) {
            System.arraycopy(s.local(), 0, into, 0, into.length);
        }
    }

    private record SegmentTable(SymmetricSegment s) implements Table {
        @Override
        public void xor(final int pe, final int index, final long value) {
            s.atomicBitwise(pe, (long) index * Long.BYTES, ReduceOp.XOR, value);
        }

        @Override
        public void load(final long[] from) {
            MemorySegment.copy(from, 0, s.local(), ValueLayout.JAVA_LONG, 0, from.length);
        }

        @Override
        public void store(final long[] into) {
            MemorySegment.copy(s.local(), ValueLayout.JAVA_LONG, 0, into, 0, into.length);
        }
    }

    /** HPCC's check: the whole stream again, each PE applying locally what falls in its part. */
    private static void verify(final long[] t, final int me, final int local, final long size, final long updates) {
        final int shift = Integer.numberOfTrailingZeros(local);
        long ran = starts(0);
        for (long k = 0; k < updates; k++) {
            ran = next(ran);
            final long index = ran & (size - 1);
            if ((index >>> shift) == me) {
                t[(int) (index & (local - 1))] ^= ran;
            }
        }
    }

    private static void update(final Shmem sh, final Table table, final long first, final long count,
        final long size, final int local, final Buckets buckets) {
        if (buckets != null) {
            updateBatched(sh, table, first, count, size, local, buckets);
            return;
        }
        long ran = starts(first);
        for (long k = 0; k < count; k++) {
            ran = next(ran);
            final long index = ran & (size - 1);
            table.xor((int) (index / local), (int) (index % local), ran);
        }
    }

    /** The look-ahead's updates sorted by target PE (counting sort), reused for every round. */
    private static final class Buckets {
        final long[] generated = new long[LOOK_AHEAD];
        final long[] sorted = new long[LOOK_AHEAD];
        final int[] start;
        final int[] fill;

        Buckets(final int pes) {
            start = new int[pes + 1];
            fill = new int[pes];
        }
    }

    private static void updateBatched(final Shmem sh, final Table table, final long first, final long count,
        final long size, final int local, final Buckets b) {
        final int pes = sh.nPes();
        final int me = sh.myPe();
        final int shift = Integer.numberOfTrailingZeros(local);
        long ran = starts(first);
        for (long done = 0; done < count; ) {
            final int n = (int) Math.min(LOOK_AHEAD, count - done);
            java.util.Arrays.fill(b.start, 0);
            for (int k = 0; k < n; k++) {
                ran = next(ran);
                b.generated[k] = ran;
                b.start[(int) ((ran & (size - 1)) >>> shift) + 1]++;
            }
            for (int p = 0; p < pes; p++) {
                b.start[p + 1] += b.start[p];
                b.fill[p] = b.start[p];
            }
            for (int k = 0; k < n; k++) {
                final long r = b.generated[k];
                b.sorted[b.fill[(int) ((r & (size - 1)) >>> shift)]++] = r;
            }
            // Each PE starts with the PE after it, so that not every PE sends to PE 0 first.
            for (int j = 1; j <= pes; j++) {
                final int p = (me + j) % pes;
                for (int k = b.start[p]; k < b.start[p + 1]; k++) {
                    final long r = b.sorted[k];
                    table.xor(p, (int) (r & (local - 1)), r);
                }
            }
            sh.fence(); // sends the last bucket's batch: nothing is held past the look-ahead
            done += n;
        }
    }
}
