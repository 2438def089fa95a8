package org.jhpvm.apps.bench;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.SharedMyrinet;
import org.jhpvm.fm.Scheduler;
import org.jhpvm.fm.Scheduling;

/**
 * Several jhpvm jobs on one JVM's cores and one emulated Myrinet at once, as HPVM's clusters ran several parallel
 * jobs, and each alone: each job's wall time alone and together, and its slowdown, under a scheduling policy whose
 * run slots every job's PEs share ({@link Scheduler}). The jobs' fabrics are partitions of one shared fabric
 * ({@link SharedMyrinet}): each job takes its own nodes of it, and keeps its own PEs, handlers and symmetric memory;
 * a job that fails ends alone, and the others finish. The jobs' own output is captured (printed back only for a job
 * that failed): while the jobs run, this JVM's standard output and error are the capture's.
 */
public final class SharedJobs {
    /** The commands a shared run accepts: the jobs that run in this JVM. */
    public static final Set<String> COMMANDS = Set.of("hydro", "hello", "fabric", "jacobi", "matmul", "gups",
        "taskpool", "ring", "run");

    /**
     * One job's figures under one policy.
     *
     * @param command         its command line
     * @param aloneSeconds    its wall time alone
     * @param aloneExit       its exit status alone
     * @param togetherSeconds its wall time beside the others
     * @param togetherExit    its exit status beside the others
     * @param nodes           the shared fabric's nodes it held beside the others, one run per fabric it made
     *                        ({@code "nodes 0-1"}), empty if it made none
     */
    public record Job(String command, double aloneSeconds, int aloneExit, double togetherSeconds,
                      int togetherExit, List<String> nodes) {
        /**
         * The slowdown.
         *
         * @return the job's wall time together over its wall time alone
         */
        public double slowdown() {
            return togetherSeconds / aloneSeconds;
        }

        /**
         * Success.
         *
         * @return true if the job succeeded alone and together
         */
        public boolean succeeded() {
            return aloneExit == 0 && togetherExit == 0;
        }
    }

    /**
     * The figures of every job under one policy.
     *
     * @param policy the policy
     * @param jobs   per job, in the order given
     * @param output what the jobs printed, for a report of a failure
     * @param nodes  the shared fabric's nodes
     */
    public record Result(Scheduling policy, List<Job> jobs, String output, int nodes) {
        /**
         * The worst slowdown.
         *
         * @return the worst job's slowdown
         */
        public double slowdownMax() {
            return jobs.stream().mapToDouble(Job::slowdown).max().orElse(Double.NaN);
        }

        /**
         * Success.
         *
         * @return true if every job succeeded alone and together
         */
        public boolean succeeded() {
            return jobs.stream().allMatch(Job::succeeded);
        }
    }

    /** What the partitions of the runs alone are recorded under; those together under TOGETHER + the job's index. */
    private static final String ALONE = "alone";
    private static final String TOGETHER = "together ";

    private final List<String[]> commands;
    private final Function<String[], Integer> runner;
    private final int cores;
    private final long quantumNs;
    private final int nodes;

    /**
     * Checks the command lines; nothing runs yet.
     *
     * @param commands  jhpvm command lines, one job each, words separated by blanks ({@code hydro blast3d --pes 4})
     * @param runner    runs one command line in this JVM and returns its exit status ({@code Main::execute})
     * @param cores     cores of the shared scheduler, 0 for the machine's
     * @param quantumNs its quantum
     * @param nodes     nodes of the shared fabric, 1 to {@link FabricConfig#MAX_NICS}: a job that asks for more than
     *                  are free fails alone
     * @throws IllegalArgumentException for no commands, an empty one, or one that is not a job of this JVM, or a
     *                                  node count out of range
     */
    public SharedJobs(final List<String> commands, final Function<String[], Integer> runner, final int cores,
                      final long quantumNs, final int nodes) {
        if (commands.isEmpty()) {
            throw new IllegalArgumentException("no jobs: give each job's command line as one argument, e.g. "
                + "'hydro blast3d --pes 4' 'gups'");
        }
        this.commands = new ArrayList<>();
        for (final String c : commands) {
            final String[] words = c.trim().split("\\s+");
            if (words[0].isEmpty() || !COMMANDS.contains(words[0])) {
                throw new IllegalArgumentException("job '" + c + "': a command of " + String.join(", ",
                    COMMANDS.stream().sorted().toList()) + " and its options");
            }
            this.commands.add(words);
        }
        this.runner = runner;
        this.cores = cores;
        this.quantumNs = quantumNs;
        this.nodes = nodes;
        // Checks the settings once, before anything runs.
        Scheduler.create(Scheduling.NONE, cores, quantumNs);
        if (nodes < 1 || nodes > FabricConfig.MAX_NICS) {
            throw new IllegalArgumentException("--nodes " + nodes + ": the shared fabric has 1 to "
                + FabricConfig.MAX_NICS + " nodes");
        }
    }

