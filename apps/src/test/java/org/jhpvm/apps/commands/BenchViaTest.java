package org.jhpvm.apps.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jhpvm.apps.Main;
import org.jhpvm.apps.bench.ViaBenchmark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench via}: the contract keys and rows of its JSON, its PNG, and refused options. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BenchViaTest {
    private static final String[] METRICS = {"rdma_write_latency_ns_8B", "rdma_read_latency_ns_8B",
        "arraycopy_latency_ns_8B", "rdma_write_bw_MBps_1MiB", "rdma_read_bw_MBps_1MiB",
        "write_bw_arraycopy_ratio_1MiB", "read_bw_arraycopy_ratio_1MiB", "write_bw_arraycopy_ratio_64KiB",
        "register_ns_uncached_4KiB", "register_ns_cached_4KiB", "register_ns_uncached_16MiB"};
    private static final String[] RDMA_KEYS = {"write_latency_ns", "read_latency_ns", "arraycopy_latency_ns",
        "write_bw_MBps", "read_bw_MBps", "arraycopy_bw_MBps", "write_bw_arraycopy_ratio", "read_bw_arraycopy_ratio"};
    private static final String[] REGISTRATION_KEYS = {"register_ns_uncached", "register_ns_cached"};

    @Test
    void shouldWriteEveryMetricAndARowPerSize(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("via.json");
        final Path png = dir.resolve("via.png");
        assertEquals(0, Main.execute("bench", "via", "--trials", "1", "--warmups", "0", "--ops", "50",
            "--mb-per-point", "1", "--registrations", "50", "--json", json.toString(), "--png", png.toString()));
        final JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals("via", root.path("benchmark").asText());
        assertTrue(root.path("config").isObject(), "config");
        final JsonNode m = root.path("metrics");
        for (final String key : METRICS) {
            assertTrue(m.has(key), "missing metrics." + key);
            final double v = m.get(key).asDouble();
            assertTrue(Double.isFinite(v) && v > 0, key + " = " + m.get(key));
        }
        final int[] sizes = ViaBenchmark.sizes();
        assertEquals(8, sizes[0]);
        assertEquals(16 << 20, sizes[sizes.length - 1]);
        rows(root.path("rdma"), sizes, RDMA_KEYS);
        rows(root.path("registration"), sizes, REGISTRATION_KEYS);
        assertEquals("PNG", new String(Files.readAllBytes(png), 1, 3, StandardCharsets.US_ASCII));
    }

    private static void rows(final JsonNode rows, final int[] sizes, final String[] keys) {
        assertEquals(sizes.length, rows.size(), "one row per size: " + rows);
        for (int i = 0; i < sizes.length; i++) {
            final JsonNode row = rows.get(i);
            assertEquals(sizes[i], row.path("bytes").asInt(), "row " + i);
            for (final String key : keys) {
                assertTrue(row.has(key) && Double.isFinite(row.get(key).asDouble()) && row.get(key).asDouble() > 0,
                    sizes[i] + " B: " + key + " = " + row.get(key));
            }
        }
    }

    @Test
    void shouldRefuseBadOptionsAndWriteNothing(@TempDir final Path dir) {
        final Path json = dir.resolve("via.json");
        final Path png = dir.resolve("via.png");
        for (final String[] bad : new String[][] {{"--trials", "0"}, {"--warmups", "-1"}, {"--ops", "0"},
            {"--mb-per-point", "0"}, {"--registrations", "0"}, {"--trials", "many"}, {"--no-such-option"}}) {
            final String[] args = new String[bad.length + 6];
            args[0] = "bench";
            args[1] = "via";
            System.arraycopy(bad, 0, args, 2, bad.length);
            args[bad.length + 2] = "--json";
            args[bad.length + 3] = json.toString();
            args[bad.length + 4] = "--png";
            args[bad.length + 5] = png.toString();
            assertEquals(Main.USAGE, Main.execute(args), String.join(" ", bad) + " is a usage error");
            assertFalse(Files.exists(json), "no JSON after " + String.join(" ", bad));
            assertFalse(Files.exists(png), "no PNG after " + String.join(" ", bad));
        }
    }
}
