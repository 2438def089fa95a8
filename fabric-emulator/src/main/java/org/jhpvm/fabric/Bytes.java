package org.jhpvm.fabric;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The byte copy every layer's data path uses between memory segments (frames, registered regions, staging
 * buffers, users' arrays).
 * <p>
 * Why not {@code MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes)}: on JDK 25 (seen on 25.0.3, with the
 * default tiered compilation only) that overload copies fewer than 64 bytes in a Java loop of 8-byte moves
 * ({@code jdk.internal.foreign.SegmentBulkOperations.copy}), which C2 can compile wrongly once it unrolls it: the
 * copy returns with bytes after the first 8 not copied. A program of the JDK alone shows it (a loop of short
 * copies, checked after each); here it made an RDMA read under the soak test's faults return stale bytes now and
 * then. It goes away with {@code -XX:LoopUnrollLimit=0}, with {@code -Xint}, and through the element-wise overload
 * used here, which always copies with the JVM's intrinsic.
 * <p>
 * Thread-safety: stateless.
 */
public final class Bytes {
    private Bytes() {
    }

    /**
     * Copies {@code bytes} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}, as
     * {@code MemorySegment.copy} does (overlapping ranges included), with its checks and exceptions.
     *
     * @param src       the segment to copy from
     * @param srcOffset the first byte to copy
     * @param dst       the segment to copy to
     * @param dstOffset where the first byte goes
     * @param bytes     how many bytes, 0 or more
     * @throws IndexOutOfBoundsException if a range is outside its segment
     */
    public static void copy(final MemorySegment src, final long srcOffset, final MemorySegment dst,
        final long dstOffset, final long bytes) {
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, bytes);
    }
}
