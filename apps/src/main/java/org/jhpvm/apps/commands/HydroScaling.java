package org.jhpvm.apps.commands;

import static org.jhpvm.apps.commands.HydroResultFiles.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.Stats;
import org.jhpvm.hydro.Blast3d;
import org.jhpvm.hydro.Communication;
import org.jhpvm.hydro.EnergyScheme;
import org.jhpvm.hydro.HydroRun;
import org.jhpvm.fm.Scheduling;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * {@code hydro blast3d --scaling}: weak scaling, the same block per PE on each PE count, in rounds over the counts;
 * each row its best round and the medians. With {@code --independent}, each round also runs, beside N PEs, N one-PE
 * solvers at once that never communicate: the zone-cycles a second this machine gives N blocks, so that a row can
 * be read against what its cores and caches allow and not only against one PE alone.
 */
final class HydroScaling {
    private final int block;
    private final int timed;
    private final int untimed;
    private final int rounds;
    private final int[] peCounts;
    private final List<HydroRun.Spec> specs;
    private final Map<String, String> options;
    private final EnergyScheme scheme;
    private final Communication layer;
    private final Scheduling policy;
    private final boolean independent;
    private final HydroRun.Spec single;

    /** Checked settings; {@code specs} has one spec per PE count. */
    HydroScaling(final int block, final int timed, final int untimed, final int rounds, final int[] peCounts,
                 final List<HydroRun.Spec> specs, final Map<String, String> options, final EnergyScheme scheme,
                 final Communication layer, final Scheduling policy, final boolean independent) {
        this.block = block;
        this.timed = timed;
        this.untimed = untimed;
        this.rounds = rounds;
        this.peCounts = peCounts;
        this.specs = specs;
        this.options = options;
        this.scheme = scheme;
        this.layer = layer;
        this.policy = policy;
        this.independent = independent;
        this.single = Blast3d.scaling(1, block, untimed, timed).withEnergy(scheme).withComm(layer);
    }

    /** Runs the rounds, prints the table, and writes DIR/blast3d-scaling.csv and .png and the JSON if asked. */
    void run(final Path out, final Path json) throws IOException {
        if ("virtual".equals(options.get("fabric.clock"))) {
            runVirtual(out, json);
            return;
        }
        final int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf("blast3d weak scaling on %s: %d^3 zones per PE, %d timed cycles after %d, best of %d rounds, "
            + "%d cores on this machine%n", layer == Communication.MPI ? "MPI" : "GA", block, timed, untimed, rounds,
            cores);
        // Every row is measured against the first: run the first once untimed, so that it does not pay the JIT's
        // warm-up alone (which made the later rows look better than ideal).
        HydroRun.run(peCounts[0], options, specs.get(0), t -> { });
        final List<double[]> rows = new ArrayList<>();
        final ObjectNode o = Reports.object();
        o.put("problem", "blast3d").put("block", block).put("cycles", timed).put("warmup", untimed)
            .put("untimed_first_runs", 1).put("trials", rounds).put("cores", cores).put("energy", scheme.key())
            .put("comm", layer.key()).put("scheduling", policy.toString()).put("independent", independent);
        final ArrayNode arr = o.putArray("scaling");
        // Rounds over every PE count, so that a slow spell of the machine does not fall on one PE count only.
        final double[][] rates = new double[peCounts.length][rounds];
        final double[][] alone = new double[peCounts.length][rounds];
        final HydroRun.Snapshot[] best = new HydroRun.Snapshot[peCounts.length];
        final long perRound = independent ? 2L * timed * peCounts.length : (long) timed * peCounts.length;
        try (Progress progress = new Progress("blast3d scaling (cycles)", perRound * rounds)) {
            for (int t = 0; t < rounds; t++) {
                for (int r = 0; r < peCounts.length; r++) {
                    final HydroRun.Snapshot s = HydroRun.run(peCounts[r], options, specs.get(r),
                        c -> progress.accept(1));
                    rates[r][t] = s.zoneCyclesPerSecond();
                    if (best[r] == null || rates[r][t] > best[r].zoneCyclesPerSecond()) {
                        best[r] = s;
                    }
                    if (independent) {
                        alone[r][t] = independentRate(peCounts[r], progress);
                    }
                }
            }
        }
        System.out.println("| PEs | grid | zone-cycles/s | per PE | weak-scaling efficiency | per core used | per core "
            + "used, medians | per core used, paired |"
            + (independent ? " independent solvers, per core used | of independent |" : ""));
        System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|" + (independent ? "---:|---:|" : ""));
        final double base = best[0].zoneCyclesPerSecond() / peCounts[0];
        final double baseMedian = Stats.median(rates[0]) / peCounts[0];
        for (int r = 0; r < peCounts.length; r++) {
            final int n = peCounts[r];
            final HydroRun.Snapshot s = best[r];
            final double rate = s.zoneCyclesPerSecond();
            final double eff = rate / n / base;
            // The same against the cores the PEs can actually run on.
            final double coreEff = rate / Math.min(n, cores) / base;
            final double median = Stats.median(rates[r]);
            final double coreEffMedian = median / Math.min(n, cores) / baseMedian;
            // Paired: each round's rate over the same round's first row, the median of those ratios. The machine's
            // slow spells last seconds to minutes, so rows measured seconds apart share them.
            final double[] paired = new double[rounds];
            for (int t = 0; t < rounds; t++) {
                paired[t] = rates[r][t] / Math.min(n, cores) / (rates[0][t] / peCounts[0]);
            }
            final double coreEffPaired = Stats.median(paired);
            rows.add(new double[] {n, rate, rate / n, eff, coreEff});
            final ObjectNode row = arr.addObject().put("pes", n).put("zones", s.zones()).put("seconds", s.seconds())
                .put("zone_cycles_per_second", rate).put("zone_cycles_per_second_per_pe", rate / n)
                .put("efficiency", eff).put("core_efficiency", coreEff)
                .put("zone_cycles_per_second_median", median).put("core_efficiency_median", coreEffMedian)
                .put("core_efficiency_paired", coreEffPaired);
            final ArrayNode roundRates = row.putArray("zone_cycles_per_second_rounds");
            Arrays.stream(rates[r]).forEach(roundRates::add);
            String more = "";
            if (independent) {
                final double bestAlone = Arrays.stream(alone[r]).max().orElseThrow();
                final double aloneCoreEff = bestAlone / Math.min(n, cores) / base;
                row.put("independent_zone_cycles_per_second", bestAlone)
                    .put("independent_core_efficiency", aloneCoreEff)
                    .put("core_efficiency_of_independent", coreEff / aloneCoreEff);
                more = String.format(" %.2f | %.2f |", aloneCoreEff, coreEff / aloneCoreEff);
            }
            System.out.printf("| %d | %s | %.3g | %.3g | %.2f | %.2f | %.2f | %.2f |%s%n", n, grid(s.cfg().zones()),
                rate, rate / n, eff, coreEff, coreEffMedian, coreEffPaired, more);
        }
        System.out.printf("efficiency = zone-cycles/s per PE relative to the first PE count (run once untimed before, "
            + "for the JIT), best rounds; per core used = the same per min(PEs, %d cores): beyond %d PEs they share "
            + "cores (each PE also has a progress agent); paired = the median over rounds of each round's per core "
            + "used against the same round's first row%n", cores, cores);
        if (independent) {
            System.out.println("independent solvers = N one-PE runs at once, never communicating: N x the slowest "
                + "one's zone-cycles/s, per core used as above (best rounds); of independent = per core used over it");
        }
        if (out != null) {
            writeFiles(out, rows, cores);
        }
        if (json != null) {
            Reports.writeJson(json, o);
            System.out.println("wrote " + json);
        }
    }

