package org.jhpvm.ga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Storage#copyBlocks}: every block width (its short-block loops and the general one), every type, strided. */
@Timeout(30)
class StorageCopyTest {
    @Test
    void shouldCopyExactlyTheBlocksAndNothingElse() {
        final Random random = new Random(42);
        for (int block = 1; block <= 10; block++) {
            for (final int nblocks : new int[] {1, 2, 7}) {
                for (final int gap : new int[] {0, 1, 5}) {
                    final int ss = block + gap;
                    final int ds = block + (gap + 2) % 6;
                    final int length = 3 + Math.max(ss, ds) * nblocks + block;
                    final double[] src = random.doubles(length).toArray();
                    final double[] dst = random.doubles(length).toArray();
                    final double[] want = dst.clone();
                    for (int b = 0; b < nblocks; b++) {
                        for (int e = 0; e < block; e++) {
                            want[2 + b * ds + e] = src[1 + b * ss + e];
                        }
                    }
                    Storage.copyBlocks(src, 1, ss, dst, 2, ds, block, nblocks);
                    assertArrayEquals(want, dst, 0.0, "block " + block + " x " + nblocks + ", strides " + ss + "/"
                        + ds);
                    final long[] lsrc = random.longs(length).toArray();
                    final long[] ldst = new long[length];
                    final long[] lwant = new long[length];
                    for (int b = 0; b < nblocks; b++) {
                        System.arraycopy(lsrc, 1 + b * ss, lwant, 2 + b * ds, block);
                    }
                    Storage.copyBlocks(lsrc, 1, ss, ldst, 2, ds, block, nblocks);
                    assertArrayEquals(lwant, ldst, "long block " + block + " x " + nblocks);
                }
            }
        }
    }
}
