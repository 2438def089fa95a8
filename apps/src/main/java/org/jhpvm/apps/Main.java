package org.jhpvm.apps;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code bin/jhpvm} command: sample programs and benchmarks of the jhpvm stack.
 */
@Command(name = "jhpvm", mixinStandardHelpOptions = true, version = "jhpvm 0.1.0",
    description = "jhpvm: Illinois HPVM re-created in Java (emulated Myrinet, Fast Messages, SHMEM, Global Arrays).",
    subcommands = {SampleCommands.HelloCommand.class, FabricCommand.class, SampleCommands.JacobiCommand.class,
        SampleCommands.MatmulCommand.class, SampleCommands.GupsCommand.class, SampleCommands.TaskPoolCommand.class,
        BenchCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(execute(args));
    }

    /**
     * Runs a command line without exiting (for tests).
     *
     * @param args command line
     * @return the exit code
     */
    public static int execute(final String... args) {
        final CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println(commandLine.getColorScheme().errorText("jhpvm: " + ex.getMessage()));
            if (System.getenv("JHPVM_DEBUG") != null) {
                ex.printStackTrace(commandLine.getErr());
            }
            return 1;
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