    /**
     * {@code --clock virtual}: every PE count once (the model gives each PE a processor of its own, so the rounds and
     * the per-core columns of a wall-clock run have nothing to measure), the modelled time, the scaled speedup (PEs
     * times the efficiency, as the HPVM overview plots Zeus-MP's), and the wall time each run took here.
     */
    private void runVirtual(final Path out, final Path json) throws IOException {
        final String machine = options.getOrDefault("fabric.machine", org.jhpvm.fabric.ClockSettings.DEFAULT_MACHINE);
        System.out.printf("blast3d weak scaling in virtual time on machine %s (%s): %d^3 zones per PE, %d timed cycles "
            + "after %d; every figure but the wall time is the model's, every PE with a processor of its own%n",
            machine, layer == Communication.MPI ? "MPI" : "GA", block, timed, untimed);
        HydroRun.run(peCounts[0], options, specs.get(0), t -> { });
        final ObjectNode o = Reports.object();
        o.put("problem", "blast3d").put("clock", "virtual").put("machine", machine)
            .put("cpu", options.getOrDefault("fabric.cpu", "measured")).put("block", block)
            .put("cycles", timed).put("warmup", untimed).put("energy", scheme.key()).put("comm", layer.key());
        final ArrayNode arr = o.putArray("scaling");
        final List<double[]> rows = new ArrayList<>();
        System.out.println("| PEs | grid | modelled s | zone-cycles/s | per PE | weak-scaling efficiency | scaled speedup "
            + "| wall s |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|");
        double base = 0;
        try (Progress progress = new Progress("blast3d scaling, virtual time (cycles)",
            (long) timed * peCounts.length)) {
            for (int r = 0; r < peCounts.length; r++) {
                final int n = peCounts[r];
                final long wall0 = System.nanoTime();
                final HydroRun.Snapshot s = HydroRun.run(n, options, specs.get(r), c -> progress.accept(1));
                final double wallS = (System.nanoTime() - wall0) / 1e9;
                final double rate = s.zoneCyclesPerSecond();
                if (r == 0) {
                    base = rate / n;
                }
                final double eff = rate / n / base;
                rows.add(new double[] {n, rate, rate / n, eff, n * eff});
                arr.addObject().put("pes", n).put("zones", s.zones()).put("modelled_seconds", s.seconds())
                    .put("zone_cycles_per_second", rate).put("zone_cycles_per_second_per_pe", rate / n)
                    .put("efficiency", eff).put("scaled_speedup", n * eff).put("wall_seconds", wallS);
                System.out.printf("| %d | %s | %.4g | %.3g | %.3g | %.2f | %.2f | %.1f |%n", n, grid(s.cfg().zones()),
                    s.seconds(), rate, rate / n, eff, n * eff, wallS);
            }
        }
        System.out.println("efficiency = modelled zone-cycles/s per PE relative to the first PE count; scaled speedup = "
            + "PEs x efficiency; " + ("declared".equals(options.get("fabric.cpu"))
            ? "compute is the solver's declared cost per zone of each substep times the machine's cpu_scale, so the "
            + "same run gives the same figures"
            : "compute counts each PE thread's CPU time times the machine's cpu_scale, so it carries this machine's "
            + "noise (sharing " + Runtime.getRuntime().availableProcessors() + " cores, caches; --cpu declared takes "
            + "it out)"));
        if (out != null) {
            Files.createDirectories(out);
            final Path csv = out.resolve("blast3d-scaling-virtual.csv");
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
                w.println("pes,zone_cycles_per_second,per_pe,efficiency,scaled_speedup");
                rows.forEach(x -> w.printf("%d,%.6g,%.6g,%.4f,%.4f%n", (int) x[0], x[1], x[2], x[3], x[4]));
            }
            final XYChart c = new XYChartBuilder().width(800).height(480).title("blast3d, " + block + "^3 zones per "
                + "PE, on " + machine + " (virtual time, " + options.getOrDefault("fabric.cpu", "measured")
                + " compute)").xAxisTitle("PEs").yAxisTitle("scaled speedup").build();
            final double[] pes = rows.stream().mapToDouble(x -> x[0]).toArray();
            c.addSeries("model", pes, rows.stream().mapToDouble(x -> x[4]).toArray());
            c.addSeries("ideal", pes, pes);
            final Path png = out.resolve("blast3d-scaling-virtual.png");
            BitmapEncoder.saveBitmap(c, png.toString(), BitmapEncoder.BitmapFormat.PNG);
            System.out.println("wrote " + csv + " and " + png);
        }
        if (json != null) {
            Reports.writeJson(json, o);
            System.out.println("wrote " + json);
        }
    }

    /**
     * Runs {@code n} one-PE solvers of the block at once, each on a thread and a job of its own: {@code n} times the
     * slowest one's zone-cycles a second. That is the pace a bulk-synchronous code of {@code n} blocks could keep if
     * it never communicated, as it must wait for its slowest block; their sum would also credit a solver that ran
     * alone for a while because another had finished or not started.
     */
    private double independentRate(final int n, final Progress progress) {
        final double[] each = new double[n];
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            final int k = i;
            threads[i] = Thread.ofPlatform().name("jhpvm-independent-" + i).start(() -> {
                try {
                    // Only the first solver counts its cycles: the progress bar counts one run's worth per row.
                    each[k] = HydroRun.run(1, options, single, k == 0 ? c -> progress.accept(1) : c -> { })
                        .zoneCyclesPerSecond();
                } catch (Throwable t) {
                    failed.compareAndSet(null, t);
                }
            });
        }
        for (final Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while independent solvers ran", e);
            }
        }
        if (failed.get() != null) {
            throw new IllegalStateException("an independent one-PE solver failed: " + failed.get(), failed.get());
        }
        return n * Arrays.stream(each).min().orElseThrow();
    }

    private void writeFiles(final Path out, final List<double[]> rows, final int cores) throws IOException {
        Files.createDirectories(out);
        final Path csv = out.resolve("blast3d-scaling.csv");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
            w.println("pes,zone_cycles_per_second,per_pe,efficiency,core_efficiency");
            rows.forEach(row -> w.printf("%d,%.6g,%.6g,%.4f,%.4f%n", (int) row[0], row[1], row[2], row[3],
                row[4]));
        }
        final XYChart c = new XYChartBuilder().width(600).height(450).title("blast3d weak scaling, " + block
            + "^3 zones per PE, " + cores + " cores").xAxisTitle("PEs").yAxisTitle("zone-cycles/s per PE").build();
        c.addSeries("per PE", rows.stream().mapToDouble(x -> x[0]).toArray(),
            rows.stream().mapToDouble(x -> x[2]).toArray());
        final Path png = out.resolve("blast3d-scaling.png");
        BitmapEncoder.saveBitmap(c, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        System.out.println("wrote " + csv + " and " + png);
    }
}
