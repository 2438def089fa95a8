package org.jhpvm.apps.commands;

import org.jhpvm.apps.Launched;
import org.jhpvm.apps.Progress;
import org.jhpvm.apps.Reports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jhpvm.apps.bench.Stats;
import org.jhpvm.hydro.EnergyScheme;
import org.jhpvm.hydro.ExactRiemann;
import org.jhpvm.hydro.Geometry;
import org.jhpvm.hydro.HydroRun;
import org.jhpvm.hydro.Problem;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code jhpvm bench hydro}: the ZEUS solver's speed on every test problem, zone-cycles per second per PE, with the
 * internal-energy scheme and the total-energy scheme alternating in the same run (the total's cost is their ratio).
 */
@Command(name = "hydro", mixinStandardHelpOptions = true,
    description = {"Zone-cycles per second per PE of every hydro problem (sod 1-D 800 zones, sedov, noh and kh 2-D "
        + "128^2, blast3d 3-D 48^3) on each --pes count, with --energy internal and total alternating in the same "
        + "run; each run times its cycles after a tenth as many untimed ones.",
        "Targets: total_energy_cost_ratio_max <= " + BenchHydroCommand.TOTAL_COST_TARGET + " (the total-energy "
            + "scheme's time per zone-cycle over the internal one's); sod_us_per_cycle_1pe <= "
            + BenchHydroCommand.SOD_ZEUS_MP_US + " (ZEUS-MP 2's figure for the same run on this kind of machine, "
            + "quoted, not measured here); curvilinear_cost_ratio <= " + BenchHydroCommand.CURVILINEAR_COST_TARGET
            + " (sod in a spherical shell against the Cartesian tube, 800 zones, 1 PE), and polar_cost_ratio <= "
            + BenchHydroCommand.CURVILINEAR_COST_TARGET + " (sedov 128^2 on a spherical (r, theta) grid against the "
            + "Cartesian one, 1 PE) and polar_3d_cost_ratio <= " + BenchHydroCommand.CURVILINEAR_COST_TARGET
            + " (sedov 32^3, (r, theta, phi) against Cartesian, 1 PE)."})
final class BenchHydroCommand implements Callable<Integer> {
    static final double TOTAL_COST_TARGET = 1.3;
    static final double SOD_ZEUS_MP_US = 45;
    static final double CURVILINEAR_COST_TARGET = 1.3;
    /** The zones per dimension of the (r, theta) and (r, theta, phi) grids measured against the Cartesian ones. */
    static final int POLAR_ZONES = 128;
    static final int POLAR_3D_ZONES = 32;
    /** The problems and their grids: name, dimensions, zones per dimension. */
    private static final List<Object[]> PROBLEMS = List.of(new Object[] {"sod", 1, 800},
        new Object[] {"sedov", 2, 128}, new Object[] {"noh", 2, 128}, new Object[] {"kh", 2, 128},
        new Object[] {"blast3d", 3, 48});

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as JSON (keys \"metrics\", "
        + "\"targets\", \"problems\"; default: none).")
    private Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "Draw zone-cycles/s per PE per problem (default: "
        + "none).")
    private Path png;

    @Option(names = "--trials", paramLabel = "N", description = "Measured runs of each configuration (default: "
        + "${DEFAULT-VALUE}).")
    private int trials = 3;

    @Option(names = "--warmups", paramLabel = "N", description = "Untimed runs of each configuration first "
        + "(default: ${DEFAULT-VALUE}).")
    private int warmups = 1;

    @Option(names = "--pes", paramLabel = "N,N,..", split = ",", description = "PE counts (default: 1,2).")
    private int[] pes = {1, 2};

    @Option(names = "--problems", paramLabel = "NAME,..", split = ",", description = "Only these problems (default: "
        + "all five).")
    private List<String> only;

    @Option(names = "--zone-cycles", paramLabel = "Z", description = "Zone-cycles per timed run: each problem runs "
        + "Z / zones cycles, at least 4 (default: ${DEFAULT-VALUE}).")
    private long zoneCycles = 4_000_000;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (Launched.environment().isPresent()) {
            // Every run is a job of the launched processes: it has their PEs, and the 1-PE references cannot run.
            final int launched = Launched.environment().get().nicCount();
            if (!spec.commandLine().getParseResult().hasMatchedOption("--pes")) {
                pes = new int[] {launched};
            } else if (Arrays.stream(pes).anyMatch(n -> n != launched)) {
                throw new IllegalArgumentException("--pes " + Arrays.toString(pes) + ": under launch every run has "
                    + "the launched job's " + launched + " PEs");
            }
        }
        if (trials < 1 || warmups < 0 || pes.length == 0 || Arrays.stream(pes).anyMatch(n -> n < 1 || n > 64)
            || zoneCycles < 1) {
            throw new IllegalArgumentException("need --trials >= 1, --warmups >= 0, --pes in 1..64, "
                + "--zone-cycles >= 1");
        }
        final List<Object[]> problems = PROBLEMS.stream().filter(p -> only == null || only.contains((String) p[0]))
            .toList();
        if (only != null && problems.size() != only.size()) {
            throw new IllegalArgumentException("--problems " + String.join(",", only) + ": from "
                + String.join(", ", Problem.NAMES));
        }
        final List<Row> rows = new ArrayList<>();
        final boolean onePe = Launched.pes(1) == 1; // the curvilinear references run on 1 PE
        final boolean shell = onePe && problems.stream().anyMatch(p -> "sod".equals(p[0]));
        final boolean sphere = onePe && problems.stream().anyMatch(p -> "sedov".equals(p[0]));
        final int runs = (problems.size() * pes.length + (shell ? 1 : 0) + (sphere ? 2 : 0)) * 2
            * (trials + warmups);
        final Pair curved;
        final Pair polar;
        final Pair polar3d;
        try (Progress progress = new Progress("bench hydro (runs)", runs)) {
            for (final Object[] p : problems) {
                for (final int n : pes) {
                    rows.add(measure((String) p[0], (Integer) p[1], (Integer) p[2], n, progress));
                }
            }
            curved = shell ? curvilinear(progress) : null;
            polar = sphere ? polar(2, POLAR_ZONES, progress) : null;
            polar3d = sphere ? polar(3, POLAR_3D_ZONES, progress) : null;
        }
        if (!Launched.reports()) {
            return 0; // under launch, rank 0 reports
        }
        System.out.printf("bench hydro: %s%s%n", Launched.pathDescription(), onePe ? ""
            : "; the 1-PE curvilinear references are not run (a launched job has " + pes[0] + " PEs)");
        System.out.println("| problem | grid | PEs | cycles | internal: zone-cycles/s per PE | us/cycle | total: "
            + "zone-cycles/s per PE | us/cycle | total/internal cost |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (final Row r : rows) {
            System.out.printf("| %s | %s | %d | %d | %.3g | %.1f | %.3g | %.1f | %.2f |%n", r.problem, r.grid, r.pes,
                r.cycles, r.internalRate, r.internalUs, r.totalRate, r.totalUs, r.costRatio);
        }
        final double worst = rows.stream().mapToDouble(Row::costRatio).max().orElseThrow();
        final double sodUs = rows.stream().filter(r -> r.problem.equals("sod") && r.pes == 1)
            .mapToDouble(Row::internalUs).findFirst().orElse(Double.NaN);
        System.out.printf("total-energy cost over internal: at most %.2f (target <= %.1f)%n", worst,
            TOTAL_COST_TARGET);
        if (!Double.isNaN(sodUs)) {
            System.out.printf("sod 1-D 800 zones on 1 PE: %.1f us per cycle (ZEUS-MP 2 on this kind of machine: "
                + "%.0f)%n", sodUs, SOD_ZEUS_MP_US);
        }
        if (curved != null) {
            System.out.printf("sod 800 zones in a spherical shell on 1 PE: %.3g zone-cycles/s, %.2f times the "
                + "Cartesian tube's time per zone-cycle (target <= %.1f)%n", curved.second, curved.ratio,
                CURVILINEAR_COST_TARGET);
        }
        if (polar != null) {
            System.out.printf("sedov %d^2 on a spherical (r, theta) grid on 1 PE: %.3g zone-cycles/s, %.2f times the "
                + "Cartesian grid's time per zone-cycle (target <= %.1f)%n", POLAR_ZONES, polar.second, polar.ratio,
                CURVILINEAR_COST_TARGET);
            System.out.printf("sedov %d^3 on a spherical (r, theta, phi) grid on 1 PE: %.3g zone-cycles/s, %.2f times "
                + "the Cartesian grid's time per zone-cycle (target <= %.1f)%n", POLAR_3D_ZONES, polar3d.second,
                polar3d.ratio, CURVILINEAR_COST_TARGET);
        }
        if (json != null) {
            final ObjectNode root = toJson(rows, worst, sodUs);
            if (curved != null) {
                ((ObjectNode) root.get("metrics")).put("sod_spherical_zone_cycles_per_second_per_pe_1pe", curved.second)
                    .put("curvilinear_cost_ratio", curved.ratio);
                ((ObjectNode) root.get("targets")).put("curvilinear_cost_ratio", CURVILINEAR_COST_TARGET);
            }
            if (polar != null) {
                ((ObjectNode) root.get("metrics")).put("sedov_polar_zone_cycles_per_second_per_pe_1pe", polar.second)
                    .put("polar_cost_ratio", polar.ratio);
                ((ObjectNode) root.get("metrics")).put("sedov_polar_3d_zone_cycles_per_second_per_pe_1pe",
                    polar3d.second).put("polar_3d_cost_ratio", polar3d.ratio);
                ((ObjectNode) root.get("targets")).put("polar_cost_ratio", CURVILINEAR_COST_TARGET)
                    .put("polar_3d_cost_ratio", CURVILINEAR_COST_TARGET);
            }
            Reports.writeJson(json, root);
            System.out.println("wrote " + json);
        }
        if (png != null) {
            Reports.writePng(png, List.of(chart(rows)));
            System.out.println("wrote " + png);
        }
        return 0;
    }

    /** One problem on one PE count: the medians of both schemes and of their per-trial cost ratio. */
    private record Row(String problem, String grid, int pes, int cycles, double internalRate, double internalUs,
                       double totalRate, double totalUs, double costRatio) {
    }

    private Row measure(final String name, final int dims, final int zones, final int n, final Progress progress) {
        final HydroRun.Spec base = problem(name, n, dims, zones, Geometry.CARTESIAN).spec();
        final long cells = cells(base);
        final int cycles = (int) Math.max(4, zoneCycles / cells);
        final Pair r = alternate(n, base.withEnergy(EnergyScheme.INTERNAL), base.withEnergy(EnergyScheme.TOTAL), cycles,
            progress);
        return new Row(name, HydroResultFiles.grid(base.cfg().zones()), n, cycles, r.first / n, 1e6 * cells / r.first,
            r.second / n, 1e6 * cells / r.second, r.ratio);
    }

    /** Sod on 800 zones on 1 PE against the same tube in a spherical shell: the curvilinear kernels' cost. */
    private Pair curvilinear(final Progress progress) {
        final HydroRun.Spec flat = problem("sod", 1, 1, 800, Geometry.CARTESIAN).spec();
        final HydroRun.Spec shell = problem("sod", 1, 1, 800, Geometry.SPHERICAL).spec();
        return alternate(1, flat, shell, (int) Math.max(4, zoneCycles / 800), progress);
    }

    /**
     * Sedov on a Cartesian grid against the same blast on a spherical grid of as many zones, 1 PE, internal energy:
     * the cost of the angular metric, the curvature forces and the angular sweeps.
     */
    private Pair polar(final int dims, final int zones, final Progress progress) {
        final HydroRun.Spec flat = problem("sedov", 1, dims, zones, Geometry.CARTESIAN).spec();
        final HydroRun.Spec sphere = problem("sedov", 1, dims, zones, Geometry.SPHERICAL).spec();
        return alternate(1, flat, sphere, (int) Math.max(4, zoneCycles / cells(flat)), progress);
    }

    private static Problem problem(final String name, final int n, final int dims, final int zones,
        final Geometry g) {
        return Problem.of(name, new Problem.Params(n, dims, zones, null, null, g, 1), new ExactRiemann.State(1, 0, 1),
            new ExactRiemann.State(0.125, 0, 0.1), 0.5);
    }

    private static long cells(final HydroRun.Spec s) {
        long cells = 1;
        for (final int z : s.cfg().zones()) {
            cells *= z;
        }
        return cells;
    }

    /** The medians of two variants' zone-cycle rates over the trials, and of their per-trial ratio first / second. */
    private record Pair(double first, double second, double ratio) {
    }

    /** Runs two variants alternately, which goes first alternating too: a drift of the machine favours neither. */
    private Pair alternate(final int n, final HydroRun.Spec a, final HydroRun.Spec b, final int cycles,
        final Progress progress) {
        final double[] ra = new double[trials];
        final double[] rb = new double[trials];
        final double[] ratio = new double[trials];
        for (int t = -warmups; t < trials; t++) {
            final boolean aFirst = (t & 1) == 0;
            final double x = rate(n, aFirst ? a : b, cycles);
            progress.accept(1);
            final double y = rate(n, aFirst ? b : a, cycles);
            progress.accept(1);
            if (t >= 0) {
                ra[t] = aFirst ? x : y;
                rb[t] = aFirst ? y : x;
                ratio[t] = ra[t] / rb[t];
            }
        }
        return new Pair(Stats.median(ra), Stats.median(rb), Stats.median(ratio));
    }

    /** Zone-cycles per second over the whole grid of one run of {@code cycles} timed cycles. */
    private static double rate(final int n, final HydroRun.Spec base, final int cycles) {
        final HydroRun.Spec s = new HydroRun.Spec(base.cfg(), base.initial(), base.inflow(), base.tEnd(),
            Math.max(1, cycles / 10), cycles, false);
        final HydroRun.Snapshot end = HydroRun.run(n, Map.of(), s, null);
        return end == null ? Double.NaN : end.zoneCyclesPerSecond(); // null: a launched process without PE 0
    }

    private ObjectNode toJson(final List<Row> rows, final double worst, final double sodUs) {
        final ObjectNode root = Reports.object();
        root.putObject("config").put("path", Launched.path());
        final ObjectNode m = root.putObject("metrics");
        for (final Row r : rows) {
            m.put(r.problem + "_zone_cycles_per_second_per_pe_" + r.pes + "pe", r.internalRate);
            m.put(r.problem + "_total_energy_zone_cycles_per_second_per_pe_" + r.pes + "pe", r.totalRate);
        }
        m.put("total_energy_cost_ratio_max", worst);
        m.put("total_energy_cost_ratio_median", Stats.median(rows.stream().mapToDouble(Row::costRatio).toArray()));
        if (!Double.isNaN(sodUs)) {
            m.put("sod_us_per_cycle_1pe", sodUs);
        }
        final ObjectNode targets = root.putObject("targets");
        targets.put("total_energy_cost_ratio_max", TOTAL_COST_TARGET);
        targets.put("sod_us_per_cycle_1pe", SOD_ZEUS_MP_US);
        final ArrayNode arr = root.putArray("problems");
        for (final Row r : rows) {
            arr.addObject().put("problem", r.problem).put("grid", r.grid).put("pes", r.pes).put("cycles", r.cycles)
                .put("zone_cycles_per_second_per_pe", r.internalRate).put("us_per_cycle", r.internalUs)
                .put("total_energy_zone_cycles_per_second_per_pe", r.totalRate)
                .put("total_energy_us_per_cycle", r.totalUs).put("total_energy_cost_ratio", r.costRatio);
        }
        return root;
    }

    private CategoryChart chart(final List<Row> rows) {
        final CategoryChart c = new CategoryChartBuilder().width(800).height(450)
            .title("ZEUS solver: zone-cycles/s per PE, internal and total energy").xAxisTitle("problem")
            .yAxisTitle("zone-cycles/s per PE").build();
        for (final int n : pes) {
            for (final boolean totalScheme : new boolean[] {false, true}) {
                final List<String> names = new ArrayList<>();
                final List<Double> values = new ArrayList<>();
                for (final Row r : rows) {
                    if (r.pes == n) {
                        names.add(r.problem);
                        values.add(totalScheme ? r.totalRate : r.internalRate);
                    }
                }
                c.addSeries((totalScheme ? "total" : "internal") + ", " + n + " PE" + (n == 1 ? "" : "s"), names,
                    values);
            }
        }
        return c;
    }
}
