package org.jhpvm.mpi;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import mpi.MPI;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmAbortException;
import org.jhpvm.fm.FmCounters;
import org.jhpvm.fm.FmJob;
import org.jhpvm.fm.FmJobExit;
import org.jhpvm.mpi.internal.Engine;
import org.jhpvm.mpi.internal.RankBinding;

/**
 * The MPI launcher: N ranks in this JVM over one emulated fabric (FM below), each a thread running the body, which
 * calls {@code MPI.Init}, uses {@code MPI.COMM_WORLD} and the rest of package {@code mpi} as an Open MPI Java program
 * does, and calls {@code MPI.Finalize}. A rank that fails (an exception, or an MPI error under the default
 * {@code MPI.ERRORS_ARE_FATAL}) aborts the job: every other rank's blocking call ends promptly and {@link #run}
 * throws {@link MpiAbortException} with the first cause and its rank. {@code comm.abort(code)} ends the job the same
 * way, but {@link #run} returns the code as the report's exit status, as {@code mpirun} would exit with it.
 * <p>
 * Options: {@code mpi.eagerBytes} (the largest message sent eagerly, default 16384), {@code mpi.unexpectedBytes}
 * (the most data of unexpected messages a rank holds, default 64M; each sender gets an equal share), and
 * {@code fm.*} and {@code fabric.*} options, passed down.
 */
public final class MpiJob {
    /** What each rank runs. */
    @FunctionalInterface
    public interface Body {
        /**
         * Runs one rank's program on the rank's own thread: {@code MPI.Init} ... {@code MPI.Finalize}.
         *
         * @throws Exception any failure aborts the job
         */
        void run() throws Exception;
    }

    /**
     * What a finished job did.
     *
     * @param exitStatus the code given to {@code abort}, or 0
     * @param aborted    true if a rank called {@code abort}
     * @param elapsedNs  wall time
     * @param counters   FM's totals over the ranks (empty after an abort)
     */
    public record Report(int exitStatus, boolean aborted, long elapsedNs, Map<String, Long> counters) {
    }

    /**
     * One of MPI's own options: what {@link Builder#option} takes besides {@code fm.*} and {@code fabric.*}.
     *
     * @param key          the option's name
     * @param type         what its value is
     * @param defaultValue its default
     * @param meaning      what it sets
     */
    public record Option(String key, String type, String defaultValue, String meaning) {
    }

    /**
     * MPI's own options ({@code mpi.*}).
     *
     * @return the options, in the order the builder documents them
     */
    public static List<Option> options() {
        return List.of(
            new Option("mpi.eagerBytes", "bytes", "16384", "the largest message sent eagerly (larger ones, and those "
                + "without credit, go by rendezvous)"),
            new Option("mpi.unexpectedBytes", "bytes", "64M", "the most data of unexpected messages a rank holds; "
                + "each sender gets an equal share"));
    }

    private final int ranks;
    private final int eagerBytes;
    private final long unexpectedBytes;
    private final FmJob fmJob;

    private MpiJob(final Builder b) {
        this.ranks = b.ranks;
        this.eagerBytes = b.eagerBytes;
        this.unexpectedBytes = b.unexpectedBytes;
        final FmJob.Builder fb = FmJob.builder().pes(ranks).timeout(b.timeout);
        if (b.inProcess) {
            fb.inProcess();
        }
        if (b.threadGroup != null) {
            fb.threadGroup(b.threadGroup);
        }
        b.lowerOptions.forEach(fb::option);
        this.fmJob = fb.build();
    }

    /**
     * Starts configuring a job.
     *
     * @return a builder: 2 ranks, a 10-minute timeout, a fault-free fabric
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs {@code ranks} ranks with the defaults.
     *
     * @param ranks number of ranks
     * @param body  what each rank runs
     * @return the report
     * @throws MpiAbortException if a rank failed or the job timed out
     */
    public static Report run(final int ranks, final Body body) {
        return builder().ranks(ranks).build().run(body);
    }

    /**
     * Runs the job.
     *
     * @param body what each rank runs
     * @return what the job did
     * @throws MpiAbortException if a rank failed (with its rank and cause) or the job timed out
     */
    public Report run(final Body body) {
        Objects.requireNonNull(body, "body");
        return runFm((fm, engine) -> {
            RankBinding.bind(engine);
            try {
                body.run();
                if (MPI.isInitialized() && !MPI.isFinalized()) {
                    throw new IllegalStateException("rank " + fm.pe() + " returned without calling MPI.Finalize");
                }
            } finally {
                RankBinding.unbind();
            }
        });
    }

    /** What a rank's FM thread does with its endpoint and engine. */
    @FunctionalInterface
    interface RankBody {
        void run(FastMessages fm, Engine engine) throws Exception;
    }

    /**
     * The Fast Messages endpoint under the calling rank's MPI, for tools that measure MPI against FM on the same
     * path in the same job (bench mpi's paired latency). A handler registered on it must be registered before
     * {@code MPI.Init} (FM takes handlers only before an endpoint's first send or extract) with an id outside MPI's
     * own (3000-3006).
     *
     * @return the endpoint, or null if the calling thread is not a rank of an MPI job
     */
    public static FastMessages endpoint() {
        final Engine e = RankBinding.current();
        return e == null ? null : e.fm;
    }

