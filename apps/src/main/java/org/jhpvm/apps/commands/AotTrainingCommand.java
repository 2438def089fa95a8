package org.jhpvm.apps.commands;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jhpvm aot-training} (hidden): the training run {@code bin/jhpvm} records JDK 25's ahead-of-time cache from,
 * once per build. One JVM runs what users run first: the hydro code ({@code hydro sod} on 2 PEs and on 1), and, where
 * the checkout's {@code examples} directory is there, a SHMEM, a Global Arrays and an MPI program through
 * {@code run}, which also loads the in-memory compiler every user's source file goes through. The cache then holds
 * those classes loaded and linked and their methods' profiles, never results.
 */
@Command(name = "aot-training", hidden = true, mixinStandardHelpOptions = true,
    description = "The training run of bin/jhpvm's ahead-of-time cache: hydro sod on 2 PEs and on 1 and, if "
        + "--examples is a directory, three example programs through run, in one JVM.")
final class AotTrainingCommand implements Callable<Integer> {
    /** The example programs run, with their arguments (small: the cache needs the paths, not long runs). */
    static final List<List<String>> EXAMPLES = List.of(
        List.of("ShmemTour.java"),
        List.of("GaHeat.java", "32", "20"),
        List.of("MpiStencil.java", "24", "10"));

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where hydro sod writes its files.")
    private Path out;

    @Option(names = "--examples", paramLabel = "DIR", description = "The checkout's examples directory (default: "
        + "none; the example runs are left out).")
    private Path examples;

    @Override
    public Integer call() {
        final List<List<String>> runs = new ArrayList<>();
        runs.add(List.of("hydro", "sod", "--zones", "200", "--pes", "2", "--out", out.toString()));
        // One PE as well: its path (no neighbours, the local reductions) is another set of profiles, and a short 1-D
        // run on one PE is mostly warm-up (sod 800 zones: 0.096-0.128 s of cycles without it, 0.079-0.090 with it).
        runs.add(List.of("hydro", "sod", "--zones", "800", "--pes", "1", "--t-end", "0.4", "--out", out.toString()));
        if (examples != null && Files.isDirectory(examples)) {
            for (final List<String> example : EXAMPLES) {
                final List<String> args = new ArrayList<>(List.of("run", "--pes", "2",
                    examples.resolve(example.get(0)).toString()));
                args.addAll(example.subList(1, example.size()));
                runs.add(args);
            }
        }
        for (final List<String> args : runs) {
            final int status = JhpvmCommand.execute(args.toArray(String[]::new));
            if (status != 0) {
                System.err.println("jhpvm aot-training: " + String.join(" ", args) + " ended with status " + status);
                return status;
            }
        }
        return 0;
    }
}
