package org.jhpvm.fm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FabricOption;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fabric.ProcessFabric;
import org.jhpvm.fm.internal.Endpoint;
import org.jhpvm.fm.internal.JobControl;
import org.jhpvm.fm.internal.JobWatch;
import org.jhpvm.fm.internal.LaunchedJobHooks;

/**
 * The in-JVM launcher: starts one thread per PE over one emulated fabric, each running the body with its own FM
 * endpoint, and returns when every PE has finished. A PE whose body returns keeps extracting (an exit barrier)
 * until every PE's body has returned and every message sent has been handled, so messages sent late are never
 * lost.
 * <p>
 * If a PE throws, the job is aborted: every other PE's blocking FM call ends with an {@link FmAbortException}
 * within about a millisecond (PE threads are also interrupted), and {@link #run(Body)} throws an
 * {@link FmAbortException} with the first cause and its PE number once every PE thread has ended. A job that
 * exceeds its timeout is aborted the same way.
 * <p>
 * In a process started by a launcher ({@code bin/jhpvm launch}, or srun/mpirun with the environment
 * {@code ProcessFabric.launched()} reads), the job runs this process's share of the launched job's PEs over the
 * launched fabric (Aeron) instead; its PE count must equal the launched job's, the exit barrier and aborts are
 * job-wide, and the report holds this process's PEs only. Fabric settings ({@link Builder#fabric},
 * {@code fabric.*} options) describe the emulated fabric: such a job refuses them rather than ignore them.
 * <p>
 * Example: {@code FmJob.builder().pes(4).build().run(fm -> ...)}.
 */
public final class FmJob {
    /** What each PE runs. */
    @FunctionalInterface
    public interface Body {
        /**
         * Runs one PE's part of the job, on a thread of its own, with the PE's endpoint; use {@code fm} from this
         * thread only (and from the handlers it runs). When it returns, the PE stays in the exit barrier, extracting,
         * until every PE's body has returned and every frame sent has been consumed.
         *
         * @param fm this PE's endpoint
         * @throws Exception any failure aborts the job
         */
        void run(FastMessages fm) throws Exception;
    }

    /**
     * What a finished job did.
     *
     * @param perPe        each PE's FM counters
     * @param fabricTotals the fabric's counters added up over its NICs
     * @param elapsedNs    wall time of the run
     */
    public record Report(List<FmCounters> perPe, NicCounters fabricTotals, long elapsedNs) {
        /**
         * Adds up the FM counters of the PEs in {@link #perPe()} (in a launched job, this process's PEs only).
         *
         * @return the FM counters of all PEs added up
         */
        public FmCounters totals() {
            FmCounters t = FmCounters.zero();
            for (final FmCounters c : perPe) {
                t = t.plus(c);
            }
            return t;
        }
    }

    private static final long EXIT_GRACE_NS = TimeUnit.SECONDS.toNanos(5);
    /** Longest wait for the other processes' descriptions of their PEs. */
    private static final long DESCRIBE_WAIT_NS = TimeUnit.SECONDS.toNanos(2);
    /** How often the launching thread looks at the job for a deadlock (and a timeout). */
    private static final long WATCH_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final String FABRIC_PREFIX = "fabric.";

    private final FabricConfig fabricConfig;
    private final FmConfig fmConfig;
    private final Duration timeout;
    private final ThreadGroup threadGroup;

    private final boolean inProcess;
    /** Fabric settings other than the defaults: they describe the emulated fabric, which a launched job lacks. */
    private final boolean fabricCustomized;

    private FmJob(final FabricConfig fabricConfig, final FmConfig fmConfig, final Duration timeout,
                  final ThreadGroup threadGroup, final boolean inProcess, final boolean fabricCustomized) {
        this.fabricConfig = fabricConfig;
        this.fmConfig = fmConfig;
        this.timeout = timeout;
        this.threadGroup = threadGroup;
        this.inProcess = inProcess;
        this.fabricCustomized = fabricCustomized;
    }

