package org.jhpvm.fm;

/**
 * The outcome of a NIC message or an RDMA transfer started on this endpoint
 * ({@link FastMessages#beginNicMessage}, {@link FastMessages#rdmaWrite}, {@link FastMessages#rdmaRead}), taken with
 * {@link FastMessages#pollCompletion} or {@link FastMessages#awaitCompletion}. A reusable holder: filling it
 * allocates nothing.
 * <p>
 * A failed request ({@link #status()} not {@link #OK}) touched no memory at either end: a handle not registered at
 * its PE, a key that does not match, bytes outside a region, a NIC message for a handler its target has not
 * registered or that the handler refused, a reply longer than the room given. Not thread-safe.
 */
public final class FmCompletion {
    /** The request was carried out. */
    public static final int OK = 0;
    /** A region handle is not registered at its PE. */
    public static final int ERR_NOT_REGISTERED = 1;
    /** A region's key does not match. */
    public static final int ERR_BAD_KEY = 2;
    /** Bytes outside a region, or a reply longer than its room. */
    public static final int ERR_OUT_OF_BOUNDS = 3;
    /** The target has no NIC handler with the message's id. */
    public static final int ERR_NO_HANDLER = 4;
    /** The target's NIC handler refused the message. */
    public static final int ERR_REJECTED = 5;
    /** The NIC's connection lost every try (only a fabric that really loses everything gets here). */
    public static final int ERR_RETRY_EXCEEDED = 6;

    /** An RDMA write. */
    public static final int RDMA_WRITE = 1;
    /** An RDMA read. */
    public static final int RDMA_READ = 2;
    /** A NIC message. */
    public static final int NIC_MESSAGE = 3;

    private int op;
    private int status;
    private long lengthBytes;
    private long context;

    /** An empty holder. */
    public FmCompletion() {
    }

    /**
     * Fills the holder; used by the endpoint.
     *
     * @param op          {@link #RDMA_WRITE}, {@link #RDMA_READ} or {@link #NIC_MESSAGE}
     * @param status      {@link #OK} or an {@code ERR_*} code
     * @param lengthBytes bytes moved or replied
     * @param context     the request's context
     * @return this
     */
    public FmCompletion set(final int op, final int status, final long lengthBytes, final long context) {
        this.op = op;
        this.status = status;
        this.lengthBytes = lengthBytes;
        this.context = context;
        return this;
    }

    /**
     * What the request was.
     *
     * @return {@link #RDMA_WRITE}, {@link #RDMA_READ} or {@link #NIC_MESSAGE}
     */
    public int op() {
        return op;
    }

    /**
     * How it ended.
     *
     * @return {@link #OK} or an {@code ERR_*} code
     */
    public int status() {
        return status;
    }

    /**
     * Whether it was carried out.
     *
     * @return true if the status is {@link #OK}
     */
    public boolean ok() {
        return status == OK;
    }

    /**
     * How much moved: an RDMA transfer's bytes, or the bytes of a NIC message's reply.
     *
     * @return bytes, 0 when the request failed
     */
    public long lengthBytes() {
        return lengthBytes;
    }

    /**
     * The request's tag.
     *
     * @return the context given when it was started
     */
    public long context() {
        return context;
    }

    /**
     * Names a status for messages.
     *
     * @param status a status
     * @return its name
     */
    public static String statusName(final int status) {
        return switch (status) {
            case OK -> "OK";
            case ERR_NOT_REGISTERED -> "NOT_REGISTERED";
            case ERR_BAD_KEY -> "BAD_KEY";
            case ERR_OUT_OF_BOUNDS -> "OUT_OF_BOUNDS";
            case ERR_NO_HANDLER -> "NO_HANDLER";
            case ERR_REJECTED -> "REJECTED";
            case ERR_RETRY_EXCEEDED -> "RETRY_EXCEEDED";
            default -> "UNKNOWN(" + status + ")";
        };
    }

    @Override
    public String toString() {
        return "FmCompletion[op=" + op + ", " + statusName(status) + ", " + lengthBytes + " bytes, context=" + context
            + "]";
    }
}
