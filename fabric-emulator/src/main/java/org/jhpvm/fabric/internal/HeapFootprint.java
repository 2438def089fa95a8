package org.jhpvm.fabric.internal;

/**
 * Heap sizes of the fabric's objects on a 64-bit JVM with compressed references, for the bytes-per-NIC statement
 * ({@code EmulatedMyrinet.bytesPerNic}). {@code MemoryPerNicTest} checks the sum against the measured heap.
 */
final class HeapFootprint {
    /** A Frame object: header and its seven fields. */
    static final long FRAME_OBJECT = 40;
    /** A JCTools array queue beside its slot array: the padded object and the buffer's padding. */
    static final long JCTOOLS_QUEUE = 556;
    /** A padded object of this package (128 bytes of padding on each side of its fields). */
    static final long PADDED_OBJECT = 300;

    private HeapFootprint() {
    }

    static long align(final long bytes) {
        return (bytes + 7) & ~7L;
    }

    /** @return bytes of a {@code byte[]} of that length */
    static long byteArray(final long length) {
        return align(16 + length);
    }

    /** @return bytes of a reference array of that length */
    static long refArray(final long length) {
        return align(16 + 4 * length);
    }

    /** @return bytes of a {@code long[]} of that length */
    static long longArray(final long length) {
        return align(16 + 8 * length);
    }

    /** @return bytes of frames whose arrays have that many bytes */
    static long frames(final long count, final int arrayBytes) {
        return count * (byteArray(arrayBytes) + FRAME_OBJECT);
    }

    /** @return bytes of a JCTools queue with that many slots */
    static long queue(final int slots) {
        return refArray(slots) + JCTOOLS_QUEUE;
    }
}
