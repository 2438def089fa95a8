package org.jhpvm.fabric;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A region of host memory registered with a NIC (the VIA paper's registered memory): a heap array or a
 * {@link MemorySegment} the NIC may read and write directly, named by a handle and protected by a key. A work
 * descriptor or a NIC message names a remote region by (NIC, handle, key); the NIC refuses a handle it does not know, a
 * key that does not match and bytes outside the region, without touching memory. A region stays usable until it is
 * deregistered; a stale (handle, key) pair is refused after that, even if the handle is reused.
 * <p>
 * Made by {@link Nic#register}; immutable and safe to share between threads.
 *
 * @param nic     the NIC it is registered with
 * @param handle  its name at that NIC
 * @param key     the protection key a remote descriptor must present
 * @param memory  the registered object: a primitive array ({@code byte[]}, {@code short[]}, {@code char[]},
 *                {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}) or a {@link MemorySegment}
 * @param segment the same memory as a segment, through which the NIC moves bytes
 */
public record MemoryRegion(int nic, int handle, int key, Object memory, MemorySegment segment) {
    /**
     * Checks the parts.
     *
     * @throws NullPointerException if the memory or segment is null
     */
    public MemoryRegion {
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(segment, "segment");
    }

    /**
     * The region's length.
     *
     * @return bytes the region spans
     */
    public long lengthBytes() {
        return segment.byteSize();
    }

    /**
     * Whether {@code [offsetBytes, offsetBytes + lengthBytes)} lies inside the region.
     *
     * @param offsetBytes first byte, from the region's start
     * @param lengthBytes bytes
     * @return true if the range is inside (an empty range at the end counts as inside)
     */
    public boolean contains(final long offsetBytes, final long lengthBytes) {
        return offsetBytes >= 0 && lengthBytes >= 0 && offsetBytes <= segment.byteSize() - lengthBytes;
    }

    /**
     * The memory a NIC can register: a primitive array's heap segment, or the segment itself.
     *
     * @param memory a primitive array or a {@link MemorySegment}
     * @return its segment
     * @throws IllegalArgumentException if it is neither (naming its class)
     */
    public static MemorySegment segmentOf(final Object memory) {
        return switch (memory) {
            case byte[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            case MemorySegment s -> s;
            case null -> throw new NullPointerException("memory");
            default -> throw new IllegalArgumentException("cannot register a " + memory.getClass().getName()
                + ": a NIC registers primitive arrays and memory segments");
        };
    }

    @Override
    public String toString() {
        return "MemoryRegion[nic=" + nic + ", handle=" + handle + ", " + segment.byteSize() + " bytes]";
    }
}
