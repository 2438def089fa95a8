package mpi;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a direct buffer made by {@code MPI.slice} lies in the buffer it was cut from, so that a datatype with a
 * negative lower bound may reach before the slice's start, as it reaches before a C pointer ({@code &buf[k]}) into
 * the memory of the same allocation (Open MPI's suite's {@code datatype/Bakstr} packs a vector of negative stride
 * from the middle of a buffer). Java slices do not know their parent; this table does, for the slices
 * {@code MPI.slice} makes, and forgets a slice when it is collected. Empty, it costs a send nothing.
 */
final class Slices {
    /** The buffer a slice was cut from, and the slice's first byte in it. */
    record Origin(Buffer parent, long byteOffset) {
    }

    private static final ReferenceQueue<Buffer> QUEUE = new ReferenceQueue<>();
    private static final Map<Key, Origin> ORIGINS = new ConcurrentHashMap<>();

    private Slices() {
    }

    /** A buffer compared by identity (a {@code ByteBuffer}'s equals compares contents), weakly held. */
    private static final class Key extends WeakReference<Buffer> {
        private final int hash;

        Key(final Buffer b, final ReferenceQueue<Buffer> queue) {
            super(b, queue);
            this.hash = System.identityHashCode(b);
        }

        @Override
        public boolean equals(final Object o) {
            return o == this || o instanceof Key k && k.hash == hash && k.get() != null && k.get() == get();
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** Records that direct buffer {@code slice} starts at byte {@code byteOffset} of {@code parent}. */
    static void record(final Buffer slice, final Buffer parent, final long byteOffset) {
        if (!slice.isDirect()) {
            return; // a heap buffer knows its array offset already
        }
        for (Object k; (k = QUEUE.poll()) != null; ) {
            ORIGINS.remove(k);
        }
        final Origin up = of(parent);
        ORIGINS.put(new Key(slice, QUEUE), up == null ? new Origin(parent, byteOffset)
            : new Origin(up.parent(), up.byteOffset() + byteOffset));
    }

    /** Where {@code b} was cut from, or null (not a slice of {@code MPI.slice}, or the table is empty). */
    static Origin of(final Buffer b) {
        if (ORIGINS.isEmpty() || !b.isDirect()) {
            return null;
        }
        return ORIGINS.get(new Key(b, null));
    }
}
