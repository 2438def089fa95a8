package org.jhpvm.fabric;

/**
 * One node's network interface. Its host interface is a send ring (host to NIC) and a receive ring (NIC to
 * host) of fixed-size {@link Frame}s taken from the NIC's pool, as on Myrinet's LANai.
 * <p>
 * A send: {@link #tryAcquire()} a frame, fill it ({@link Frame#setDestination}, {@link Frame#setLength}, header
 * and payload), {@link #trySend(Frame)} it; the frame then belongs to the fabric. A receive: {@link #poll()} a
 * frame, read it, {@link #release(Frame)} it back to its owner's pool.
 * <p>
 * Every receive and send path has a non-blocking form that returns at once ({@link #tryAcquire()},
 * {@link #trySend(Frame)}, {@link #poll()}) and a waiting form driven by the fabric's idle strategy
 * ({@link #acquire()}, {@link #send(Frame)}, {@link #receive(long)}). Waiting forms end with a
 * {@link FabricClosedException} when the fabric closes and with a {@link NicInterruptedException} when the
 * waiting thread is interrupted.
 * <p>
 * Thread-safety: the host interface ({@link #tryAcquire()}, {@link #trySend(Frame)}, {@link #poll()},
 * {@link #release(Frame)}, their waiting forms and {@link #progress()}) is used by one host thread at a time, like
 * a NIC mapped into one process. {@link #counters()} and {@link #pendingFrames()} may be read from any thread.
 */
public interface Nic {
    /**
     * This NIC's id in its fabric, the number frames carry as their source and name as their destination. Fixed; may
     * be read from any thread.
     *
     * @return this NIC's id
     */
    int id();

    /**
     * Takes a free frame from this NIC's pool, in state {@link FrameDescriptor#STATE_HOST}, its length zero.
     *
     * @return a frame, or null if every frame of the pool is in use (frames return as receivers release them)
     * @throws FabricClosedException if the fabric is closed
     */
    Frame tryAcquire();

    /**
     * Waits for a free frame, giving the NIC turns while it waits.
     *
     * @return a frame
     * @throws FabricClosedException   if the fabric is or becomes closed
     * @throws NicInterruptedException if the thread is interrupted while waiting
     */
    Frame acquire();

    /**
     * Hands a filled frame to the NIC. On success the frame belongs to the fabric until the receiver releases it.
     *
     * @param frame a frame acquired from this NIC, its destination and length set
     * @return true if the frame entered the send ring; false if the ring was full (the frame stays the host's)
     * @throws IllegalArgumentException if the destination is not a NIC of this fabric, the length exceeds the
     *                                  frame size, or the frame belongs to another NIC or fabric (nothing sent)
     * @throws IllegalStateException    if the frame is not held by the host (already sent, or released)
     * @throws FabricClosedException    if the fabric is closed
     */
    boolean trySend(Frame frame);

    /**
     * Hands a filled frame to the NIC, waiting for room in the send ring.
     *
     * @param frame as for {@link #trySend(Frame)}
     * @throws FabricClosedException   if the fabric is or becomes closed (the frame stays the host's)
     * @throws NicInterruptedException if the thread is interrupted while waiting
     */
    void send(Frame frame);

    /**
     * Takes the next frame from the receive ring, after giving the NIC a turn.
     *
     * @return a delivered frame (to be released by the caller), or null if the ring is empty
     * @throws FabricClosedException if the fabric is closed
     */
    Frame poll();

    /**
     * Waits up to {@code timeoutNs} for a frame. The call also returns null early, waking the host if it is parked,
     * when a NIC has written this NIC's registered memory (an RDMA write, a NIC handler that did not say
     * {@link NicMessage#memoryUnchanged()}) since {@code receive} last
     * returned for that reason, as a NIC's interrupt would wake it: a host waiting for such a write (a SHMEM
     * {@code wait_until}) looks at once, and a write that lands between its look and this call is not missed.
     *
     * @param timeoutNs longest wait in nanoseconds; 0 polls once
     * @return a delivered frame, or null on timeout or a write to this NIC's memory
     * @throws FabricClosedException   if the fabric is or becomes closed
     * @throws NicInterruptedException if the thread is interrupted while waiting
     */
    Frame receive(long timeoutNs);

