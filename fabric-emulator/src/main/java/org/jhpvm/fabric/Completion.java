package org.jhpvm.fabric;

/**
 * One entry of a {@link CompletionQueue}: the outcome of a posted {@link WorkDescriptor}. A reusable holder that
 * {@link CompletionQueue#poll} fills, so that taking a completion allocates nothing.
 * <p>
 * A request that fails ends with a status other than {@link #OK}, and the NIC has touched no memory for it: a
 * descriptor naming a region the NIC does not know ({@link #ERR_NOT_REGISTERED}), with the wrong key
 * ({@link #ERR_BAD_KEY}), or bytes outside a region ({@link #ERR_OUT_OF_BOUNDS}); a NIC message for a handler the
 * target has not registered ({@link #ERR_NO_HANDLER}) or that its handler refused ({@link #ERR_REJECTED}); a
 * transfer the reliable-connection protocol gave up on after {@link #MAX_ATTEMPTS} tries
 * ({@link #ERR_RETRY_EXCEEDED}).
 * <p>
 * Not thread-safe: one host thread uses it.
 */
public final class Completion {
    /** The request was carried out. */
    public static final int OK = 0;
    /** A region handle is not registered with its NIC (or was deregistered). */
    public static final int ERR_NOT_REGISTERED = 1;
    /** A region's key does not match. */
    public static final int ERR_BAD_KEY = 2;
    /** The bytes are not all inside a region, or a reply is longer than its room. */
    public static final int ERR_OUT_OF_BOUNDS = 3;
    /** The target NIC has no handler with the message's id. */
    public static final int ERR_NO_HANDLER = 4;
    /** The target NIC's handler refused the message. */
    public static final int ERR_REJECTED = 5;
    /** The NIC's reliable-connection protocol gave up: every one of {@link #MAX_ATTEMPTS} tries was lost. */
    public static final int ERR_RETRY_EXCEEDED = 6;
    /** Tries of one segment before the NIC reports {@link #ERR_RETRY_EXCEEDED}. */
    public static final int MAX_ATTEMPTS = 64;

    private int op;
    private int status;
    private long lengthBytes;
    private long context;

    /** An empty holder for {@link CompletionQueue#poll}. */
    public Completion() {
    }

    /**
     * Fills the holder; used by a NIC when it hands a completion over.
     *
     * @param op          the request's {@code WorkDescriptor} op
     * @param status      {@link #OK} or an {@code ERR_*} code
     * @param lengthBytes bytes moved (RDMA) or replied (NIC message)
     * @param context     the request's context
     * @return this
     */
    public Completion set(final int op, final int status, final long lengthBytes, final long context) {
        this.op = op;
        this.status = status;
        this.lengthBytes = lengthBytes;
        this.context = context;
        return this;
    }

    /**
     * What the request was.
     *
     * @return its {@link WorkDescriptor} op
     */
    public int op() {
        return op;
    }

    /**
     * How the request ended.
     *
     * @return {@link #OK} or an {@code ERR_*} code
     */
    public int status() {
        return status;
    }

    /**
     * Whether the request was carried out.
     *
     * @return true if {@link #status()} is {@link #OK}
     */
    public boolean ok() {
        return status == OK;
    }

    /**
     * How much moved.
     *
     * @return bytes moved by an RDMA transfer, or bytes of a NIC message's reply; 0 when it failed
     */
    public long lengthBytes() {
        return lengthBytes;
    }

    /**
     * The request's tag.
     *
     * @return the context its descriptor carried
     */
    public long context() {
        return context;
    }

    /**
     * Names a status for messages.
     *
     * @param status a status
     * @return its name ({@code UNKNOWN(n)} for an unknown one)
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
        return "Completion[op=" + op + ", " + statusName(status) + ", " + lengthBytes + " bytes, context="
            + context + "]";
    }
}
