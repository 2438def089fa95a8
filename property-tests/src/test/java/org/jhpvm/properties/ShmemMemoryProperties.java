package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.jhpvm.fm.Scheduling;
import org.jhpvm.shmem.ReduceOp;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;

/**
 * SHMEM memory semantics over a faulty fabric, checked against a plain model (a dense array per PE). Each case is a
 * PE count, a program seed and a fault plan; jqwik prints the seed of a failing case and {@code @Property(seed =
 * ...)} replays it (the faults replay from the plan's seed too).
 */
class ShmemMemoryProperties {
    private static final int REGION = 64;

    private static ShmemJob job(final int pes, final long faultSeed, final int dropPermille) {
        return job(pes, faultSeed, dropPermille, Scheduling.NONE, 0);
    }

    /** The job, its PE threads sharing {@code cores} cores under {@code scheduling} (1 ms quantum). */
    private static ShmemJob job(final int pes, final long faultSeed, final int dropPermille,
        final Scheduling scheduling, final int cores) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90))
            .option("fm.scheduling", scheduling.toString()).option("fm.cores", Integer.toString(cores))
            .option("fm.quantumNs", "1000000")
            .option("fabric.faults.seed", Long.toString(faultSeed))
            .option("fabric.faults.drop", Double.toString(dropPermille / 1000.0))
            .option("fabric.faults.corrupt", Double.toString(dropPermille / 4000.0))
            .option("fabric.faults.duplicate", Double.toString(dropPermille / 4000.0)).build();
    }

    /**
     * Random programs of put, p, iput, accumulate, atomic add and get. Each PE writes only its own region of every
     * PE's array (so the final state has one sequential answer: FM orders a writer's operations to each target),
     * checks every get against its model as it goes, and after the closing barrier every PE's array equals the
     * model; the shared counter, updated by atomics from everyone, equals the sum of all adds.
     */
    @Property(tries = 25)
    void randomProgramsAgreeWithASequentialModel(@ForAll @IntRange(min = 2, max = 8) final int pes,
        @ForAll final long programSeed, @ForAll @LongRange(min = 1, max = 1000) final long faultSeed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille, @ForAll final Scheduling scheduling,
        @ForAll @IntRange(min = 1, max = 2) final int cores) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final long[][][] model = new long[pes][pes][REGION];   // [target][writer][element]
        final long[] addsTo0 = new long[pes];
        job(pes, faultSeed, dropPermille, scheduling, cores).run(sh -> {
            final int me = sh.myPe();
            final SymmetricLongs a = sh.mallocLongs(pes * REGION);
            final SymmetricLongs counter = sh.mallocLongs(1);
            final Random rnd = new Random(programSeed * 31 + me);
            final int ops = 20 + rnd.nextInt(60);
            for (int k = 0; k < ops; k++) {
                final int t = rnd.nextInt(pes);
                final long[] mine = model[t][me];
                final int off = rnd.nextInt(REGION);
                final int len = 1 + rnd.nextInt(REGION - off);
                switch (rnd.nextInt(7)) {
                    case 0 -> {
                        final long[] src = new long[len];
                        for (int i = 0; i < len; i++) {
                            src[i] = rnd.nextLong();
                        }
                        a.put(t, me * REGION + off, src, 0, len);
                        System.arraycopy(src, 0, mine, off, len);
                    }
                    case 1 -> {
                        final long v = rnd.nextLong();
                        a.p(t, me * REGION + off, v);
                        mine[off] = v;
                    }
                    case 2 -> {
                        final int n = (REGION - off + 2) / 3;
                        final long[] src = new long[n];
                        for (int i = 0; i < n; i++) {
                            src[i] = rnd.nextLong();
                            mine[off + 3 * i] = src[i];
                        }
                        a.iput(t, me * REGION + off, 3, src, 0, 1, n);
                    }
                    case 3 -> {
                        final long[] src = new long[len];
                        for (int i = 0; i < len; i++) {
                            src[i] = rnd.nextInt(1000);
                            mine[off + i] += 2 * src[i];
                        }
                        a.acc(t, me * REGION + off, src, 0, len, 2L);
                    }
                    case 4 -> {
                        final long v = rnd.nextInt(100);
                        counter.atomicAdd(0, 0, v);
                        addsTo0[me] += v;
                    }
                    case 5 -> {
                        final long[] got = new long[len];
                        a.get(t, me * REGION + off, got, 0, len);
                        if (!Arrays.equals(got, Arrays.copyOfRange(mine, off, off + len))) {
                            failures.add("PE " + me + " op " + k + ": get from PE " + t + " disagrees with the model");
                        }
                    }
                    default -> sh.quiet();
                }
            }
            sh.barrierAll();
            for (int w = 0; w < pes; w++) {
                if (!Arrays.equals(Arrays.copyOfRange(a.local(), w * REGION, (w + 1) * REGION), model[me][w])) {
                    failures.add("PE " + me + ": region of writer " + w + " differs from the model after the barrier");
                }
            }
            sh.barrierAll();
            if (me == 0) {
                long want = 0;
                for (final long x : addsTo0) {
                    want += x;
                }
                if (counter.local()[0] != want) {
                    failures.add("counter " + counter.local()[0] + " != sum of adds " + want);
                }
            }
        });
        assertTrue(failures.isEmpty(), failures.toString());
    }

    /** Concurrent fetchAdd from every PE to one counter returns each value 0..N-1 exactly once. */
    @Property(tries = 15)
    void concurrentFetchAddReturnsAPermutation(@ForAll @IntRange(min = 2, max = 16) final int pes,
        @ForAll @IntRange(min = 1, max = 50) final int perPe, @ForAll @LongRange(min = 1, max = 1000) final long seed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final ConcurrentLinkedQueue<Long> got = new ConcurrentLinkedQueue<>();
        job(pes, seed, dropPermille).run(sh -> {
            final SymmetricLongs c = sh.mallocLongs(1);
            sh.barrierAll();
            for (int i = 0; i < perPe; i++) {
                got.add(c.atomicFetchAdd((int) (seed % pes), 0, 1));
            }
        });
        final long[] sorted = got.stream().mapToLong(Long::longValue).sorted().toArray();
        final long[] want = new long[pes * perPe];
        Arrays.setAll(want, i -> i);
        assertArrayEquals(want, sorted);
    }

    /** While a PE holds the lock nobody else does, and every increment made under it survives. */
    @Property(tries = 10)
    void locksGiveMutualExclusion(@ForAll @IntRange(min = 2, max = 12) final int pes,
        @ForAll @IntRange(min = 1, max = 8) final int rounds, @ForAll @LongRange(min = 1, max = 1000) final long seed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final long[] total = new long[1];
        job(pes, seed, dropPermille).run(sh -> {
            final SymmetricLongs lock = sh.mallocLongs(1);
            final SymmetricLongs data = sh.mallocLongs(2);
            final int home = (int) (seed % pes);
            sh.barrierAll();
            for (int r = 0; r < rounds; r++) {
                sh.setLock(lock, 0);
                if (data.atomicSwap(home, 1, 1) != 0) {
                    failures.add("PE " + sh.myPe() + " entered while another PE held the lock");
                }
                data.p(home, 0, data.g(home, 0) + 1);
                data.atomicSet(home, 1, 0);
                sh.clearLock(lock, 0);
            }
            sh.barrierAll();
            if (sh.myPe() == home) {
                total[0] = data.local()[0];
            }
        });
        assertTrue(failures.isEmpty(), failures.toString());
        assertEquals((long) pes * rounds, total[0]);
    }

    /** Reductions equal the sequential reduction, with the same bits on every PE. */
    @Property(tries = 15)
    void reductionsEqualASequentialReduction(@ForAll @IntRange(min = 1, max = 16) final int pes,
        @ForAll final long seed, @ForAll @IntRange(min = 1, max = 40) final int count) {
        final long[][] contrib = new long[pes][count];
        final double[][] dcontrib = new double[pes][count];
        final Random rnd = new Random(seed);
        for (int p = 0; p < pes; p++) {
            for (int i = 0; i < count; i++) {
                contrib[p][i] = rnd.nextLong() >> rnd.nextInt(64);
                dcontrib[p][i] = rnd.nextDouble() * 1000;
            }
        }
        final List<long[]> results = new ArrayList<>();
        final List<double[]> dresults = new ArrayList<>();
        job(pes, 1, 0).run(sh -> {
            final long[] out = new long[4 * count];
            final long[] r = new long[count];
            int at = 0;
            for (final ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.XOR}) {
                sh.reduce(sh.teamWorld(), op, r, contrib[sh.myPe()], count);
                System.arraycopy(r, 0, out, at, count);
                at += count;
            }
            final double[] d = new double[count];
            sh.reduce(sh.teamWorld(), ReduceOp.SUM, d, dcontrib[sh.myPe()], count);
            synchronized (results) {
                results.add(out);
                dresults.add(d);
            }
        });
        final long[] want = new long[4 * count];
        for (int i = 0; i < count; i++) {
            long sum = 0;
            long max = Long.MIN_VALUE;
            long min = Long.MAX_VALUE;
            long xor = 0;
            for (int p = 0; p < pes; p++) {
                sum += contrib[p][i];
                max = Math.max(max, contrib[p][i]);
                min = Math.min(min, contrib[p][i]);
                xor ^= contrib[p][i];
            }
            want[i] = sum;
            want[count + i] = max;
            want[2 * count + i] = min;
            want[3 * count + i] = xor;
        }
        for (final long[] r : results) {
            assertArrayEquals(want, r);
        }
        for (final double[] d : dresults) {
            assertArrayEquals(dresults.get(0), d, "the same double bits on every PE");
            for (int i = 0; i < count; i++) {
                double s = 0;
                for (int p = 0; p < pes; p++) {
                    s += dcontrib[p][i];
                }
                assertEquals(s, d[i], Math.abs(s) * 1e-12, "double sum " + i);
            }
        }
    }
}