    /**
     * As {@link #receive}, for a host that has already spun and yielded waiting and now wants to sleep: a NIC that
     * can be woken by a delivery (an interrupt) sleeps at once instead of spinning again first. The default is
     * {@code receive}.
     *
     * @param timeoutNs longest wait in nanoseconds
     * @return a delivered frame, or null on timeout or a write to this NIC's memory
     * @throws FabricClosedException   if the fabric is or becomes closed
     * @throws NicInterruptedException if the thread is interrupted while waiting
     */
    default Frame sleep(final long timeoutNs) {
        return receive(timeoutNs);
    }

    /**
     * For a thread that serves this NIC's host between its own turns (a progress agent, which takes the host
     * interface only for short passes and does not hold it here): waits up to {@code timeoutNs} for something that
     * may have arrived for this NIC, unless {@code lastLook} finds work. {@code lastLook} is called once, after the
     * NIC can notice an arrival, so that a frame delivered before it is found by it and one delivered after it ends
     * the wait. This method touches no state of the host interface itself. The default parks for the timeout without
     * the last look: no arrival can end its wait, so the caller's own look after it finds what came meanwhile.
     *
     * @param lastLook  the caller's look for work (it may take the host interface); true if it found some
     * @param timeoutNs the longest wait, positive
     */
    default void awaitArrival(final java.util.function.BooleanSupplier lastLook, final long timeoutNs) {
        java.util.concurrent.locks.LockSupport.parkNanos(this, timeoutNs);
    }

    /**
     * Returns a frame to its pool: a frame delivered to this NIC, after reading it, or a frame acquired from this
     * NIC and not sent. The hand-back itself happens at this host's next send (after the frame has gone), poll
     * or progress call, so that it never delays a reply; at most 8 frames wait for it.
     *
     * @param frame the frame
     * @throws IllegalArgumentException if the frame belongs to another fabric, or was delivered to (or acquired
     *                                  from) another NIC
     * @throws IllegalStateException    if the frame is in the fabric or already released
     */
    void release(Frame frame);

    /**
     * Gives the NIC a turn without sending or receiving: moves frames from the send ring into the switch and
     * helps senders stalled on this NIC's receive ring.
     *
     * @return number of frames moved
     * @throws FabricClosedException if the fabric is closed
     */
    int progress();

    /**
     * How many frames this NIC still has on their way, so that a sender can tell when its traffic has left (0 means
     * nothing of its own is left to move). May be read from any thread; read there, it may lag the host thread.
     *
     * @return frames accepted by {@link #trySend(Frame)} and not yet delivered or dropped, as far as this NIC knows:
     *     a fabric over a transport (Aeron) hands frames to it at once and counts none in the transport's flight
     */
    long pendingFrames();

    /**
     * Reads this NIC's counters. May be called from any thread while the NIC runs; the counters are read one by
     * one, so a snapshot taken while frames move need not balance (see {@link NicCounters}). Allocates: not for the
     * data path.
     *
     * @return a snapshot of this NIC's counters
     */
    NicCounters counters();

    // ---------------------------------------------------------------- the NIC as a processor (VIA, LANai)

    /** Largest handle {@link #register(Object, int, int)} accepts, exclusive; handles the NIC chooses lie above it. */
    int MAX_NAMED_HANDLE = 1 << 30;
    /** Handler ids {@link #registerNicHandler} accepts: {@code 0 .. MAX_NIC_HANDLERS-1}. */
    int MAX_NIC_HANDLERS = 256;

    /**
     * Registers memory with this NIC so that it can be the local side of RDMA or a NIC message's reply region, and
     * (with its handle and key) the remote side of another NIC's RDMA. The NIC chooses the handle and a key.
     * Registration costs something (the VIA paper measures it), so the NIC keeps a registration cache: registering
     * memory that is already registered answers the same region at once (and counts a cache hit); each registration
     * must be matched by a {@link #deregister} before the region goes.
     *
     * @param memory a primitive array or a {@link java.lang.foreign.MemorySegment}
     * @return the region
     * @throws IllegalArgumentException if the memory cannot be registered (naming its type)
     * @throws IllegalStateException    if this fabric has no RDMA ({@link FabricCapabilities#remoteDma()} is false)
     * @throws FabricClosedException    if the fabric is closed
     */
    default MemoryRegion register(final Object memory) {
        throw noRdma();
    }

