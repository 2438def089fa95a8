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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commands as people run them, through {@link Main#execute}. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CommandLineTest {
    private record Run(int exitCode, String out) {
    }

    private static Run run(final String... args) {
        final PrintStream saved = System.out;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            final int code = Main.execute(args);
            return new Run(code, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(saved);
        }
    }

    /** As {@link #run}, the standard error stream in {@code out} too (where usage errors go). */
    private static Run runWithErrors(final String... args) {
        final PrintStream saved = System.err;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            final Run r = run(args);
            return new Run(r.exitCode(), r.out() + bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(saved);
        }
    }

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
        for (final String key : new String[] {"fm_latency_ns_8B", "spsc_latency_ns", "latency_ratio", "r_inf_MBps",
            "n_half_bytes", "fm_bw_MBps_64KiB", "arraycopy_bw_MBps_64KiB", "bw_ratio_64KiB",
            "fm_bw_MBps_64KiB_drop1pct", "fm_bw_MBps_1MiB", "bw_1MiB_over_64KiB"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertTrue(m.has("t0_ns"), "missing metrics.t0_ns");
        assertEquals(m.get("fm_bw_MBps_64KiB").asDouble() / m.get("arraycopy_bw_MBps_64KiB").asDouble(),
            m.get("bw_ratio_64KiB").asDouble(), 1e-9, "the ratio is the ratio of the figures");
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
        for (final String key : new String[] {"mpi_min_efficiency", "mpi_bw_MBps_1MiB", "arraycopy_bw_MBps_1MiB",
            "fm_bw_MBps_1MiB", "mpi_latency_ns_8B", "fm_latency_ns_8B", "mpi_buffer_bw_MBps_1MiB",
            "mpi_bibw_MBps_1MiB", "allreduce_us_8B_2ranks", "allreduce_us_1048576B_4ranks"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertTrue(m.has("mpi_latency_overhead_ns_8B"), "missing metrics.mpi_latency_overhead_ns_8B");
        assertEquals(m.get("mpi_latency_ns_8B").asDouble() - m.get("fm_latency_ns_8B").asDouble(),
            m.get("mpi_latency_overhead_ns_8B").asDouble(), 1e-6, "the overhead is the difference of the figures");
        double min = Double.MAX_VALUE;
        for (final JsonNode row : root.get("sizes")) {
            min = Math.min(min, row.get("mpi_bw_MBps").asDouble() / row.get("fm_bw_MBps").asDouble());
        }
        assertEquals(min, m.get("mpi_min_efficiency").asDouble(), 1e-9, "the lowest ratio over every size");
        assertEquals(8, root.get("sizes").size());
        assertEquals(2, root.get("allreduce").size(), "2 and 4 ranks");
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    }

    @Test
    void benchShmemShouldWriteTheContractKeys(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("shmem.json");
        final Path png = dir.resolve("shmem.png");
        final Run r = run("bench", "shmem", "--trials", "1", "--warmups", "0", "--round-trips", "100",
            "--mb-per-point", "1", "--json", json.toString(), "--png", png.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("put_latency_ratio") && r.out().contains("min_put_efficiency"), r.out());
        final JsonNode m = new ObjectMapper().readTree(json.toFile()).get("metrics");
        for (final String key : new String[] {"put_latency_ns_8B", "get_latency_ns_8B", "fetch_add_latency_ns",
            "fm_latency_ns_8B", "put_latency_ratio", "min_put_efficiency", "barrier_ns_2pe", "barrier_ns_64pe",
            "spsc_latency_ns", "spsc_rate_Mops_8B", "put_latency_spsc_ratio", "get_latency_spsc_ratio",
            "fetch_add_latency_spsc_ratio", "put_bw_arraycopy_ratio_64KiB", "put_bw_arraycopy_ratio_1MiB",
            "get_bw_arraycopy_ratio_1MiB", "put_rate_spsc_ratio_8B", "get_latency_busy_target_ns_8B",
            "get_latency_busy_target_ratio"}) {
            assertTrue(m.has(key), "missing metrics." + key);
            assertTrue(m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertEquals(m.get("put_latency_ns_8B").asDouble() / m.get("fm_latency_ns_8B").asDouble(),
            m.get("put_latency_ratio").asDouble(), 1e-9, "the ratio is the ratio of the figures");
        assertEquals(m.get("put_latency_ns_8B").asDouble() / m.get("spsc_latency_ns").asDouble(),
            m.get("put_latency_spsc_ratio").asDouble(), 1e-9, "against the raw queue");
        assertEquals(m.get("get_latency_busy_target_ns_8B").asDouble() / m.get("get_latency_ns_8B").asDouble(),
            m.get("get_latency_busy_target_ratio").asDouble(), 1e-9, "busy target against idle one");
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
        final Run tasks = run("taskpool", "--pes", "2", "--width", "40", "--height", "30", "--out", dir.toString());
        assertEquals(0, tasks.exitCode(), tasks.out());
        assertEquals("PNG", new String(Files.readAllBytes(dir.resolve("taskpool.png")), 1, 3,
            StandardCharsets.US_ASCII));
    }

    @Test
    void hydroSodShouldWriteItsCsvPngAndJson(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("sod.json");
        final Run r = run("hydro", "sod", "--pes", "2", "--zones", "100", "--out", dir.toString(), "--json",
            json.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("density L1 error against the exact solution"), r.out());
        final java.util.List<String> csv = Files.readAllLines(dir.resolve("sod.csv"));
        assertEquals("x,rho,u,p,e", csv.get(0));
        assertEquals(101, csv.size(), "a header and one line per zone");
        assertEquals("PNG", new String(Files.readAllBytes(dir.resolve("sod.png")), 1, 3, StandardCharsets.US_ASCII));
        final JsonNode j = new ObjectMapper().readTree(json.toFile());
        for (final String key : new String[] {"l1_density", "shock_x", "shock_x_exact", "cycles", "wall_seconds",
            "zone_cycles_per_second"}) {
            assertTrue(j.has(key), "missing " + key);
        }
        assertTrue(j.get("l1_density").asDouble() < 0.01, "L1 at 100 zones: " + j.get("l1_density"));
        assertEquals(2, run("hydro", "nope").exitCode(), "an unknown problem is a usage error");
    }

    @Test
    void hydroShouldWriteVtkSnapshotsAndRefuseBadScheduleOptions(@TempDir final Path dir) throws Exception {
        final Run r = run("hydro", "sod", "--pes", "2", "--zones", "40", "--t-end", "0.1", "--snapshots", "2",
            "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("wrote 3 VTK snapshots"), r.out());
        for (final String f : new String[] {"sod_0000.vti", "sod_0001.vti", "sod_0002.vti", "sod.pvd"}) {
            assertTrue(Files.readString(dir.resolve(f)).startsWith("<?xml"), f);
        }
        final Run every = run("hydro", "sod", "--pes", "1", "--zones", "40", "--t-end", "0.1", "--every", "0.04",
            "--out", dir.resolve("e").toString());
        assertEquals(0, every.exitCode(), every.out());
        assertTrue(every.out().contains("wrote 4 VTK snapshots"), "t = 0, 0.04, 0.08 and the end: " + every.out());
        final Path none = dir.resolve("none");
        for (final String[] bad : new String[][] {{"--snapshots", "0", "--out", none.toString()},
            {"--snapshots", "2"}, {"--every", "-1", "--out", none.toString()},
            {"--every", "0.1", "--snapshots", "2", "--out", none.toString()}}) {
            final List<String> args = new java.util.ArrayList<>(List.of("hydro", "sod", "--zones", "40"));
            args.addAll(List.of(bad));
            final Run refused = run(args.toArray(new String[0]));
            assertEquals(2, refused.exitCode(), String.join(" ", bad) + ": " + refused.out());
        }
        assertFalse(Files.exists(none), "a refused run writes nothing");
    }

    @Test
    void hydroShouldWriteItsDeckAndRerunItExactly(@TempDir final Path dir) throws Exception {
        final Path a = dir.resolve("a");
        final Run first = run("hydro", "sod", "--pes", "2", "--zones", "60", "--t-end", "0.05", "--left", "1,0.5,1",
            "--out", a.toString());
        assertEquals(0, first.exitCode(), first.out());
        final Path deck = a.resolve("sod.deck");
        final java.util.Properties p = new java.util.Properties();
        try (var in = Files.newBufferedReader(deck)) {
            p.load(in);
        }
        assertEquals("sod", p.getProperty("problem"));
        assertEquals("60", p.getProperty("zones"));
        assertEquals("1", p.getProperty("dims"), "defaults resolved");
        assertEquals("1.4", p.getProperty("gamma"));
        assertEquals("1.0,0.5,1.0", p.getProperty("left"));
        // The deck alone reruns the same run; the command line's --out overrides the deck's.
        final Path b = dir.resolve("b");
        final Run again = run("hydro", "--deck", deck.toString(), "--out", b.toString());
        assertEquals(0, again.exitCode(), again.out());
        assertEquals(Files.readString(a.resolve("sod.csv")), Files.readString(b.resolve("sod.csv")),
            "the same run, bit for bit");
        final java.util.Properties q = new java.util.Properties();
        try (var in = Files.newBufferedReader(b.resolve("sod.deck"))) {
            q.load(in);
        }
        q.setProperty("out", p.getProperty("out"));
        assertEquals(p, q, "the rerun's deck is the same but for out");
        // Command-line options override the deck's.
        final Run finer = run("hydro", "--deck", deck.toString(), "--zones", "80", "--out", b.toString());
        assertEquals(0, finer.exitCode(), finer.out());
        assertEquals(81, Files.readAllLines(b.resolve("sod.csv")).size(), "80 zones from the command line");
        // Unknown keys name the nearest valid one; bad values are refused as on the command line.
        final Path bad = dir.resolve("bad.deck");
        Files.writeString(bad, "problem = sod\nzonez = 40\n");
        final Run unknown = runWithErrors("hydro", "--deck", bad.toString());
        assertEquals(2, unknown.exitCode(), unknown.out());
        assertTrue(unknown.out().contains("unknown key 'zonez'") && unknown.out().contains("did you mean 'zones'"),
            unknown.out());
        Files.writeString(bad, "problem = sod\nzones = many\n");
        assertEquals(2, run("hydro", "--deck", bad.toString()).exitCode(), "a value that is not a number");
        assertEquals(2, run("hydro", "--deck", dir.resolve("missing.deck").toString()).exitCode());
    }

    @Test
    void hydroShouldRestartFromACheckpointOnOtherPesAndRefuseAMismatch(@TempDir final Path dir) throws Exception {
        final Path ckpt = dir.resolve("ckpt");
        final Run first = run("hydro", "sod", "--pes", "1", "--zones", "60", "--t-end", "0.06", "--checkpoint-every",
            "20", "--checkpoint", ckpt.toString(), "--out", dir.resolve("a").toString());
        assertEquals(0, first.exitCode(), first.out());
        final Path file = ckpt.resolve("sod.ckpt");
        assertTrue(Files.size(file) > 60 * 3 * 8, "the fields are in the checkpoint");
        final Run again = run("hydro", "sod", "--pes", "3", "--zones", "60", "--t-end", "0.06", "--restart",
            file.toString(), "--out", dir.resolve("b").toString());
        assertEquals(0, again.exitCode(), again.out());
        assertEquals(Files.readString(dir.resolve("a/sod.csv")), Files.readString(dir.resolve("b/sod.csv")),
            "restarted on 3 PEs, the same bits as the run on 1");
        final byte[] before = Files.readAllBytes(file);
        final Run other = runWithErrors("hydro", "sod", "--zones", "80", "--restart", file.toString(), "--out",
            dir.resolve("c").toString());
        assertEquals(2, other.exitCode(), other.out());
        assertTrue(other.out().contains("written by a run with zones=60, this run has zones=80"), other.out());
        assertFalse(Files.exists(dir.resolve("c")), "a refused restart writes nothing");
        final byte[] corrupt = before.clone();
        corrupt[corrupt.length / 2] ^= 4;
        Files.write(file, corrupt);
        final Run bad = runWithErrors("hydro", "sod", "--zones", "60", "--restart", file.toString());
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.out().contains("checksum mismatch"), bad.out());
        assertEquals(2, run("hydro", "sod", "--checkpoint-every", "5").exitCode(), "without --checkpoint DIR");
        assertEquals(2, run("hydro", "sod", "--checkpoint-every", "0", "--checkpoint", ckpt.toString()).exitCode());
        assertEquals(2, run("hydro", "blast3d", "--scaling", "--restart", file.toString()).exitCode());
    }

    @Test
    void hydroTotalEnergyShouldConserveRestartOnOtherPesAndBeRecorded(@TempDir final Path dir) throws Exception {
        final Path ckpt = dir.resolve("ckpt");
        final Path json = dir.resolve("a.json");
        final Run first = run("hydro", "sedov", "--energy", "total", "--pes", "2", "--zones", "24", "--t-end", "0.05",
            "--checkpoint-every", "5", "--checkpoint", ckpt.toString(), "--out", dir.resolve("a").toString(),
            "--json", json.toString());
        assertEquals(0, first.exitCode(), first.out());
        assertTrue(first.out().contains("the total-energy scheme conserves it"), first.out());
        final JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals("total", j.get("energy").asText());
        assertEquals(0, j.get("energy_error").asDouble(), 1e-11, j.toString());
        assertTrue(Files.readString(dir.resolve("a/sedov.deck")).contains("energy=total"));
        final Path file = ckpt.resolve("sedov.ckpt");
        final Run again = run("hydro", "sedov", "--energy", "total", "--pes", "3", "--zones", "24", "--t-end", "0.05",
            "--restart", file.toString(), "--out", dir.resolve("b").toString());
        assertEquals(0, again.exitCode(), again.out());
        assertEquals(Files.readString(dir.resolve("a/sedov.csv")), Files.readString(dir.resolve("b/sedov.csv")),
            "restarted on 3 PEs, the same bits as the run on 2");
        final Run internal = runWithErrors("hydro", "sedov", "--pes", "2", "--zones", "24", "--t-end", "0.05",
            "--restart", file.toString(), "--out", dir.resolve("c").toString());
        assertEquals(2, internal.exitCode(), internal.out());
        assertTrue(internal.out().contains("written by a run with energy=total, this run has energy=internal"),
            internal.out());
        assertFalse(Files.exists(dir.resolve("c")), "a refused restart writes nothing");
        final Run bad = runWithErrors("hydro", "sod", "--energy", "kinetic", "--out", dir.resolve("d").toString());
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.out().contains("--energy kinetic: internal or total"), bad.out());
        assertFalse(Files.exists(dir.resolve("d")));
    }

    @Test
    void hydroOnASphericalGridShouldRecordItsGeometryAndWriteStructuredGrids(@TempDir final Path dir)
        throws Exception {
        final Path json = dir.resolve("s.json");
        final Run r = run("hydro", "sedov", "--dims", "1", "--geometry", "spherical", "--ratio", "1.01", "--zones",
            "60", "--t-end", "0.02", "--energy", "total", "--pes", "2", "--snapshots", "2", "--out",
            dir.resolve("o").toString(), "--json", json.toString(), "--checkpoint-every", "5", "--checkpoint",
            dir.resolve("c").toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals(0, j.get("energy_error").asDouble(), 1e-12, j.toString());
        final String deck = Files.readString(dir.resolve("o/sedov.deck"));
        assertTrue(deck.contains("geometry=spherical") && deck.contains("ratio=1.01"), deck);
        assertTrue(Files.exists(dir.resolve("o/sedov_0002.vts")) && !Files.exists(dir.resolve("o/sedov_0000.vti")));
        final Run flat = runWithErrors("hydro", "sedov", "--dims", "1", "--zones", "60", "--t-end", "0.02", "--energy",
            "total", "--pes", "2", "--restart", dir.resolve("c/sedov.ckpt").toString());
        assertEquals(2, flat.exitCode(), flat.out());
        assertTrue(flat.out().contains("written by a run with geometry=spherical, this run has geometry=cartesian"),
            flat.out());
        final Run again = run("hydro", "--deck", dir.resolve("o/sedov.deck").toString(), "--out",
            dir.resolve("p").toString());
        assertEquals(0, again.exitCode(), again.out());
        assertEquals(Files.readString(dir.resolve("o/sedov.csv")), Files.readString(dir.resolve("p/sedov.csv")),
            "the deck reruns the spherical run bit for bit");
    }

    @Test
    void hydroMultiDimensionalProblemsShouldWriteImagesCsvAndJson(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("sedov.json");
        final Run r = run("hydro", "sedov", "--pes", "2", "--zones", "48", "--out", dir.toString(), "--json",
            json.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("Sedov-Taylor") && r.out().contains("conservation: mass"), r.out());
        final java.util.List<String> csv = Files.readAllLines(dir.resolve("sedov.csv"));
        assertEquals("x,y,rho,u,v,p,e", csv.get(0));
        assertEquals(48 * 48 + 1, csv.size());
        for (final String png : new String[] {"sedov.png", "sedov-profile.png"}) {
            assertEquals("PNG", new String(Files.readAllBytes(dir.resolve(png)), 1, 3, StandardCharsets.US_ASCII));
        }
        final java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(dir.resolve("sedov.png").toFile());
        assertTrue(img.getWidth() >= 480 && img.getHeight() >= 480, "the density image is scaled up");
        final JsonNode j = new ObjectMapper().readTree(json.toFile());
        for (final String key : new String[] {"l1_density", "shock_radius", "shock_radius_exact", "mass_error",
            "energy_error", "cycles", "wall_seconds", "zone_cycles_per_second"}) {
            assertTrue(j.has(key), "missing " + key);
        }
        assertTrue(Math.abs(j.get("shock_radius").asDouble() / 0.75 - 1) < 0.05, j.toString());

        final Run blast = run("hydro", "blast3d", "--pes", "2", "--zones", "12", "--t-end", "0.02", "--out",
            dir.toString());
        assertEquals(0, blast.exitCode(), blast.out());
        final java.util.List<String> rows = Files.readAllLines(dir.resolve("blast3d.csv"));
        assertEquals("x,y,z,rho,u,v,w,p,e", rows.get(0));
        // The hot sphere sits at the centre of the box: the CSV's coordinates must map to the right zones.
        String[] hottest = null;
        for (final String row : rows.subList(1, rows.size())) {
            final String[] f = row.split(",");
            if (hottest == null || Double.parseDouble(f[7]) > Double.parseDouble(hottest[7])) {
                hottest = f;
            }
        }
        for (int d = 0; d < 3; d++) {
            assertEquals(0.5, Double.parseDouble(hottest[d]), 0.1, "the highest pressure at the centre");
        }
        assertTrue(Files.size(dir.resolve("blast3d.png")) > 0, "the mid-plane slice");
    }

    @Test
    void hydroScalingShouldReportEveryPeCount(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("scaling.json");
        final Run r = run("hydro", "blast3d", "--scaling", "--scaling-pes", "1,2", "--zones", "8", "--cycles", "3",
            "--warmup", "1", "--json", json.toString(), "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("scaling");
        assertEquals(2, rows.size());
        assertEquals(1, rows.get(0).get("pes").asInt());
        assertEquals(2 * 8 * 8 * 8, rows.get(1).get("zones").asInt());
        assertTrue(rows.get(1).get("zone_cycles_per_second").asDouble() > 0);
        assertTrue(Files.exists(dir.resolve("blast3d-scaling.csv")) && Files.exists(dir.resolve(
            "blast3d-scaling.png")));
    }

    @Test
    void hydroShouldRejectOptionsTheProblemDoesNotTake(@TempDir final Path dir) {
        final String out = dir.resolve("never").toString();
        for (final String[] args : new String[][] {{"kh", "--dims", "3"}, {"sedov", "--x0", "0.3"},
            {"sod", "--scaling"}, {"noh", "--dims", "4"}, {"sod", "--left", "1,0"},
            {"blast3d", "--scaling", "--cycles", "0"}, {"sod", "--t-end", "Infinity"}, {"sod", "--x0", "NaN"},
            {"sod", "--left", "1,NaN,1"}, {"sod", "--drop", "-1"}, {"blast3d", "--scaling", "--dims", "2"},
            {"blast3d", "--cycles", "3"}, {"blast3d", "--scaling", "--zones", "2"}, {"sedov", "--gamma", "1.0001"},
            {"sedov", "--dims", "3", "--gamma", "10"}, {"sod", "--zones", "10"},
            {"blast3d", "--scaling", "--pes", "4"}, {"kh", "--geometry", "spherical"},
            {"sedov", "--geometry", "spherical", "--dims", "2"},
            {"sedov", "--geometry", "cylindrical", "--dims", "3"}, {"sod", "--ratio", "0"},
            {"sod", "--ratio", "-2"},
            {"sod", "--ratio", "NaN"}, {"sod", "--geometry", "polar"}, {"kh", "--ratio", "1.01"},
            {"blast3d", "--scaling", "--geometry", "spherical"}}) {
            final String[] full = new String[args.length + 3];
            full[0] = "hydro";
            System.arraycopy(args, 0, full, 1, args.length);
            full[args.length + 1] = "--out";
            full[args.length + 2] = out;
            final Run r = run(full);
            assertEquals(2, r.exitCode(), String.join(" ", full) + ": " + r.out());
            assertFalse(Files.exists(dir.resolve("never")), String.join(" ", full) + " left its --out directory");
        }
        assertEquals(2, run("bench", "all", "--out", out, "--trials", "0").exitCode());
        assertFalse(Files.exists(dir.resolve("never")), "bench all checks its options before it writes");
    }

    @Test
    void everyOptionOfEveryCommandShouldSayItsDefault() {
        final java.util.List<String> missing = new java.util.ArrayList<>();
        final java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>();
        todo.add(new picocli.CommandLine(new Main()));
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
}
