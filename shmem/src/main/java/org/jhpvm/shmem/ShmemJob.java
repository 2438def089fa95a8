package org.jhpvm.shmem;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.jhpvm.fm.FmAbortException;
import org.jhpvm.fm.FmClock;
import org.jhpvm.fm.FmCounters;
import org.jhpvm.fm.FmJob;
import org.jhpvm.fm.FmJobExit;
import org.jhpvm.fm.FmOption;

/**
 * The SHMEM launcher: N PEs in this JVM over one emulated fabric (FM below), each running the body with its own
 * {@link Shmem}. When a body returns, the PE finalizes as {@code shmem_finalize} does (quiet and a barrier), so
 * operations issued at the end are complete before anyone leaves. If a PE throws, the job is aborted: every other
 * PE's blocking call ends promptly and {@link #run} throws a {@link ShmemAbortException} with the first cause and
 * its PE. {@link Shmem#globalExit(int)} ends the job the same way but {@link #run} returns the status.
 * <p>
 * Options (strings, so that layers above can pass them through): {@code shmem.heapBytes} (symmetric heap per PE,
 * with K/M/G suffixes, default 256M), {@code shmem.progressMaxParkNs} (longest sleep of an idle progress agent,
 * default 1 ms), and {@code fm.*} and {@code fabric.*} options, passed down (FM's window and timers; frame size,
 * ring sizes, fault plan: {@code fabric.faults.drop=0.01}, {@code fabric.faults.seed=7}, ...). {@link #options()}
 * lists every key with its type, default and meaning.
 */
public final class ShmemJob {
    /** What each PE runs. */
    @FunctionalInterface
    public interface Body {
        /**
         * Runs one PE's part of the program, on that PE's own thread (the only thread that may call {@code shmem}).
         * Returning finalizes the PE as {@code shmem_finalize} does (quiet and a barrier), so every PE's body must
         * return or fail.
         *
         * @param shmem this PE's SHMEM
         * @throws Exception any failure aborts the job
         */
        void run(Shmem shmem) throws Exception;
    }

    /**
     * What a finished job did.
     *
     * @param exitStatus the status given to {@link Shmem#globalExit(int)}, or 0
     * @param elapsedNs  wall time of the run
     * @param counters   totals over the PEs: FM's counters ({@code fm.messagesSent}, ...) and SHMEM's
     *                   ({@code shmem.rejected}); empty when the job ended by {@link Shmem#globalExit(int)}
     * @param globalExit true if a PE ended the job with {@link Shmem#globalExit(int)} (whatever its status)
     */
    public record Report(int exitStatus, long elapsedNs, Map<String, Long> counters, boolean globalExit) {
    }

    /** SHMEM's own options: the table {@link Builder#option} parses and {@link #options()} lists. */
    private enum Own {
        HEAP_BYTES("shmem.heapBytes", "bytes", "256M", "symmetric heap per PE (K, M, G, T suffixes)"),
        PROGRESS_MAX_PARK_NS("shmem.progressMaxParkNs", "nanoseconds", "1000000",
            "longest sleep of an idle progress agent (at least 1000)"),
        AGGREGATE_BYTES("shmem.aggregateBytes", "bytes", String.valueOf(PutBatch.DEFAULT_PUT_BYTES),
            "largest put combined with others to the same PE into one NIC message until the next call of another kind "
                + "(0: every put its own message)"),
        AGGREGATE_DELAY_NS("shmem.aggregateDelayNs", "nanoseconds", String.valueOf(PutBatch.DEFAULT_DELAY_NS),
            "age at which the progress agent sends a batch of small puts the PE left open while it computes"),
        THREAD_LEVEL("shmem.threadLevel", "SINGLE|FUNNELED|SERIALIZED|MULTIPLE", "FUNNELED",
            "the thread level the PEs ask for (shmem_init_thread); each PE provides it"),
        HOST_MEMORY("shmem.hostMemory", "direct|messages", "direct",
            "segments (mallocSegment) in host memory that the PEs of a host load and store directly, or private to "
                + "each PE and reached by messages (to measure or test that path)");

        final ShmemOption option;

        Own(final String key, final String type, final String dflt, final String meaning) {
            this.option = new ShmemOption(key, type, dflt, meaning);
        }

        static Own named(final String key) {
            for (final Own o : values()) {
                if (o.option.key().equals(key)) {
                    return o;
                }
            }
            return null;
        }
    }

