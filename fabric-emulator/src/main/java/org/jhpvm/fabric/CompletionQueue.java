package org.jhpvm.fabric;

/**
 * A NIC's completion queue: where the outcome of every posted {@link WorkDescriptor} appears, in the order the NIC
 * finished them (the VIA model's completion queue). The host polls it, or waits on it: a wait spins for a while (a
 * completion usually comes within microseconds), then parks with a growing timeout, and ends when the fabric closes
 * or the thread is interrupted.
 * <p>
 * A NIC never overflows its queue: {@link Nic#post} refuses a request when the queue has no room left for its
 * completion, so a host that stops polling stops posting.
 * <p>
 * Thread-safety: the NIC's host thread polls it.
 */
public interface CompletionQueue {
    /**
     * Takes the oldest completion, if there is one.
     *
     * @param into filled with the completion
     * @return true if there was one
     * @throws FabricClosedException if the fabric is closed
     */
    boolean poll(Completion into);

    /**
     * Waits up to {@code timeoutNs} for a completion and takes it.
     *
     * @param into      filled with the completion
     * @param timeoutNs longest wait in nanoseconds; 0 polls once
     * @return true if one came in time
     * @throws FabricClosedException   if the fabric is or becomes closed
     * @throws NicInterruptedException if the thread is interrupted while waiting
     */
    boolean await(Completion into, long timeoutNs);

    /**
     * How many completions are waiting.
     *
     * @return the count
     */
    int size();

    /**
     * How many completions the queue holds at most: requests posted and not yet polled.
     *
     * @return the capacity
     */
    int capacity();
}
