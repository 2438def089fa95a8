package org.jhpvm.fm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jhpvm.fabric.EmulatedMyrinet;
import org.jhpvm.fabric.Fabric;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.NicCounters;
import org.jhpvm.fm.internal.Endpoint;
import org.jhpvm.fm.internal.JobControl;

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
 * Example: {@code FmJob.builder().pes(4).build().run(fm -> ...)}.
 */
public final class FmJob {
    /** What each PE runs. */
    @FunctionalInterface
    public interface Body {
        /**
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
        /** @return the FM counters of all PEs added up */
        public FmCounters totals() {
            FmCounters t = FmCounters.zero();
            for (final FmCounters c : perPe) {
                t = t.plus(c);
            }
            return t;
        }
    }

    private static final long EXIT_GRACE_NS = TimeUnit.SECONDS.toNanos(5);

    private final FabricConfig fabricConfig;
    private final FmConfig fmConfig;
    private final Duration timeout;

    private FmJob(final FabricConfig fabricConfig, final FmConfig fmConfig, final Duration timeout) {
        this.fabricConfig = fabricConfig;
        this.fmConfig = fmConfig;
        this.timeout = timeout;
    }

    /** @return a builder: 2 PEs, default fabric and FM settings, a 10-minute timeout */
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

    /** @return the fabric settings this job runs on */
    public FabricConfig fabricConfig() {
        return fabricConfig;
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
        final int pes = fabricConfig.nicCount();
        final long startNs = System.nanoTime();
        final JobControl job = new JobControl(pes);
        final Endpoint[] endpoints = new Endpoint[pes];
        final Thread[] threads = new Thread[pes];
        final CountDownLatch finished = new CountDownLatch(pes);
        final List<FmCounters> counters = new ArrayList<>(pes);
        final NicCounters fabricTotals;
        try (Fabric fabric = EmulatedMyrinet.create(fabricConfig)) {
            for (int pe = 0; pe < pes; pe++) {
                endpoints[pe] = new Endpoint(fabric, pe, fmConfig, job);
            }
            for (int pe = 0; pe < pes; pe++) {
                final Endpoint ep = endpoints[pe];
                threads[pe] = Thread.ofPlatform().name("jhpvm-pe-" + pe).daemon(true).unstarted(() -> {
                    try {
                        body.run(ep);
                        ep.exitBarrier();
                    } catch (Throwable t) {
                        if (!(t instanceof FmAbortException && job.isAborted()) && job.fail(ep.pe(), t)) {
                            interruptAll(threads);
                        }
                    } finally {
                        finished.countDown();
                    }
                });
            }
            for (final Thread t : threads) {
                t.start();
            }
            awaitAll(job, endpoints, threads, finished);
            for (final Endpoint ep : endpoints) {
                ep.close();
                counters.add(ep.counters());
            }
            fabricTotals = fabric.totals();
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
        return new Report(List.copyOf(counters), fabricTotals, System.nanoTime() - startNs);
    }

    private void awaitAll(final JobControl job, final Endpoint[] endpoints, final Thread[] threads, final CountDownLatch finished) {
        boolean interrupted = false;
        try {
            if (!finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                final StringBuilder state = new StringBuilder("job did not finish within " + timeout);
                for (final Endpoint ep : endpoints) {
                    state.append('\n').append(ep.describe());
                }
                if (job.fail(FmAbortException.NO_PE, new TimeoutException(state.toString()))) {
                    interruptAll(threads);
                }
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

    private static void interruptAll(final Thread[] threads) {
        for (final Thread t : threads) {
            if (t != null && t != Thread.currentThread()) {
                t.interrupt();
            }
        }
    }

    /** Builds an {@link FmJob}. */
    public static final class Builder {
        private int pes = 2;
        private FabricConfig fabricConfig;
        private FmConfig fmConfig = FmConfig.defaults();
        private Duration timeout = Duration.ofMinutes(10);
        private final Map<String, String> options = new LinkedHashMap<>();

        private Builder() {
        }

        /** @param pes number of PEs (one NIC each) @return this */
        public Builder pes(final int pes) {
            this.pes = pes;
            return this;
        }

        /** @param config the fabric's settings; its nicCount is the number of PEs (overrides pes) @return this */
        public Builder fabric(final FabricConfig config) {
            fabricConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** @param config FM settings @return this */
        public Builder fm(final FmConfig config) {
            fmConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * Sets an option by name, for layers above that must not name fabric types: {@code fabric.KEY=VALUE} goes to
         * the fabric's builder ({@code FabricConfig.Builder#option}: frame size, ring sizes, fault plan).
         * Options apply when no {@link #fabric} config is given.
         *
         * @param key   option name, with its layer prefix
         * @param value value
         * @return this
         * @throws IllegalArgumentException if the key is unknown or the value invalid (checked here)
         */
        public Builder option(final String key, final String value) {
            if (!key.startsWith("fabric.")) {
                throw new IllegalArgumentException("unknown FM job option '" + key + "' (fabric.* keys go to the "
                    + "fabric)");
            }
            FabricConfig.builder(1).option(key.substring("fabric.".length()), value);
            options.put(key.substring("fabric.".length()), value);
            return this;
        }

        /** @param timeout the job is aborted after this long @return this */
        public Builder timeout(final Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout=" + timeout + " must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /** @return the job */
        public FmJob build() {
            FabricConfig fabric = fabricConfig;
            if (fabric == null) {
                final FabricConfig.Builder b = FabricConfig.builder(pes);
                options.forEach(b::option);
                fabric = b.build();
            }
            return new FmJob(fabric, fmConfig, timeout);
        }
    }
}
