package org.jhpvm.apps.commands;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.SharedJobs;
import org.jhpvm.fm.Scheduling;
import org.jhpvm.shmem.Cmp;
import org.jhpvm.shmem.ShmemAbortException;
import org.jhpvm.shmem.ShmemJob;
import org.jhpvm.shmem.SymmetricLongs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jhpvm bench dcs}: jobs sharing the cores under each scheduling policy, and what waiting PEs cost. */
@Command(name = "dcs", mixinStandardHelpOptions = true,
    description = {"FM-DCS: two copies of a blast3d job, then a jacobi and a gups job, each pair at once on this "
        + "JVM's cores under the scheduling policies none, gang and dcs (each job also alone, in the same run): the "
        + "worse job's slowdown per policy, the median of --trials rounds. Then an idle job (every PE waiting for a "
        + "flag nobody sets) for the CPU that waiting PEs use, from thread CPU times.",
        "Targets: dcs_slowdown_max (2 equal jobs; 2.0 is ideal) <= " + BenchDcsCommand.SLOWDOWN_TARGET
            + ", idle_cpu_fraction_waiting <= " + BenchDcsCommand.IDLE_TARGET + ", idle_job_core_fraction <= "
            + BenchDcsCommand.IDLE_JOB_TARGET + "."})
final class BenchDcsCommand implements Callable<Integer> {
    static final double SLOWDOWN_TARGET = 2.3;
    static final double IDLE_TARGET = 0.05;
    static final double IDLE_JOB_TARGET = 0.02;

    @Option(names = "--zones", paramLabel = "N", description = "blast3d zones per dimension of each job (default: "
        + "${DEFAULT-VALUE}).")
    private int zones = 56;

    @Option(names = "--jacobi-n", paramLabel = "N", description = "jacobi's interior points per dimension (default: "
        + "${DEFAULT-VALUE}).")
    private int jacobiN = 96;

    @Option(names = "--gups-log-size", paramLabel = "M", description = "gups' table of 2^M longs (default: "
        + "${DEFAULT-VALUE}).")
    private int gupsLogSize = 20;

    @Option(names = "--pes", paramLabel = "N", description = "PEs of each job (default: ${DEFAULT-VALUE}).")
    private int pes = 2;

    @Option(names = "--idle-pes", paramLabel = "N", description = "PEs of the idle job (default: ${DEFAULT-VALUE}).")
    private int idlePes = 8;

    @Option(names = "--idle-ms", paramLabel = "MS", description = "How long the idle job's CPU is measured (default: "
        + "${DEFAULT-VALUE}).")
    private int idleMs = 2000;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (key \"metrics\") "
        + "(default: none).")
    private Path json;

    @Option(names = "--quantum-ms", paramLabel = "MS", description = "The shared scheduler's quantum, milliseconds, as "
        + "jobs' (default: ${DEFAULT-VALUE}).")
    private double quantumMs = JobsCommand.QUANTUM_MS;

    @Option(names = "--trials", paramLabel = "N", description = "Rounds over the policies; each policy's figures "
        + "are its median round's (default: ${DEFAULT-VALUE}).")
    private int trials = 3;

