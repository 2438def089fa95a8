package org.jhpvm.fabric;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park with a doubling timeout: the default wait everywhere in jhpvm (Agrona's
 * {@code BackoffIdleStrategy}, the VIA paper's advice: spinning wins latency, but a processor must not be
 * burnt forever). Resets as soon as work is done. Not thread-safe: one instance per waiting thread.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final long maxSpins;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;
    private long spins;
    private long yields;
    private long parkNs;

    /**
     * Makes a strategy that, while no work is done, spins {@code maxSpins} times, yields {@code maxYields} times,
     * then parks for {@code minParkNs} doubling up to {@code maxParkNs}; 0 spins or 0 yields skip that phase.
     *
     * @param maxSpins  {@code Thread.onSpinWait()} calls before yielding
     * @param maxYields {@code Thread.yield()} calls before parking
     * @param minParkNs first park, in nanoseconds
     * @param maxParkNs longest park, in nanoseconds
     * @throws IllegalArgumentException if a count is negative or the park bounds are not 0 &lt; min &lt;= max
     */
    public BackoffIdleStrategy(final long maxSpins, final long maxYields, final long minParkNs, final long maxParkNs) {
        if (maxSpins < 0 || maxYields < 0) {
            throw new IllegalArgumentException("maxSpins=" + maxSpins + " and maxYields=" + maxYields
                + " must not be negative");
        }
        if (minParkNs <= 0 || maxParkNs < minParkNs) {
            throw new IllegalArgumentException("need 0 < minParkNs=" + minParkNs + " <= maxParkNs=" + maxParkNs);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        reset();
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            reset();
        } else if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = minParkNs;
    }

    /**
     * Ends the spinning phase of this wait: the next {@code idle(0)} yields (or parks, if there are no yields left).
     * For a waiter that learns that spinning would only take a core another thread needs.
     */
    public void skipSpins() {
        spins = maxSpins;
    }

    /**
     * Tells whether the current wait still spins.
     *
     * @return true while the wait is still in its spinning phase
     */
    public boolean spinning() {
        return spins < maxSpins;
    }

    @Override
    public boolean nextIdleParks() {
        return spins >= maxSpins && yields >= maxYields;
    }

    /**
     * The ceiling of the doubling park, as given to the constructor.
     *
     * @return the longest park in nanoseconds: the bound on how late a waiter notices a close
     */
    public long maxParkNs() {
        return maxParkNs;
    }
}
