package org.jhpvm.fm;

import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One PE's Fast Messages endpoint: FM 1.x ({@link #send4}, {@link #send}, {@link #extract()}) and FM 2.x streams
 * ({@link #beginMessage}, {@link #extract(int)}) over a fabric, with reliable, in-order, exactly-once,
 * flow-controlled delivery per sender-receiver pair whatever the fabric drops, corrupts, duplicates or reorders.
 * <p>
 * Handlers are registered before the endpoint's first send or extract, with the same ids on every PE. Handlers run
 * inside {@code extract}, and inside a send that has to wait. A send waits only for flow control (frames and window
 * space); while it waits it keeps the protocol going (acknowledgements, retransmission, buffering of arriving frames)
 * and, with {@link FmConfig#extractWhileWaiting()} on (the default), extracts too: it runs handlers, and may then
 * throw what {@code extract} throws. This departs from FM's "sends never run handlers" on purpose: with bounded
 * buffers it is what keeps PEs that all send to each other at once from waiting for each other forever (see the
 * module README). A send that does not wait, and a send made by a handler, never runs a handler. With
 * {@code extractWhileWaiting} off, sends never run handlers, and a PE that never extracts stops the PEs that send to
 * it.
 * <p>
 * A PE may send to itself: the message goes through the fabric and is handled by this PE's own extract.
 * <p>
 * Thread-safety: one thread at a time (the PE's thread, and the handlers that extract runs). {@link #counters()}
 * may be read from any thread.
 */
public interface FastMessages {
    /** Largest handler id plus one. */
    int MAX_HANDLERS = 4096;

    /**
     * Returns this PE's number, fixed for the endpoint's life; the value to pass as {@code dest} to reach this PE.
     *
     * @return this PE's number, {@code 0 .. pes()-1}
     */
    int pe();

    /**
     * Returns the number of PEs in the job, fixed for the endpoint's life; valid destinations are {@code 0} to
     * {@code pes() - 1}.
     *
     * @return number of PEs in the job
     */
    int pes();

    /**
     * Registers an FM 2.x handler.
     *
     * @param id      handler id, {@code 0 .. MAX_HANDLERS-1}, the same on every PE
     * @param handler the handler
     * @throws IllegalArgumentException if the id is out of range or already registered
     * @throws IllegalStateException    if the endpoint has already sent or extracted
     */
    void register(int id, FmHandler handler);

    /**
     * Registers an FM 1.x handler, which gets each message whole and contiguous.
     *
     * @param id      handler id, {@code 0 .. MAX_HANDLERS-1}, the same on every PE
     * @param handler the handler
     * @throws IllegalArgumentException if the id is out of range or already registered
     * @throws IllegalStateException    if the endpoint has already sent or extracted
     */
    void register(int id, Fm1Handler handler);

    /**
     * FM 1.x: sends four words (a 16-byte message).
     *
     * @param dest    destination PE
     * @param handler registered handler id
     * @param i0      word 0
     * @param i1      word 1
     * @param i2      word 2
     * @param i3      word 3
     * @throws IndexOutOfBoundsException if {@code dest} is not a PE of the job
     * @throws IllegalArgumentException  if the handler id is not registered
     * @throws IllegalStateException     if a message is open or the endpoint is closed
     * @throws FmAbortException          if the job is aborted while waiting
     */
    void send4(int dest, int handler, int i0, int i1, int i2, int i3);

    /**
     * FM 1.x: sends a message of any length up to {@link FmConfig#maxFm1MessageBytes()}.
     *
     * @param dest        destination PE
     * @param handler     registered handler id
     * @param buffer      message bytes
     * @param offset      first byte
     * @param lengthBytes message length
     * @throws IndexOutOfBoundsException if {@code dest} is not a PE or the range is outside {@code buffer}
     * @throws IllegalArgumentException  if the handler id is not registered or the message is too long
     * @throws IllegalStateException     if a message is open or the endpoint is closed
     * @throws FmAbortException          if the job is aborted while waiting
     */
    void send(int dest, int handler, byte[] buffer, int offset, int lengthBytes);

    /**
     * FM 2.x: opens a message of at most {@code lengthBytes} bytes. One message is open per endpoint at a time.
     *
     * @param dest        destination PE
     * @param lengthBytes upper bound of the message length
     * @param handler     registered handler id
     * @return the output stream (the endpoint's, reused for every message)
     * @throws IndexOutOfBoundsException if {@code dest} is not a PE of the job
     * @throws IllegalArgumentException  if the length is negative or the handler id is not registered
     * @throws IllegalStateException     if a message is already open or the endpoint is closed
     */
    FmOutputStream beginMessage(int dest, int lengthBytes, int handler);

    /**
     * FM 1.x: processes the messages that have arrived, running their handlers.
     *
     * @return as {@link #extract(int)}
     */
    int extract();

    /**
     * FM 2.x: processes at most about {@code maxBytes} of arrived message data (rounded up to a frame), running
     * handlers; a handler waiting for frames is resumed as they arrive. Returns at once when nothing is there.
     *
     * @param maxBytes most bytes to process, at least 1
     * @return bytes of message data processed (an empty frame counts as 1), 0 if there was nothing
     * @throws IllegalArgumentException if {@code maxBytes < 1}
     * @throws IllegalStateException    if called from inside a handler, or the endpoint is closed, or a message
     *                                  arrived for a handler id not registered here (the message is discarded)
     * @throws FmAbortException         if the job is aborted
     */
    int extract(int maxBytes);

    /**
     * Extracts until {@code done} is true, idling (spin, yield, park) while nothing arrives.
     *
     * @param done      checked after every extract pass
     * @param timeoutNs longest wait in nanoseconds
     * @return true if {@code done} became true, false on timeout
     * @throws FmAbortException as for {@link #extract(int)}
     */
    boolean extractUntil(BooleanSupplier done, long timeoutNs);

    /**
     * Waits until every frame this PE has sent has been acknowledged by its destination, extracting meanwhile. A frame
     * is acknowledged once the destination has accepted it (queued it, or handed it to its extract), not once a
     * handler has read it: a {@code true} return means nothing this PE sent still needs retransmission, not that the
     * messages have been handled. Over a fabric that is reliable end to end (the lean protocol) a frame handed to the
     * fabric is the fabric's to deliver, so this returns {@code true} at once.
     *
     * @param timeoutNs longest wait in nanoseconds
     * @return true if everything sent has been accepted by its destination, false on timeout
     * @throws IllegalStateException as for {@link #extract(int)}
     * @throws FmAbortException      as for {@link #extract(int)}
     */
    boolean flush(long timeoutNs);

    // ---------------------------------------------------------------- the NIC as a processor

    /** NIC handler ids {@link #registerNicHandler} accepts: {@code 0 .. MAX_NIC_HANDLERS-1}. */
    int MAX_NIC_HANDLERS = 128;

    /**
     * Whether the fabric's NIC does the work of NIC messages and RDMA itself (the emulated Myrinet's NIC does): the
     * target PE's thread is then never needed for them. Otherwise FM carries the same requests in messages and serves
     * them inside the target's extract, with the same results.
     *
     * @return true if the NIC runs NIC handlers and moves RDMA bytes
     */
    boolean nicOffload();

    /**
     * Whether an RDMA write has taken its local bytes by the time {@code rdmaWrite} returns, so that the caller may
     * change them at once and the completion says only whether the target took them. True where FM carries RDMA in
     * its own messages (not {@link #nicOffload()}): the write's bytes are copied into FM's frames, or into a ring in
     * host memory for a PE of the same host, before the call returns. Where the NIC moves them it may still be reading
     * them until the completion comes.
     *
     * @return true if a write's source is free when {@code rdmaWrite} returns
     */
    boolean rdmaWriteSourceFreeOnReturn();

    /**
     * The longest NIC message (and reply): one frame.
     *
     * @return bytes
     */
    int maxNicMessageBytes();

    /**
     * Registers memory with this PE's NIC, for the local side of RDMA and for replies; memory registered already
     * answers the same region (the registration cache: registering is costly, looking up is not). Every registration
     * is matched by a {@link #deregister}.
     *
     * @param memory a primitive array or a {@link java.lang.foreign.MemorySegment}
     * @return the region
     * @throws IllegalArgumentException if it cannot be registered
     * @throws IllegalStateException    if the endpoint is closed
     */
    FmRegion register(Object memory);

    /**
     * Registers memory under a handle and key the caller chooses, so that other PEs can name it without asking (a
     * symmetric heap registers each object with the same handle and key on every PE).
     *
     * @param memory a primitive array or a {@link java.lang.foreign.MemorySegment}
     * @param handle the handle, {@code 0 .. 2^20-1}, not in use here
     * @param key    the key remote requests must present
     * @return the region
     * @throws IllegalArgumentException if it cannot be registered, or the handle is out of range or in use
     * @throws IllegalStateException    if the endpoint is closed
     */
    FmRegion register(Object memory, int handle, int key);

    /**
     * Gives a registration back; the region goes with its last registration, and requests naming it fail from then on.
     *
     * @param region a region registered here
     * @throws IllegalArgumentException if it is not registered here
     */
    void deregister(FmRegion region);

    /**
     * Registers a NIC handler, on every PE, before communicating (as {@link #register(int, FmHandler)}).
     *
     * @param id      the id, {@code 0 .. MAX_NIC_HANDLERS-1}
     * @param handler the handler
     * @throws IllegalArgumentException if the id is out of range or already registered
     * @throws IllegalStateException    if the endpoint has already sent or extracted
     */
    void registerNicHandler(int id, FmNicHandler handler);

    /**
     * Opens a NIC message: the request written into the stream goes to {@code dest}, whose NIC handler {@code handler}
     * serves it; its reply lands in {@code replyTo} from {@code replyOffsetBytes}; the outcome is a completion with
     * {@code context}. {@link FmOutputStream#endMessage()} sends it. At most one message (of either kind) is open at a
     * time.
     *
     * @param dest               the target PE (this PE too)
     * @param lengthBytes        the request's length, at most {@link #maxNicMessageBytes()}
     * @param handler            the NIC handler id
     * @param replyTo            where the reply lands (registered here), or null for no reply
     * @param replyOffsetBytes   first byte of the reply in it
     * @param replyCapacityBytes the most reply bytes accepted, at most {@link #maxNicMessageBytes()}
     * @param context            reported with the completion; at least 0 (negative contexts are FM's own)
     * @return the output stream
     * @throws IndexOutOfBoundsException if {@code dest} is not a PE of the job
     * @throws IllegalArgumentException  if a length is out of range, the reply room is outside {@code replyTo} or the
     *                                   context negative
     * @throws IllegalStateException     if a message is open or the endpoint is closed
     */
    FmOutputStream beginNicMessage(int dest, int lengthBytes, int handler, FmRegion replyTo, long replyOffsetBytes,
                                   int replyCapacityBytes, long context);

    /**
     * Starts an RDMA write: {@code lengthBytes} from the local region into region {@code (remoteHandle, remoteKey)}
     * of PE {@code dest}; the outcome is a completion with {@code context}. The local bytes must not change until it
     * completes, unless {@link #rdmaWriteSourceFreeOnReturn()} says they are taken already.
     *
     * @param local             the source, registered here
     * @param localOffsetBytes  first source byte
     * @param dest              the target PE (this PE too)
     * @param remoteHandle      the target region's handle
     * @param remoteKey         its key
     * @param remoteOffsetBytes first target byte
     * @param lengthBytes       bytes, at least 0
     * @param context           reported with the completion; at least 0 (negative contexts are FM's own)
     * @throws IndexOutOfBoundsException if {@code dest} is not a PE of the job
     * @throws IllegalArgumentException  if {@code local} is null, or the length or the context negative
     * @throws IllegalStateException     if a message is open or the endpoint is closed
     */
    void rdmaWrite(FmRegion local, long localOffsetBytes, int dest, int remoteHandle, int remoteKey,
                   long remoteOffsetBytes, long lengthBytes, long context);

    /**
     * Starts an RDMA read: {@code lengthBytes} of region {@code (remoteHandle, remoteKey)} of PE {@code dest} into the
     * local region; the outcome is a completion with {@code context}, after which the bytes are there.
     *
     * @param local             the destination, registered here
     * @param localOffsetBytes  first destination byte
     * @param dest              the PE holding the source (this PE too)
     * @param remoteHandle      the source region's handle
     * @param remoteKey         its key
     * @param remoteOffsetBytes first source byte
     * @param lengthBytes       bytes, at least 0
     * @param context           reported with the completion; at least 0 (negative contexts are FM's own)
     * @throws IndexOutOfBoundsException if {@code dest} is not a PE of the job
     * @throws IllegalArgumentException  if {@code local} is null, or the length or the context negative
     * @throws IllegalStateException     if a message is open or the endpoint is closed
     */
    void rdmaRead(FmRegion local, long localOffsetBytes, int dest, int remoteHandle, int remoteKey,
                  long remoteOffsetBytes, long lengthBytes, long context);

    /** Completion queues an endpoint may have open at once, its own (queue 0) included. */
    int MAX_QUEUES = 256;

    /**
     * Opens a completion queue of this endpoint's own, the Virtual Interface Architecture's queue pair: NIC messages
     * and RDMA posted on it ({@link #beginNicMessage(int, int, int, int, FmRegion, long, int, long)},
     * {@link #rdmaWrite(int, FmRegion, long, int, int, int, long, long, long)}, {@link #rdmaRead(int, FmRegion, long,
     * int, int, int, long, long, long)}) complete on it only ({@link #pollCompletion(int, FmCompletion)}). Where the
     * NIC does the work it is a queue pair of the NIC ({@code Nic.openQueuePair}); elsewhere FM keeps the queue.
     * Requests are carried out as on the endpoint's own queue (queue 0, which the forms without a queue use); what
     * differs is where they complete.
     *
     * @return the queue's number, 1 or more
     * @throws IllegalStateException if {@link #MAX_QUEUES} are open, or the endpoint is closed
     */
    int openQueue();

    /**
     * Closes a queue opened by {@link #openQueue()}; its number may be given out again.
     *
     * @param queue the queue
     * @throws IllegalArgumentException if {@code queue} is not an open queue of this endpoint, or is queue 0
     * @throws IllegalStateException    if requests posted on it have not completed, or completions wait on it (nothing
     *                                  changes)
     */
    void closeQueue(int queue);

    /**
     * {@link #beginNicMessage(int, int, int, FmRegion, long, int, long)} whose completion comes on {@code queue}.
     *
     * @param queue              an open queue, or 0 for the endpoint's own
     * @param dest               the target PE (this PE too)
     * @param lengthBytes        the request's length, at most {@link #maxNicMessageBytes()}
     * @param handler            the NIC handler id
     * @param replyTo            where the reply lands (registered here), or null for no reply
     * @param replyOffsetBytes   first byte of the reply in it
     * @param replyCapacityBytes the most reply bytes accepted, at most {@link #maxNicMessageBytes()}
     * @param context            reported with the completion; at least 0
     * @return the output stream
     * @throws IllegalArgumentException if {@code queue} is not open, or as the form without a queue
     */
    FmOutputStream beginNicMessage(int queue, int dest, int lengthBytes, int handler, FmRegion replyTo,
                                   long replyOffsetBytes, int replyCapacityBytes, long context);

    /**
     * {@link #rdmaWrite(FmRegion, long, int, int, int, long, long, long)} whose completion comes on {@code queue}.
     *
     * @param queue             an open queue, or 0 for the endpoint's own
     * @param local             the source, registered here
     * @param localOffsetBytes  first source byte
     * @param dest              the target PE (this PE too)
     * @param remoteHandle      the target region's handle
     * @param remoteKey         its key
     * @param remoteOffsetBytes first target byte
     * @param lengthBytes       bytes, at least 0
     * @param context           reported with the completion; at least 0
     * @throws IllegalArgumentException if {@code queue} is not open, or as the form without a queue
     */
    void rdmaWrite(int queue, FmRegion local, long localOffsetBytes, int dest, int remoteHandle, int remoteKey,
                   long remoteOffsetBytes, long lengthBytes, long context);

    /**
     * {@link #rdmaRead(FmRegion, long, int, int, int, long, long, long)} whose completion comes on {@code queue}.
     *
     * @param queue             an open queue, or 0 for the endpoint's own
     * @param local             the destination, registered here
     * @param localOffsetBytes  first destination byte
     * @param dest              the PE holding the source (this PE too)
     * @param remoteHandle      the source region's handle
     * @param remoteKey         its key
     * @param remoteOffsetBytes first source byte
     * @param lengthBytes       bytes, at least 0
     * @param context           reported with the completion; at least 0
     * @throws IllegalArgumentException if {@code queue} is not open, or as the form without a queue
     */
    void rdmaRead(int queue, FmRegion local, long localOffsetBytes, int dest, int remoteHandle, int remoteKey,
                  long remoteOffsetBytes, long lengthBytes, long context);

    /**
     * Takes the oldest completion of the requests posted on {@code queue}, if there is one.
     *
     * @param queue an open queue, or 0 for the endpoint's own (as {@link #pollCompletion(FmCompletion)})
     * @param into  filled with it
     * @return true if there was one
     * @throws IllegalArgumentException if {@code queue} is not open
     * @throws IllegalStateException    if the endpoint is closed
     */
    boolean pollCompletion(int queue, FmCompletion into);

    /**
     * Takes the oldest completion of this endpoint's NIC messages and RDMA transfers, if there is one.
     *
     * @param into filled with it
     * @return true if there was one
     * @throws IllegalStateException if the endpoint is closed
     */
    boolean pollCompletion(FmCompletion into);

    /**
     * Lets the targets hold back the completions of this PE's requests that want nothing back but their outcome (RDMA
     * writes, and NIC messages with no reply capacity) while they succeed, until this PE asks for them
     * ({@link #requestCompletions()}) or a target holds 64 of them. A failed one is reported at once, after those
     * held before it, so completions keep their order per target. Where FM carries RDMA and NIC messages in its own
     * messages (not {@link #nicOffload()}) this saves the answer message per request, which a put followed by the
     * other side's wait pays twice per round trip; where the NIC does the work its completions come as it makes them
     * and this changes nothing. Off by default. A caller that turns it on asks before it waits for such a completion
     * ({@link #awaitCompletion} asks by itself). Applies to requests posted after the call.
     *
     * @param on whether to defer
     * @throws IllegalStateException if the endpoint is closed
     */
    void deferCompletions(boolean on);

    /**
     * Asks every PE holding deferred completions of this PE's requests ({@link #deferCompletions}) to report them: they
     * come as completions, once the answers arrive, like any other. Sends one small message per such PE not asked
     * since its last deferred request; nothing when there is none.
     *
     * @throws IllegalStateException if the endpoint is closed
     */
    void requestCompletions();

    /**
     * Waits for a completion, extracting meanwhile (without NIC offload, completions arrive as messages), idling
     * (spin, yield, park) while nothing happens.
     *
     * @param into      filled with it
     * @param timeoutNs longest wait
     * @return true if one came in time
     * @throws IllegalStateException if called from a handler, or the endpoint is closed
     * @throws FmAbortException      if the job is aborted while waiting
     */
    boolean awaitCompletion(FmCompletion into, long timeoutNs);

    /**
     * The memory this PE shares with the PEs of its host, where the fabric has any ({@link FmHostMemory}): on the
     * emulated Myrinet every PE of the JVM, in a launched job the PEs of the processes of this host; none on a
     * virtual-time fabric.
     *
     * @return the host memory, or empty
     */
    default Optional<FmHostMemory> hostMemory() {
        return Optional.empty();
    }

    /**
     * For a thread that serves this PE between the PE's own calls (SHMEM's progress agent): waits up to
     * {@code timeoutNs} for something to arrive for this PE, unless {@code lastLook} (called once, after an arrival
     * would be noticed) finds work. On a fabric whose NIC can be rung by a sender (the Aeron fabric between the
     * processes of a host) an arrival ends the wait at once; elsewhere it parks for its timeout without the last look
     * (the caller looks after it). Any thread; it does not take the endpoint itself.
     *
     * @param lastLook  the caller's look for work; true if it found some
     * @param timeoutNs the longest wait, positive
     */
    default void awaitArrival(final BooleanSupplier lastLook, final long timeoutNs) {
        java.util.concurrent.locks.LockSupport.parkNanos(this, timeoutNs);
    }

    /**
     * Takes a snapshot of this endpoint's protocol counters. May be called from any thread, also while the PE runs:
     * each counter is read atomically, but counters that move meanwhile are read at slightly different instants, so
     * the snapshot as a whole is not atomic. Still works after the endpoint is closed.
     *
     * @return a snapshot of this endpoint's counters (any thread)
     */
    FmCounters counters();

    /**
     * Tells whether the endpoint has been closed (the launcher closes it when the job ends). Once it is, every call
     * that communicates or registers throws {@link FmClosedException} ({@link FmAbortException} if the job was
     * aborted); {@link #pe()}, {@link #pes()}, {@link #counters()} and this method still answer. May be called from
     * any thread.
     *
     * @return true once the endpoint is closed
     */
    boolean isClosed();

    /**
     * Reads word {@code i} of a {@link #send4} message.
     *
     * @param buffer the buffer a 1.x handler was given
     * @param offset the offset it was given
     * @param i      0 .. 3
     * @return the word
     */
    static int word(final byte[] buffer, final int offset, final int i) {
        return (int) FmWords.INT.get(buffer, offset + (i << 2));
    }
}
