package mpi;

/**
 * A count that may exceed an {@code int} ({@code MPI_Count}), as Open MPI's bindings give it to
 * {@link Status#setElementsX} and {@link Status#getElementsX}.
 */
public final class Count implements Comparable<Count> {
    private long count;

    /**
     * A count.
     *
     * @param count its value
     */
    public Count(final long count) {
        this.count = count;
    }

    /**
     * The value.
     *
     * @return the count
     */
    public long getCount() {
        return count;
    }

    /**
     * Sets the value.
     *
     * @param count the new value
     */
    public void setCount(final long count) {
        this.count = count;
    }

    @Override
    public boolean equals(final Object obj) {
        return obj instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    @Override
    public int compareTo(final Count other) {
        return Long.compare(count, other.count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
