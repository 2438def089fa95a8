package org.jhpvm.apps;

import java.util.Optional;

import org.jhpvm.fabric.aeron.JobEnvironment;

/**
 * This process's place in a launched job, if any, for the commands: their PE count defaults to the job's, and only
 * the process that hosts PE 0 (rank 0) reports results, as MPI programs print from rank 0.
 */
final class Launched {
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

    /** @return the launched job's environment, or empty in a plain single-JVM run */
    static Optional<JobEnvironment> environment() {
        return ENV;
    }

    /**
     * @param dflt the command's own default
     * @return the launched job's PE count, or {@code dflt} outside a launched job
     */
    static int pes(final int dflt) {
        return ENV.map(JobEnvironment::nicCount).orElse(dflt);
    }

    /** @return true if this process reports (it is not part of a launched job, or it is rank 0) */
    static boolean reports() {
        return ENV.map(e -> e.rank() == 0).orElse(true);
    }
}
