package org.jhpvm.runtime;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.jhpvm.mpi.AttachedJob;
import org.jhpvm.mpi.MpiJob;
import org.jhpvm.shmem.Shmem;
import org.jhpvm.shmem.ShmemAbortException;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.ThreadLevel;

/**
 * One run of a user's program in this process: its PEs, options and arguments, and the rendezvous that turns the
 * PEs' calls of {@link Jhpvm#shmem} into one SHMEM job.
 * <p>
 * Under {@code bin/jhpvm run} each PE of this process runs the program's {@code main} on its own thread, in its own
 * class loader. When a PE calls {@link Jhpvm#shmem} its body is parked here; when every PE of this process has
 * arrived, the last one runs the SHMEM job, whose PE thread {@code p} runs PE {@code p}'s body (so the body sees
 * that PE's classes and statics), and every PE returns (or throws) with the job's outcome. The calls are collective,
 * like {@code shmem_init}: a PE whose program ends (returns or throws) while others wait for it releases them with a
 * {@link JhpvmAbortException} naming it, and so does a later call once a PE has ended.
 * <p>
 * Thread-safety: the rendezvous state is guarded by this object's monitor; the job runs outside it.
 */
final class ProgramJob {
    final int npes;
    final int firstPe;
    final int localPes;
    final JobOptions options;
    final List<String> args;
    private final ShmemJob shmemJob;
    /** For a job at a higher thread level than the options ask for (a PE's {@code Jhpvm.shmem(args, level, ...)}). */
    private final ShmemJob.Builder shmemBuilder;
    /** The thread level the options ask for ({@code shmem.threadLevel}, default FUNNELED). */
    private final ThreadLevel optionLevel;
    /** The MPI ranks of this process, joined by PEs' main threads at {@code MPI.Init} (run mode), else null. */
    private final AttachedJob mpiJob;
    /** Each local PE's class loader (run mode), or null (library mode: one body for every PE, no program threads). */
    private final ClassLoader[] loaders;

    private final ShmemJob.Body[] waiting;
    private final ThreadLevel[] requested;
    /** Whether a SHMEM job of this run is running (its own timeout then reports each PE's state). */
    private volatile boolean shmemRunning;
    private int arrived;
    private long generation;
    private Object lastOutcome;
    private JhpvmAbortException ended;

    /**
     * @param npes     PEs in the whole job
     * @param firstPe  the first PE of this process
     * @param localPes PEs in this process
     * @param options  checked options for the layers
     * @param args     the program's arguments
     * @param timeout  a SHMEM job is aborted after this long
     * @param loaders  each local PE's class loader, or null in library mode
     * @param program  the thread group of the PEs' main threads (run mode: the jobs' deadlock test counts its
     *                 threads as the program's), or null
     */
    ProgramJob(final int npes, final int firstPe, final int localPes, final JobOptions options,
               final List<String> args, final Duration timeout, final ClassLoader[] loaders,
               final ThreadGroup program) {
        this.npes = npes;
        this.firstPe = firstPe;
        this.localPes = localPes;
        this.options = options;
        this.args = List.copyOf(args);
        this.loaders = loaders;
        this.waiting = new ShmemJob.Body[localPes];
        this.requested = new ThreadLevel[localPes];
        final ShmemJob.Builder sb = ShmemJob.builder().pes(npes).timeout(timeout);
        if (program != null) {
            sb.threadGroup(program);
        }
        this.shmemBuilder = options.applyTo(sb);
        this.shmemJob = shmemBuilder.build();
        final String level = options.values().get("shmem.threadLevel");
        this.optionLevel = level == null ? ThreadLevel.FUNNELED
            : ThreadLevel.valueOf(level.trim().toUpperCase(java.util.Locale.ROOT));
        if (loaders != null) {
            final MpiJob.Builder mb = MpiJob.builder().ranks(npes).timeout(timeout);
            if (program != null) {
                mb.threadGroup(program);
            }
            this.mpiJob = new AttachedJob(options.applyTo(mb).build());
        } else {
            this.mpiJob = null;
        }
    }

    /** @return whether a SHMEM or MPI job of this run has started and may still run (its timeout reports the PEs) */
    boolean jobRunning() {
        return shmemRunning || mpiJob != null && mpiJob.started();
    }

    /** The MPI job PEs' main threads join at {@code MPI.Init} (run mode), or null. */
    AttachedJob mpi() {
        return mpiJob;
    }

    /**
     * Runs one body on every PE of this process (library mode: the caller is not a PE).
     *
     * @param body what each PE runs
     * @return the job's report
     * @throws ShmemAbortException if a PE failed or the job timed out
     */
    ShmemJob.Report runAll(final ThreadLevel level, final ShmemJob.Body body) {
        final ShmemJob.Body[] all = new ShmemJob.Body[localPes];
        Arrays.fill(all, body);
        return jobAt(level).run(sh -> runBody(all, sh));
    }

