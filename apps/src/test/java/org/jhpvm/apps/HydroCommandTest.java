package org.jhpvm.apps;

import static org.jhpvm.apps.Commands.run;
import static org.jhpvm.apps.Commands.runWithErrors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** {@code jhpvm hydro} as people run it, through {@link Main#execute}: its files, decks, checkpoints and layers. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HydroCommandTest {
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
        // A rerun that names no --out is refused: it would overwrite the results the deck came from.
        final byte[] csv = Files.readAllBytes(a.resolve("sod.csv"));
        final Run over = runWithErrors("hydro", "--deck", deck.toString());
        assertEquals(2, over.exitCode(), over.out());
        assertTrue(over.out().contains("deck " + deck + ": its run wrote out=" + a + "; a rerun would overwrite "
            + "that: give --out (the same to replace it)"), over.out());
        assertEquals(-1, java.util.Arrays.mismatch(csv, Files.readAllBytes(a.resolve("sod.csv"))),
            "the deck's results untouched");
        // The deck with a new --out reruns the same run.
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
        assertTrue(first.out().contains("wrote checkpoint " + file + " (cycle 20, t = "), first.out());
        final Run again = run("hydro", "sod", "--pes", "3", "--zones", "60", "--t-end", "0.06", "--restart",
            file.toString(), "--out", dir.resolve("b").toString());
        assertEquals(0, again.exitCode(), again.out());
        assertTrue(again.out().startsWith("resumed from cycle 20 (t = "), again.out());
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
        assertEquals("r,rho,v_r,p,e", Files.readAllLines(dir.resolve("o/sedov.csv")).get(0), "named as the grid");
        final String deck = Files.readString(dir.resolve("o/sedov.deck"));
        assertTrue(deck.contains("geometry=spherical") && deck.contains("ratio=1.01"), deck);
        assertTrue(Files.exists(dir.resolve("o/sedov_0002.vts")) && !Files.exists(dir.resolve("o/sedov_0000.vti")));
        final Run flat = runWithErrors("hydro", "sedov", "--dims", "1", "--zones", "60", "--t-end", "0.02", "--energy",
            "total", "--pes", "2", "--restart", dir.resolve("c/sedov.ckpt").toString());
        assertEquals(2, flat.exitCode(), flat.out());
        assertTrue(flat.out().contains("written by a run with geometry=spherical, this run has geometry=cartesian"),
            flat.out());
        final Run again = run("hydro", "--deck", dir.resolve("o/sedov.deck").toString(), "--out",
            dir.resolve("p").toString(), "--json", dir.resolve("p.json").toString(), "--checkpoint",
            dir.resolve("pc").toString());
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
    void hydroScalingInVirtualTimeRunsThirtyTwoPesToTheEnd(@TempDir final Path dir) throws Exception {
        // 32 PEs on 2 cores: looks park on the NIC holding them back, and waiting receives go straight to their
        // next event. A waiting NIC whose promise is not kept at its next event deadlocks this job (the stall
        // report after 60 s of wall time), three runs in three; a sound run takes about 2 s.
        final Path json = dir.resolve("scaling.json");
        final Run r = run("hydro", "blast3d", "--scaling", "--clock", "virtual", "--machine", "ppro-pci-1998",
            "--scaling-pes", "1,32", "--zones", "8", "--cycles", "3", "--warmup", "2", "--trials", "1",
            "--json", json.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals("virtual", report.get("clock").asText());
        final JsonNode rows = report.get("scaling");
        assertEquals(2, rows.size());
        assertEquals(32, rows.get(1).get("pes").asInt());
        assertEquals(32 * 8 * 8 * 8, rows.get(1).get("zones").asInt());
        for (final JsonNode row : rows) {
            final double modelled = row.get("modelled_seconds").asDouble();
            assertTrue(modelled > 0 && Double.isFinite(modelled), "modelled time " + modelled);
        }
        // Scaled speedup is the PEs times the efficiency against the first row's rate per PE.
        final JsonNode big = rows.get(1);
        assertEquals(big.get("zone_cycles_per_second").asDouble() / 32
            / rows.get(0).get("zone_cycles_per_second").asDouble(), big.get("efficiency").asDouble(), 1e-9);
        assertEquals(32 * big.get("efficiency").asDouble(), big.get("scaled_speedup").asDouble(), 1e-9);
    }

    @Test
    void declaredComputationGivesTheSameModelledTimesEveryRunAndChargesEverySubstep(@TempDir final Path dir)
        throws Exception {
        final double[][] seconds = new double[2][];
        for (int run = 0; run < 2; run++) {
            final Path json = dir.resolve("declared" + run + ".json");
            final Run r = run("hydro", "blast3d", "--scaling", "--clock", "virtual", "--machine", "ppro-pci-1998",
                "--cpu", "declared", "--scaling-pes", "1,8", "--zones", "8", "--cycles", "3", "--warmup", "2",
                "--trials", "1", "--json", json.toString());
            assertEquals(0, r.exitCode(), r.out());
            final JsonNode report = new ObjectMapper().readTree(json.toFile());
            assertEquals("declared", report.get("cpu").asText());
            final JsonNode rows = report.get("scaling");
            seconds[run] = new double[] {rows.get(0).get("modelled_seconds").asDouble(),
                rows.get(1).get("modelled_seconds").asDouble()};
        }
        // Nothing this machine measures enters the model: the same times, bit for bit.
        assertEquals(Double.doubleToLongBits(seconds[0][0]), Double.doubleToLongBits(seconds[1][0]),
            seconds[0][0] + " then " + seconds[1][0]);
        assertEquals(Double.doubleToLongBits(seconds[0][1]), Double.doubleToLongBits(seconds[1][1]),
            seconds[0][1] + " then " + seconds[1][1]);
        // One PE computes 8^3 zones for 3 cycles at the declared cost of a zone-cycle (courant, pressure,
        // viscosity, heating and three sweeps: 155.5 ns on the reference core) times the machine's cpu_scale (30),
        // and has no network: its modelled time is that, and little more.
        final double compute = 3 * 512 * (13 + 5 + 15 + 5.5 + 3 * 39) * 30 * 1e-9;
        assertTrue(seconds[0][0] >= compute && seconds[0][0] < 1.05 * compute,
            "1 PE: " + seconds[0][0] + " s modelled, " + compute + " s of declared computation");
        assertTrue(seconds[0][1] > seconds[0][0], "8 PEs exchange ghosts: " + seconds[0][1] + " s");
    }

    @Test
    void aVirtualTimeRunsDeckRerunsOnItsClockMachineAndCompute(@TempDir final Path dir) throws Exception {
        final Path a = dir.resolve("a");
        final Run first = run("hydro", "blast3d", "--zones", "8", "--pes", "2", "--t-end", "0.05", "--clock",
            "virtual", "--machine", "sparc-sbus-1995", "--model", "lcp=baseline", "--model", "sbus=dma", "--cpu",
            "declared", "--out",
            a.toString(), "--json", a.resolve("a.json").toString());
        assertEquals(0, first.exitCode(), first.out());
        final java.util.Properties p = new java.util.Properties();
        try (var in = Files.newBufferedReader(a.resolve("blast3d.deck"))) {
            p.load(in);
        }
        assertEquals("virtual", p.getProperty("clock"));
        assertEquals("sparc-sbus-1995", p.getProperty("machine"));
        assertEquals("declared", p.getProperty("cpu"));
        assertEquals("lcp=baseline,sbus=dma", p.getProperty("model"), "both switches, as one entry");
        final Path b = dir.resolve("b");
        final Run again = run("hydro", "--deck", a.resolve("blast3d.deck").toString(), "--out", b.toString(),
            "--json", b.resolve("b.json").toString());
        assertEquals(0, again.exitCode(), again.out());
        final ObjectMapper json = new ObjectMapper();
        final JsonNode x = json.readTree(a.resolve("a.json").toFile());
        final JsonNode y = json.readTree(b.resolve("b.json").toFile());
        assertEquals("virtual", y.get("clock").asText(), "the rerun ran on the virtual clock");
        assertEquals(Double.doubleToLongBits(x.get("modelled_seconds").asDouble()),
            Double.doubleToLongBits(y.get("modelled_seconds").asDouble()), "declared compute: the same modelled time");
    }

    @Test
    void cpuIsRefusedWithoutAVirtualClockOrWithAnUnknownMode() throws Exception {
        final Run wall = runWithErrors("hydro", "blast3d", "--cpu", "declared", "--zones", "8");
        assertEquals(2, wall.exitCode(), wall.out());
        assertTrue(wall.out().contains("add --clock virtual"), wall.out());
        final Run bad = runWithErrors("hydro", "blast3d", "--clock", "virtual", "--cpu", "guessed", "--zones",
            "8");
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.out().contains("--cpu guessed: must be measured or declared"), bad.out());
    }

    @Test
    void hydroScalingShouldReportEveryPeCount(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("scaling.json");
        final Run r = run("hydro", "blast3d", "--scaling", "--scaling-pes", "1,2", "--zones", "8", "--cycles", "3",
            "--warmup", "1", "--trials", "2", "--json", json.toString(), "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, report.get("trials").asInt());
        final JsonNode rows = report.get("scaling");
        assertEquals(2, rows.size());
        assertEquals(1, rows.get(0).get("pes").asInt());
        assertEquals(2 * 8 * 8 * 8, rows.get(1).get("zones").asInt());
        assertTrue(rows.get(1).get("zone_cycles_per_second").asDouble() > 0);
        // The best of two rounds is at least their median (their mean).
        assertTrue(rows.get(1).get("zone_cycles_per_second").asDouble()
            >= rows.get(1).get("zone_cycles_per_second_median").asDouble());
        assertEquals(1.0, rows.get(0).get("core_efficiency_median").asDouble(), 1e-12);
        // Paired: the median (here the mean of two) of each round's rate against the same round's 1-PE rate.
        final int cores = report.get("cores").asInt();
        double paired = 0;
        for (int t = 0; t < 2; t++) {
            paired += rows.get(1).get("zone_cycles_per_second_rounds").get(t).asDouble() / Math.min(2, cores)
                / rows.get(0).get("zone_cycles_per_second_rounds").get(t).asDouble() / 2;
        }
        assertEquals(paired, rows.get(1).get("core_efficiency_paired").asDouble(), 1e-9);
        assertEquals(1.0, rows.get(0).get("core_efficiency_paired").asDouble(), 1e-12);
        assertTrue(Files.exists(dir.resolve("blast3d-scaling.csv")) && Files.exists(dir.resolve(
            "blast3d-scaling.png")));
        assertFalse(rows.get(1).has("independent_core_efficiency"), "only with --independent");
    }

    @Test
    void hydroScalingShouldMeasureIndependentSolversBesideEachRowWhenAsked(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("scaling.json");
        final Run r = run("hydro", "blast3d", "--scaling", "--scaling-pes", "1,3", "--zones", "8", "--cycles", "3",
            "--warmup", "1", "--trials", "1", "--independent", "--json", json.toString(), "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("| per core used, paired | independent solvers, per core used | of independent |"),
            r.out());
        // The deck reruns it with the independent solvers too.
        assertTrue(Files.readAllLines(dir.resolve("blast3d-scaling.deck")).contains("independent=true"));
        final JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertTrue(report.get("independent").asBoolean());
        final JsonNode row = report.get("scaling").get(1);
        final double alone = row.get("independent_zone_cycles_per_second").asDouble();
        assertTrue(alone > 0, row.toString());
        final double base = report.get("scaling").get(0).get("zone_cycles_per_second").asDouble();
        final int cores = report.get("cores").asInt();
        assertEquals(alone / Math.min(3, cores) / base, row.get("independent_core_efficiency").asDouble(), 1e-9);
        assertEquals(row.get("core_efficiency").asDouble() / row.get("independent_core_efficiency").asDouble(),
            row.get("core_efficiency_of_independent").asDouble(), 1e-9);
    }

    @Test
    void hydroShouldRejectOptionsTheProblemDoesNotTake(@TempDir final Path dir) {
        final String out = dir.resolve("never").toString();
        for (final String[] args : new String[][] {{"kh", "--dims", "3"}, {"sedov", "--x0", "0.3"},
            {"sod", "--scaling"}, {"noh", "--dims", "4"}, {"sod", "--left", "1,0"},
            {"blast3d", "--scaling", "--cycles", "0"}, {"blast3d", "--scaling", "--trials", "0"},
            {"blast3d", "--trials", "2"}, {"blast3d", "--independent"}, {"sod", "--t-end", "Infinity"},
            {"sod", "--x0", "NaN"},
            {"sod", "--left", "1,NaN,1"}, {"sod", "--drop", "-1"}, {"blast3d", "--scaling", "--dims", "2"},
            {"blast3d", "--cycles", "3"}, {"blast3d", "--scaling", "--zones", "2"}, {"sedov", "--gamma", "1.0001"},
            {"sedov", "--dims", "3", "--gamma", "10"}, {"sod", "--zones", "10"},
            {"blast3d", "--scaling", "--pes", "4"}, {"kh", "--geometry", "spherical"},
            {"sod", "--geometry", "spherical", "--dims", "3"}, {"sod", "--geometry", "spherical", "--dims", "2"},
            {"sod", "--ratio", "0"},
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
        // The refusal names every problem that takes the option.
        final Run kh = runWithErrors("hydro", "kh", "--geometry", "spherical");
        assertTrue(kh.out().contains("kh: --geometry and --ratio are for sod, sedov and noh"), kh.out());
        assertEquals(0, run("hydro", "noh", "--geometry", "cylindrical", "--dims", "1", "--zones", "24", "--t-end",
            "0.05").exitCode(), "noh takes it");
        assertEquals(2, run("bench", "all", "--out", out, "--trials", "0").exitCode());
        assertFalse(Files.exists(dir.resolve("never")), "bench all checks its options before it writes");
    }

    @Test
    void hydroOnMpiShouldWriteTheGaRunsBytesAndRecordItsLayer(@TempDir final Path dir) throws Exception {
        final String[] run = {"hydro", "sedov", "--zones", "24", "--t-end", "0.05"};
        final Path ga = dir.resolve("ga");
        final Path mpi = dir.resolve("mpi");
        assertEquals(0, run(concat(run, "--pes", "2", "--out", ga.toString())).exitCode());
        final Path json = dir.resolve("mpi.json");
        final Path ckpt = dir.resolve("ckpt");
        final Run r = run(concat(run, "--pes", "3", "--comm", "mpi", "--out", mpi.toString(), "--json",
            json.toString(), "--checkpoint-every", "3", "--checkpoint", ckpt.toString()));
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("on 3 PEs (MPI)"), r.out());
        assertEquals(-1L, Files.mismatch(ga.resolve("sedov.csv"), mpi.resolve("sedov.csv")),
            "MPI on 3 ranks writes GA on 2 PEs' bytes");
        assertEquals("mpi", new ObjectMapper().readTree(json.toFile()).get("comm").asText());
        assertTrue(Files.readAllLines(mpi.resolve("sedov.deck")).contains("comm=mpi"));
        assertTrue(Files.readAllLines(ga.resolve("sedov.deck")).contains("comm=ga"));
        // The deck reruns on MPI; an MPI checkpoint restarts on GA.
        final Path again = dir.resolve("again");
        final Run rerun = run("hydro", "--deck", mpi.resolve("sedov.deck").toString(), "--out", again.toString(),
            "--json", dir.resolve("again.json").toString(), "--checkpoint", dir.resolve("again-ckpt").toString(),
            "--checkpoint-every", "1000");
        assertEquals(0, rerun.exitCode(), rerun.out());
        assertTrue(rerun.out().contains("(MPI)"), rerun.out());
        assertEquals(-1L, Files.mismatch(ga.resolve("sedov.csv"), again.resolve("sedov.csv")));
        final Path restarted = dir.resolve("restarted");
        final Run back = run(concat(run, "--pes", "1", "--restart", ckpt.resolve("sedov.ckpt").toString(), "--out",
            restarted.toString()));
        assertEquals(0, back.exitCode(), back.out());
        assertEquals(-1L, Files.mismatch(ga.resolve("sedov.csv"), restarted.resolve("sedov.csv")));
    }

    @Test
    void hydroShouldRefuseAnUnknownLayerAndBlocksTooThinForMpi(@TempDir final Path dir) {
        final Path out = dir.resolve("o");
        final Run bad = runWithErrors("hydro", "sod", "--comm", "pvm", "--out", out.toString());
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.out().contains("--comm pvm: ga or mpi"), bad.out());
        final Run thin = runWithErrors("hydro", "sod", "--zones", "20", "--pes", "8", "--comm", "mpi", "--out",
            out.toString());
        assertEquals(2, thin.exitCode(), thin.out());
        assertTrue(thin.out().contains("ghost width 3"), thin.out());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void hydroScalingOnMpiShouldSayItsLayer(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("scaling.json");
        final Run r = run("hydro", "blast3d", "--scaling", "--scaling-pes", "1,2", "--zones", "8", "--cycles", "3",
            "--warmup", "1", "--trials", "1", "--comm", "mpi", "--json", json.toString());
        assertEquals(0, r.exitCode(), r.out());
        assertTrue(r.out().contains("blast3d weak scaling on MPI"), r.out());
        final JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals("mpi", j.get("comm").asText());
        assertEquals("none", j.get("scheduling").asText());
        assertEquals(2, j.get("scaling").size());
        assertTrue(j.get("scaling").get(1).get("zone_cycles_per_second").asDouble() > 0);
    }

    @Test
    void hydroUnderEachSchedulingPolicyShouldWriteTheSameBytesAndRecordIt(@TempDir final Path dir) throws Exception {
        final String[] run = {"hydro", "sod", "--zones", "48", "--t-end", "0.02", "--pes", "3"};
        final Path plain = dir.resolve("plain");
        assertEquals(0, run(concat(run, "--out", plain.toString())).exitCode());
        assertTrue(Files.readAllLines(plain.resolve("sod.deck")).contains("scheduling=none"), "the default, recorded");
        for (final String policy : new String[] {"dcs", "gang"}) {
            final Path out = dir.resolve(policy);
            final Path json = dir.resolve(policy + ".json");
            final Run r = run(concat(run, "--scheduling", policy, "--out", out.toString(), "--json", json.toString()));
            assertEquals(0, r.exitCode(), r.out());
            assertEquals(-1L, Files.mismatch(plain.resolve("sod.csv"), out.resolve("sod.csv")), policy);
            assertEquals(policy, new ObjectMapper().readTree(json.toFile()).get("scheduling").asText());
            assertTrue(Files.readAllLines(out.resolve("sod.deck")).contains("scheduling=" + policy));
        }
        final Path never = dir.resolve("never");
        final Run bad = runWithErrors(concat(run, "--scheduling", "fair", "--out", never.toString()));
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.out().contains("'fair' is not a scheduling policy (none, dcs or gang)"), bad.out());
        assertFalse(Files.exists(never), "nothing written");
    }

    private static String[] concat(final String[] a, final String... b) {
        final String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
