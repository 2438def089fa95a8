package org.jhpvm.apps.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.SharedJobs;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fm.Scheduling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jhpvm jobs}: several jobs sharing this JVM's cores under each scheduling policy, against each alone. */
@Command(name = "jobs", mixinStandardHelpOptions = true,
    description = {"Runs several jobs at once in this JVM, as an HPVM cluster ran several parallel jobs, and each "
        + "alone: every job's wall time alone, together, and its slowdown, under each scheduling policy given (the "
        + "jobs' PEs share one scheduler's run slots). The jobs share one emulated Myrinet of --nodes nodes, each job "
        + "on nodes of its own, with its own PEs and memory; a job that fails (or does not fit) ends alone, the "
        + "others finish. Example: jhpvm jobs 'hydro blast3d --zones 24 --pes 2' 'gups --pes 2'.",
        "Exit status: 0 if every job succeeded alone and together, 1 otherwise (what the failed jobs printed is shown),"
            + " 2 for a bad option."})
public final class JobsCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "JOB", description = "A job: a jhpvm command line as one argument (quote "
        + "it), one of hydro, hello, fabric, jacobi, matmul, gups, taskpool, ring, run.")
    private List<String> jobs = new ArrayList<>();

    @Option(names = "--scheduling", paramLabel = "POLICY", split = ",", description = "Policies to compare, each "
        + "measured alone and together (default: none,dcs,gang).")
    private List<String> policies = List.of("none", "dcs", "gang");

    @Option(names = "--cores", paramLabel = "N", description = "Cores of the shared scheduler (default: the "
        + "machine's).")
    private int cores;

    /**
     * The shared scheduler's quantum: measured with {@code bench dcs} (two 2-PE blast3d jobs, medians of 3 rounds),
     * {@code dcs_slowdown_max} was 2.43 with 10 ms, 2.51 with 20, 2.25 and 2.26 with 40, 2.31 with 80.
     */
    static final double QUANTUM_MS = 40;

    @Option(names = "--quantum-ms", paramLabel = "MS", description = "Its quantum, milliseconds: how long a job whose "
        + "PEs all run keeps the cores under dcs, a gang's turn under gang (default: ${DEFAULT-VALUE}).")
    private double quantumMs = JobsCommand.QUANTUM_MS;

    @Option(names = "--nodes", paramLabel = "N", description = "Nodes of the shared fabric: each job takes as many "
        + "consecutive free ones as it has PEs, for as long as it runs, and a job that finds too few fails alone "
        + "(default: ${DEFAULT-VALUE}, the most an emulated fabric has).")
    private int nodes = FabricConfig.MAX_NICS;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (default: none).")
    private Path json;

    /** Creates the {@code jhpvm jobs} command; picocli calls this reflectively, then sets the options given. */
    public JobsCommand() {
    }

    @Override
    public Integer call() throws IOException {
        final List<Scheduling> chosen = policies.stream().map(Scheduling::parse).toList();
        final SharedJobs shared = new SharedJobs(jobs, JhpvmCommand::execute, cores, Math.round(quantumMs * 1e6), nodes);
        final List<SharedJobs.Result> results = new ArrayList<>();
        System.out.println("jobs: warming up (each job once, untimed) ...");
        shared.warmUp();
        for (final Scheduling p : chosen) {
            System.out.printf("jobs: %s ...%n", p);
            results.add(shared.run(p));
        }
        print(results);
        if (json != null) {
            Reports.writeJson(json, toJson(results, cores));
            System.out.println("wrote " + json);
        }
        final boolean ok = results.stream().allMatch(SharedJobs.Result::succeeded);
        if (!ok) {
            for (final SharedJobs.Result r : results) {
                if (!r.succeeded()) {
                    System.err.printf("jobs under %s: a job failed; the jobs printed:%n%s", r.policy(), r.output());
                }
            }
        }
        return ok ? 0 : JhpvmCommand.FAILURE;
    }

    /** Prints the table of the results. */
    static void print(final List<SharedJobs.Result> results) {
        System.out.println("| policy | job | alone s | together s | slowdown | exit alone, together | fabric nodes "
            + "together |");
        System.out.println("|---|---|---:|---:|---:|---|---|");
        for (final SharedJobs.Result r : results) {
            for (final SharedJobs.Job j : r.jobs()) {
                System.out.printf("| %s | %s | %.2f | %.2f | %.2f | %d, %d | %s |%n", r.policy(), j.command(),
                    j.aloneSeconds(), j.togetherSeconds(), j.slowdown(), j.aloneExit(), j.togetherExit(),
                    j.nodes().isEmpty() ? "none" : String.join(", ", j.nodes()));
            }
        }
        for (final SharedJobs.Result r : results) {
            System.out.printf("%s_slowdown_max = %.2f (%d jobs together; the ideal is the number of jobs when each "
                + "alone fills the cores)%n", r.policy(), r.slowdownMax(), r.jobs().size());
        }
    }

    /** The results as JSON: per policy its jobs, and {@code POLICY_slowdown_max} under {@code metrics}. */
    static ObjectNode toJson(final List<SharedJobs.Result> results, final int cores) {
        final ObjectNode root = Reports.object();
        root.put("cores", cores > 0 ? cores : Runtime.getRuntime().availableProcessors());
        final ObjectNode m = root.putObject("metrics");
        final ObjectNode byPolicy = root.putObject("policies");
        for (final SharedJobs.Result r : results) {
            m.put(r.policy() + "_slowdown_max", r.slowdownMax());
            final ObjectNode p = byPolicy.putObject(r.policy().toString());
            p.put("slowdown_max", r.slowdownMax()).put("succeeded", r.succeeded()).put("fabric_nodes", r.nodes());
            final ArrayNode arr = p.putArray("jobs");
            for (final SharedJobs.Job j : r.jobs()) {
                final ObjectNode o = arr.addObject().put("command", j.command()).put("alone_seconds",
                    j.aloneSeconds()).put("together_seconds", j.togetherSeconds()).put("slowdown", j.slowdown())
                    .put("exit_alone", j.aloneExit()).put("exit_together", j.togetherExit());
                final ArrayNode held = o.putArray("nodes_together");
                j.nodes().forEach(held::add);
            }
        }
        return root;
    }
}
