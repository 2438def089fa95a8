package org.jhpvm.shmem;

/** The bounds test every target runs on a request before it touches memory. */
final class Bounds {
    private Bounds() {
    }

    /** Whether a request's elements lie inside live object {@code s}: the target's check before it touches memory. */
    static boolean valid(final SymmetricArray s, final int index, final int stride, final int count) {
        return valid(s, index, stride, count, 1);
    }

    static boolean valid(final SymmetricArray s, final int index, final int stride, final int count,
        final int block) {
        return s != null && valid(s.length, index, stride, count, block);
    }

    /** Whether {@code count} blocks of {@code block} elements, {@code stride} apart from {@code index}, fit. */
    static boolean valid(final int length, final int index, final int stride, final int count, final int block) {
        if (count < 0 || stride < 1 || index < 0 || block < 1) {
            return false;
        }
        return count == 0 ? index <= length : index + (long) (count - 1) * stride + block - 1 < length;
    }
}