    /**
     * The job at the thread level a call asks for ({@code shmem_init_thread}): what the options ask for, or higher if
     * a PE asks for more (each PE provides at least what it asked).
     */
    private ShmemJob jobAt(final ThreadLevel level) {
        if (level == null || level.compareTo(optionLevel) <= 0) {
            return shmemJob;
        }
        synchronized (shmemBuilder) {
            return shmemBuilder.threadLevel(level).build();
        }
    }

    /**
     * PE {@code pe}'s call of {@link Jhpvm#shmem} (run mode): waits for the other PEs of this process, runs the job
     * with every PE's body, returns when it ends.
     *
     * @param pe   the calling PE
     * @param body its body
     * @throws ShmemAbortException if a PE failed or the job timed out
     * @throws JhpvmAbortException if a PE ended without making the call, or the wait was interrupted
     * @throws ProgramExit         if a PE called globalExit
     */
    void shmem(final int pe, final ThreadLevel level, final ShmemJob.Body body) {
        final int i = pe - firstPe;
        final ShmemJob.Body[] batch;
        ThreadLevel highest = null;
        synchronized (this) {
            if (ended != null) {
                throw new JhpvmAbortException(ended.pe(), ended.getMessage(), ended.getCause());
            }
            if (waiting[i] != null) {
                throw new IllegalStateException("PE " + pe + " is already in Jhpvm.shmem (one call at a time per PE)");
            }
            waiting[i] = body;
            requested[i] = level;
            if (++arrived < localPes) {
                final long myGeneration = generation;
                while (generation == myGeneration && ended == null) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        waiting[i] = null;
                        requested[i] = null;
                        arrived--;
                        Thread.currentThread().interrupt();
                        throw new JhpvmAbortException(pe, "PE " + pe + " was interrupted waiting in Jhpvm.shmem", e);
                    }
                }
                if (generation == myGeneration) {
                    throw new JhpvmAbortException(ended.pe(), ended.getMessage(), ended.getCause());
                }
                deliver(lastOutcome);
                return;
            }
            batch = waiting.clone();
            for (final ThreadLevel l : requested) {
                if (l != null && (highest == null || l.compareTo(highest) > 0)) {
                    highest = l;
                }
            }
            Arrays.fill(waiting, null);
            Arrays.fill(requested, null);
            arrived = 0;
        }
        Object outcome;
        RuntimeException notRun = null;
        shmemRunning = true;
        try {
            outcome = jobAt(highest).run(sh -> runBody(batch, sh));
        } catch (ShmemAbortException e) {
            outcome = e;
        } catch (RuntimeException e) {
            // The job could not start (an option FM refuses once it knows the fabric, such as a window too large for
            // its frames): this PE reports it, and the PEs waiting for this run are released with it, not left waiting.
            notRun = e;
            outcome = new JhpvmAbortException(pe, "PE " + pe + " could not start the SHMEM job: " + e, e);
        } finally {
            shmemRunning = false;
        }
        synchronized (this) {
            lastOutcome = outcome;
            generation++;
            notifyAll();
        }
        if (notRun != null) {
            throw notRun;
        }
        deliver(outcome);
    }

    /**
     * A PE's program has ended: PEs waiting for it in {@link #shmem} are released, and later calls are refused.
     *
     * @param pe      the PE
     * @param failure what it ended with, or null if its main returned
     */
    synchronized void peEnded(final int pe, final Throwable failure) {
        if (mpiJob != null) {
            // After MPI.Finalize this does nothing; otherwise the rank leaves the MPI job (ending it if it runs).
            mpiJob.leave(pe, failure != null ? failure : new IllegalStateException("PE " + pe + "'s program ended "
                + "without calling MPI.Finalize"));
        }
        if (ended != null) {
            return;
        }
        // A PE released by another's failure, or by the job's own abort, has nothing new to tell the others.
        if (failure instanceof JhpvmAbortException || failure instanceof ShmemAbortException
            || failure instanceof ProgramExit) {
            return;
        }
        final String what = failure == null ? "PE " + pe + "'s program ended without calling Jhpvm.shmem as often "
            + "as the other PEs (every PE must make the same calls)" : "PE " + pe + " failed: " + failure;
        ended = new JhpvmAbortException(pe, what, failure);
        if (arrived > 0) {
            notifyAll();
        }
    }

    private void runBody(final ShmemJob.Body[] bodies, final Shmem sh) throws Exception {
        final int i = sh.myPe() - firstPe;
        PeContext.enter(new PeContext(this, sh.myPe(), true));
        if (loaders != null) {
            Thread.currentThread().setContextClassLoader(loaders[i]);
        }
        bodies[i].run(sh);
    }

    private static void deliver(final Object outcome) {
        if (outcome instanceof ShmemAbortException e) {
            throw e;
        }
        if (outcome instanceof JhpvmAbortException e) {
            throw new JhpvmAbortException(e.pe(), e.getMessage(), e.getCause());
        }
        final ShmemJob.Report report = (ShmemJob.Report) outcome;
        if (report.globalExit()) {
            throw new ProgramExit(report.exitStatus());
        }
    }
}
