package org.jhpvm.runtime;

import java.util.Map;
import java.util.Optional;

import org.jhpvm.fabric.aeron.JobEnvironment;

/**
 * How many PEs a program's job has and which of them run in this process: all of them in one JVM, or this
 * process's share of a launched job ({@code bin/jhpvm launch}, or srun/mpirun with jhpvm's environment).
 *
 * @param npes     PEs in the whole job
 * @param firstPe  the first PE of this process
 * @param localPes PEs in this process
 * @param launched true in a process of a launched job
 */
record JobShape(int npes, int firstPe, int localPes, boolean launched) {
    /** PEs of a program run in one JVM when it does not say ({@code --pes}). */
    static final int DEFAULT_PES = 4;

    /**
     * @param pes the PEs asked for, or 0 for the default (the launched job's, else {@link #DEFAULT_PES})
     * @param env the environment (usually {@link System#getenv()})
     * @return the job's shape
     * @throws IllegalArgumentException if {@code pes} is negative or does not match a launched job, or the
     *                                  environment describes a launched job badly
     */
    static JobShape of(final int pes, final Map<String, String> env) {
        if (pes < 0) {
            throw new IllegalArgumentException("--pes " + pes + ": must be at least 1");
        }
        final Optional<JobEnvironment> launched = JobEnvironment.from(env);
        if (launched.isEmpty()) {
            final int n = pes == 0 ? DEFAULT_PES : pes;
            return new JobShape(n, 0, n, false);
        }
        final JobEnvironment e = launched.get();
        if (pes != 0 && pes != e.nicCount()) {
            throw new IllegalArgumentException("--pes " + pes + " does not match the launched job, which has "
                + e.nicCount() + " PEs (" + e.processes() + " processes of " + e.pesPerProcess() + ")");
        }
        return new JobShape(e.nicCount(), e.rank() * e.pesPerProcess(), e.pesPerProcess(), true);
    }

    /**
     * @param options a program's options
     * @throws IllegalArgumentException if they set the emulated fabric in a launched job, which does not run on it
     */
    void check(final JobOptions options) {
        if (!launched) {
            return;
        }
        for (final String key : options.values().keySet()) {
            if (key.startsWith("fabric.")) {
                throw new IllegalArgumentException("option " + key + " sets the emulated Myrinet, but this is a "
                    + "launched job, which runs on Aeron: leave fabric.* options out under launch");
            }
        }
    }
}