    /**
     * Starts a builder; each call returns a new, independent builder.
     *
     * @return a builder: 2 PEs, default fabric and FM settings, a 10-minute timeout
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs {@code pes} PEs with the defaults.
     *
     * @param pes  number of PEs
     * @param body what each PE runs
     * @return the report
     * @throws FmAbortException if a PE failed or the job timed out
     */
    public static Report run(final int pes, final Body body) {
        return builder().pes(pes).build().run(body);
    }

    /**
     * Every option {@link Builder#option(String, String)} accepts: FM's own ({@code fm.*}) and the fabric's
     * ({@code fabric.*}), with their types, defaults and meanings, taken from the parsers' tables.
     *
     * @return the options, FM's first
     */
    public static List<FmOption> options() {
        final List<FmOption> all = new ArrayList<>(FmConfig.options());
        for (final FabricOption o : FabricConfig.options()) {
            all.add(new FmOption(FABRIC_PREFIX + o.key(), o.type(), o.defaultValue(), o.meaning()));
        }
        return List.copyOf(all);
    }

    /**
     * Returns the settings of the emulated fabric the job runs on in this JVM. In a process of a launched job only
     * their {@code nicCount}, the number of PEs, is used: the launched fabric has settings of its own.
     *
     * @return the fabric settings this job runs on
     */
    public FabricConfig fabricConfig() {
        return fabricConfig;
    }

    /**
     * The PEs of this job that {@link #run} runs in this JVM: every PE, or in a process of a launched job its share
     * (consecutive numbers). The PEs listed share memory: they can reach each other's arrays directly.
     *
     * @return this JVM's PE numbers, ascending
     */
    public int[] localPes() {
        final Optional<ProcessFabric> launched = inProcess ? Optional.empty() : ProcessFabric.launched();
        final int first = launched.map(ProcessFabric::firstLocalNic).orElse(0);
        final int count = launched.map(ProcessFabric::localNicCount).orElse(fabricConfig.nicCount());
        final int[] pes = new int[count];
        for (int i = 0; i < count; i++) {
            pes[i] = first + i;
        }
        return pes;
    }

    /**
     * Runs the job.
     *
     * @param body what each PE runs
     * @return what the job did
     * @throws FmAbortException if a PE failed (with its PE number and cause) or the job timed out
     */
    public Report run(final Body body) {
        Objects.requireNonNull(body, "body");
        final Optional<ProcessFabric> launched = inProcess ? Optional.empty() : ProcessFabric.launched();
        if (launched.isPresent()) {
            return runLaunched(launched.get(), body);
        }
        final int pes = fabricConfig.nicCount();
        final long startNs = System.nanoTime();
        final JobControl job = new JobControl(pes, pes, Scheduler.slotsFor(fmConfig));
        final List<FmCounters> counters;
        final NicCounters fabricTotals;
        try (Fabric fabric = EmulatedMyrinet.create(fabricConfig)) {
            counters = execute(fabric, 0, pes, job, null, null, body);
            fabricTotals = fabric.totals();
        }
        return new Report(List.copyOf(counters), fabricTotals, System.nanoTime() - startNs);
    }

    /**
     * This process's share of a launched job of several processes: its PEs only, on the process's fabric (which stays
     * open for the process's next job); the exit barrier and aborts are job-wide.
     */
    private Report runLaunched(final ProcessFabric fabric, final Body body) {
        if (fabricCustomized) {
            throw new IllegalArgumentException("fabric settings (fabric.* options: frame size, rings, fault plan) "
                + "describe the emulated Myrinet, but this process is part of a launched job, which runs on "
                + fabric.getClass().getSimpleName() + ": leave them out");
        }
        final int pes = fabricConfig.nicCount();
        if (pes != fabric.nicCount()) {
            throw new IllegalArgumentException("job size mismatch: this job asks for " + pes + " PEs, the launched "
                + "job has " + fabric.nicCount() + " (" + fabric.processes() + " processes of "
                + fabric.localNicCount() + ")");
        }
        final long startNs = System.nanoTime();
        final JobControl job = new JobControl(pes, fabric.localNicCount(), Scheduler.slotsFor(fmConfig));
        job.processesOnHost(fabric.processesOnHost());
        final LaunchedJobHooks hooks = new LaunchedJobHooks(job, fmConfig.deadlockAfterNs());
        final ProcessFabric.JobSession session = fabric.beginJob(hooks);
        try {
            job.jobWideEnd(session::terminated);
            job.onLocalBodiesDone(session::localBodiesDone);
            final List<FmCounters> counters = execute(fabric, fabric.firstLocalNic(), fabric.localNicCount(), job,
                session, hooks, body);
            return new Report(List.copyOf(counters), fabric.totals(), System.nanoTime() - startNs);
        } finally {
            session.close();
        }
    }

