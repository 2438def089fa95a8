package org.jhpvm.apps.bench;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Two long-lived platform threads that run pairs of bodies together, started behind a barrier. The same two
 * threads serve every trial, so that trials do not depend on where the scheduler first puts new threads. A
 * failure of either body interrupts the other and is rethrown; every wait is bounded.
 */
final class PairRunner implements AutoCloseable {
    private final String name;
    private final long timeoutS;
    private final CyclicBarrier start = new CyclicBarrier(3);
    private final CyclicBarrier end = new CyclicBarrier(3);
    private final Thread[] threads = new Thread[2];
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile TimedBody first;
    private volatile Runnable second;
    private volatile boolean closed;
    private long result;

    PairRunner(final String name, final long timeoutS) {
        this.name = name;
        this.timeoutS = timeoutS;
        threads[0] = new Thread(() -> loop(0), name + "-a");
        threads[1] = new Thread(() -> loop(1), name + "-b");
        for (final Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
    }

    private void loop(final int which) {
        while (true) {
            try {
                start.await();
            } catch (final InterruptedException | BrokenBarrierException e) {
                return;
            }
            if (closed) {
                return;
            }
            try {
                if (which == 0) {
                    result = first.run();
                } else {
                    second.run();
                }
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
                threads[1 - which].interrupt(); // the other body stops at its next wait
            }
            try {
                end.await();
            } catch (final InterruptedException | BrokenBarrierException e) {
                return;
            }
        }
    }

    /**
     * Runs {@code a} and {@code b} together on the two threads.
     *
     * @return what {@code a} returned
     */
    long run(final TimedBody a, final Runnable b) {
        first = a;
        second = b;
        try {
            start.await(timeoutS, TimeUnit.SECONDS);
            end.await(timeoutS, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + " interrupted", e);
        } catch (final BrokenBarrierException | TimeoutException e) {
            close();
            throw new IllegalStateException(name + " did not finish within " + timeoutS + " s", e);
        }
        final Throwable t = failure.getAndSet(null);
        if (t != null) {
            Thread.interrupted(); // a body's failure may have interrupted its partner after it finished
            throw new IllegalStateException(name + " failed: " + t, t);
        }
        return result;
    }

    @Override
    public void close() {
        closed = true;
        for (final Thread t : threads) {
            t.interrupt();
        }
    }

    /** A body that returns a measurement. */
    @FunctionalInterface
    interface TimedBody {
        long run() throws Exception;
    }
}
