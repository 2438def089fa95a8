package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench hosts}: two namespaces made, measured across and removed. Soak (about a minute: five JVMs). Where
 * namespaces cannot be made (not root, no iproute2) the command says so and exits 2, and this test is skipped with
 * that reason.
 */
@Tag("soak")
@Timeout(600)
class BenchHostsTest {
    @Test
    void shouldMeasureAcrossTwoNamespacesAndRemoveThem(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("hosts.json");
        final LaunchTest.Run r = LaunchTest.run(Map.of(), 500, "bench", "hosts", "--trials", "1", "--link-mb", "16",
            "--puts", "8", "--round-trips", "500", "--json", json.toString());
        Assumptions.assumeFalse(r.status() == 2 && r.err().contains("cannot make two hosts"),
            "skipped: " + r.err().strip());
        assertEquals(0, r.status(), r.out() + r.err());
        final JsonNode m = new ObjectMapper().readTree(Files.readString(json)).get("metrics");
        for (final String key : new String[] {"host_put_bw_MBps_1MiB", "link_tcp_MBps", "host_put_bw_link_ratio_1MiB",
            "host_get_latency_ns_8B", "aeron_pingpong_latency_ns_8B", "host_get_latency_aeron_ratio_8B"}) {
            assertTrue(m.get(key).asDouble() > 0, key + " in " + m);
        }
        assertEquals(m.get("host_put_bw_MBps_1MiB").asDouble() / m.get("link_tcp_MBps").asDouble(),
            m.get("host_put_bw_link_ratio_1MiB").asDouble(), 1e-9);
        final String left = new String(new ProcessBuilder("ip", "netns", "list").start().getInputStream()
            .readAllBytes());
        assertFalse(left.contains("jhb"), "namespaces left: " + left);
    }
}
