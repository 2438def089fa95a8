package org.jhpvm.fabric;

/**
 * A request posted to a NIC ({@link Nic#post}): an RDMA write or read between a local and a remote registered
 * region, or a NIC message for a handler the target NIC runs. As in the VIA model, the host fills a descriptor and
 * posts it; the NIC does the work and reports the outcome on its {@link CompletionQueue} with the descriptor's
 * context. A descriptor is a reusable holder: posting copies what the NIC needs, so it may be filled again at once;
 * filling it allocates nothing.
 * <p>
 * Not thread-safe: one host thread fills and posts it.
 */
public final class WorkDescriptor {
    /** RDMA write: local region bytes into the remote region. */
    public static final int RDMA_WRITE = 1;
    /** RDMA read: remote region bytes into the local region. */
    public static final int RDMA_READ = 2;
    /** A NIC message: a frame for a handler the target NIC runs, with its reply written into the local region. */
    public static final int NIC_MESSAGE = 3;

    private int op;
    private MemoryRegion local;
    private long localOffsetBytes;
    private int remoteNic;
    private int remoteHandle;
    private int remoteKey;
    private long remoteOffsetBytes;
    private long lengthBytes;
    private long context;
    private Frame frame;
    private int handler;

    /** An empty descriptor, to be filled by one of the {@code rdma...}/{@code nicMessage} methods. */
    public WorkDescriptor() {
    }

    /**
     * Makes this an RDMA write ({@code VipPostSend} with a remote address in VIA).
     *
     * @param local             the source region, registered with the posting NIC
     * @param localOffsetBytes  first source byte
     * @param remoteNic         the target NIC
     * @param remoteHandle      the target region's handle
     * @param remoteKey         the target region's key
     * @param remoteOffsetBytes first target byte
     * @param lengthBytes       bytes to move, at least 0
     * @param context           reported with the completion
     * @return this
     */
    public WorkDescriptor rdmaWrite(final MemoryRegion local, final long localOffsetBytes, final int remoteNic,
                                    final int remoteHandle, final int remoteKey, final long remoteOffsetBytes,
                                    final long lengthBytes, final long context) {
        return set(RDMA_WRITE, local, localOffsetBytes, remoteNic, remoteHandle, remoteKey, remoteOffsetBytes,
            lengthBytes, context);
    }

    /**
     * Makes this an RDMA read.
     *
     * @param local             the destination region, registered with the posting NIC
     * @param localOffsetBytes  first destination byte
     * @param remoteNic         the NIC holding the source
     * @param remoteHandle      the source region's handle
     * @param remoteKey         the source region's key
     * @param remoteOffsetBytes first source byte
     * @param lengthBytes       bytes to move, at least 0
     * @param context           reported with the completion
     * @return this
     */
    public WorkDescriptor rdmaRead(final MemoryRegion local, final long localOffsetBytes, final int remoteNic,
                                   final int remoteHandle, final int remoteKey, final long remoteOffsetBytes,
                                   final long lengthBytes, final long context) {
        return set(RDMA_READ, local, localOffsetBytes, remoteNic, remoteHandle, remoteKey, remoteOffsetBytes,
            lengthBytes, context);
    }

    /**
     * Makes this a NIC message: the frame (acquired from the posting NIC, its destination and length set) goes to the
     * destination NIC, which runs handler {@code handler} on it; whatever the handler replies lands in
     * {@code replyTo} from {@code replyOffsetBytes}, at most {@code replyCapacityBytes}. Once posted the frame belongs
     * to the NIC, which returns it to its pool.
     *
     * @param frame              the request
     * @param handler            the target NIC's handler id
     * @param replyTo            where the reply lands (registered with the posting NIC), or null if none is wanted
     * @param replyOffsetBytes   first reply byte in it
     * @param replyCapacityBytes most reply bytes accepted
     * @param context            reported with the completion
     * @return this
     */
    public WorkDescriptor nicMessage(final Frame frame, final int handler, final MemoryRegion replyTo,
                                     final long replyOffsetBytes, final int replyCapacityBytes, final long context) {
        set(NIC_MESSAGE, replyTo, replyOffsetBytes, frame == null ? -1 : frame.destination(), 0, 0, 0,
            replyCapacityBytes, context);
        this.frame = frame;
        this.handler = handler;
        return this;
    }

    private WorkDescriptor set(final int op, final MemoryRegion local, final long localOffsetBytes,
                               final int remoteNic, final int remoteHandle, final int remoteKey,
                               final long remoteOffsetBytes, final long lengthBytes, final long context) {
        this.op = op;
        this.local = local;
        this.localOffsetBytes = localOffsetBytes;
        this.remoteNic = remoteNic;
        this.remoteHandle = remoteHandle;
        this.remoteKey = remoteKey;
        this.remoteOffsetBytes = remoteOffsetBytes;
        this.lengthBytes = lengthBytes;
        this.context = context;
        this.frame = null;
        this.handler = 0;
        return this;
    }

    /**
     * What the descriptor asks for.
     *
     * @return {@link #RDMA_WRITE}, {@link #RDMA_READ}, {@link #NIC_MESSAGE}, or 0 if never filled
     */
    public int op() {
        return op;
    }

    /**
     * The local side: the RDMA source or destination, or where a NIC message's reply lands.
     *
     * @return the local region, or null for a NIC message that wants no reply
     */
    public MemoryRegion local() {
        return local;
    }

    /**
     * Where in the local region the transfer (or the reply) starts.
     *
     * @return the first byte in the local region
     */
    public long localOffsetBytes() {
        return localOffsetBytes;
    }

    /**
     * The NIC on the other side: the RDMA target or source, or the NIC message's destination.
     *
     * @return its id
     */
    public int remoteNic() {
        return remoteNic;
    }

    /**
     * The remote region of an RDMA transfer.
     *
     * @return its handle at the remote NIC
     */
    public int remoteHandle() {
        return remoteHandle;
    }

    /**
     * The key the remote NIC checks against the remote region.
     *
     * @return the key
     */
    public int remoteKey() {
        return remoteKey;
    }

    /**
     * Where in the remote region an RDMA transfer starts.
     *
     * @return the first byte in the remote region
     */
    public long remoteOffsetBytes() {
        return remoteOffsetBytes;
    }

    /**
     * How much to move.
     *
     * @return bytes of an RDMA transfer, or the largest reply a NIC message accepts
     */
    public long lengthBytes() {
        return lengthBytes;
    }

    /**
     * The caller's tag for this request.
     *
     * @return the context reported with the completion
     */
    public long context() {
        return context;
    }

    /**
     * The request of a NIC message.
     *
     * @return the frame, or null for an RDMA transfer
     */
    public Frame frame() {
        return frame;
    }

    /**
     * The handler the target NIC runs for a NIC message.
     *
     * @return its id
     */
    public int handler() {
        return handler;
    }
}
