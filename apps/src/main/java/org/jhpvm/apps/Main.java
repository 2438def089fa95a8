package org.jhpvm.apps;

import org.jhpvm.apps.commands.JhpvmCommand;

/**
 * The {@code bin/jhpvm} command's entry point: sample programs, benchmarks and the job commands of the jhpvm stack
 * ({@link JhpvmCommand} defines them).
 */
public final class Main {
    /** Exit code of a run that failed (or a sample whose answer is wrong). */
    public static final int FAILURE = JhpvmCommand.FAILURE;
    /** Exit code of a bad option or value. */
    public static final int USAGE = JhpvmCommand.USAGE;

    private Main() {
    }

    /**
     * Runs one command line and exits the JVM with its status: 0 on success, {@link #USAGE} for a bad option or a
     * value the command rejects, {@link #FAILURE} for a failed run or a sample whose answer is wrong, or the status
     * the command passes on ({@code launch} and {@code run} return their job's).
     *
     * @param args command line: a subcommand and its options, e.g. {@code hydro sod --pes 4}
     */
    public static void main(final String[] args) {
        System.exit(JhpvmCommand.execute(args));
    }

    /**
     * Runs a command line without exiting (for tests).
     *
     * @param args command line
     * @return the exit code
     */
    public static int execute(final String... args) {
        return JhpvmCommand.execute(args);
    }
}
