package org.jhpvm.apps.samples;

import java.time.Duration;

import org.jhpvm.shmem.ReduceOp;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * HPCC RandomAccess (GUPS) with SHMEM atomic XOR: a table of {@code 2^m} longs, {@code T[i] = i} initially, spread
 * evenly over the PEs; {@code 4 * 2^m} updates {@code T[ran & (size-1)] ^= ran} with HPCC's pseudo-random stream
 * (x &lt;- x*2 over GF(2) modulo the polynomial 7), each PE doing its share starting at its own point of the stream.
 * Verification as in HPCC: XOR is its own inverse, so running the same updates again must bring back {@code T[i] =
 * i}; HPCC accepts up to 1% wrong entries (its reference code races), with atomics there must be none.
 */
public final class Gups {
    static final long POLY = 0x7L;
    static final long PERIOD = 1317624576693539401L;

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
     */
    public record Result(int logTableSize, int pes, long updates, long errors, double seconds, double gups) {
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
                final SymmetricLongs table = sh.mallocLongs(local);
                final long[] t = table.local();
                for (int i = 0; i < local; i++) {
                    t[i] = (long) me * local + i;
                }
                sh.barrierAll();
                final long t0 = System.nanoTime();
                update(table, me * perPe, perPe, size, local);
                sh.barrierAll();
                final double seconds = (System.nanoTime() - t0) / 1e9;
                update(table, me * perPe, perPe, size, local); // the verification pass undoes every update
                sh.barrierAll();
                final long[] errors = {0};
                for (int i = 0; i < local; i++) {
                    if (t[i] != (long) me * local + i) {
                        errors[0]++;
                    }
                }
                sh.reduce(sh.teamWorld(), ReduceOp.SUM, errors, errors, 1);
                if (me == 0) {
                    out[0] = new Result(logTableSize, pes, updates, errors[0], seconds, updates / seconds / 1e9);
                }
            });
        return out[0];
    }

    private static void update(final SymmetricLongs table, final long first, final long count, final long size,
        final int local) {
        long ran = starts(first);
        for (long k = 0; k < count; k++) {
            ran = next(ran);
            final long index = ran & (size - 1);
            table.atomicXor((int) (index / local), (int) (index % local), ran);
        }
    }
}