    /** Runs PEs {@code first .. first+count-1} of the job on the fabric; returns their counters or throws the abort. */
    private List<FmCounters> execute(final Fabric fabric, final int first, final int count, final JobControl job,
                                     final ProcessFabric.JobSession session, final LaunchedJobHooks hooks,
                                     final Body body) {
        final Endpoint[] endpoints = new Endpoint[count];
        final Thread[] threads = new Thread[count];
        // The program's threads: the PE threads, and any thread a body starts (it inherits the group).
        final ThreadGroup group = threadGroup != null ? threadGroup
            : new ThreadGroup(Thread.currentThread().getThreadGroup(), "jhpvm-job");
        final CountDownLatch finished = new CountDownLatch(count);
        final List<FmCounters> counters = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            endpoints[i] = new Endpoint(fabric, first + i, fmConfig, job);
        }
        for (int i = 0; i < count; i++) {
            final Endpoint ep = endpoints[i];
            threads[i] = PeThread.unstarted(group, "jhpvm-pe-" + (first + i), () -> {
                try {
                    ep.enterRunSlot();
                    body.run(ep);
                    ep.exitBarrier();
                } catch (Throwable t) {
                    if (!(t instanceof FmAbortException && job.isAborted()) && job.fail(ep.pe(), t)) {
                        interruptAll(threads);
                        if (session != null && t instanceof FmJobExit x) {
                            session.reportExit(ep.pe(), x.status());
                        } else if (session != null) {
                            session.reportFailure(ep.pe(), String.valueOf(t));
                        }
                    }
                } finally {
                    ep.leaveRunSlot();
                    finished.countDown();
                }
            });
        }
        final Thread[] own = Arrays.copyOf(threads, count + 1);
        own[count] = Thread.currentThread();
        final JobWatch watch = new JobWatch(job, endpoints, own, group, fmConfig.deadlockAfterNs());
        if (hooks != null) {
            hooks.started(threads, watch);
        }
        for (final Thread t : threads) {
            t.start();
        }
        awaitAll(job, endpoints, threads, finished, watch, session);
        final Throwable cause = job.isAborted() ? job.abortException().getCause() : null;
        if (session != null && cause != null && !(cause instanceof FmJobExit) && !(cause instanceof FmRemoteFailure)) {
            // A timeout, or an interrupt of the launching thread, is this process's failure: tell the others. (An
            // exit was told by the PE that asked for it, or came from another process.)
            final FmAbortException a = job.abortException();
            session.reportFailure(a.pe() == FmAbortException.NO_PE ? first : a.pe(), String.valueOf(a.getCause()));
        }
        for (final Endpoint ep : endpoints) {
            ep.close();
            counters.add(ep.counters());
        }
        final List<String> stuck = new ArrayList<>();
        for (final Thread t : threads) {
            try {
                t.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                stuck.add(t.getName());
            }
        }
        final FmAbortException abort = job.abortException();
        if (abort != null) {
            if (!stuck.isEmpty()) {
                abort.addSuppressed(new IllegalStateException("PE threads still running after the abort: " + stuck));
            }
            throw abort;
        }
        return counters;
    }

    /**
     * Waits for every PE thread, looking at the job every {@link #WATCH_EVERY_NS}: a job past its timeout, or
     * deadlocked, is aborted with a report naming each PE's state. In a launched job the deadlock test is job-wide
     * (the fabric's), and rank 0 reports both, with every process's PEs; the other processes' own timeouts come
     * {@link #EXIT_GRACE_NS} later, in case rank 0 cannot report.
     */
    private void awaitAll(final JobControl job, final Endpoint[] endpoints, final Thread[] threads,
                          final CountDownLatch finished, final JobWatch watch,
                          final ProcessFabric.JobSession session) {
        boolean interrupted = false;
        final boolean reporter = session == null || session.reporter();
        final long deadlineNs = System.nanoTime() + timeout.toNanos() + (reporter ? 0 : EXIT_GRACE_NS);
        try {
            while (!finished.await(Math.max(1, Math.min(WATCH_EVERY_NS, deadlineNs - System.nanoTime())),
                TimeUnit.NANOSECONDS)) {
                final long nowNs = System.nanoTime();
                final Throwable cause;
                if (nowNs - deadlineNs >= 0) {
                    final StringBuilder state = new StringBuilder("job did not finish within " + timeout + ":");
                    state.append(allPes(watch, session));
                    state.append("\nFM's state:");
                    for (final Endpoint ep : endpoints) {
                        state.append('\n').append(ep.describe());
                    }
                    cause = new TimeoutException(state.toString());
                } else if (fmConfig.deadlockAfterNs() > 0 && !job.isAborted()
                    && (session == null ? watch.deadlocked(nowNs) : session.deadlocked())) {
                    cause = new FmDeadlockException("deadlock: every PE waits, no message is in flight, and nothing "
                        + "has changed for " + TimeUnit.NANOSECONDS.toMillis(fmConfig.deadlockAfterNs()) + " ms:"
                        + allPes(watch, session));
                } else {
                    continue;
                }
                if (job.fail(FmAbortException.NO_PE, cause)) {
                    interruptAll(threads);
                }
                break;
            }
        } catch (InterruptedException e) {
            interrupted = true;
            job.fail(FmAbortException.NO_PE, e);
            interruptAll(threads);
        }
        try {
            finished.await(EXIT_GRACE_NS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** One line per PE: this JVM's, or in a launched job every process's (gathered for at most 2 s). */
    private static String allPes(final JobWatch watch, final ProcessFabric.JobSession session) {
        final StringBuilder local = new StringBuilder();
        watch.describe(local);
        return session == null ? local.toString() : session.describeAllPes(local.toString(), DESCRIBE_WAIT_NS);
    }

    private static void interruptAll(final Thread[] threads) {
        for (final Thread t : threads) {
            if (t != null && t != Thread.currentThread()) {
                t.interrupt();
            }
        }
    }

    /** Builds an {@link FmJob}. Not thread-safe: use a builder on one thread. */
    public static final class Builder {
        private int pes = 2;
        private FabricConfig fabricConfig;
        private FmConfig fmConfig = FmConfig.defaults();
        private Duration timeout = Duration.ofMinutes(10);
        private boolean inProcess;
        private ThreadGroup threadGroup;
        private final Map<String, String> options = new LinkedHashMap<>();
        private final Map<String, String> fmOptions = new LinkedHashMap<>();
        private boolean fmConfigGiven;

        private Builder() {
        }

        /**
         * Sets the number of PEs, each with a NIC and a thread of its own; ignored when a {@link #fabric} config is
         * given, whose {@code nicCount} counts instead. Checked by {@link #build()}.
         *
         * @param pes number of PEs (one NIC each), 1 to {@code FabricConfig.MAX_NICS}
         * @return this
         */
        public Builder pes(final int pes) {
            this.pes = pes;
            return this;
        }

        /**
         * Sets all the emulated fabric's settings at once (frame and ring sizes, fault plan, ...); {@code fabric.*}
         * options are then ignored. A process of a launched job refuses, in {@link FmJob#run(Body)}, settings other
         * than the defaults.
         *
         * @param config the fabric's settings; its nicCount is the number of PEs (overrides pes)
         * @return this
         * @throws NullPointerException if {@code config} is null
         */
        public Builder fabric(final FabricConfig config) {
            fabricConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * Sets all of FM's settings at once; {@code fm.*} options are then ignored.
         *
         * @param config FM settings
         * @return this
         * @throws NullPointerException if {@code config} is null
         */
        public Builder fm(final FmConfig config) {
            fmConfig = Objects.requireNonNull(config, "config");
            fmConfigGiven = true;
            return this;
        }

        /**
         * Sets an option by name, for layers above that must not name fabric or FM types: {@code fabric.KEY=VALUE}
         * goes to the fabric's builder (frame size, ring sizes, fault plan, ...), {@code fm.KEY=VALUE} to FM's
         * ({@link FmConfig.Builder#option}). {@link FmJob#options()} lists every key. Fabric options apply when no
         * {@link #fabric} config is given, FM options when no {@link #fm} config is given.
         *
         * @param key   option name, with its layer prefix
         * @param value value
         * @return this
         * @throws IllegalArgumentException if the key is unknown or the value cannot be parsed (checked here; nothing
         *                                  is changed then)
         */
        public Builder option(final String key, final String value) {
            if (key.startsWith(FABRIC_PREFIX)) {
                FabricConfig.builder(1).option(key.substring(FABRIC_PREFIX.length()), value);
                options.put(key.substring(FABRIC_PREFIX.length()), value);
            } else if (key.startsWith(FmOptions.PREFIX)) {
                FmConfig.builder().option(key, value);
                fmOptions.put(key, value);
            } else {
                throw new IllegalArgumentException("unknown FM job option '" + key + "' (fm.* keys go to FM, "
                    + "fabric.* keys to the fabric)");
            }
            return this;
        }

        /**
         * Sets how long the job may run: past it the job is aborted, every PE's waiting FM call ends with an
         * {@link FmAbortException}, and {@link FmJob#run(Body)} throws one whose cause lists each PE's protocol state.
         * Default 10 minutes.
         *
         * @param timeout the job is aborted after this long
         * @return this
         * @throws IllegalArgumentException if {@code timeout} is zero or negative (nothing is changed then)
         */
        public Builder timeout(final Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout=" + timeout + " must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets the thread group of the program the job runs for: the PE threads are made in it, and the job's
         * deadlock test counts its other platform threads as the program's (a thread of the program that runs or
         * sleeps may still end a PE's wait, so the job is not deadlocked while one does). By default each run makes
         * a group of its own, inside the group of the thread that runs it, which holds the PE threads and the
         * threads their bodies start.
         *
         * @param group the program's thread group
         * @return this
         * @throws NullPointerException if {@code group} is null
         */
        public Builder threadGroup(final ThreadGroup group) {
            threadGroup = Objects.requireNonNull(group, "group");
            return this;
        }

        /**
         * Runs every PE in this JVM on the emulated fabric even in a process of a launched job (which otherwise
         * runs its share of the launched job's PEs): for measurements that compare the two.
         *
         * @return this
         */
        public Builder inProcess() {
            inProcess = true;
            return this;
        }

        /**
         * Makes the job from the settings given (options are applied here, unless a whole config was given); the
         * builder may be changed and used again afterwards.
         *
         * @return the job
         * @throws IllegalArgumentException if the number of PEs is out of range, or an option's value is, naming it
         */
        public FmJob build() {
            FabricConfig fabric = fabricConfig;
            if (fabric == null) {
                final FabricConfig.Builder b = FabricConfig.builder(pes);
                options.forEach(b::option);
                fabric = b.build();
            }
            FmConfig fm = fmConfig;
            if (!fmConfigGiven && !fmOptions.isEmpty()) {
                final FmConfig.Builder b = FmConfig.builder();
                fmOptions.forEach(b::option);
                fm = b.build();
            }
            // Settings equal to the defaults change nothing, wherever the job runs.
            final boolean customized = !fabric.equals(FabricConfig.builder(fabric.nicCount()).build());
            return new FmJob(fabric, fm, timeout, threadGroup, inProcess, customized);
        }
    }
}