    /**
     * Registers memory under a handle and key the caller chooses, so that every NIC of a job can name it without
     * asking: a symmetric heap registers each object with the same handle and key on every PE. Not cached.
     *
     * @param memory a primitive array or a {@link java.lang.foreign.MemorySegment}
     * @param handle the handle, {@code 0 .. MAX_NAMED_HANDLE-1}, not registered now (any such number: the NIC keeps
     *               a table of the registered ones, not an array indexed by them)
     * @param key    the key remote descriptors must present
     * @return the region
     * @throws IllegalArgumentException if the memory cannot be registered, the handle is out of range or taken
     * @throws IllegalStateException    if this fabric has no RDMA
     * @throws FabricClosedException    if the fabric is closed
     */
    default MemoryRegion register(final Object memory, final int handle, final int key) {
        throw noRdma();
    }

    /**
     * Gives a registration back; when every registration of the memory is given back the region goes, and
     * descriptors naming it are refused from then on ({@link Completion#ERR_NOT_REGISTERED}).
     *
     * @param region a region registered with this NIC
     * @throws IllegalArgumentException if it is not (any more) registered here
     * @throws IllegalStateException    if this fabric has no RDMA
     */
    default void deregister(final MemoryRegion region) {
        throw noRdma();
    }

    /**
     * Posts a request: an RDMA write or read, or a NIC message. The NIC checks it (local and remote regions, keys,
     * bounds, handler) and carries it out, or fails it touching no memory; either way its completion appears on
     * {@link #completionQueue()} with the descriptor's context. The descriptor may be refilled once this returns.
     *
     * @param descriptor the request
     * @return true if posted; false if the completion queue has no room left (poll it, then post again)
     * @throws IllegalArgumentException if the descriptor was never filled, a NIC message has no frame or its frame is
     *                                  not held by this host, or a length is negative (nothing posted)
     * @throws IllegalStateException    if this fabric has no RDMA or NIC handlers for the request
     * @throws FabricClosedException    if the fabric is closed
     */
    default boolean post(final WorkDescriptor descriptor) {
        throw noRdma();
    }

    /**
     * This NIC's completion queue.
     *
     * @return the queue
     * @throws IllegalStateException if this fabric has no RDMA
     */
    default CompletionQueue completionQueue() {
        throw noRdma();
    }

    /**
     * Opens another queue pair on this NIC: requests posted on it are carried out as {@link #post} says, and complete
     * on its own completion queue.
     *
     * @return the queue pair
     * @throws IllegalStateException if this fabric has no RDMA
     * @throws FabricClosedException if the fabric is closed
     */
    default QueuePair openQueuePair() {
        throw noRdma();
    }

    /**
     * Registers a handler this NIC runs when a NIC message for {@code id} arrives. Register before other NICs send
     * messages for it (a message for an id without a handler fails with {@link Completion#ERR_NO_HANDLER}).
     *
     * @param id      the handler id, {@code 0 .. MAX_NIC_HANDLERS-1}
     * @param handler the handler
     * @throws IllegalArgumentException if the id is out of range
     * @throws IllegalStateException    if the id already has a handler, or this fabric has no NIC handlers
     *                                  ({@link FabricCapabilities#nicHandlers()} is false)
     */
    default void registerNicHandler(final int id, final NicHandler handler) {
        throw new IllegalStateException("this fabric's NICs run no handlers of their own "
            + "(capabilities().nicHandlers() is false)");
    }

    /**
     * A snapshot of this NIC's registration, RDMA and NIC message counters.
     *
     * @return the counters (all zero on a fabric without RDMA)
     */
    default RdmaCounters rdmaCounters() {
        return RdmaCounters.zero();
    }

    private static IllegalStateException noRdma() {
        return new IllegalStateException("this fabric has no registered memory or RDMA "
            + "(capabilities().remoteDma() is false)");
    }
}
