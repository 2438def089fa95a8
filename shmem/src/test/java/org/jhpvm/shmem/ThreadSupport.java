package org.jhpvm.shmem;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Threads for the thread-level tests: started, joined with a bound, their failures rethrown. */
final class ThreadSupport {
    private static final Map<Thread, AtomicReference<Throwable>> FAILURES = new ConcurrentHashMap<>();

    private ThreadSupport() {
    }

    interface ThreadBody {
        void run(int thread) throws Exception;
    }

    /** Runs {@code body} on {@code threads} new threads and rethrows the first failure. */
    static void concurrently(final int threads, final ThreadBody body) {
        final List<Thread> started = new ArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            final Thread th = new Thread(() -> {
                try {
                    body.run(id);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "worker-" + t);
            th.start();
            started.add(th);
        }
        for (final Thread th : started) {
            joinQuietly(th);
        }
        if (failure.get() != null) {
            throw new AssertionError("a worker thread failed", failure.get());
        }
    }

    /** Starts {@code body} on a new thread whose failure {@link #join} rethrows. */
    static Thread start(final Runnable body) {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        FAILURES.put(t, failure);
        t.start();
        return t;
    }

    static void join(final Thread t) {
        joinQuietly(t);
        final AtomicReference<Throwable> f = FAILURES.remove(t);
        if (f != null && f.get() != null) {
            throw new AssertionError("thread " + t.getName() + " failed", f.get());
        }
    }

    private static void joinQuietly(final Thread t) {
        try {
            if (!t.join(Duration.ofSeconds(50))) {
                throw new AssertionError("thread " + t.getName() + " did not finish in 50 s");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    static void await(final CountDownLatch latch) {
        try {
            if (!latch.await(50, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released in 50 s");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Waits (bounded) until thread {@code t} is inside one of the engine's waits (a point-to-point wait, a barrier's
     * or a lock's), so that what the test does next happens while it waits.
     */
    static void awaitInsideAWait(final Thread t) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        while (Arrays.stream(t.getStackTrace()).noneMatch(e -> e.getMethodName().equals("awaitTurn"))) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("thread " + t.getName() + " did not reach a wait in 50 s");
            }
            Thread.onSpinWait();
        }
    }
}
