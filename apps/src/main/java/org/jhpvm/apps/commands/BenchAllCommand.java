package org.jhpvm.apps.commands;

import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Reports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jhpvm.apps.bench.Stats;
import org.knowm.xchart.XYChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jhpvm bench all --out DIR}: every layer's benchmark in turn, then one Markdown report with their tables, the
 * latency and bandwidth curves of every layer on one plot each, and per layer the papers' summary figures (t0,
 * r_inf, n1/2) with the layering efficiency over the layer below. The NIC's RDMA ({@code bench via}) is a row
 * beside the chain, not a link of it: FM is not built on RDMA (SHMEM uses it for large transfers), so it is
 * compared with the {@code System.arraycopy} its own run measured, and the next layer is still compared with the
 * fabric's frames.
 */
@Command(name = "all", mixinStandardHelpOptions = true,
    description = {"Runs bench fabric, via, fm, shmem, ga, hydro and mpi, and writes DIR/report.md (tables, summary "
        + "figures, layering efficiency), DIR/latency.png and DIR/bandwidth.png (every layer on one plot), and each "
        + "bench's JSON and PNG (DIR/LAYER.json, DIR/LAYER.png).",
        "Summary per layer from its streaming bandwidth curve (Hockney's model t(n) = t0 + n / r_inf, as the FM "
            + "papers report): r_inf the peak bandwidth, n1/2 the size reaching half of it, t0 the per-message time "
            + "of the smallest size less its bytes at r_inf. Layering efficiency: the layer's bandwidth over the "
            + "layer below's at the same sizes (median), and the ratio of their r_inf and t0. The NIC's RDMA (via) "
            + "is a row beside the chain, compared with System.arraycopy measured in its own run."})
final class BenchAllCommand implements Callable<Integer> {
    /**
     * The layers, bottom up, with the curves each contributes (rows key and value key of its bandwidth and latency);
     * a layer with a baseline key is beside the chain: compared with that curve of its own rows, and skipped as the
     * layer below of the next.
     */
    private static final List<Layer> LAYERS = Launched.environment().isEmpty() ? List.of(
        new Layer("fabric", "emulated Myrinet fabric (frames)", "sizes", "fabric_bw_MBps", "sizes",
            "fabric_latency_ns", null),
        new Layer("via", "NIC RDMA write (VIA)", "rdma", "write_bw_MBps", "rdma", "write_latency_ns",
            "arraycopy_bw_MBps"),
        new Layer("fm", "Fast Messages", "bandwidth", "fm_bw_MBps", "latency", "fm_latency_ns", null),
        new Layer("shmem", "SHMEM put", "bandwidth", "put_bw_MBps", "latency", "put_latency_ns", null),
        new Layer("ga", "Global Arrays put (1-D section)", "sections", "ga_MBps", null, null, null))
        // Under launch: FM, SHMEM and GA between the launched processes (their launched JSON keys); the fabric and the
        // NIC's RDMA are the emulated Myrinet's, in rank 0's JVM (the launched fabric has neither).
        : List.of(
        new Layer("fabric", "emulated Myrinet fabric (frames; rank 0's JVM)", "sizes", "fabric_bw_MBps", "sizes",
            "fabric_latency_ns", null),
        new Layer("via", "emulated NIC RDMA write (VIA; rank 0's JVM)", "rdma", "write_bw_MBps", "rdma",
            "write_latency_ns", "arraycopy_bw_MBps"),
        new Layer("fm", "Fast Messages " + Launched.pathDescription(), "bandwidth", "aeron_fm_bw_MBps", "latency",
            "aeron_fm_latency_ns", null),
        new Layer("shmem", "SHMEM put " + Launched.pathDescription(), "bandwidth", "aeron_put_bw_MBps", "latency",
            "aeron_put_latency_ns", null),
        new Layer("ga", "Global Arrays put (1-D section) " + Launched.pathDescription(), "sections", "ga_MBps", null,
            null, null));
    /** The benches of the emulated fabric itself: under launch only rank 0 runs them, after the jobs. */
    private static final List<String> IN_PROCESS = List.of("fabric", "via");