    private final int pes;
    private final long heapBytes;
    private final long progressMaxParkNs;
    private final ThreadLevel threadLevel;
    private final int aggregateBytes;
    private final long aggregateDelayNs;
    private final boolean directHostMemory;
    private final Duration timeout;
    private final FmJob fmJob;

    private ShmemJob(final Builder b) {
        this.pes = b.pes;
        this.heapBytes = b.heapBytes;
        this.progressMaxParkNs = b.progressMaxParkNs;
        this.threadLevel = b.threadLevel;
        this.aggregateBytes = b.aggregateBytes;
        this.aggregateDelayNs = b.aggregateDelayNs;
        this.directHostMemory = b.directHostMemory;
        this.timeout = b.timeout;
        // Built here, not in run: a lower-layer setting out of range is refused by build(), before anything runs.
        final FmJob.Builder fb = FmJob.builder().pes(pes).timeout(timeout);
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
     * Starts configuring a job; nothing runs until {@link Builder#build()} and {@link #run(Body)}.
     *
     * @return a builder: 2 PEs, 256 MiB heaps, a 10-minute timeout, a fault-free fabric
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
     * @throws ShmemAbortException if a PE failed or the job timed out
     */
    public static Report run(final int pes, final Body body) {
        return builder().pes(pes).build().run(body);
    }

    /**
     * Every option {@link Builder#option(String, String)} accepts: SHMEM's own ({@code shmem.*}) and those it passes
     * down to FM ({@code fm.*}) and the fabric ({@code fabric.*}), with their types, defaults and meanings, taken
     * from the parsers' tables.
     *
     * @return the options, SHMEM's first
     */
    public static List<ShmemOption> options() {
        final List<ShmemOption> all = new ArrayList<>();
        for (final Own o : Own.values()) {
            all.add(o.option);
        }
        for (final FmOption o : FmJob.options()) {
            all.add(new ShmemOption(o.key(), o.type(), o.defaultValue(), o.meaning()));
        }
        return List.copyOf(all);
    }

    /**
     * How many PEs {@link #run(Body)} starts, as the builder set it.
     *
     * @return number of PEs
     */
    public int pes() {
        return pes;
    }

    /**
     * Runs the job.
     *
     * @param body what each PE runs
     * @return what the job did
     * @throws ShmemAbortException if a PE failed (with its PE and cause) or the job timed out
     */
    public Report run(final Body body) {
        Objects.requireNonNull(body, "body");
        final World world = new World(pes);
        final int[] sharedPes = fmJob.localPes();
        final long[] rejected = new long[pes];
        final ProgressAgent[] agents = new ProgressAgent[pes];
        final long startNs = System.nanoTime();
        final FmJob.Report fmReport;
        try {
            fmReport = fmJob.run(fm -> {
                final Shmem shmem = new Shmem(fm, world, heapBytes, threadLevel, sharedPes);
                // The constructor registers SHMEM's handlers before this endpoint's first send or extract; a message
                // that arrives earlier waits in the NIC until the first extract, so no PE can beat the registration.
                shmem.engine.batch.configure(aggregateBytes, aggregateDelayNs);
                shmem.engine.directHostMemory = directHostMemory;
                // In virtual time there is no agent: when it looked would be a matter of wall time, and would
                // decide the modelled times. Requests are served at the target's own calls (see the module README).
                final ProgressAgent agent = FmClock.isVirtual() ? null
                    : new ProgressAgent(shmem.engine, 20_000, progressMaxParkNs);
                if (agent != null) {
                    agents[fm.pe()] = agent;
                    agent.start();
                }
                boolean finished = false;
                try {
                    body.run(shmem);
                    shmem.finish();
                    finished = true;
                } finally {
                    if (agent != null && finished) {
                        agent.stop();
                    } else if (agent != null) {
                        // The failure goes to the job first: an agent still serving other PEs' streams ends with
                        // the job's abort, and run() waits for it below before it returns.
                        agent.requestStop();
                    }
                    rejected[fm.pe()] = shmem.engine.rejections.count();
                }
            });
        } catch (FmAbortException e) {
            if (e.getCause() instanceof FmJobExit g) {
                // globalExit on a PE of this process, or (a launched job) of another: every process ends with it.
                return new Report(g.status(), System.nanoTime() - startNs, Map.of(), true);
            }
            final ShmemAbortException a = new ShmemAbortException(
                e.pe() == FmAbortException.NO_PE ? ShmemAbortException.NO_PE : e.pe(), e.getCause());
            for (final Throwable s : e.getSuppressed()) {
                a.addSuppressed(s);
            }
            throw a;
        } finally {
            // A failed PE's agent was only told to stop, and a PE that never left its body (the job gave up on it) did
            // not stop its own: the job must not return with an agent still running.
            for (final ProgressAgent agent : agents) {
                if (agent != null) {
                    agent.requestStop();
                }
            }
            final long deadline = System.nanoTime() + 5_000_000_000L;
            for (final ProgressAgent agent : agents) {
                if (agent != null) {
                    agent.awaitStopped(deadline);
                }
            }
        }
        final Map<String, Long> counters = new LinkedHashMap<>();
        final FmCounters t = fmReport.totals();
        counters.put("fm.messagesSent", t.messagesSent());
        counters.put("fm.bytesSent", t.bytesSent());
        counters.put("fm.messagesHandled", t.messagesHandled());
        counters.put("fm.framesRetransmitted", t.framesRetransmitted());
        counters.put("fm.checksumRejects", t.checksumRejects());
        counters.put("fm.framesSent", t.framesSent());
        counters.put("fm.acksSent", t.acksSent());
        counters.put("fm.bufferRejects", t.bufferRejects());
        counters.put("fm.flowControlWaits", t.flowControlWaits());
        long r = 0;
        for (final long x : rejected) {
            r += x;
        }
        counters.put("shmem.rejected", r);
        return new Report(0, System.nanoTime() - startNs, Map.copyOf(counters), false);
    }

    /** Builds a {@link ShmemJob}. */
    public static final class Builder {
        private int pes = 2;
        private long heapBytes = 256L << 20;
        private long progressMaxParkNs = 1_000_000;
        private int aggregateBytes = PutBatch.DEFAULT_PUT_BYTES;
        private long aggregateDelayNs = PutBatch.DEFAULT_DELAY_NS;
        private boolean directHostMemory = true;
        private ThreadLevel threadLevel = ThreadLevel.FUNNELED;
        private Duration timeout = Duration.ofMinutes(10);
        private final Map<String, String> lowerOptions = new LinkedHashMap<>();
        private boolean inProcess;
        private ThreadGroup threadGroup;

        private Builder() {
        }

        /**
         * Sets how many PEs the job runs (default 2).
         *
         * @param pes number of PEs, at least 1
         * @return this
         * @throws IllegalArgumentException if {@code pes} is less than 1 (the builder is unchanged)
         */
        public Builder pes(final int pes) {
            if (pes < 1) {
                throw new IllegalArgumentException("pes=" + pes + " must be at least 1");
            }
            this.pes = pes;
            return this;
        }

        /**
         * Sets the symmetric heap of each PE (default 256 MiB; the option {@code shmem.heapBytes}): the most bytes of
         * symmetric objects a PE may hold at once. 0 is allowed and permits only empty objects.
         *
         * @param bytes symmetric heap per PE
         * @return this
         * @throws IllegalArgumentException if {@code bytes} is negative (the builder is unchanged)
         */
        public Builder heapBytes(final long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("heapBytes=" + bytes + " is negative");
            }
            this.heapBytes = bytes;
            return this;
        }

        /**
         * Sets the job's time limit (default 10 minutes): when it passes, every PE's blocking call ends and
         * {@link ShmemJob#run(Body)} throws a {@link ShmemAbortException} with {@link ShmemAbortException#NO_PE}.
         *
         * @param timeout the job is aborted after this long
         * @return this
         * @throws IllegalArgumentException if {@code timeout} is zero or negative (the builder is unchanged)
         */
        public Builder timeout(final Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout=" + timeout + " must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * {@code shmem_init_thread}: the thread level the PEs ask for (default {@link ThreadLevel#FUNNELED}; the option
         * {@code shmem.threadLevel}); each PE provides it, up to {@link ThreadLevel#MULTIPLE}
         * ({@link Shmem#queryThread()} says which).
         *
         * @param requested the level asked for
         * @return this builder
         */
        public Builder threadLevel(final ThreadLevel requested) {
            this.threadLevel = Objects.requireNonNull(requested, "requested");
            return this;
        }

        /**
         * Sets an option by name (see the class comment); {@code fabric.*} keys are checked by the layer below.
         *
         * @param key   option name
         * @param value value
         * @return this
         * @throws IllegalArgumentException if the key is unknown or the value invalid
         */
        public Builder option(final String key, final String value) {
            Objects.requireNonNull(value, "value");
            final Own own = Own.named(key);
            if (own == null) {
                if (!key.startsWith("fabric.") && !key.startsWith("fm.")) {
                    throw new IllegalArgumentException("unknown SHMEM job option '" + key + "' (known: "
                        + "shmem.heapBytes, shmem.progressMaxParkNs, shmem.aggregateBytes, shmem.aggregateDelayNs, shmem.threadLevel, "
                        + "shmem.hostMemory, fm.*, fabric.*)");
                }
                FmJob.builder().option(key, value);
                lowerOptions.put(key, value);
                return this;
            }
            switch (own) {
                case HEAP_BYTES -> heapBytes(parseBytes(key, value));
                case PROGRESS_MAX_PARK_NS -> {
                    final long ns = parseLong(key, value);
                    if (ns < 1_000) {
                        throw new IllegalArgumentException(key + "=" + value + " must be at least 1000");
                    }
                    progressMaxParkNs = ns;
                }
                case AGGREGATE_BYTES -> {
                    final long bytes = parseBytes(key, value);
                    if (bytes > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException(key + "=" + value + " is above " + Integer.MAX_VALUE);
                    }
                    aggregateBytes = (int) bytes;
                }
                case AGGREGATE_DELAY_NS -> {
                    final long ns = parseLong(key, value);
                    if (ns < 0) {
                        throw new IllegalArgumentException(key + "=" + value + " must not be negative");
                    }
                    aggregateDelayNs = ns;
                }
                case THREAD_LEVEL -> threadLevel(parseThreadLevel(key, value));
                case HOST_MEMORY -> directHostMemory = switch (value.trim().toLowerCase(Locale.ROOT)) {
                    case "direct" -> true;
                    case "messages" -> false;
                    default -> throw new IllegalArgumentException(key + "=" + value + ": direct or messages");
                };
                default -> throw new AssertionError(own);
            }
            return this;
        }

        private static ThreadLevel parseThreadLevel(final String key, final String value) {
            try {
                return ThreadLevel.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + "=" + value + ": one of SINGLE, FUNNELED, SERIALIZED, "
                    + "MULTIPLE", e);
            }
        }

        private static long parseLong(final String key, final String value) {
            try {
                return Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + "=" + value + " is not a number", e);
            }
        }

        static long parseBytes(final String key, final String value) {
            final String v = value.trim().toUpperCase(Locale.ROOT);
            long scale = 1;
            String digits = v;
            if (v.endsWith("K") || v.endsWith("M") || v.endsWith("G") || v.endsWith("T")) {
                scale = switch (v.charAt(v.length() - 1)) {
                    case 'K' -> 1L << 10;
                    case 'M' -> 1L << 20;
                    case 'G' -> 1L << 30;
                    default -> 1L << 40;
                };
                digits = v.substring(0, v.length() - 1);
            }
            final long n = parseLong(key, digits);
            if (n < 0 || n > Long.MAX_VALUE / scale) {
                throw new IllegalArgumentException(key + "=" + value + " is out of range");
            }
            return n * scale;
        }

        /**
         * Sets the thread group of the program the job runs for (FM's {@code FmJob.Builder.threadGroup}): the PE
         * threads are made in it, and the job's deadlock test counts its other threads as the program's (a thread of
         * the program that runs or sleeps may still end a PE's wait). By default each run makes a group of its own.
         *
         * @param group the program's thread group
         * @return this
         */
        public Builder threadGroup(final ThreadGroup group) {
            this.threadGroup = Objects.requireNonNull(group, "group");
            return this;
        }

        /**
         * Runs every PE in this JVM on the emulated fabric even in a process of a launched job (which otherwise runs
         * its share of the launched job's PEs): for measurements that compare the two.
         *
         * @return this
         */
        public Builder inProcess() {
            inProcess = true;
            return this;
        }

        /**
         * Makes the job from the settings so far, checking the options passed down to FM and the fabric together.
         * Each {@link ShmemJob#run(Body)} starts from fresh heaps, so the job may be run again; the builder may be
         * changed and built again without affecting jobs already built.
         *
         * @return the job
         * @throws IllegalArgumentException naming the setting if an option of a layer below is out of range
         */
        public ShmemJob build() {
            return new ShmemJob(this);
        }
    }
}
