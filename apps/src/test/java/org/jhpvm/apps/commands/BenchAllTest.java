package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.jhpvm.apps.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench all}: the report's summary figures and that the whole run writes what it promises. */
class BenchAllTest {
    @Test
    void summaryFiguresShouldFollowHockneysModel() {
        // t(n) = t0 + n / rInf with t0 = 1000 ns, rInf = 1000 MB/s (1 byte per ns): n1/2 = t0 * rInf = 1000 B.
        final double[] n = {8, 64, 512, 1000, 4096, 1 << 20, 1 << 24};
        final double[] bw = new double[n.length];
        for (int i = 0; i < n.length; i++) {
            bw[i] = n[i] / (1000 + n[i]) * 1000; // MB/s = bytes per microsecond
        }
        final BenchAllCommand.Curve c = new BenchAllCommand.Curve(n, bw);
        assertEquals(1000, c.peak(), 0.1);
        assertEquals(500, c.at(1000), 1e-9);
        assertTrue(Double.isNaN(c.at(4)), "no extrapolation below the sizes measured");
        assertEquals(1000, c.halfPowerBytes(), 0.5, "n1/2 = t0 * rInf (the peak measured is a hair below rInf)");
        assertEquals(1000, c.t0Ns(), 1.0);
    }

    @Test
    @Tag("soak") // every bench in turn, 15 s; CommandLineTest runs each bench and checks its keys by default
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldRunEveryLayerAndWriteOneReport(@TempDir final Path dir) throws Exception {
        final int code = Main.execute("bench", "all", "--out", dir.toString(), "--trials", "1", "--warmups", "1",
            "--round-trips", "200", "--mb", "1", "--zone-cycles", "20000", "--max-ranks", "4");
        assertEquals(0, code);
        final String md = Files.readString(dir.resolve("report.md"));
        for (final String layer : new String[] {"| emulated Myrinet fabric (frames) |", "| Fast Messages |",
            "| SHMEM put |", "| Global Arrays put (1-D section) |", "| NIC RDMA write (VIA) |",
            "min_put_efficiency_1KiB", "n_half_bytes", "register_ns_cached_4KiB", "(`bench hydro`)",
            "total_energy_cost_ratio_max", "blast3d_zone_cycles_per_second_per_pe_2pe", "(`bench mpi`)",
            "mpi_min_efficiency"}) {
            assertTrue(md.contains(layer), "the report lacks " + layer);
        }
        for (final String f : new String[] {"latency.png", "bandwidth.png", "fabric.png", "fm.png", "shmem.png",
            "ga.png", "via.png", "hydro.png", "mpi.png"}) {
            assertEquals("PNG", new String(Files.readAllBytes(dir.resolve(f)), 1, 3, StandardCharsets.US_ASCII), f);
        }
        assertEquals(4, new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("mpi.json").toFile())
            .path("config").path("max_ranks").asInt(), "--max-ranks reaches bench mpi");
        assertEquals(2, Main.execute("bench", "all", "--out", dir.toString(), "--trials", "0"),
            "a bad value is a usage error");
    }
}