    private record Layer(String name, String title, String bwRows, String bwKey, String latRows, String latKey,
                         String baselineKey) {
    }

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "Directory of the report.")
    private Path out;

    @Option(names = "--trials", paramLabel = "N", description = "Trials of every bench (default: each bench's own).")
    private Integer trials;

    @Option(names = "--warmups", paramLabel = "N", description = "Warm-up passes of every bench (default: each "
        + "bench's own).")
    private Integer warmups;

    @Option(names = "--round-trips", paramLabel = "N", description = "Latency round trips of fabric, fm and shmem, "
        + "RDMA ops per latency point of via (default: each bench's own).")
    private Integer roundTrips;

    @Option(names = "--mb", paramLabel = "MB", description = "Megabytes per bandwidth point (fabric: per trial) of "
        + "every bench (default: each bench's own).")
    private Integer mb;

    @Option(names = "--zone-cycles", paramLabel = "Z", description = "bench hydro's zone-cycles per timed run "
        + "(default: its own).")
    private Long zoneCycles;

    @Option(names = "--max-ranks", paramLabel = "N", description = "bench mpi's largest allReduce rank count "
        + "(default: its own).")
    private Integer maxRanks;

    @Override
    public Integer call() throws IOException {
        check("--trials", trials, 1);
        check("--warmups", warmups, 0);
        check("--round-trips", roundTrips, 1);
        check("--mb", mb, 1);
        check("--max-ranks", maxRanks, 2);
        if (zoneCycles != null && zoneCycles < 1) {
            throw new IllegalArgumentException("--zone-cycles " + zoneCycles + ": at least 1");
        }
        Files.createDirectories(out);
        // Under launch the benches whose jobs span the launched processes run first, the emulated fabric's own (which
        // only rank 0 runs) last: no process then waits in a job while another measures alone.
        final boolean launched = Launched.environment().isPresent();
        for (final Layer l : LAYERS) {
            if (!launched || !IN_PROCESS.contains(l.name())) {
                runLayer(l);
            }
        }
        final List<String> hydro = new ArrayList<>(List.of("bench", "hydro", "--json", out.resolve("hydro.json")
            .toString(), "--png", out.resolve("hydro.png").toString()));
        add(hydro, "--trials", trials);
        add(hydro, "--warmups", warmups);
        if (zoneCycles != null) {
            hydro.add("--zone-cycles");
            hydro.add(zoneCycles.toString());
        }
        run("hydro", hydro);
        final List<String> mpi = new ArrayList<>(List.of("bench", "mpi", "--json", out.resolve("mpi.json").toString(),
            "--png", out.resolve("mpi.png").toString()));
        add(mpi, "--trials", trials);
        add(mpi, "--warmups", warmups);
        add(mpi, "--round-trips", roundTrips);
        add(mpi, "--mb-per-point", mb);
        add(mpi, "--max-ranks", maxRanks);
        run("mpi", mpi);
        for (final Layer l : LAYERS) {
            if (launched && IN_PROCESS.contains(l.name())) {
                runLayer(l);
            }
        }
        if (!Launched.reports()) {
            return 0; // under launch, rank 0 reads the benches' JSON and writes the report
        }
        final ObjectMapper mapper = new ObjectMapper();
        final List<JsonNode> results = new ArrayList<>();
        for (final Layer l : LAYERS) {
            results.add(mapper.readTree(out.resolve(l.name() + ".json").toFile()));
        }
        final JsonNode hydroResult = mapper.readTree(out.resolve("hydro.json").toFile());
        final JsonNode mpiResult = mapper.readTree(out.resolve("mpi.json").toFile());
        final Path report = out.resolve("report.md");
        Files.writeString(report, report(results, out) + section("The ZEUS solver, zone-cycles/s per PE", "hydro",
            hydroResult, out) + section("MPI-FM against Fast Messages", "mpi", mpiResult, out));
        Reports.writePng(out.resolve("latency.png"), List.of(latencyChart(results)));
        Reports.writePng(out.resolve("bandwidth.png"), List.of(bandwidthChart(results)));
        System.out.println("wrote " + report + ", " + out.resolve("latency.png") + " and "
            + out.resolve("bandwidth.png"));
        return 0;
    }

    private void runLayer(final Layer l) {
        final List<String> args = new ArrayList<>(List.of("bench", l.name(), "--json", out.resolve(l.name()
            + ".json").toString(), "--png", out.resolve(l.name() + ".png").toString()));
        add(args, "--trials", trials);
        add(args, "--warmups", warmups);
        if ("via".equals(l.name())) {
            add(args, "--ops", roundTrips);
        } else if (!"ga".equals(l.name())) {
            add(args, "--round-trips", roundTrips);
        }
        add(args, "fabric".equals(l.name()) ? "--mb-per-trial" : "--mb-per-point", mb);
        run(l.name(), args);
    }

    private static void run(final String bench, final List<String> args) {
        if (Launched.reports()) {
            System.out.println("== jhpvm " + String.join(" ", args));
        }
        final int code = JhpvmCommand.execute(args.toArray(new String[0]));
        if (code == JhpvmCommand.USAGE) {
            throw new IllegalArgumentException("bench " + bench + " refused the options passed on");
        }
        if (code != 0) {
            throw new IllegalStateException("bench " + bench + " failed (exit code " + code + ")");
        }
    }

    private static void check(final String name, final Integer value, final int min) {
        if (value != null && value < min) {
            throw new IllegalArgumentException(name + " " + value + ": at least " + min);
        }
    }

    private static void add(final List<String> args, final String name, final Integer value) {
        if (value != null) {
            args.add(name);
            args.add(value.toString());
        }
    }

    /** A curve: sizes ascending and values. */
    record Curve(double[] bytes, double[] values) {
        /** The value at n, log-log interpolated; NaN outside the measured sizes. */
        double at(final double n) {
            for (int i = 0; i + 1 < bytes.length; i++) {
                if (n >= bytes[i] && n <= bytes[i + 1]) {
                    final double f = Math.log(n / bytes[i]) / Math.log(bytes[i + 1] / bytes[i]);
                    return Math.exp(Math.log(values[i]) + f * Math.log(values[i + 1] / values[i]));
                }
            }
            return bytes.length == 1 && n == bytes[0] ? values[0] : Double.NaN;
        }

        double peak() {
            return Arrays.stream(values).max().orElse(Double.NaN);
        }

        /** The smallest size at which the curve reaches half its peak (log-log interpolated). */
        double halfPowerBytes() {
            final double half = peak() / 2;
            for (int i = 0; i < bytes.length; i++) {
                if (values[i] >= half) {
                    if (i == 0) {
                        return bytes[0];
                    }
                    final double f = Math.log(half / values[i - 1]) / Math.log(values[i] / values[i - 1]);
                    return Math.exp(Math.log(bytes[i - 1]) + f * Math.log(bytes[i] / bytes[i - 1]));
                }
            }
            return Double.NaN;
        }

        /** Hockney's t0 through the smallest size: its per-message time less its bytes at the peak rate (ns). */
        double t0Ns() {
            return bytes.length == 0 ? Double.NaN : 1e3 * (bytes[0] / values[0] - bytes[0] / peak());
        }
    }

    /** The curve of rows[bytesKey/valueKey]; for GA's sections only the put_1d rows. */
    static Curve curve(final JsonNode root, final String rows, final String key) {
        final List<double[]> points = new ArrayList<>();
        for (final JsonNode row : root.path(rows)) {
            if (row.has("op") && !"put_1d".equals(row.get("op").asText())) {
                continue;
            }
            if (row.has(key) && row.get(key).isNumber() && row.get(key).asDouble() > 0) {
                points.add(new double[] {row.get("bytes").asDouble(), row.get(key).asDouble()});
            }
        }
        points.sort((a, b) -> Double.compare(a[0], b[0]));
        return new Curve(points.stream().mapToDouble(p -> p[0]).toArray(),
            points.stream().mapToDouble(p -> p[1]).toArray());
    }

    private static String report(final List<JsonNode> results, final Path dir) {
        final StringBuilder md = new StringBuilder();
        md.append("# jhpvm benchmark report\n\n");
        md.append(String.format("%s; %d cores; Java %s. Each layer is measured against the layer below (or a raw "
            + "baseline) in its own run; the curves of all layers are in [latency.png](latency.png) and "
            + "[bandwidth.png](bandwidth.png).%n%n", Instant.now(), Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
        md.append("## Summary per layer\n\n");
        md.append("From each layer's streaming bandwidth curve: r_inf the peak, n1/2 the size reaching half of it, t0 "
            + "the per-message time at the smallest size less its bytes at r_inf (Hockney). Efficiency over the layer "
            + "below: bandwidth ratio at the same sizes (median over the sizes both measured), r_inf ratio, t0 ratio "
            + "(below / this: 1 is free, lower costs more). The layers run in separate jobs here, so these"
            + " cross-run ratios "
            + "carry the machine's run-to-run noise; the ratios each bench measures within one run (its metrics "
            + "below) are the careful ones.\n\n");
        md.append("| layer | one-way latency 8 B (ns) | t0 (ns) | r_inf (MB/s) | n1/2 (bytes) | bandwidth vs below "
            + "(median) | r_inf vs below | t0 below / this |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        Curve below = null;
        for (int i = 0; i < LAYERS.size(); i++) {
            final Layer l = LAYERS.get(i);
            final Curve bw = curve(results.get(i), l.bwRows(), l.bwKey());
            final Curve lat = l.latRows() == null ? null : curve(results.get(i), l.latRows(), l.latKey());
            final String latency = lat == null || Double.isNaN(lat.at(8)) ? "-" : fmt(lat.at(8));
            String vs = "-";
            String rinf = "-";
            String t0 = "-";
            final Curve base = l.baselineKey() == null ? below : curve(results.get(i), l.bwRows(), l.baselineKey());
            if (base != null) {
                final List<Double> ratios = new ArrayList<>();
                for (int k = 0; k < bw.bytes().length; k++) {
                    final double b = base.at(bw.bytes()[k]);
                    if (!Double.isNaN(b)) {
                        ratios.add(bw.values()[k] / b);
                    }
                }
                vs = ratios.isEmpty() ? "-" : fmt(Stats.median(ratios.stream().mapToDouble(Double::doubleValue)
                    .toArray()));
                rinf = fmt(bw.peak() / base.peak());
                t0 = fmt(base.t0Ns() / bw.t0Ns());
            }
            md.append(String.format("| %s | %s | %s | %s | %s | %s | %s | %s |%n", l.title(), latency, fmt(bw.t0Ns()),
                fmt(bw.peak()), fmt(bw.halfPowerBytes()), vs, rinf, t0));
            if (l.baselineKey() == null) {
                below = bw;
            }
        }
        md.append("\nThe fabric's sizes are frames (at most one frame per message); above it every layer moves "
            + "messages of any size. The NIC's RDMA write is beside the chain, not a link of it: its \"below\" is "
            + "System.arraycopy of the same bytes measured in its own run (a same-run ratio), its latency is post to "
            + "completion with no host at the target, and Fast Messages is compared with the fabric's frames.\n");
        for (int i = 0; i < LAYERS.size(); i++) {
            md.append(section(LAYERS.get(i).title(), LAYERS.get(i).name(), results.get(i), dir));
        }
        return md.toString();
    }

    /**
     * One bench's section of the report: its plot (if it drew one: under launch, fm and shmem do not), metrics,
     * targets and every table of rows its JSON holds.
     */
    private static String section(final String title, final String name, final JsonNode r, final Path dir) {
        final StringBuilder md = new StringBuilder();
        md.append(String.format("%n## %s (`bench %s`)%n", title, name));
        if (Files.exists(dir.resolve(name + ".png"))) {
            md.append(String.format("%n![%s](%s.png)%n", name, name));
        }
        md.append("\n### Metrics\n\n| key | value |\n|---|---:|\n");
        r.path("metrics").fields().forEachRemaining(e -> md.append("| ").append(e.getKey()).append(" | ")
            .append(value(e.getValue())).append(" |\n"));
        if (r.has("targets")) {
            md.append("\n### Targets\n\n| key | value |\n|---|---:|\n");
            r.get("targets").fields().forEachRemaining(e -> md.append("| ").append(e.getKey()).append(" | ")
                .append(value(e.getValue())).append(" |\n"));
        }
        final Iterator<Map.Entry<String, JsonNode>> it = r.fields();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isArray() && !e.getValue().isEmpty() && e.getValue().get(0).isObject()) {
                md.append("\n### ").append(e.getKey()).append("\n\n").append(table(e.getValue()));
            }
        }
        return md.toString();
    }

    /** A Markdown table of an array of flat JSON objects (columns: the first row's keys). */
    static String table(final JsonNode rows) {
        final List<String> keys = new ArrayList<>();
        rows.get(0).fieldNames().forEachRemaining(keys::add);
        final StringBuilder t = new StringBuilder("| " + String.join(" | ", keys) + " |\n|");
        keys.forEach(k -> t.append("---:|"));
        t.append('\n');
        for (final JsonNode row : rows) {
            t.append('|');
            for (final String k : keys) {
                t.append(' ').append(row.has(k) ? value(row.get(k)) : "").append(" |");
            }
            t.append('\n');
        }
        return t.toString();
    }

    private static String value(final JsonNode v) {
        if (v.isIntegralNumber()) {
            return Long.toString(v.asLong());
        }
        if (v.isNumber()) {
            return fmt(v.asDouble());
        }
        return v.isContainerNode() ? v.toString() : v.asText();
    }

    private static String fmt(final double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return Math.abs(v) >= 1000 || v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format("%.0f", v)
            : String.format("%.3g", v);
    }

    private static XYChart latencyChart(final List<JsonNode> results) {
        final XYChart c = Reports.logLogChart("one-way latency, every layer", "latency (ns)");
        for (int i = 0; i < LAYERS.size(); i++) {
            final Layer l = LAYERS.get(i);
            if (l.latRows() != null) {
                final Curve k = curve(results.get(i), l.latRows(), l.latKey());
                if (k.bytes().length > 0) {
                    c.addSeries(l.title(), k.bytes(), k.values());
                }
            }
        }
        return c;
    }

    private static Layer layer(final String name) {
        return LAYERS.stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow();
    }

    private static XYChart bandwidthChart(final List<JsonNode> results) {
        final XYChart c = Reports.logLogChart("streaming bandwidth, every layer", "bandwidth (MB/s)");
        final Curve copy = curve(results.get(LAYERS.indexOf(layer("fm"))), "bandwidth", "arraycopy_bw_MBps");
        if (copy.bytes().length > 0) {
            c.addSeries("System.arraycopy (baseline)", copy.bytes(), copy.values());
        }
        for (int i = 0; i < LAYERS.size(); i++) {
            final Layer l = LAYERS.get(i);
            final Curve k = curve(results.get(i), l.bwRows(), l.bwKey());
            if (k.bytes().length > 0) {
                c.addSeries(l.title(), k.bytes(), k.values());
            }
        }
        return c;
    }
}
