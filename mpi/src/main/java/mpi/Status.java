package mpi;

import org.jhpvm.mpi.internal.Kind;
import org.jhpvm.mpi.internal.Pending;

/**
 * What a completed receive (or probe) found: its source, tag, error and how much arrived. A completed send's status
 * has the destination as its source and {@code MPI.ANY_TAG}-free values as MPI leaves them.
 */
public final class Status {
    private final int source;
    private final int tag;
    private final int error;
    private long elements;
    private Kind kind;
    private boolean cancelled;
    private final int index;

    Status(final int source, final int tag, final int error, final long elements, final Kind kind,
           final boolean cancelled, final int index) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.elements = elements;
        this.kind = kind;
        this.cancelled = cancelled;
        this.index = index;
    }

    static Status of(final Pending p, final int index) {
        return new Status(p.source, p.tag, p.error, p.elements, p.kind, p.cancelled, index);
    }

    /** MPI's empty status: what a test or wait over no active request gives ({@code MPI_ANY_SOURCE}, no data). */
    static Status empty(final int index) {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, null, false, index);
    }

    /** The status of an operation with {@code MPI.PROC_NULL}: source PROC_NULL, tag ANY_TAG, nothing received. */
    static Status procNull(final int index) {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0, null, false, index);
    }

    /**
     * {@code MPI_Get_count}: how many items of {@code datatype} arrived.
     *
     * @param datatype the receive's type
     * @return the count, or {@code MPI.UNDEFINED} if what arrived is not a whole number of items
     * @throws MPIException {@code ERR_TYPE} for a freed type
     */
    public int getCount(final Datatype datatype) throws MPIException {
        final long bytes = bytes();
        final long itemBytes = (long) datatype.forUse().size() * datatype.kind().bytes;
        if (itemBytes == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % itemBytes == 0 ? (int) (bytes / itemBytes) : MPI.UNDEFINED;
    }

    /**
     * {@code MPI_Get_elements}: how many basic elements arrived, counted along the type's signature (a struct of a
     * double and an int counts 2 per item, and the elements of a partial item that arrived whole).
     *
     * @param datatype the receive's type
     * @return the number of basic elements, or {@code MPI.UNDEFINED} if the data ends inside an element
     * @throws MPIException {@code ERR_TYPE} for a freed type
     */
    public int getElements(final Datatype datatype) throws MPIException {
        final long n = elementsOf(datatype);
        return n < 0 ? MPI.UNDEFINED : (int) n;
    }

    /** The basic elements of {@code datatype}'s signature in what arrived (a struct's doubles and ints each), or -1. */
    private long elementsOf(final Datatype datatype) throws MPIException {
        datatype.forUse();
        return datatype.sig.elementsIn(bytes());
    }

    /**
     * {@code MPI_Get_elements_x}: {@link #getElements} as a {@link Count}.
     *
     * @param datatype the receive's type
     * @return the number of base elements, or {@code MPI.UNDEFINED} if not a whole number
     * @throws MPIException {@code ERR_TYPE} for a freed type
     */
    public Count getElementsX(final Datatype datatype) throws MPIException {
        final long n = elementsOf(datatype);
        return new Count(n < 0 ? MPI.UNDEFINED : n);
    }

    /**
     * {@code MPI_Status_set_elements}: sets what arrived to {@code count} base elements of {@code datatype} (for a
     * generalized request's status): {@link #getElements} of {@code datatype} then gives {@code count}.
     *
     * @param datatype the type
     * @param count    base elements, at least 0
     * @throws MPIException {@code ERR_COUNT} for a negative count, {@code ERR_TYPE} for a freed type
     */
    public void setElements(final Datatype datatype, final int count) throws MPIException {
        setElementsX(datatype, new Count(count));
    }

    /**
     * {@code MPI_Status_set_elements_x}.
     *
     * @param datatype the type
     * @param count    base elements, at least 0
     * @throws MPIException {@code ERR_COUNT} for a negative count, {@code ERR_TYPE} for a freed type
     */
    public void setElementsX(final Datatype datatype, final Count count) throws MPIException {
        if (count.getCount() < 0) {
            throw new MPIException(MPI.ERR_COUNT, "setElements: negative count " + count);
        }
        this.kind = datatype.forUse().kind();
        this.elements = count.getCount();
    }

    /**
     * {@code MPI_Status_set_cancelled}.
     *
     * @param flag whether {@link #isCancelled()} is to say the operation was cancelled
     */
    public void setCancelled(final boolean flag) {
        this.cancelled = flag;
    }

    private long bytes() {
        return kind == null ? 0 : elements * kind.bytes;
    }

    /**
     * Whether the operation was cancelled.
     *
     * @return true if a cancel took effect
     */
    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * The source's rank in the communicator.
     *
     * @return the rank ({@code MPI.PROC_NULL} for a receive from PROC_NULL)
     */
    public int getSource() {
        return source;
    }

    /**
     * The message's tag.
     *
     * @return the tag
     */
    public int getTag() {
        return tag;
    }

    /**
     * The error class of the operation ({@code MPI.SUCCESS}, or for example {@code MPI.ERR_TRUNCATE}).
     *
     * @return the error class
     */
    public int getError() {
        return error;
    }

    /**
     * Which request of an array completed ({@link Request#waitAnyStatus} and its relatives), else
     * {@code MPI.UNDEFINED}.
     *
     * @return the index
     */
    public int getIndex() {
        return index;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", elements=" + elements
            + (kind == null ? "" : " of " + kind) + (cancelled ? ", cancelled" : "") + "]";
    }
}
