package org.jhpvm.properties;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricSegment;

/**
 * SHMEM segments in host memory against a plain model (the bytes of every PE's part), on both paths: loads and stores
 * straight into the other PEs' memory, and messages ({@code shmem.hostMemory=messages}) over a faulty fabric. Each case
 * is a PE count, a program seed, the path and a fault plan; jqwik prints the seed of a failing case and
 * {@code @Property(seed = ...)} replays it.
 */
class ShmemSegmentProperties {
    private static final int REGION = 96;

    /**
     * Random programs of byte and long puts at any offset, aligned word stores, gets and word loads checked against the
     * model as they go, atomic adds to one shared word and quiets. Each PE writes only its own region of every PE's
     * part, so the final state has one sequential answer; after the closing barrier every part equals the model and
     * the shared word equals the sum of all adds.
     */
    @Property(tries = 30)
    void randomProgramsAgreeWithASequentialModel(@ForAll @IntRange(min = 2, max = 6) final int pes,
        @ForAll final long programSeed, @ForAll final boolean messages,
        @ForAll @LongRange(min = 1, max = 1000) final long faultSeed,
        @ForAll @IntRange(min = 0, max = 30) final int dropPermille) {
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final byte[][][] model = new byte[pes][pes][REGION]; // [target][writer][byte]
        final long[] adds = new long[pes];
        ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90))
            .option("shmem.hostMemory", messages ? "messages" : "direct")
            .option("fabric.faults.seed", Long.toString(faultSeed))
            .option("fabric.faults.drop", Double.toString(dropPermille / 1000.0)).build().run(sh -> {
                final int me = sh.myPe();
                final SymmetricSegment s = sh.mallocSegment((long) pes * REGION);
                final SymmetricSegment counter = sh.mallocSegment(8);
                final Random rnd = new Random(programSeed * 31 + me);
                final int ops = 20 + rnd.nextInt(60);
                for (int k = 0; k < ops; k++) {
                    final int t = rnd.nextInt(pes);
                    final byte[] mine = model[t][me];
                    final long base = (long) me * REGION;
                    switch (rnd.nextInt(7)) {
                        case 0 -> {
                            final int off = rnd.nextInt(REGION);
                            final byte[] src = new byte[1 + rnd.nextInt(REGION - off)];
                            rnd.nextBytes(src);
                            final int from = rnd.nextInt(src.length);
                            s.put(t, base + off, src, from, src.length - from);
                            System.arraycopy(src, from, mine, off, src.length - from);
                        }
                        case 1 -> {
                            final int off = rnd.nextInt(REGION - 7);
                            final long[] src = new long[1 + rnd.nextInt((REGION - off) / 8)];
                            for (int i = 0; i < src.length; i++) {
                                src[i] = rnd.nextLong();
                            }
                            s.put(t, base + off, src, 0, src.length);
                            MemorySegment.copy(MemorySegment.ofArray(src), 0, MemorySegment.ofArray(mine), off,
                                src.length * 8L);
                        }
                        case 2 -> {
                            final int word = rnd.nextInt(REGION / 8) * 8;
                            final long v = rnd.nextLong();
                            s.putLong(t, base + word, v);
                            MemorySegment.ofArray(mine).set(ValueLayout.JAVA_LONG_UNALIGNED, word, v);
                        }
                        case 3 -> {
                            final int off = rnd.nextInt(REGION);
                            final byte[] got = new byte[1 + rnd.nextInt(REGION - off)];
                            s.get(t, base + off, got, 0, got.length);
                            if (!Arrays.equals(got, Arrays.copyOfRange(mine, off, off + got.length))) {
                                failures.add("PE " + me + " op " + k + ": get from PE " + t + " disagrees");
                            }
                        }
                        case 4 -> {
                            final int word = rnd.nextInt(REGION / 8) * 8;
                            final long want = MemorySegment.ofArray(mine).get(ValueLayout.JAVA_LONG_UNALIGNED, word);
                            if (s.getLong(t, base + word) != want) {
                                failures.add("PE " + me + " op " + k + ": getLong from PE " + t + " disagrees");
                            }
                        }
                        case 5 -> {
                            final long v = rnd.nextInt(100);
                            if (rnd.nextBoolean()) {
                                counter.atomicAdd(0, 0, v);
                            } else {
                                counter.atomicFetchAdd(0, 0, v);
                            }
                            adds[me] += v;
                        }
                        default -> sh.quiet();
                    }
                }
                sh.barrierAll();
                final MemorySegment local = s.local();
                for (int w = 0; w < pes; w++) {
                    final byte[] got = local.asSlice((long) w * REGION, REGION).toArray(ValueLayout.JAVA_BYTE);
                    if (!Arrays.equals(got, model[me][w])) {
                        failures.add("PE " + me + ": region of writer " + w + " differs from the model");
                    }
                }
                sh.barrierAll();
                if (me == 0) {
                    final long want = Arrays.stream(adds).sum();
                    if (counter.getLong(0, 0) != want) {
                        failures.add("shared word " + counter.getLong(0, 0) + " != sum of adds " + want);
                    }
                }
                sh.barrierAll();
                sh.free(counter);
                sh.free(s);
            });
        assertTrue(failures.isEmpty(), failures.toString());
    }
}
