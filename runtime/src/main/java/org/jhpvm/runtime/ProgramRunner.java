package org.jhpvm.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jhpvm.fabric.FabricClosedException;
import org.jhpvm.fm.FmAbortException;
import org.jhpvm.fm.FmClosedException;
import org.jhpvm.fm.FmJobExit;
import org.jhpvm.fm.FmRemoteFailure;
import org.jhpvm.fm.PeThread;
import org.jhpvm.mpi.AttachedJob;
import org.jhpvm.mpi.MpiAbortException;
import org.jhpvm.shmem.ShmemAbortException;

/**
 * Runs a user's {@link Program} as a job of N PEs, as {@code bin/jhpvm run} does: in one JVM each PE runs the
 * program's {@code main} on its own thread, in its own class loader (so static fields are per PE, as they are per
 * process under {@code oshrun} or {@code mpirun}); in a process of a launched job, this process's PEs only, with the
 * others in the other processes. The program joins the job through {@link Jhpvm}.
 * <p>
 * The run ends when every PE's {@code main} has ended. A PE that throws ends the run with a failure naming the PE
 * and the exception (the first one; the PEs it released are not reported again); {@code globalExit(status)} ends
 * it with that status. Example: {@code ProgramRunner.builder(Program.of("Ring.java", null)).pes(4).build().run()}.
 */
public final class ProgramRunner {
    static {
        // MPI.Init on a PE's main thread: the PE's rank of its program's MPI job.
        AttachedJob.setLocator(() -> {
            final PeContext c = PeContext.current();
            return c == null || c.inBody() || c.job().mpi() == null ? null
                : new AttachedJob.Seat(c.job().mpi(), c.pe());
        });
    }

    /** How much longer a run past its timeout waits for its job's own timeout, which names each PE's state. */
    private static final long JOB_TIMEOUT_GRACE_NS = TimeUnit.SECONDS.toNanos(3);
    /**
     * How long the other PEs get to end by themselves once one asked the job to end ({@code MPI.COMM_WORLD.abort},
     * {@code globalExit}): a PE outside every call (computing, sleeping) never hears of it, and {@code mpirun} would
     * have killed its process; here the runner stops waiting for it, and the JVM's exit ends its daemon thread.
     */
    private static final long EXIT_GRACE_NS = TimeUnit.MILLISECONDS.toNanos(500);

    /** The longest a run may take when no timeout is given: in effect none. */
    static final Duration NO_TIMEOUT = Duration.ofDays(36_500);

    /**
     * How a run ended.
     *
     * @param exitStatus 0 when every PE's main returned, the status given to {@code globalExit}, or 1 on a failure
     * @param failedPe   the PE that failed first, or {@link #NO_PE} (no failure, or a timeout)
     * @param failure    the first failure (the user's exception), or null
     */
    public record Result(int exitStatus, int failedPe, Throwable failure) {
        /** {@link #failedPe()} of a run without a failing PE. */
        public static final int NO_PE = -1;

        /**
         * Whether the run failed.
         *
         * @return true if a PE failed or the run timed out
         */
        public boolean failed() {
            return failure != null;
        }

        /**
         * Whether another process of a launched job reports this run's failure (a PE of that process failed, or one
         * surviving process reports a lost one), so that this process need not print it.
         *
         * @return true if another process reports the failure
         */
        public boolean reportedElsewhere() {
            return FmRemoteFailure.isReportedElsewhere(failure);
        }

        /**
         * The failure as people read it.
         *
         * @return the failure as people read it: which PE failed with what, and the frames of the user's own code
         *     (where the exception was thrown, and the program's methods below it); "" if the run did not fail
         */
        public String describe() {
            return failure == null ? "" : UserTrace.describe(failedPe, failure);
        }
    }

    private final Program program;
    private final int pes;
    private final JobOptions options;
    private final List<String> args;
    private final Duration timeout;

    private ProgramRunner(final Builder b) {
        this.program = b.program;
        this.pes = b.pes;
        this.options = b.options;
        this.args = List.copyOf(b.args);
        this.timeout = b.timeout;
    }

    /**
     * Starts describing a run.
     *
     * @param program what to run
     * @return a builder: the default PE count (the launched job's, else 4), no options, no arguments, no timeout
     */
    public static Builder builder(final Program program) {
        return new Builder(program);
    }

