package org.jhpvm.fabric;

/**
 * How a thread waits for work: called in a duty-cycle loop with the amount of work the last pass did, as
 * Agrona's idle strategies are. Implementations are not thread-safe: each waiting thread has its own.
 */
public interface IdleStrategy {
    /**
     * Idles if {@code workCount} is 0, and resets the back-off as soon as work was done.
     *
     * @param workCount work done by the last pass of the caller's loop
     */
    void idle(int workCount);

    /** Starts the next wait from the beginning of the back-off. */
    void reset();

    /**
     * A caller that registers itself to be woken before it sleeps asks this first.
     *
     * @return true if the next {@code idle(0)} will park the thread
     */
    default boolean nextIdleParks() {
        return false;
    }
}
