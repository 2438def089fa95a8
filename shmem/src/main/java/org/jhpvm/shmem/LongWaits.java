package org.jhpvm.shmem;

/**
 * The point-to-point synchronisation of {@link SymmetricLongs}: OpenSHMEM's {@code wait_until} and {@code test}
 * families (one element, or all, any or some of a range), by which this PE waits for, or checks without waiting,
 * its own elements as other PEs update them by atomics or put with signal. Package-private: its public methods are
 * {@code SymmetricLongs}'s API. javac gives the public subclass a public bridge for each of them, so callers and
 * reflection see them on {@code SymmetricLongs}, and javadoc documents them there.
 * <p>
 * They share SymmetricArray's checks and wait helpers with the other type. The bridge is one call level above
 * them; a wait spins inside {@code Shmem.waitFor}, below it, so it costs once per call, not per pass.
 * <p>
 * Thread-safety: use from the owning PE's thread.
 */
abstract sealed class LongWaits extends LongAtomics permits SymmetricLongs {
    LongWaits(final Shmem shmem, final int id, final int length) {
        super(shmem, id, length);
    }

    /**
     * Waits until this PE's element {@code index} compares true against {@code value}, driving progress meanwhile.
     * The element should be updated by atomics or put-with-signal (OpenSHMEM 1.5).
     *
     * @param index element of this PE's part
     * @param cmp   comparison
     * @param value value compared against
     */
    public void waitUntil(final int index, final Cmp cmp, final long value) {
        doWaitUntil(index, cmp, (long) value);
    }

    /**
     * Waits until every element {@code index .. index+count-1} (except those whose {@code status[k]} is not 0)
     * compares true.
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or per element: non-zero excludes it
     * @param cmp    comparison
     * @param value  value compared against
     */
    public void waitUntilAll(final int index, final int count, final int[] status, final Cmp cmp, final long value) {
        waitMany(index, count, status, cmp, value, Shmem.WAIT_ALL, null);
    }

    /**
     * Waits until some element compares true and returns its position.
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or per element: non-zero excludes it
     * @param cmp    comparison
     * @param value  value compared against
     * @return the position {@code k} (relative to {@code index}) of an element that compares true, or -1 if
     *     every element is excluded
     */
    public int waitUntilAny(final int index, final int count, final int[] status, final Cmp cmp, final long value) {
        return waitMany(index, count, status, cmp, value, Shmem.WAIT_ANY, null);
    }

    /**
     * Waits until at least one element compares true, and reports all that do.
     *
     * @param index   first element
     * @param count   elements
     * @param indices receives the positions (relative to {@code index}) that compare true
     * @param status  null, or per element: non-zero excludes it
     * @param cmp     comparison
     * @param value   value compared against
     * @return how many positions were written to {@code indices} (0 if every element is excluded)
     */
    public int waitUntilSome(final int index, final int count, final int[] indices, final int[] status,
        final Cmp cmp, final long value) {
        return waitMany(index, count, status, cmp, value, Shmem.WAIT_SOME, java.util.Objects.requireNonNull(indices));
    }

    /**
     * Tests without waiting (after one progress pass).
     *
     * @param index element
     * @param cmp   comparison
     * @param value value compared against
     * @return whether it compares true
     */
    public boolean test(final int index, final Cmp cmp, final long value) {
        return testMany(index, 1, null, null, cmp, value, Shmem.WAIT_ALL) == 1;
    }

    /**
     * {@code shmem_test_all}: whether every element {@code index .. index+count-1} that {@code status} does not
     * exclude compares true against {@code value}, checked once after one progress pass, without waiting.
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or non-zero excludes (per element: at least {@code count} of them)
     * @param cmp    comparison
     * @param value  value
     * @return whether all included elements compare true (true for none)
     * @throws IllegalArgumentException if {@code status} has fewer than {@code count} elements
     */
    public boolean testAll(final int index, final int count, final int[] status, final Cmp cmp, final long value) {
        return testMany(index, count, status, null, cmp, value, Shmem.WAIT_ALL) == 1;
    }

    /**
     * {@code shmem_test_any}: finds an element of {@code index .. index+count-1} that {@code status} does not exclude
     * and that compares true against {@code value}, checked once after one progress pass, without waiting. When
     * several do, this implementation returns the lowest position; where C returns {@code SIZE_MAX}, this returns -1.
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or non-zero excludes (per element: at least {@code count} of them)
     * @param cmp    comparison
     * @param value  value
     * @return the position of one element that compares true, or -1 (relative to {@code index}; -1 also when every
     *         element is excluded)
     * @throws IllegalArgumentException if {@code status} has fewer than {@code count} elements
     */
    public int testAny(final int index, final int count, final int[] status, final Cmp cmp, final long value) {
        return testMany(index, count, status, null, cmp, value, Shmem.WAIT_ANY);
    }

    /**
     * {@code shmem_test_some}: writes to the front of {@code indices}, in ascending order, the positions of every
     * element of {@code index .. index+count-1} that {@code status} does not exclude and that compares true against
     * {@code value}, checked once after one progress pass, without waiting.
     *
     * @param index   first element
     * @param count   elements
     * @param indices receives the positions that compare true (relative to {@code index}; not null, at least
     *                {@code count} elements)
     * @param status  null, or non-zero excludes (per element: at least {@code count} of them)
     * @param cmp     comparison
     * @param value   value
     * @return how many positions were written (0 if none compares true yet, or every element is excluded)
     * @throws IllegalArgumentException if {@code indices} or {@code status} has fewer than {@code count} elements
     */
    public int testSome(final int index, final int count, final int[] indices, final int[] status, final Cmp cmp,
        final long value) {
        return testMany(index, count, status, java.util.Objects.requireNonNull(indices), cmp, value, Shmem.WAIT_SOME);
    }
}