    /**
     * Runs every job once alone, untimed, so that the JIT has compiled what they run before anything is measured.
     *
     * @return true if every job succeeded
     */
    public boolean warmUp() {
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(discard);
        System.setErr(discard);
        try {
            boolean ok = true;
            for (final String[] c : commands) {
                ok &= runner.apply(Arrays.copyOf(c, c.length)) == 0;
            }
            return ok;
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /**
     * Runs every job alone, one after the other, then all together, each time on a fresh scheduler of the policy,
     * all on one fresh shared fabric.
     *
     * @param policy the policy
     * @return the figures
     */
    public Result run(final Scheduling policy) {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        final int n = commands.size();
        final double[] alone = new double[n];
        final int[] aloneExit = new int[n];
        final double[] together = new double[n];
        final int[] togetherExit = new int[n];
        System.setOut(capture);
        System.setErr(capture);
        // Myrinet's crossbar cut packets of any length through: the switch carries the largest frame and header area
        // a node may have, so that every job fits that would run alone (each node keeps its job's own frame size).
        final SharedMyrinet fabric = SharedMyrinet.create(FabricConfig.builder(nodes)
            .frameBytes(FrameDescriptor.MAX_FRAME_BYTES).headerBytes(FrameDescriptor.MAX_HEADER_BYTES).build());
        try {
            for (int j = 0; j < n; j++) {
                final int job = j;
                timed(Scheduler.create(policy, cores, quantumNs), fabric, ALONE, job, alone, aloneExit);
            }
            final Scheduler shared = Scheduler.create(policy, cores, quantumNs);
            shared.share(() -> {
                final Thread[] threads = new Thread[n];
                for (int j = 0; j < n; j++) {
                    final int job = j;
                    threads[j] = Thread.ofPlatform().name("jhpvm-job-" + j).start(() -> timed(null, fabric,
                        TOGETHER + job, job, together, togetherExit));
                }
                for (final Thread t : threads) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while the jobs ran", e);
                    }
                }
                return null;
            });
        } finally {
            fabric.close();
            System.setOut(out);
            System.setErr(err);
        }
        final List<Job> jobs = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            final List<String> held = new ArrayList<>();
            for (final SharedMyrinet.Partition p : fabric.partitions()) {
                if (p.owner().equals(TOGETHER + j)) {
                    held.add(p.toString());
                }
            }
            jobs.add(new Job(String.join(" ", commands.get(j)), alone[j], aloneExit[j], together[j],
                togetherExit[j], List.copyOf(held)));
        }
        return new Result(policy, List.copyOf(jobs), captured.toString(StandardCharsets.UTF_8), nodes);
    }

    /**
     * Runs job {@code j} on the shared fabric, its partitions recorded under {@code owner} (on {@code scheduler},
     * shared for it alone, or on the one shared already if null).
     */
    private void timed(final Scheduler scheduler, final SharedMyrinet fabric, final String owner, final int j,
                       final double[] seconds, final int[] exit) {
        final String[] args = Arrays.copyOf(commands.get(j), commands.get(j).length);
        final long start = System.nanoTime();
        int status;
        try {
            status = fabric.share(owner, () -> scheduler == null ? runner.apply(args)
                : scheduler.share(() -> runner.apply(args)));
        } catch (RuntimeException e) {
            System.err.println("job '" + String.join(" ", args) + "': " + e);
            status = 1;
        }
        seconds[j] = (System.nanoTime() - start) / 1e9;
        exit[j] = status;
    }
}
