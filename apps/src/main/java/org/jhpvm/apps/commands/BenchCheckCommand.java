package org.jhpvm.apps.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.Reports;
import org.jhpvm.apps.bench.Targets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jhpvm bench check}: every bench that has targets, in one run, and one table of figure, target and value. */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = {"Runs bench fabric, fm, shmem, ga, mpi, hydro and dcs with short settings (a few minutes in all) "
        + "and prints one table: every benchmark target the READMEs and issues set, its value in this run, and "
        + "whether it is met. Each bench's own JSON goes to DIR/BENCH.json. Exit 0 whatever the figures (timing "
        + "does not gate anything); 1 if a bench failed to run."})
public final class BenchCheckCommand implements Callable<Integer> {
    @Option(names = "--json", paramLabel = "FILE", description = "Write the table as JSON (key \"targets\": bench, "
        + "key, bound, target, value, met, source; default: none).")
    private Path json;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory of each bench's JSON (default: a new "
        + "temporary directory).")
    private Path out;

    @Option(names = "--benches", paramLabel = "NAME", split = ",", description = "Only these benches (of fabric, "
        + "fm, shmem, ga, mpi, hydro, dcs; default: all).")
    private List<String> benches;

    @Option(names = "--trials", paramLabel = "N", description = "Trials of every bench (default: 3; dcs 1).")
    private int trials = 3;

    /** Creates the command; picocli calls this reflectively. */
    public BenchCheckCommand() {
    }

    @Override
    public Integer call() throws IOException {
        if (trials < 1) {
            throw new IllegalArgumentException("--trials " + trials + ": at least 1");
        }
        final List<String> chosen = benches == null ? Targets.BENCHES : benches;
        for (final String b : chosen) {
            if (!Targets.BENCHES.contains(b)) {
                throw new IllegalArgumentException("--benches: '" + b + "' has no targets (benches: "
                    + String.join(", ", Targets.BENCHES) + ")");
            }
        }
        final Path dir = out != null ? Files.createDirectories(out) : Files.createTempDirectory("jhpvm-bench-check");
        final ObjectMapper mapper = new ObjectMapper();
        final Map<String, JsonNode> metrics = new LinkedHashMap<>();
        final List<String> failed = new ArrayList<>();
        for (final String b : Targets.BENCHES) {
            if (!chosen.contains(b)) {
                continue;
            }
            final Path file = dir.resolve(b + ".json");
            final List<String> args = arguments(b, file);
            System.out.println("== jhpvm " + String.join(" ", args));
            final int code = JhpvmCommand.execute(args.toArray(new String[0]));
            if (code != 0 || !Files.exists(file)) {
                failed.add(b + " (exit " + code + ")");
                continue;
            }
            metrics.put(b, mapper.readTree(file.toFile()).path("metrics"));
        }
        final List<Targets.Verdict> verdicts = Targets.judge(metrics);
        System.out.println();
        System.out.print(table(verdicts));
        final long met = verdicts.stream().filter(Targets.Verdict::met).count();
        System.out.printf(Locale.ROOT, "%d of %d targets met; each bench's JSON in %s%n", met, verdicts.size(), dir);
        if (json != null) {
            Reports.writeJson(json, toJson(verdicts, failed));
            System.out.println("wrote " + json);
        }
        if (!failed.isEmpty()) {
            System.err.println("jhpvm: bench check: failed to run: " + String.join(", ", failed));
            return 1;
        }
        return 0;
    }

    /** Short settings per bench: medians of a few trials, smaller transfers, a few minutes in all. */
    private List<String> arguments(final String bench, final Path file) {
        final List<String> a = new ArrayList<>(List.of("bench", bench, "--json", file.toString()));
        final String n = Integer.toString(trials);
        switch (bench) {
            case "fabric" -> a.addAll(List.of("--trials", n, "--warmups", "1"));
            case "fm" -> a.addAll(List.of("--trials", n, "--warmups", "2", "--mb-per-point", "32"));
            case "shmem" -> a.addAll(List.of("--trials", n, "--warmups", "2", "--mb-per-point", "16"));
            case "ga" -> a.addAll(List.of("--trials", n, "--warmups", "1", "--mb-per-point", "16"));
            case "mpi" -> a.addAll(List.of("--trials", n, "--warmups", "1", "--mb-per-point", "16", "--max-ranks",
                "8"));
            case "hydro" -> a.addAll(List.of("--trials", n, "--warmups", "1"));
            case "dcs" -> a.addAll(List.of("--trials", "1"));
            default -> throw new IllegalStateException(bench);
        }
        return a;
    }

    /**
     * The verdicts as a fixed-width table.
     *
     * @param verdicts the verdicts, in order
     * @return the table's lines, a header first
     */
    static String table(final List<Targets.Verdict> verdicts) {
        final StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%-7s %-38s %-14s %14s  %-7s %s%n", "bench", "figure", "target", "value",
            "", "source"));
        for (final Targets.Verdict v : verdicts) {
            final Targets.Target t = v.target();
            s.append(String.format(Locale.ROOT, "%-7s %-38s %-14s %14s  %-7s %s%n", t.bench(), t.key(),
                t.bound().symbol() + " " + number(t.value()), Double.isNaN(v.value()) ? "-" : number(v.value()),
                v.word(), t.source()));
        }
        return s.toString();
    }

    private static String number(final double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return Long.toString((long) v);
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static ObjectNode toJson(final List<Targets.Verdict> verdicts, final List<String> failed) {
        final ObjectNode root = Reports.object();
        root.put("benchmark", "check");
        final ArrayNode rows = root.putArray("targets");
        for (final Targets.Verdict v : verdicts) {
            final ObjectNode r = rows.addObject();
            r.put("bench", v.target().bench()).put("key", v.target().key()).put("bound", v.target().bound().symbol())
                .put("target", v.target().value());
            if (Double.isNaN(v.value())) {
                r.putNull("value");
            } else {
                r.put("value", v.value());
            }
            r.put("met", v.met()).put("source", v.target().source());
        }
        root.put("met", verdicts.stream().filter(Targets.Verdict::met).count());
        root.put("total", verdicts.size());
        final ArrayNode f = root.putArray("failed");
        failed.forEach(f::add);
        return root;
    }
}
