package org.jhpvm.apps.bench;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs two bodies on two platform threads, started together behind a barrier, and waits for both with a bound.
 * The first failure of either is rethrown.
 */
final class PairRunner {
    private PairRunner() {
    }

    /**
     * @param name     thread name prefix
     * @param a        first body (its return value is the result)
     * @param b        second body
     * @param timeoutS bound on the whole run in seconds
     * @return what {@code a} returned
     */
    static long run(final String name, final TimedBody a, final Runnable b, final long timeoutS) {
        final CyclicBarrier start = new CyclicBarrier(2);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final long[] result = new long[1];
        final Thread[] threads = new Thread[2];
        threads[0] = new Thread(() -> {
            try {
                start.await(timeoutS, TimeUnit.SECONDS);
                result[0] = a.run();
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
                threads[1].interrupt(); // the other body stops at its next wait
            }
        }, name + "-a");
        threads[1] = new Thread(() -> {
            try {
                start.await(timeoutS, TimeUnit.SECONDS);
                b.run();
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
                threads[0].interrupt();
            }
        }, name + "-b");
        final Thread ta = threads[0];
        final Thread tb = threads[1];
        ta.setDaemon(true);
        tb.setDaemon(true);
        ta.start();
        tb.start();
        try {
            ta.join(TimeUnit.SECONDS.toMillis(timeoutS));
            tb.join(TimeUnit.SECONDS.toMillis(timeoutS));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + " interrupted", e);
        }
        final Throwable t = failure.get();
        if (t != null) {
            if (t instanceof BrokenBarrierException || t instanceof TimeoutException) {
                throw new IllegalStateException(name + ": threads did not start together", t);
            }
            throw new IllegalStateException(name + " failed: " + t, t);
        }
        if (ta.isAlive() || tb.isAlive()) {
            ta.interrupt();
            tb.interrupt();
            throw new IllegalStateException(name + " did not finish within " + timeoutS + " s");
        }
        return result[0];
    }

    /** A body that returns a measurement. */
    @FunctionalInterface
    interface TimedBody {
        long run() throws Exception;
    }
}
