package org.jhpvm.mpi;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmJobExit;
import org.jhpvm.mpi.internal.Engine;
import org.jhpvm.mpi.internal.RankBinding;
import org.jhpvm.mpi.internal.RankSeats;

/**
 * An MPI job whose ranks are threads the caller already has: the PE main threads of {@code bin/jhpvm run}, where a
 * program calls {@code MPI.Init} from {@code main} as under {@code mpirun}. The job runs in the background; its
 * rank {@code r} thread makes the rank's endpoint and engine and hands them to the program thread that
 * {@link #join joins} as rank {@code r}, then waits until that thread {@link #leave leaves} (after
 * {@code MPI.Finalize}, or when its program ends or fails) before it goes on to the end of the job. The hand-over is
 * a happens-before edge both ways, and the endpoint is used by one thread at a time.
 * <p>
 * {@code MPI.Init} on a thread with no rank asks the {@link #setLocator locator} (installed by the runner) which job
 * and rank the thread belongs to.
 */
public final class AttachedJob {
    /**
     * A thread's place: its job and rank.
     *
     * @param job  the attached job
     * @param rank the thread's rank in it
     */
    public record Seat(AttachedJob job, int rank) {
    }

    private static volatile Supplier<Seat> locator = () -> null;

    private final MpiJob job;
    private final Map<Integer, CompletableFuture<Engine>> engines = new HashMap<>();
    private final Map<Integer, CompletableFuture<Throwable>> left = new HashMap<>();
    private final CompletableFuture<Object> outcome = new CompletableFuture<>();
    private final java.util.Set<Integer> joined = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private boolean started;

    /**
     * An attached job of the given job's settings; nothing runs until the first {@link #join}.
     *
     * @param job the job (its ranks, options and timeout)
     */
    public AttachedJob(final MpiJob job) {
        this.job = job;
        for (final int r : job.localRanks()) {
            engines.put(r, new CompletableFuture<>());
            left.put(r, new CompletableFuture<>());
        }
    }

    /**
     * Sets how {@code MPI.Init} finds the job of a thread that has no rank yet.
     *
     * @param finder gives the calling thread's seat, or null if it is not a rank of any job
     */
    public static void setLocator(final Supplier<Seat> finder) {
        locator = finder == null ? () -> null : finder;
        RankSeats.setFinder(finder == null ? null : () -> {
            final Seat s = finder.get();
            return s == null ? null : () -> s.job().join(s.rank());
        });
    }

    /**
     * The calling thread's seat, as the locator says.
     *
     * @return the seat, or null
     */
    public static Seat locate() {
        return locator.get();
    }

    /**
     * Whether a rank has joined, so that the job is running.
     *
     * @return true once started
     */
    public synchronized boolean started() {
        return started;
    }

    private synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        Thread.ofPlatform().daemon(true).name("jhpvm-mpi-job").start(() -> {
            try {
                outcome.complete(job.runFm(this::serve));
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
    }

    /** What the job's rank thread does: hand the engine over, wait for the program thread to leave. */
    private void serve(final FastMessages fm, final Engine engine) throws Exception {
        final int rank = fm.pe();
        engines.get(rank).complete(engine);
        final Throwable failure;
        try {
            failure = left.get(rank).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        if (failure instanceof Exception e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }

    /**
     * Makes the calling thread rank {@code rank}: starts the job if it is not running, waits for the rank's engine
     * and binds it to the thread.
     *
     * @param rank a rank of this process
     * @throws MpiAbortException if the job ended (another rank failed) before the rank was ready
     */
    public void join(final int rank) {
        final CompletableFuture<Engine> e = engines.get(rank);
        if (e == null) {
            throw new IllegalArgumentException("rank " + rank + " does not run in this process");
        }
        start();
        try {
            CompletableFuture.anyOf(e, outcome).get();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new MpiAbortException(rank, x);
        } catch (ExecutionException x) {
            throw new MpiAbortException(rank, x.getCause());
        }
        if (!e.isDone()) {
            final Object o = outcome.join();
            if (o instanceof MpiAbortException a) {
                throw a;
            }
            if (o instanceof MpiJob.Report r && r.aborted()) {
                // Another rank called abort before this one reached MPI.Init: end with the job's status.
                throw new MpiAbortException(MpiAbortException.NO_RANK, new FmJobExit(MpiAbortException.NO_RANK,
                    r.exitStatus()));
            }
            throw new MpiAbortException(rank, new IllegalStateException("the MPI job ended before rank " + rank
                + " joined: " + o));
        }
        final Engine engine = e.join();
        joined.add(rank);
        engine.onFinalize = () -> leave(rank, null);
        RankBinding.bind(engine);
    }

    /**
     * The program thread of {@code rank} is done with MPI: after {@code MPI.Finalize} (null), or because its program
     * ended without it or failed (the cause, which ends the job). A second call does nothing.
     *
     * @param rank    the rank
     * @param failure why it left early, or null
     */
    public void leave(final int rank, final Throwable failure) {
        final CompletableFuture<Throwable> f = left.get(rank);
        if (f != null) {
            f.complete(failure);
        }
    }

    /**
     * Whether {@code rank} joined (called {@code MPI.Init}) and has not left ({@code MPI.Finalize}): a program
     * thread that ends so ends the job.
     *
     * @param rank a rank of this process
     * @return true if it joined and is still in the job
     */
    public boolean unfinished(final int rank) {
        final CompletableFuture<Engine> e = engines.get(rank);
        final CompletableFuture<Throwable> l = left.get(rank);
        return e != null && e.isDone() && joined.contains(rank) && !l.isDone();
    }

    /**
     * Waits for the job to end.
     *
     * @return its report
     * @throws MpiAbortException if a rank failed or the job timed out
     */
    public MpiJob.Report await() {
        final Object o = outcome.join();
        if (o instanceof MpiJob.Report r) {
            return r;
        }
        if (o instanceof MpiAbortException a) {
            throw a;
        }
        throw new MpiAbortException(MpiAbortException.NO_RANK, (Throwable) o);
    }
}