    /**
     * Prepares the program (compiling it if it is source), then runs it on every PE of this process.
     *
     * @return how it ended
     * @throws ProgramException         if the program does not compile (nothing ran)
     * @throws IllegalArgumentException if it cannot be started (no main method, a bad PE count; nothing ran)
     */
    public Result run() {
        final JobShape shape = JobShape.of(pes, System.getenv());
        shape.check(options);
        final Program.Prepared prepared = program.prepare();
        final ClassLoader parent = ProgramRunner.class.getClassLoader();
        final PeClassLoader[] loaders = new PeClassLoader[shape.localPes()];
        for (int i = 0; i < loaders.length; i++) {
            loaders[i] = prepared.loader(shape.firstPe() + i, parent);
        }
        // The PEs' main threads, and every thread the program starts, are one group: a job's deadlock test takes a
        // thread of it that runs or sleeps for one that may yet end a PE's wait.
        final ThreadGroup program = new ThreadGroup("jhpvm-program");
        final ProgramJob job = new ProgramJob(shape.npes(), shape.firstPe(), shape.localPes(), options, args,
            timeout, loaders, program);
        final Outcome outcome = new Outcome();
        final List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < loaders.length; i++) {
            final int pe = shape.firstPe() + i;
            final PeClassLoader loader = loaders[i];
            threads.add(PeThread.unstarted(program, "jhpvm-pe-" + pe + "-main", () -> {
                PeContext.enter(new PeContext(job, pe, false));
                Thread.currentThread().setContextClassLoader(loader);
                Throwable failure = null;
                try {
                    MainMethod.of(Class.forName(prepared.mainClass(), true, loader))
                        .invoke(args.toArray(new String[0]));
                    if (job.mpi().unfinished(pe)) {
                        throw new IllegalStateException("PE " + pe + "'s program ended without calling "
                            + "MPI.Finalize");
                    }
                } catch (Throwable t) {
                    failure = t;
                    outcome.record(pe, t);
                } finally {
                    try {
                        job.peEnded(pe, failure);
                    } finally {
                        outcome.ended();
                    }
                }
            }));
        }
        outcome.running(threads.size());
        threads.forEach(Thread::start);
        awaitAll(job, threads, outcome);
        if (job.mpi().started()) {
            try {
                job.mpi().await();
            } catch (MpiAbortException e) {
                outcome.record(e.rank(), e);
            }
        }
        for (final PeClassLoader l : loaders) {
            Program.close(l);
        }
        return outcome.result();
    }

    /**
     * Waits for the PEs' main threads to end, for the timeout, or (after a {@code globalExit}) for the exit grace: on
     * the outcome's monitor, which a thread's end and every recorded failure or exit notify (an idle job's runner
     * sleeps until something happens, rather than looking every few milliseconds).
     */
    private void awaitAll(final ProgramJob job, final List<Thread> threads, final Outcome outcome) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        boolean graceGiven = false;
        long exitSeenNs = 0;
        while (true) {
            final long seen = outcome.events();
            if (outcome.allEnded()) {
                joinBriefly(threads); // each has only its return left
                return;
            }
            final long now = System.nanoTime();
            long waitNs = deadlineNs - now;
            if (outcome.exitRequested()) {
                if (exitSeenNs == 0) {
                    exitSeenNs = now;
                } else if (now - exitSeenNs > EXIT_GRACE_NS) {
                    return; // the job was ended: PEs still in their own code are left to the JVM's exit
                }
                waitNs = Math.min(waitNs, exitSeenNs + EXIT_GRACE_NS - now + 1);
            }
            if (deadlineNs - now <= 0 && !graceGiven && job.jobRunning()) {
                // The job's own timeout (as long, started a little later) names what each PE waits for.
                graceGiven = true;
                deadlineNs += JOB_TIMEOUT_GRACE_NS;
                continue;
            }
            if (deadlineNs - now <= 0) {
                final StringBuilder report = new StringBuilder("the program did not finish within " + timeout
                    + ":");
                for (int i = 0; i < threads.size(); i++) {
                    report.append("\n  PE ").append(job.firstPe + i).append(": ");
                    UserTrace.where(threads.get(i), report);
                }
                outcome.record(Result.NO_PE, new TimeoutException(report.toString()));
                threads.forEach(Thread::interrupt);
                joinBriefly(threads);
                return;
            }
            try {
                outcome.awaitEvent(seen, waitNs);
            } catch (InterruptedException e) {
                // The runner itself was interrupted (Ctrl-C in an embedding program): end the PEs and say so.
                outcome.record(Result.NO_PE, e);
                threads.forEach(Thread::interrupt);
                joinBriefly(threads);
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void joinBriefly(final List<Thread> threads) {
        for (final Thread t : threads) {
            try {
                t.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The first failure, the globalExit status, and what PEs released by another's failure said. */
    private static final class Outcome {
        private int failedPe = Result.NO_PE;
        private Throwable root;
        private JhpvmAbortException released;
        private Throwable closed;
        private int closedPe = Result.NO_PE;
        private Integer exitStatus;
        /** PEs' main threads not yet ended, and the events (ends, records) so far: what the runner waits on. */
        private int running;
        private long events;

        synchronized void running(final int threads) {
            running = threads;
        }

        /** A PE's main thread is about to end. */
        synchronized void ended() {
            running--;
            events++;
            notifyAll();
        }

        synchronized boolean allEnded() {
            return running <= 0;
        }

        synchronized long events() {
            return events;
        }

        /** Waits until an event after {@code seen}, or {@code timeoutNs}. */
        synchronized void awaitEvent(final long seen, final long timeoutNs) throws InterruptedException {
            final long deadline = System.nanoTime() + timeoutNs;
            long left = timeoutNs;
            while (events == seen && left > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
                left = deadline - System.nanoTime();
            }
        }

        synchronized void record(final int pe, final Throwable t) {
            events++;
            notifyAll();
            final Integer status = t instanceof ProgramExit e ? Integer.valueOf(e.status)
                : t instanceof FmJobExit x ? Integer.valueOf(x.status())
                : t instanceof FmAbortException a && a.getCause() instanceof FmJobExit x ? Integer.valueOf(x.status())
                : t instanceof MpiAbortException a && a.getCause() instanceof FmJobExit x ? Integer.valueOf(x.status())
                : null;
            if (status != null) {
                if (exitStatus == null) {
                    exitStatus = status;
                }
            } else if (t instanceof JhpvmAbortException a) {
                if (released == null) {
                    released = a;
                }
            } else if (t instanceof FabricClosedException || t instanceof FmClosedException) {
                // A rank whose fabric closed under it because the job ended: the job's own cause comes first.
                if (closed == null) {
                    closedPe = pe;
                    closed = t;
                }
            } else if (root == null) {
                if (t instanceof ShmemAbortException a) {
                    failedPe = a.pe() == ShmemAbortException.NO_PE ? Result.NO_PE : a.pe();
                    root = a.getCause() != null ? a.getCause() : a;
                } else if (t instanceof FmAbortException a) {
                    failedPe = a.pe() == FmAbortException.NO_PE ? Result.NO_PE : a.pe();
                    root = a.getCause() != null ? a.getCause() : a;
                } else if (t instanceof MpiAbortException a) {
                    failedPe = a.rank() == MpiAbortException.NO_RANK ? Result.NO_PE : a.rank();
                    root = a.getCause() != null ? a.getCause() : a;
                } else {
                    failedPe = pe;
                    root = t;
                }
            }
        }

        synchronized boolean exitRequested() {
            return exitStatus != null;
        }

        synchronized Result result() {
            if (exitStatus != null) {
                return new Result(exitStatus, Result.NO_PE, null);
            }
            if (root != null) {
                return new Result(1, failedPe, root);
            }
            if (released != null) {
                return new Result(1, released.pe(), released);
            }
            if (closed != null) {
                return new Result(1, closedPe, closed);
            }
            return new Result(0, Result.NO_PE, null);
        }
    }

    /** Builds a {@link ProgramRunner}. */
    public static final class Builder {
        private final Program program;
        private int pes;
        private JobOptions options = JobOptions.none();
        private List<String> args = List.of();
        private Duration timeout = NO_TIMEOUT;

        private Builder(final Program program) {
            this.program = Objects.requireNonNull(program, "program");
        }

        /**
         * Sets the number of PEs.
         *
         * @param pes PEs of the job, at least 1; under a launched job it must be the job's (0: the default)
         * @return this
         * @throws IllegalArgumentException if negative
         */
        public Builder pes(final int pes) {
            if (pes < 0) {
                throw new IllegalArgumentException("--pes " + pes + ": must be at least 1");
            }
            this.pes = pes;
            return this;
        }

        /**
         * Sets the layers' options.
         *
         * @param options checked options for the layers
         * @return this
         */
        public Builder options(final JobOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Sets the arguments every PE's {@code main} gets.
         *
         * @param args the program's arguments
         * @return this
         */
        public Builder args(final List<String> args) {
            this.args = List.copyOf(args);
            return this;
        }

        /**
         * Limits how long the run may take.
         *
         * @param timeout the run fails (every PE interrupted) after this long
         * @return this
         * @throws IllegalArgumentException if not positive
         */
        public Builder timeout(final Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout " + timeout + ": must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Makes the runner.
         *
         * @return the runner
         */
        public ProgramRunner build() {
            return new ProgramRunner(this);
        }
    }
}