    @Override
    public Integer call() throws Exception {
        if (zones < 8 || pes < 1 || idlePes < 2 || idleMs < 100 || trials < 1 || !(quantumMs >= 0.1 && quantumMs
            <= 1000)) {
            throw new IllegalArgumentException("need --zones >= 8, --pes >= 1, --idle-pes >= 2, --idle-ms >= 100, "
                + "--trials >= 1, --quantum-ms in 0.1..1000");
        }
        final String blast = "hydro blast3d --zones " + zones + " --pes " + pes;
        final long quantumNs = Math.round(quantumMs * 1e6);
        // Each pair on one shared fabric of just the nodes the two jobs take together.
        final SharedJobs equal = new SharedJobs(List.of(blast, blast), JhpvmCommand::execute, 0, quantumNs, 2 * pes);
        final SharedJobs mixed = new SharedJobs(List.of("jacobi --pes " + pes + " --n " + jacobiN, "gups --pes " + pes
            + " --log-size " + gupsLogSize), JhpvmCommand::execute, 0, quantumNs, 2 * pes);
        System.out.println("bench dcs: warming up (each job once, untimed) ...");
        equal.warmUp();
        mixed.warmUp();
        // Rounds over the policies, so that a slow spell of the machine does not fall on one policy only; each job's
        // time alone and together is one run, so a single round spreads wider than the policies differ.
        final Scheduling[] policies = {Scheduling.NONE, Scheduling.GANG, Scheduling.DCS};
        final SharedJobs.Result[][] equalRounds = new SharedJobs.Result[policies.length][trials];
        final SharedJobs.Result[][] mixedRounds = new SharedJobs.Result[policies.length][trials];
        for (int t = 0; t < trials; t++) {
            for (int i = 0; i < policies.length; i++) {
                System.out.printf("bench dcs: %s, round %d of %d ...%n", policies[i], t + 1, trials);
                equalRounds[i][t] = equal.run(policies[i]);
                mixedRounds[i][t] = mixed.run(policies[i]);
            }
        }
        final List<SharedJobs.Result> equalResults = new ArrayList<>();
        final List<SharedJobs.Result> mixedResults = new ArrayList<>();
        for (int i = 0; i < policies.length; i++) {
            equalResults.add(median(equalRounds[i]));
            mixedResults.add(median(mixedRounds[i]));
        }
        final double[] idle = idleCpu();
        System.out.printf("bench dcs: each pair of jobs at once on %d cores, then each alone (wall times)%n",
            Runtime.getRuntime().availableProcessors());
        JobsCommand.print(equalResults);
        JobsCommand.print(mixedResults);
        for (int i = 0; i < policies.length; i++) {
            System.out.printf("%s_slowdown_max per round: %s (the median's round above)%n", policies[i],
                rounds(equalRounds[i]));
        }
        final double dcs = equalResults.get(2).slowdownMax();
        System.out.printf("dcs_slowdown_max = %.2f (target <= %.1f: %s); none %.2f, gang %.2f%n", dcs,
            SLOWDOWN_TARGET, dcs <= SLOWDOWN_TARGET ? "met" : "MISSED", equalResults.get(0).slowdownMax(),
            equalResults.get(1).slowdownMax());
        System.out.printf("idle job of %d PEs, every one waiting, measured over %d ms: each PE (its thread and its "
                + "progress agent) used %.4f of a core (idle_cpu_fraction_waiting, target <= %.2f: %s); the whole "
                + "job %.4f of one core (idle_job_core_fraction, target < %.2f: %s)%n", idlePes, idleMs / 2,
            idle[0], IDLE_TARGET, idle[0] <= IDLE_TARGET ? "met" : "MISSED", idle[1], IDLE_JOB_TARGET,
            idle[1] < IDLE_JOB_TARGET ? "met" : "MISSED");
        if (json != null) {
            final ObjectNode root = JobsCommand.toJson(equalResults, 0);
            root.put("benchmark", "dcs");
            root.set("mixed", JobsCommand.toJson(mixedResults, 0));
            final ObjectNode m = (ObjectNode) root.get("metrics");
            for (final SharedJobs.Result r : mixedResults) {
                m.put(r.policy() + "_slowdown_max_mixed", r.slowdownMax());
            }
            root.put("trials", trials);
            for (int i = 0; i < policies.length; i++) {
                final ArrayNode all = m.putArray(policies[i] + "_slowdown_max_rounds");
                for (final SharedJobs.Result r : equalRounds[i]) {
                    all.add(r.slowdownMax());
                }
            }
            m.put("idle_cpu_fraction_waiting", idle[0]);
            m.put("idle_job_core_fraction", idle[1]);
            final ObjectNode t = root.putObject("targets");
            t.put("dcs_slowdown_max_max", SLOWDOWN_TARGET).put("dcs_slowdown_max_met", dcs <= SLOWDOWN_TARGET);
            t.put("idle_cpu_fraction_waiting_max", IDLE_TARGET).put("idle_cpu_fraction_waiting_met",
                idle[0] <= IDLE_TARGET);
            t.put("idle_job_core_fraction_max", IDLE_JOB_TARGET).put("idle_job_core_fraction_met",
                idle[1] < IDLE_JOB_TARGET);
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        final boolean ok = equalResults.stream().allMatch(SharedJobs.Result::succeeded)
            && mixedResults.stream().allMatch(SharedJobs.Result::succeeded);
        if (!ok) {
            System.err.println("bench dcs: a job failed");
        }
        return ok ? 0 : JhpvmCommand.FAILURE;
    }

    /** The round whose worse job's slowdown is the median (the lower middle of an even count). */
    private static SharedJobs.Result median(final SharedJobs.Result[] rounds) {
        final SharedJobs.Result[] sorted = rounds.clone();
        Arrays.sort(sorted, Comparator.comparingDouble(SharedJobs.Result::slowdownMax));
        return sorted[(sorted.length - 1) / 2];
    }

    private static String rounds(final SharedJobs.Result[] rounds) {
        final StringBuilder b = new StringBuilder();
        for (final SharedJobs.Result r : rounds) {
            b.append(b.isEmpty() ? "" : ", ").append(String.format("%.2f", r.slowdownMax()));
        }
        return b.toString();
    }

    /**
     * An idle job: every PE waits in {@code waitUntil} for a flag nobody sets, until the job's timeout ends it; the
     * CPU time of its threads (each PE's own and its progress agent's) is read from outside over a window in the
     * middle.
     *
     * @return {CPU per waiting PE as a fraction of a core, the whole job's CPU as a fraction of one core}
     */
    private double[] idleCpu() throws InterruptedException {
        final CountDownLatch waiting = new CountDownLatch(idlePes);
        final Thread job = Thread.ofPlatform().name("bench-dcs-idle").start(() -> {
            try {
                // A wait nobody ends is a deadlock, which FM would end after a second: here it is the point.
                ShmemJob.builder().pes(idlePes).timeout(Duration.ofMillis(idleMs + 1_000L))
                    .option("fm.deadlockAfterNs", "0").build().run(sh -> {
                        final SymmetricLongs flag = sh.mallocLongs(1); // zeroed; nobody sets it
                        sh.barrierAll();
                        waiting.countDown();
                        flag.waitUntil(0, Cmp.EQ, 1L); // the job's timeout ends the wait
                    });
            } catch (ShmemAbortException e) {
                if (e.pe() != ShmemAbortException.NO_PE) {
                    throw e; // a PE failed: not the timeout that ends the job as planned
                }
            }
        });
        final double[] out = new double[2];
        try {
            if (!waiting.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the idle job did not start");
            }
            Thread.sleep(200); // every PE settles into its wait
            final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            final Map<Long, Long> before = cpuByThread(mx);
            final long t0 = System.nanoTime();
            Thread.sleep(idleMs / 2);
            final long wall = System.nanoTime() - t0;
            final Map<Long, Long> after = cpuByThread(mx);
            long used = 0;
            for (final Map.Entry<Long, Long> e : after.entrySet()) {
                final ThreadInfo info = mx.getThreadInfo(e.getKey());
                if (info != null && before.containsKey(e.getKey()) && (info.getThreadName().startsWith("jhpvm-pe-")
                    || info.getThreadName().startsWith("jhpvm-shmem-progress-"))) {
                    used += e.getValue() - before.get(e.getKey());
                }
            }
            out[0] = (double) used / wall / idlePes;
            out[1] = (double) used / wall;
        } finally {
            job.join();
        }
        return out;
    }

    private static Map<Long, Long> cpuByThread(final ThreadMXBean mx) {
        final Map<Long, Long> m = new HashMap<>();
        for (final long id : mx.getAllThreadIds()) {
            final long t = mx.getThreadCpuTime(id);
            if (t >= 0) {
                m.put(id, t);
            }
        }
        return m;
    }
}
