package org.jhpvm.fabric;

/**
 * One of a NIC's queue pairs (the Virtual Interface Architecture's VI): a send queue that requests are posted to and
 * the completion queue where their outcomes appear. A NIC's own {@link Nic#post} and {@link Nic#completionQueue()}
 * are its first queue pair; {@link Nic#openQueuePair()} adds more, so that independent streams of requests (a
 * SHMEM context each) complete on queues of their own and a host waiting for one stream polls only its queue.
 * Requests are checked and carried out exactly as {@link Nic#post} says; only where the completion goes differs.
 * <p>
 * Thread-safety: the NIC's host thread.
 */
public interface QueuePair {
    /**
     * Posts a request on this queue pair; its completion appears on {@link #completionQueue()}.
     *
     * @param descriptor the request
     * @return true if posted; false if the completion queue has no room left (poll it, then post again)
     * @throws IllegalArgumentException as {@link Nic#post}
     * @throws IllegalStateException    if the queue pair was closed
     * @throws FabricClosedException    if the fabric is closed
     */
    boolean post(WorkDescriptor descriptor);

    /**
     * This queue pair's completion queue.
     *
     * @return the queue
     */
    CompletionQueue completionQueue();

    /**
     * Closes the queue pair; later posts are refused.
     *
     * @throws IllegalStateException if completions are waiting on its queue (poll them first), or it is closed
     */
    void close();

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once closed
     */
    boolean isClosed();
}
