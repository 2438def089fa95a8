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
        if (env.processes() == 1) {
            return "jvm";
        }
        return env.udpOnly() || !env.hosts().get(0).equals(env.hosts().get(env.processes() - 1)) ? "udp" : "ipc";
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
}
