package org.jhpvm.fm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

import org.jhpvm.fm.FmAbortException;
import org.jhpvm.fm.FmConfig;

/**
 * What the PEs of one job share: the first failure (which aborts every PE's blocking calls), and the counts the
 * exit barrier uses to tell that every message has been handled. Thread-safe.
 */
public final class JobControl {
    private static final VarHandle FAILURE;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(JobControl.class, "failure", Failure.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private record Failure(int pe, Throwable cause) {
    }

    private volatile Failure failure;
    private final int pes;
    private final AtomicInteger bodiesDone = new AtomicInteger();
    private final Endpoint[] endpoints;
    private final int localPes;
    private final RunSlots slots;
    private volatile java.util.function.BooleanSupplier jobWideEnd;
    private volatile Runnable bodiesDoneHook;
    /** The machine's cores, read once (the JDK reads the container's limits at every call). */
    private static final int MACHINE_CORES = Runtime.getRuntime().availableProcessors();
    /** This process's share of the host's cores: the machine's, divided among the job's processes on the host. */
    private volatile int hostCores = MACHINE_CORES;

    /** @param pes number of PEs, all in this JVM (run slots: FM's default policy) */
    public JobControl(final int pes) {
        this(pes, pes);
    }

    /**
     * @param pes      number of PEs in the job
     * @param localPes how many of them run in this JVM (the others in other processes: the end of the job is then
     *                 decided job-wide, see {@link #jobWideEnd}); run slots: FM's default policy
     */
    public JobControl(final int pes, final int localPes) {
        this(pes, localPes, FmConfig.defaults());
    }

    /**
     * @param pes      number of PEs in the job
     * @param localPes how many of them run in this JVM
     * @param config   FM's settings, for the run slots' policy, cores and quantum
     */
    public JobControl(final int pes, final int localPes, final FmConfig config) {
        this(pes, localPes, new RunSlots(config.scheduling(), config.cores(), config.quantumNs()));
    }

    /**
     * @param pes      number of PEs in the job
     * @param localPes how many of them run in this JVM
     * @param slots    the run slots of its PE threads (maybe shared with other jobs)
     */
    public JobControl(final int pes, final int localPes, final RunSlots slots) {
        this.pes = pes;
        this.localPes = localPes;
        this.endpoints = new Endpoint[pes];
        this.slots = slots;
    }

    /**
     * Says how many processes of the job share this host's cores (a launched job's), for the waits' spinning.
     *
     * @param n processes on this host, at least 1
     */
    public void processesOnHost(final int n) {
        this.hostCores = Math.max(1, MACHINE_CORES / Math.max(1, n));
    }

    /** @return the cores this process may count on for its PE threads: the machine's, shared by the host's processes */
    public int hostCores() {
        return hostCores;
    }

    /** @return the run slots of the job's PE threads in this process */
    public RunSlots slots() {
        return slots;
    }

    /**
     * For a job of several processes: the exit barrier ends when every local body is done and this says the whole
     * job has ended (every process's bodies done, every frame consumed).
     *
     * @param end the job-wide test
     */
    public void jobWideEnd(final java.util.function.BooleanSupplier end) {
        this.jobWideEnd = end;
    }

    /** @return true once every local PE's body has returned */
    public boolean localBodiesDone() {
        return bodiesDone.get() >= localPes;
    }

    /** @return data frames sent by the local PEs (read it after {@link #framesConsumed()}) */
    public long framesSent() {
        return sum(0);
    }

    /** @return data frames consumed by the local PEs */
    public long framesConsumed() {
        return sum(1);
    }

    /** @return number of PEs */
    public int pes() {
        return pes;
    }

    /**
     * Records a failure; the first one aborts the job.
     *
     * @param pe    the failing PE, or {@link FmAbortException#NO_PE}
     * @param cause what failed
     * @return true if this was the first failure
     */
    public boolean fail(final int pe, final Throwable cause) {
        return FAILURE.compareAndSet(this, null, new Failure(pe, cause));
    }

    /** @return true once the job is aborted */
    public boolean isAborted() {
        return failure != null;
    }

    /** @return the abort exception for the first failure, or null */
    public FmAbortException abortException() {
        final Failure f = failure;
        return f == null ? null : new FmAbortException(f.pe, f.cause);
    }

    /** Throws the abort exception if the job is aborted. */
    public void checkAborted() {
        if (failure != null) {
            throw abortException();
        }
    }

    void bodyDone() {
        if (bodiesDone.incrementAndGet() == localPes && bodiesDoneHook != null) {
            bodiesDoneHook.run();
        }
    }

    /**
     * What to tell when the last local body has returned (a launched job's session, whose coordinator then starts the
     * probes of the job's end at once).
     *
     * @param hook called once, on the PE thread whose body returned last
     */
    public void onLocalBodiesDone(final Runnable hook) {
        this.bodiesDoneHook = hook;
    }

    void register(final Endpoint endpoint) {
        endpoints[endpoint.pe()] = endpoint;
    }

    /**
     * Termination test, the four-counter method: every body has returned, and the frames consumed (read first)
     * equal the frames sent (read second), twice in a row. A frame's sender counts it (release) before it leaves,
     * and its receiver counts it after consuming it, so a consumed frame is never missing from the sent total; once
     * every body has returned only handlers send, and they run only on a consumed frame.
     */
    boolean allDone() {
        if (bodiesDone.get() < localPes) {
            return false;
        }
        final java.util.function.BooleanSupplier end = jobWideEnd;
        if (end != null) {
            return end.getAsBoolean();
        }
        final long consumed1 = sum(1);
        final long sent1 = sum(0);
        if (sent1 != consumed1) {
            return false;
        }
        return sum(1) == consumed1 && sum(0) == sent1;
    }

    private long sum(final int which) {
        long s = 0;
        for (final Endpoint e : endpoints) {
            if (e == null) {
                continue;
            }
            s += which == 0 ? e.framesSentAcquire() : e.framesConsumedAcquire();
        }
        return s;
    }
}