    /**
     * The ranks of this process: all of them in one JVM, this process's share under {@code bin/jhpvm launch}.
     *
     * @return the world ranks
     */
    public int[] localRanks() {
        return fmJob.localPes();
    }

    Report runFm(final RankBody body) {
        final long startNs = System.nanoTime();
        final FmJob.Report fmReport;
        try {
            fmReport = fmJob.run(fm -> body.run(fm, new Engine(fm, eagerBytes, unexpectedBytes)));
        } catch (FmAbortException e) {
            if (e.getCause() instanceof FmJobExit x) {
                return new Report(x.status(), true, System.nanoTime() - startNs, Map.of());
            }
            final MpiAbortException a = new MpiAbortException(e.pe() == FmAbortException.NO_PE
                ? MpiAbortException.NO_RANK : e.pe(), e.getCause());
            for (final Throwable s : e.getSuppressed()) {
                a.addSuppressed(s);
            }
            throw a;
        }
        final Map<String, Long> counters = new LinkedHashMap<>();
        final FmCounters t = fmReport.totals();
        counters.put("fm.messagesSent", t.messagesSent());
        counters.put("fm.bytesSent", t.bytesSent());
        counters.put("fm.framesRetransmitted", t.framesRetransmitted());
        counters.put("fm.rendezvousMessages", t.rendezvousMessages());
        return new Report(0, false, System.nanoTime() - startNs, Map.copyOf(counters));
    }

    /** Builds an {@link MpiJob}. */
    public static final class Builder {
        private int ranks = 2;
        private int eagerBytes = 16 << 10;
        private long unexpectedBytes = 64L << 20;
        private Duration timeout = Duration.ofMinutes(10);
        private final Map<String, String> lowerOptions = new LinkedHashMap<>();
        private boolean inProcess;
        private ThreadGroup threadGroup;

        private Builder() {
        }

        /**
         * Sets how many ranks the job runs (default 2).
         *
         * @param ranks at least 1
         * @return this
         * @throws IllegalArgumentException if {@code ranks} is less than 1 (the builder is unchanged)
         */
        public Builder ranks(final int ranks) {
            if (ranks < 1) {
                throw new IllegalArgumentException("ranks=" + ranks + " must be at least 1");
            }
            this.ranks = ranks;
            return this;
        }

        /**
         * Sets the job's time limit (default 10 minutes).
         *
         * @param timeout positive
         * @return this
         * @throws IllegalArgumentException if not positive (the builder is unchanged)
         */
        public Builder timeout(final Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout=" + timeout + " must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets an option by name: {@code mpi.eagerBytes}, {@code mpi.unexpectedBytes}, {@code fm.*},
         * {@code fabric.*}.
         *
         * @param key   option name
         * @param value value
         * @return this
         * @throws IllegalArgumentException if the key is unknown or the value invalid (the builder is unchanged)
         */
        public Builder option(final String key, final String value) {
            Objects.requireNonNull(value, "value");
            switch (key) {
                case "mpi.eagerBytes" -> {
                    final long v = parse(key, value);
                    if (v < 0 || v > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException(key + "=" + value + " must be in 0.." + Integer.MAX_VALUE);
                    }
                    eagerBytes = (int) v;
                }
                case "mpi.unexpectedBytes" -> {
                    final long v = parse(key, value);
                    if (v < 0) {
                        throw new IllegalArgumentException(key + "=" + value + " must not be negative");
                    }
                    unexpectedBytes = v;
                }
                default -> {
                    if (!key.startsWith("fabric.") && !key.startsWith("fm.")) {
                        throw new IllegalArgumentException("unknown MPI job option '" + key + "' (known: "
                            + "mpi.eagerBytes, mpi.unexpectedBytes, fm.*, fabric.*)");
                    }
                    FmJob.builder().option(key, value);
                    lowerOptions.put(key, value);
                }
            }
            return this;
        }

        private static long parse(final String key, final String value) {
            final String v = value.trim().toUpperCase(java.util.Locale.ROOT);
            long scale = 1;
            String digits = v;
            if (v.endsWith("K") || v.endsWith("M") || v.endsWith("G")) {
                scale = v.endsWith("K") ? 1L << 10 : v.endsWith("M") ? 1L << 20 : 1L << 30;
                digits = v.substring(0, v.length() - 1);
            }
            try {
                return Math.multiplyExact(Long.parseLong(digits), scale);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException(key + "=" + value + " is not a byte count", e);
            }
        }

        /**
         * Sets the thread group of the program the job runs for: the rank threads are made in it, and the job's
         * deadlock test counts its other threads as the program's (a thread of the program that runs or sleeps may
         * still send what a rank waits for). By default each run makes a group of its own.
         *
         * @param group the program's thread group
         * @return this
         */
        public Builder threadGroup(final ThreadGroup group) {
            this.threadGroup = Objects.requireNonNull(group, "group");
            return this;
        }

        /**
         * Runs every rank in this JVM on the emulated fabric even in a process of a launched job.
         *
         * @return this
         */
        public Builder inProcess() {
            inProcess = true;
            return this;
        }

        /**
         * Makes the job.
         *
         * @return the job
         * @throws IllegalArgumentException naming the setting if an option of a layer below is out of range
         */
        public MpiJob build() {
            return new MpiJob(this);
        }
    }
}
