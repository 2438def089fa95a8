package mpi;

/**
 * A datatype's type signature: the basic elements of one item in order, by their sizes, kept as a tree of
 * repetitions (a contiguous type of a struct is the struct's signature repeated, never spelled out), for
 * {@code MPI_Get_elements}: how many whole basic elements a message's bytes hold, of a struct of doubles and ints
 * counting each double and each int, and {@code MPI_UNDEFINED} when the bytes end inside an element.
 */
final class Signature {
    /** A basic element's bytes, or 0 for a sequence. */
    private final int basic;
    private final Signature[] parts;
    private final long[] counts;
    /** Bytes and basic elements of one item. */
    final long bytes;
    final long elements;

    private Signature(final int basic, final Signature[] parts, final long[] counts) {
        this.basic = basic;
        this.parts = parts;
        this.counts = counts;
        long b = basic;
        long e = basic > 0 ? 1 : 0;
        if (parts != null) {
            for (int i = 0; i < parts.length; i++) {
                b += parts[i].bytes * counts[i];
                e += parts[i].elements * counts[i];
            }
        }
        this.bytes = b;
        this.elements = e;
    }

    static Signature basic(final int bytes) {
        return new Signature(bytes, null, null);
    }

    /** {@code parts[i]} repeated {@code counts[i]} times, in order. */
    static Signature sequence(final Signature[] parts, final long[] counts) {
        return new Signature(0, parts.clone(), counts.clone());
    }

    /** {@code part} repeated {@code count} times. */
    static Signature repeat(final Signature part, final long count) {
        return count == 1 ? part : sequence(new Signature[] {part}, new long[] {count});
    }

    /**
     * The whole basic elements in {@code n} bytes of items of this signature.
     *
     * @return the count, or -1 if the bytes end inside an element
     */
    long elementsIn(final long n) {
        if (basic > 0) {
            return n % basic == 0 ? n / basic : -1;
        }
        if (bytes == 0) {
            return n == 0 ? 0 : -1;
        }
        long whole = n / bytes * elements;
        long rest = n % bytes;
        for (int i = 0; i < parts.length && rest > 0; i++) {
            final long block = parts[i].bytes * counts[i];
            if (rest >= block) {
                whole += parts[i].elements * counts[i];
                rest -= block;
                continue;
            }
            final long k = parts[i].bytes == 0 ? 0 : rest / parts[i].bytes;
            whole += k * parts[i].elements;
            rest -= k * parts[i].bytes;
            if (rest > 0) {
                final long inner = parts[i].elementsIn(rest);
                if (inner < 0) {
                    return -1;
                }
                whole += inner;
                rest = 0;
            }
        }
        return rest == 0 ? whole : -1;
    }
}
