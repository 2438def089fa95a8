package org.jhpvm.apps;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jhpvm.apps.Commands.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.jhpvm.apps.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commands as people run them, through {@link Main#execute}. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CommandLineTest {
    @Test
    void helpShouldListTheSubcommands() {
        final Run r = run("--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("fabric") && r.out().contains("bench"), r.out());
    }

    @Test
    void fabricShouldMoveAllToAllTrafficWithoutLoss(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("fabric.json");
        final Run r = run("fabric", "--pes", "5", "--frames", "3000", "--frame-bytes", "700", "--json",
            json.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains(
            "15000 frames accepted, 0 CRC32C failures, 0 duplicates, 0 out of order, 0 missing"), r.out());
        final JsonNode m = new ObjectMapper().readTree(json.toFile()).get("metrics");
        assertEquals(15000, m.get("frames_sent").asLong());
        assertEquals(15000, m.get("frames_received").asLong());
        assertEquals(15000L * 700, m.get("bytes_received").asLong());
        assertTrue(m.get("throughput_MBps").asDouble() > 0);
    }

    @Test
    void fabricUnderFaultsShouldShowTheFaultsOnBothSides(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("faults.json");
        final Run r = run("fabric", "--pes", "4", "--frames", "4000", "--frame-bytes", "256", "--drop", "0.02",
            "--corrupt", "0.02", "--duplicate", "0.02", "--reorder", "0.02", "--link-down", "1:10:20", "--seed", "3",
            "--json", json.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode m = new ObjectMapper().readTree(json.toFile()).get("metrics");
        final long sent = m.get("frames_sent").asLong();
        assertEquals(16000, sent);
        assertEquals(sent + m.get("frames_duplicated").asLong(),
            m.get("frames_delivered").asLong() + m.get("frames_dropped").asLong());
        assertTrue(m.get("frames_dropped").asLong() > 0 && m.get("link_down_drops").asLong() > 0);
        assertTrue(m.get("crc_failures").asLong() > 0, "receivers caught corruption");
        assertTrue(m.get("duplicates_seen").asLong() > 0, "receivers saw duplicates");
        assertTrue(m.get("missing").asLong() >= m.get("frames_dropped").asLong() - m.get("frames_duplicated").asLong());
    }

    @Test
    void fabricShouldRejectBadOptionsWithAClearMessage() {
        final PrintStream savedErr = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            // Bad values: one line naming the problem and pointing at --help, exit code 2, no stack trace.
            assertEquals(2, run("fabric", "--pes", "2", "--ring", "0").exitCode());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("RingCapacity=0 outside 1.."), err.toString());
            assertEquals(2, run("fabric", "--pes", "2", "--drop", "2").exitCode());
            assertEquals(2, run("fabric", "--link-down", "1:2").exitCode());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("expected NIC:FROM:TO"), err.toString());
            assertEquals(2, run("jacobi", "--n", "x").exitCode());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("Invalid value for option '--n': 'x' is not an "
                + "int (see: jhpvm jacobi --help)"), err.toString());
            // bench hosts refuses its link's bad values before it makes any namespace (no root needed to see it).
            assertEquals(2, run("bench", "hosts", "--loss", "200").exitCode());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--loss 200.0 is outside 0.1..100"),
                err.toString());
            assertEquals(2, run("bench", "hosts", "--link-mtu", "20").exitCode());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--link-mtu 20 is outside 68..65535"),
                err.toString());
            assertEquals(2, run("gups", "--nope").exitCode());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("Unknown option: '--nope'"), err.toString());
            assertFalse(err.toString(StandardCharsets.UTF_8).contains("\tat org.jhpvm"), "no stack trace");
            final int before = err.size();
            assertEquals(2, run("jacobi", "--n", "1", "--debug").exitCode());
            assertTrue(err.toString(StandardCharsets.UTF_8).substring(before).contains("\tat org.jhpvm"),
                "--debug prints the stack trace");
        } finally {
            System.setErr(savedErr);
        }
    }

    @Test
    void benchFabricShouldWriteTheContractKeys(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("bench.json");
        final Path png = dir.resolve("bench.png");
        final Run r = run("bench", "fabric", "--frame-bytes", "64", "--trials", "1", "--warmups", "1",
            "--round-trips", "2000", "--mb-per-trial", "1", "--json", json.toString(), "--png", png.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("latency_ratio") && r.out().contains("bw_ratio"), r.out());
        final JsonNode m = new ObjectMapper().readTree(json.toFile()).get("metrics");
        assertTargetsReported("fabric", m);
        for (final String key : new String[] {"fabric_latency_ns_8B", "spsc_latency_ns", "latency_ratio",
            "fabric_bw_MBps_max_frame", "arraycopy_bw_MBps_max_frame", "bw_ratio"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertEquals(m.get("fabric_latency_ns_8B").asDouble() / m.get("spsc_latency_ns").asDouble(),
            m.get("latency_ratio").asDouble(), m.get("latency_ratio").asDouble() * 1e-9 + 1e-9,
            "with one trial the ratio is the ratio of the figures");
        assertTrue(Files.size(png) > 1000, "PNG written");
        assertFalse(new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII).isEmpty());
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    }

    @Test
    void benchFmShouldWriteTheContractKeys(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("fm.json");
        final Path png = dir.resolve("fm.png");
        final Run r = run("bench", "fm", "--trials", "1", "--warmups", "0", "--round-trips", "200",
            "--mb-per-point", "1", "--json", json.toString(), "--png", png.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("latency_ratio") && r.out().contains("bw_ratio_64KiB"), r.out());
        final JsonNode m = new ObjectMapper().readTree(json.toFile()).get("metrics");
        assertTargetsReported("fm", m);
        for (final String key : new String[] {"fm_latency_ns_8B", "spsc_latency_ns", "latency_ratio", "r_inf_MBps",
            "n_half_bytes", "fm_bw_MBps_64KiB", "arraycopy_bw_MBps_64KiB", "bw_ratio_64KiB",
            "fm_bw_MBps_64KiB_drop1pct", "fm_bw_MBps_1MiB", "bw_1MiB_over_64KiB", "fm_latency_ns_8B_none",
            "fm_latency_ns_8B_dcs", "dcs_latency_ratio_8B"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertTrue(m.has("t0_ns"), "missing metrics.t0_ns");
        assertEquals(m.get("fm_bw_MBps_64KiB").asDouble() / m.get("arraycopy_bw_MBps_64KiB").asDouble(),
            m.get("bw_ratio_64KiB").asDouble(), 1e-9, "the ratio is the ratio of the figures");
        // One trial: the paired ratio is the ratio of the two figures.
        assertEquals(m.get("fm_latency_ns_8B_dcs").asDouble() / m.get("fm_latency_ns_8B_none").asDouble(),
            m.get("dcs_latency_ratio_8B").asDouble(), 1e-9);
        assertTrue(r.out().contains("dcs_latency_ratio_8B"), r.out());
        assertTrue(m.get("frames_dropped_drop1pct").asLong() > 0, "the lossy sweep dropped frames");
        assertTrue(m.get("frames_retransmitted_drop1pct").asLong() > 0, "and FM retransmitted them");
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    }

    @Test
    @Timeout(300)
    void benchMpiShouldWriteTheContractKeys(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("mpi.json");
        final Path png = dir.resolve("mpi.png");
        final Run r = run("bench", "mpi", "--trials", "1", "--warmups", "0", "--round-trips", "100",
            "--mb-per-point", "1", "--max-ranks", "4", "--json", json.toString(), "--png", png.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("mpi_min_efficiency") && r.out().contains("mpi_latency_overhead_ns_8B"), r.out());
        final JsonNode root = new ObjectMapper().readTree(json.toFile());
        final JsonNode m = root.get("metrics");
        assertTargetsReported("mpi", m);
        for (final String key : new String[] {"mpi_min_efficiency", "mpi_bw_MBps_1MiB", "arraycopy_bw_MBps_1MiB",
            "fm_bw_MBps_1MiB", "mpi_latency_ns_8B", "fm_latency_ns_8B", "mpi_buffer_bw_MBps_1MiB",
            "mpi_bibw_MBps_1MiB", "allreduce_us_8B_2ranks", "allreduce_us_1048576B_4ranks"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertTrue(m.has("mpi_latency_overhead_ns_8B"), "missing metrics.mpi_latency_overhead_ns_8B");
        assertTrue(Double.isFinite(m.get("mpi_latency_overhead_ns_8B").asDouble()), "paired in the job: a number");
        // One trial: the older, per-job pairing is the difference of the table's figures themselves.
        assertEquals(m.get("mpi_latency_ns_8B").asDouble() - m.get("fm_latency_ns_8B").asDouble(),
            m.get("mpi_latency_overhead_ns_8B_separate_jobs").asDouble(), 1e-6,
            "the separate jobs' overhead is the difference of the figures");
        double min = Double.MAX_VALUE;
        for (final JsonNode row : root.get("sizes")) {
            assertEquals(row.get("mpi_bw_MBps").asDouble() / row.get("fm_same_job_bw_MBps").asDouble(),
                row.get("efficiency").asDouble(), 1e-9, "one trial's ratio, against FM on the same endpoint");
            assertEquals(row.get("mpi_bw_MBps").asDouble() / row.get("fm_bw_MBps").asDouble(),
                row.get("efficiency_separate_jobs").asDouble(), 1e-9, "one trial's ratio, against FM's own job");
            min = Math.min(min, row.get("efficiency").asDouble());
        }
        assertEquals(min, m.get("mpi_min_efficiency").asDouble(), 1e-9, "the lowest ratio over every size");
        assertTrue(m.get("mpi_min_efficiency_separate_jobs").asDouble() > 0, "the older pairing, kept");
        assertEquals(8, root.get("sizes").size());
        assertEquals(2, root.get("allreduce").size(), "2 and 4 ranks");
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    }

    @Test
    void benchShmemShouldWriteTheContractKeys(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("shmem.json");
        final Path png = dir.resolve("shmem.png");
        final Run r = run("bench", "shmem", "--trials", "1", "--warmups", "0", "--round-trips", "100",
            "--mb-per-point", "1", "--user-blocks", "3", "--json", json.toString(), "--png", png.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("put_latency_ratio") && r.out().contains("min_put_efficiency"), r.out());
        final JsonNode m = new ObjectMapper().readTree(json.toFile()).get("metrics");
        assertTargetsReported("shmem", m);
        for (final String key : new String[] {"put_latency_ns_8B", "get_latency_ns_8B", "fetch_add_latency_ns",
            "fm_latency_ns_8B", "put_latency_ratio", "min_put_efficiency", "barrier_ns_2pe", "barrier_ns_64pe",
            "spsc_latency_ns", "spsc_rate_Mops_8B", "put_latency_spsc_ratio", "get_latency_spsc_ratio",
            "fetch_add_latency_spsc_ratio", "put_bw_arraycopy_ratio_64KiB", "put_bw_arraycopy_ratio_1MiB",
            "get_bw_arraycopy_ratio_1MiB", "put_rate_spsc_ratio_8B", "get_latency_busy_target_ns_8B",
            "get_latency_busy_target_ratio", "put_latency_ns_8B_none", "put_latency_ns_8B_dcs",
            "dcs_latency_ratio_8B", "user_pingpong_ns_8B", "user_pingpong_ns_8B_p90", "user_pingpong_ns_8B_4pe",
            "user_pingpong_put_latency_ratio", "user_barrier_ns_2pe", "user_barrier_ns_4pe", "user_broadcast_ns_2pe",
            "user_reduce_ns_4pe_p90", "user_put_after_compute_us_8B", "user_put_after_compute_us_8B_p90",
            "user_segment_put_after_compute_us_8B", "user_segment_put_after_compute_us_8B_p90"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertEquals(m.get("put_latency_ns_8B").asDouble() / m.get("fm_latency_ns_8B").asDouble(),
            m.get("put_latency_ratio").asDouble(), 1e-9, "the ratio is the ratio of the figures");
        assertEquals(m.get("put_latency_ns_8B").asDouble() / m.get("spsc_latency_ns").asDouble(),
            m.get("put_latency_spsc_ratio_separate").asDouble(), 1e-9, "against the raw queue");
        assertTrue(m.get("spsc_ratios_paired").asBoolean(), "in one JVM the hop is paired with the operations");
        assertTrue(m.get("spsc_latency_ns_paired").asDouble() > 0 && m.get("put_latency_spsc_ratio").asDouble() > 0
            && m.get("get_latency_spsc_ratio").asDouble() > 0 && m.get("fetch_add_latency_spsc_ratio").asDouble() > 0);
        assertEquals(m.get("get_latency_busy_target_ns_8B").asDouble() / m.get("get_latency_ns_8B").asDouble(),
            m.get("get_latency_busy_target_ratio").asDouble(), 1e-9, "busy target against idle one");
        assertEquals(m.get("put_latency_ns_8B_dcs").asDouble() / m.get("put_latency_ns_8B_none").asDouble(),
            m.get("dcs_latency_ratio_8B").asDouble(), 1e-9, "one trial: the paired ratio is the figures' ratio");
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    }

    @Test
    @Timeout(300)
    void benchHydroShouldReportEveryProblemPerPeAndTheTotalEnergyCost(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("hydro.json");
        final Path png = dir.resolve("hydro.png");
        final Run r = run("bench", "hydro", "--trials", "1", "--warmups", "0", "--pes", "1,2", "--zone-cycles", "20000",
            "--json", json.toString(), "--png", png.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode root = new ObjectMapper().readTree(json.toFile());
        final JsonNode m = root.get("metrics");
        assertTargetsReported("hydro", m);
        double worst = 0;
        int rows = 0;
        for (final JsonNode row : root.get("problems")) {
            rows++;
            final double rate = row.get("zone_cycles_per_second_per_pe").asDouble();
            assertTrue(rate > 0 && row.get("total_energy_zone_cycles_per_second_per_pe").asDouble() > 0,
                row.toString());
            assertEquals(rate, m.get(row.get("problem").asText() + "_zone_cycles_per_second_per_pe_"
                + row.get("pes").asInt() + "pe").asDouble(), 0, "the metric is the row's figure");
            worst = Math.max(worst, row.get("total_energy_cost_ratio").asDouble());
        }
        assertEquals(10, rows, "five problems on 1 and 2 PEs");
        assertEquals(worst, m.get("total_energy_cost_ratio_max").asDouble(), 0, "the metric is the rows' maximum");
        assertTrue(m.get("sod_us_per_cycle_1pe").asDouble() > 0);
        assertEquals(1.3, root.get("targets").get("total_energy_cost_ratio_max").asDouble(), 0);
        assertTrue(m.get("curvilinear_cost_ratio").asDouble() > 0 && m.get(
            "sod_spherical_zone_cycles_per_second_per_pe_1pe").asDouble() > 0, m.toString());
        assertEquals(1.3, root.get("targets").get("curvilinear_cost_ratio").asDouble(), 0);
        assertTrue(m.get("polar_cost_ratio").asDouble() > 0 && m.get(
            "sedov_polar_zone_cycles_per_second_per_pe_1pe").asDouble() > 0, m.toString());
        assertEquals(1.3, root.get("targets").get("polar_cost_ratio").asDouble(), 0);
        assertTrue(m.get("polar_3d_cost_ratio").asDouble() > 0 && m.get(
            "sedov_polar_3d_zone_cycles_per_second_per_pe_1pe").asDouble() > 0, m.toString());
        assertEquals(1.3, root.get("targets").get("polar_3d_cost_ratio").asDouble(), 0);
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
        final Path never = dir.resolve("never.json");
        for (final String[] bad : new String[][] {{"--problems", "sod,nope"}, {"--pes", "0"}, {"--trials", "0"},
            {"--zone-cycles", "0"}}) {
            final Run b = run("bench", "hydro", bad[0], bad[1], "--json", never.toString());
            assertEquals(2, b.exitCode(), String.join(" ", bad) + ": " + b.out());
            assertFalse(Files.exists(never), String.join(" ", bad) + " wrote its JSON");
        }
    }

    @Test
    @Timeout(300)
    void benchGaShouldWriteTheContractKeys(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("ga.json");
        final Path png = dir.resolve("ga.png");
        final Run r = run("bench", "ga", "--trials", "1", "--warmups", "0", "--mb-per-point", "1", "--json",
            json.toString(), "--png", png.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("min_put_efficiency_1KiB") && r.out().contains("ghost_update_ratio"), r.out());
        final JsonNode root = new ObjectMapper().readTree(json.toFile());
        final JsonNode m = root.get("metrics");
        assertTargetsReported("ga", m);
        for (final String key : new String[] {"min_put_efficiency_1KiB", "min_get_efficiency_1KiB",
            "ghost_update_ratio"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        double minPut = Double.MAX_VALUE;
        for (final JsonNode row : root.get("sections")) {
            if (row.get("bytes").asInt() >= 1024 && row.get("op").asText().startsWith("put_")) {
                minPut = Math.min(minPut, row.get("ratio").asDouble());
            }
        }
        assertEquals(minPut, m.get("min_put_efficiency_1KiB").asDouble(), 1e-9, "the metric is the rows' minimum");
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    }

    @Test
    void samplesShouldPrintTheirAnswerAndExitOneWhenItIsWrong(@TempDir final Path dir) throws Exception {
        final Run hello = run("hello", "--pes", "3");
        assertEquals(0, hello.exitCode(), hello.out());
        assertTrue(hello.out().contains("Hello from PE 0 of 3: PE 2 wrote to me"), hello.out());
        final Run converged = run("jacobi", "--pes", "2", "--n", "10", "--json", dir.resolve("j.json").toString());
        assertEquals(0, converged.exitCode(), converged.out());
        assertTrue(new ObjectMapper().readTree(dir.resolve("j.json").toFile()).get("ok").asBoolean());
        final Run tooFew = run("jacobi", "--pes", "2", "--n", "10", "--max-iterations", "3");
        assertEquals(1, tooFew.exitCode(), "an unconverged answer is wrong: " + tooFew.out());
        assertTrue(tooFew.out().contains("WRONG"), tooFew.out());
        for (final String ranks : new String[] {"1", "3"}) {
            final Run ring = run("ring", "--pes", ranks, "--laps", "5");
            assertEquals(0, ring.exitCode(), ring.out());
            final int n = Integer.parseInt(ranks);
            assertTrue(ring.out().contains("rank 0 of " + n + ": received the token 6 times, " + 6 * n + " hops in all")
                && ring.out().contains("rank " + (n - 1) + " of " + n + ": received the token 6 times"), ring.out());
        }
        assertEquals(2, run("ring", "--laps", "-1").exitCode(), "negative laps");
        final Run tasks = run("taskpool", "--pes", "2", "--width", "40", "--height", "30", "--out", dir.toString());
        assertEquals(0, tasks.exitCode(), tasks.out());
        assertEquals("PNG", new String(Files.readAllBytes(dir.resolve("taskpool.png")), 1, 3,
            StandardCharsets.US_ASCII));
    }

    @Test
    void everyOptionOfEveryCommandShouldSayItsDefault() {
        final java.util.List<String> missing = new java.util.ArrayList<>();
        final java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>();
        todo.add(new picocli.CommandLine(new org.jhpvm.apps.commands.JhpvmCommand()));
        while (!todo.isEmpty()) {
            final picocli.CommandLine c = todo.poll();
            todo.addAll(c.getSubcommands().values());
            // Picocli formats help text with String.format: a lone '%' makes it print the raw text with a warning.
            final java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of(
                c.getCommandSpec().usageMessage().description()));
            c.getCommandSpec().options().forEach(o -> texts.addAll(java.util.List.of(o.description())));
            for (final String t : texts) {
                try {
                    String.format(t);
                } catch (final java.util.IllegalFormatException e) {
                    missing.add(c.getCommandSpec().qualifiedName() + " has a lone '%' in: " + t);
                }
            }
            for (final picocli.CommandLine.Model.OptionSpec o : c.getCommandSpec().options()) {
                final String d = String.join(" ", o.description());
                if (!o.usageHelp() && !o.versionHelp() && !o.required() && !d.contains("default")
                    && !"--debug".equals(o.longestName())) {
                    missing.add(c.getCommandSpec().qualifiedName() + " " + o.longestName());
                }
            }
        }
        assertTrue(missing.isEmpty(), "options whose help does not give the default (or breaks): " + missing);
    }

    /** Every figure {@code bench check} judges for {@code bench} is in its JSON (a renamed key would go unjudged). */
    static void assertTargetsReported(final String bench, final JsonNode metrics) {
        final var verdicts = org.jhpvm.apps.bench.Targets.judge(java.util.Map.of(bench, metrics));
        assertFalse(verdicts.isEmpty(), "bench check has no targets for " + bench);
        for (final var v : verdicts) {
            assertFalse(Double.isNaN(v.value()), "bench " + bench + " did not report " + v.target().key()
                + ", a target of bench check");
        }
    }
}
