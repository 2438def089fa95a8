package org.jhpvm.apps.commands;

import java.util.Arrays;

import org.jhpvm.fm.FmRemoteFailure;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The top-level {@code jhpvm} command and its subcommands, and how a command line runs ({@link #execute}): the
 * commands that run others ({@code launch}, {@code jobs}, {@code bench all}) reach it here, in their own package,
 * and {@code org.jhpvm.apps.Main} only starts it.
 */
@Command(name = "jhpvm", mixinStandardHelpOptions = true, versionProvider = JhpvmCommand.Version.class,
    description = "jhpvm: Illinois HPVM re-created in Java (emulated Myrinet, Fast Messages, SHMEM, Global Arrays, "
        + "MPI).",
    subcommands = {HydroCommand.class, SampleCommands.HelloCommand.class, FabricCommand.class,
        SampleCommands.JacobiCommand.class,
        SampleCommands.MatmulCommand.class, SampleCommands.GupsCommand.class, SampleCommands.TaskPoolCommand.class,
        SampleCommands.RingCommand.class, BenchCommand.class, LaunchCommand.class, RunCommand.class, JobsCommand.class,
        InfoCommand.class, CalibrateCommand.class, AotTrainingCommand.class,
        CommandLine.HelpCommand.class})
public final class JhpvmCommand implements Runnable {
    /** Exit code of a run that failed (or a sample whose answer is wrong). */
    public static final int FAILURE = 1;
    /** Exit code of a bad option or value. */
    public static final int USAGE = 2;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "Print stack traces of errors (also: "
        + "environment variable JHPVM_DEBUG).")
    private boolean debugFlag;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Creates the top-level {@code jhpvm} command; {@link #execute} builds its command line around one. */
    public JhpvmCommand() {
    }

    /** {@code --version}: the build's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"jhpvm " + org.jhpvm.runtime.Jhpvm.version()};
        }
    }

    /**
     * Runs one command line without exiting: 0 on success, {@link #USAGE} for a bad option or a value the command
     * rejects, {@link #FAILURE} for a failed run or a sample whose answer is wrong, or the status the command passes
     * on ({@code launch} and {@code run} return their job's).
     *
     * @param args command line: a subcommand and its options, e.g. {@code hydro sod --pes 4}
     * @return the exit code
     */
    public static int execute(final String... args) {
        final boolean debug = Arrays.asList(args).contains("--debug") || System.getenv("JHPVM_DEBUG") != null;
        final CommandLine cli = new CommandLine(new JhpvmCommand());
        // Everything after the program's name is the program's, even what looks like an option of run.
        cli.getSubcommands().get("run").setStopAtPositional(true);
        // A bad option or value: one line naming it, exit code 2 (the convention of command-line tools).
        cli.setParameterExceptionHandler((ex, args1) -> {
            final CommandLine c = ex.getCommandLine();
            c.getErr().println(c.getColorScheme().errorText("jhpvm: " + ex.getMessage() + " (see: "
                + c.getCommandSpec().qualifiedName() + " --help)"));
            if (debug) {
                ex.printStackTrace(c.getErr());
            }
            return USAGE;
        });
        // A value the command rejects (IllegalArgumentException) is a usage error too; anything else is a failure.
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (FmRemoteFailure.isReportedElsewhere(ex) && !debug) {
                return FAILURE; // another process of the launched job prints it: each failure once
            }
            final boolean usage = ex instanceof IllegalArgumentException;
            commandLine.getErr().println(commandLine.getColorScheme().errorText("jhpvm: " + ex.getMessage()
                + (usage ? " (see: " + commandLine.getCommandSpec().qualifiedName() + " --help)" : "")));
            if (debug) {
                ex.printStackTrace(commandLine.getErr());
            }
            return usage ? USAGE : FAILURE;
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
