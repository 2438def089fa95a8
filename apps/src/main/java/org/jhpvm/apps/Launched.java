package org.jhpvm.apps;

import java.util.Optional;

import org.jhpvm.fabric.aeron.JobEnvironment;

/**
 * This process's place in a launched job, if any, for the commands: their PE count defaults to the job's, and only
 * the process that hosts PE 0 (rank 0) reports results, as MPI programs print from rank 0.
 */
public final class Launched {
    private static final Optional<JobEnvironment> ENV = read();

    private Launched() {
    }

    private static Optional<JobEnvironment> read() {
        try {
            return JobEnvironment.from(System.getenv());
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // reported by the fabric when the first job starts
        }
    }

    /**
     * This process's place in a launched job, read once from the environment variables {@code jhpvm launch} sets
     * (malformed ones count as none here; the fabric reports them when a job starts).
     *
     * @return the launched job's environment, or empty in a plain single-JVM run
     */
    public static Optional<JobEnvironment> environment() {
        return ENV;
    }

    /**
     * The PE count a command uses when {@code --pes} is not given.
     *
     * @param dflt the command's own default
     * @return the launched job's PE count, or {@code dflt} outside a launched job
     */
    public static int pes(final int dflt) {
        return ENV.map(JobEnvironment::nicCount).orElse(dflt);
    }

    /**
     * For the benchmarks that run under launch: checks the job has 2 PEs and names how they talk.
     *
     * @param command the benchmark, for the error message
     * @return "jvm" (both PEs in one process), "udp" (different hosts, or UDP asked for) or "ipc"
     * @throws IllegalArgumentException if the launched job does not have 2 PEs
     * @throws java.util.NoSuchElementException if this is not a launched job
     */
    public static String twoPeTransport(final String command) {
        final JobEnvironment env = ENV.orElseThrow();
        if (env.nicCount() != 2) {
            throw new IllegalArgumentException(command + " runs 2 PEs: launch it with -n 2 (or -n 1 "
                + "--pes-per-process 2)");
        }
        return transport(env);
    }

    /**
     * Whether this process prints a command's results: in a launched job only rank 0 does, as MPI programs print
     * from rank 0, so that the results appear once.
     *
     * @return true if this process reports (it is not part of a launched job, or it is rank 0)
     */
    public static boolean reports() {
        return ENV.map(e -> e.rank() == 0).orElse(true);
    }

    /**
     * What a benchmark's jobs run over, for its JSON's {@code config.path}.
     *
     * @return {@code emulated} outside a launched job; {@code aeron_ipc}, {@code aeron_udp} or {@code aeron_jvm}
     *     (the launched fabric, all PEs in one process) in one
     */
    public static String path() {
        return ENV.map(e -> "aeron_" + transport(e)).orElse("emulated");
    }

    /**
     * The same for the header a benchmark prints.
     *
     * @return "in one JVM over the emulated Myrinet", or "over Aeron IPC (2 launched processes)" and the like
     */
    public static String pathDescription() {
        return ENV.map(e -> "over Aeron " + transport(e).toUpperCase(java.util.Locale.ROOT) + " (" + e.processes()
            + " launched process(es))").orElse("in one JVM over the emulated Myrinet");
    }

    /**
     * For a benchmark of the emulated fabric itself (fabric, via), which a launched job cannot run across its
     * processes: whether this process skips it (every launched process but rank 0), and, on rank 0, the line that
     * says what it measures instead.
     *
     * @param command the benchmark, for the line
     * @return true if this process measures nothing and should return at once
     */
    public static boolean skipsInProcessBench(final String command) {
        if (ENV.isEmpty()) {
            return false;
        }
        if (!reports()) {
            return true;
        }
        System.out.println(command + " under launch: it measures the emulated Myrinet of this process (rank 0) "
            + "only; the launched fabric (Aeron) has no NIC of its own (no RDMA, no NIC handlers: FM carries them in "
            + "its messages, which bench fm and bench shmem measure under launch); the other processes measure nothing");
        return false;
    }

    private static String transport(final JobEnvironment e) {
        if (e.processes() == 1) {
            return "jvm";
        }
        final String last = e.hosts().get(e.processes() - 1);
        return e.udpOnly() || !e.hosts().get(0).equals(last) ? "udp" : "ipc";
    }
}
