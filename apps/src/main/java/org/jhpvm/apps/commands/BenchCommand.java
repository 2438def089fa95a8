package org.jhpvm.apps.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jhpvm bench ...}: each layer measured against the layer below in the same run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks: each layer against the layer below (or a raw baseline), medians and ratios.",
    subcommands = {BenchFabricCommand.class, BenchViaCommand.class, BenchFmCommand.class, BenchShmemCommand.class,
        BenchGaCommand.class, BenchHydroCommand.class, BenchMpiCommand.class, BenchDcsCommand.class,
        BenchAllCommand.class, BenchCheckCommand.class, BenchHostsCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Creates the {@code jhpvm bench} command; picocli calls this reflectively, then injects its spec. */
    public BenchCommand() {
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
