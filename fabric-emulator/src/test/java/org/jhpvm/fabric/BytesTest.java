package org.jhpvm.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Bytes#copy}: every length and offset, overlapping ranges, refused ranges, and a hot loop of short copies
 * each checked once C2 has compiled the copy. The JDK fault {@code Bytes} avoids needs more context than a loop
 * like this one to show (it did not, in 10 runs with {@code MemorySegment.copy}): {@code RdmaSoakTest} in the soak
 * profile is where it showed, in 4 of 16 runs of 200 000 operations before the data path moved to {@code Bytes}
 * and in none of 24 after. Prints its seed.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BytesTest {
    @Test
    void shouldCopyEveryLengthAtEveryOffset() {
        final byte[] src = new byte[400];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (i * 7 + 1);
        }
        final MemorySegment from = MemorySegment.ofArray(src);
        for (int length = 0; length <= 300; length++) {
            for (final int offset : new int[] {0, 1, 7, 8, 63, 99}) {
                final byte[] dst = new byte[400];
                final byte[] expected = new byte[400];
                System.arraycopy(src, offset, expected, 99 - offset % 5, length);
                Bytes.copy(from, offset, MemorySegment.ofArray(dst), 99 - offset % 5, length);
                assertArrayEquals(expected, dst, length + " bytes from " + offset);
            }
        }
    }

    @Test
    void overlappingRangesShouldCopyAsIfThroughATemporaryBuffer() {
        for (final int shift : new int[] {-9, -1, 1, 9}) {
            final byte[] b = new byte[100];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) i;
            }
            final byte[] expected = b.clone();
            System.arraycopy(b, 20, expected, 20 + shift, 50);
            final MemorySegment s = MemorySegment.ofArray(b);
            Bytes.copy(s, 20, s, 20 + shift, 50);
            assertArrayEquals(expected, b, "shift " + shift);
        }
    }

    @Test
    void aRangeOutsideASegmentShouldBeRefusedAndCopyNothing() {
        final MemorySegment from = MemorySegment.ofArray(new byte[] {1, 2, 3, 4});
        final byte[] dst = new byte[4];
        final MemorySegment to = MemorySegment.ofArray(dst);
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.copy(from, 2, to, 0, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.copy(from, 0, to, 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.copy(from, -1, to, 0, 1));
        assertArrayEquals(new byte[4], dst, "nothing copied");
    }

    @Test
    void aHotLoopOfShortCopiesShouldCopyEveryByte() {
        final long seed = Long.getLong("jhpvm.test.seed", System.nanoTime());
        System.out.println("BytesTest seed " + seed + " (replay: -Djhpvm.test.seed=" + seed + ")");
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] src = new byte[1 << 16];
        final byte[] dst = new byte[1 << 16];
        final MemorySegment from = MemorySegment.ofArray(src);
        final MemorySegment to = MemorySegment.ofArray(dst);
        for (int i = 0; i < 400_000; i++) {
            final int length = 1 + random.nextInt(i % 3 == 0 ? 2048 : 64);
            final int offset = random.nextInt(src.length - length + 1);
            for (int k = 0; k < length; k += 8) {
                src[offset + k] = (byte) (i + k);
            }
            src[offset + length - 1] = (byte) (i >>> 8);
            Bytes.copy(from, offset, to, offset, length);
            if (!Arrays.equals(src, offset, offset + length, dst, offset, offset + length)) {
                fail("copy " + i + " of " + length + " bytes at " + offset + ": byte "
                    + Arrays.mismatch(src, offset, offset + length, dst, offset, offset + length) + " differs");
            }
        }
    }
}
