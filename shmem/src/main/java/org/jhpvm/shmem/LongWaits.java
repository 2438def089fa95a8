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
     *     every element is excluded; repeated calls return each satisfying position in turn (as {@link #testAny})
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
     * several do, repeated calls return each of them in turn (the scan starts after the position the last
     * {@code testAny} or {@code waitUntilAny} on this object returned), as OpenSHMEM 1.5 requires; where C returns
     * {@code SIZE_MAX}, this returns -1.
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

    /**
     * {@code shmem_wait_until_all_vector}: waits until every element {@code index + k} that {@code status} does not
     * exclude compares true against its own value {@code values[k]}, driving progress meanwhile.
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or per element: non-zero excludes it
     * @param cmp    comparison
     * @param values one compare value per element (at least {@code count})
     * @throws IllegalArgumentException if {@code values} or {@code status} has fewer than {@code count} elements
     */
    public void waitUntilAllVector(final int index, final int count, final int[] status, final Cmp cmp,
        final long[] values) {
        waitMany(index, count, status, cmp, 0, java.util.Objects.requireNonNull(values, "values"), Shmem.WAIT_ALL,
            null);
    }

    /**
     * {@code shmem_wait_until_any_vector}: waits until some included element {@code index + k} compares true against
     * {@code values[k]} and returns {@code k}; fair as {@link #testAny}.
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or per element: non-zero excludes it
     * @param cmp    comparison
     * @param values one compare value per element (at least {@code count})
     * @return the position of an element that compares true, or -1 if every element is excluded
     * @throws IllegalArgumentException if {@code values} or {@code status} has fewer than {@code count} elements
     */
    public int waitUntilAnyVector(final int index, final int count, final int[] status, final Cmp cmp,
        final long[] values) {
        return waitMany(index, count, status, cmp, 0, java.util.Objects.requireNonNull(values, "values"),
            Shmem.WAIT_ANY, null);
    }

    /**
     * {@code shmem_wait_until_some_vector}: waits until at least one included element {@code index + k} compares
     * true against {@code values[k]}, and writes every such {@code k} to the front of {@code indices}, ascending.
     *
     * @param index   first element
     * @param count   elements
     * @param indices receives the positions (at least {@code count} elements)
     * @param status  null, or per element: non-zero excludes it
     * @param cmp     comparison
     * @param values  one compare value per element (at least {@code count})
     * @return how many positions were written (0 if every element is excluded)
     * @throws IllegalArgumentException if {@code values}, {@code indices} or {@code status} has fewer than
     *                                  {@code count} elements
     */
    public int waitUntilSomeVector(final int index, final int count, final int[] indices, final int[] status,
        final Cmp cmp, final long[] values) {
        return waitMany(index, count, status, cmp, 0, java.util.Objects.requireNonNull(values, "values"),
            Shmem.WAIT_SOME, java.util.Objects.requireNonNull(indices, "indices"));
    }

    /**
     * {@code shmem_test_all_vector}: whether every included element {@code index + k} compares true against
     * {@code values[k]}, checked once after one progress pass (true when every element is excluded).
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or per element: non-zero excludes it
     * @param cmp    comparison
     * @param values one compare value per element (at least {@code count})
     * @return whether all included elements compare true
     * @throws IllegalArgumentException if {@code values} or {@code status} has fewer than {@code count} elements
     */
    public boolean testAllVector(final int index, final int count, final int[] status, final Cmp cmp,
        final long[] values) {
        return testMany(index, count, status, null, cmp, 0, java.util.Objects.requireNonNull(values, "values"),
            Shmem.WAIT_ALL) == 1;
    }

    /**
     * {@code shmem_test_any_vector}: the position {@code k} of an included element that compares true against
     * {@code values[k]}, checked once after one progress pass; fair as {@link #testAny}.
     *
     * @param index  first element
     * @param count  elements
     * @param status null, or per element: non-zero excludes it
     * @param cmp    comparison
     * @param values one compare value per element (at least {@code count})
     * @return the position, or -1 if none compares true yet or every element is excluded
     * @throws IllegalArgumentException if {@code values} or {@code status} has fewer than {@code count} elements
     */
    public int testAnyVector(final int index, final int count, final int[] status, final Cmp cmp,
        final long[] values) {
        return testMany(index, count, status, null, cmp, 0, java.util.Objects.requireNonNull(values, "values"),
            Shmem.WAIT_ANY);
    }

    /**
     * {@code shmem_test_some_vector}: writes to the front of {@code indices}, ascending, every included position
     * {@code k} whose element compares true against {@code values[k]}, checked once after one progress pass.
     *
     * @param index   first element
     * @param count   elements
     * @param indices receives the positions (at least {@code count} elements)
     * @param status  null, or per element: non-zero excludes it
     * @param cmp     comparison
     * @param values  one compare value per element (at least {@code count})
     * @return how many positions were written (0 if none compares true yet, or every element is excluded)
     * @throws IllegalArgumentException if {@code values}, {@code indices} or {@code status} has fewer than
     *                                  {@code count} elements
     */
    public int testSomeVector(final int index, final int count, final int[] indices, final int[] status,
        final Cmp cmp, final long[] values) {
        return testMany(index, count, status, java.util.Objects.requireNonNull(indices, "indices"), cmp, 0,
            java.util.Objects.requireNonNull(values, "values"), Shmem.WAIT_SOME);
    }
}
