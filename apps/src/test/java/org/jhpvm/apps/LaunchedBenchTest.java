package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jhpvm.apps.LaunchTest.Run;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks under {@code jhpvm launch -n 2} (real processes over Aeron IPC, with the lightest settings): each
 * finishes with its usual output printed once, by rank 0, and its JSON says which path it measured. Soak: each case
 * starts several JVMs for tens of seconds.
 */
@Tag("soak")
@Timeout(value = 400, unit = TimeUnit.SECONDS)
class LaunchedBenchTest {
    private static Run run(final String... args) throws Exception {
        return LaunchTest.run(Map.of(), 300, args);
    }

    @Test
    void benchFmShmemAndMpiShouldMeasureOverAeron(@TempDir final Path dir) throws Exception {
        final Path fm = dir.resolve("fm.json");
        final Run f = run("launch", "-n", "2", "--", "bench", "fm", "--trials", "1", "--warmups", "0",
            "--round-trips", "500", "--mb-per-point", "1", "--json", fm.toString());
        assertEquals(0, f.status(), f.out() + f.err());
        final var fmMetrics = new ObjectMapper().readTree(fm.toFile()).get("metrics");
        for (final String key : List.of("aeron_ipc_fm_latency_ns_8B", "aeron_ipc_fm_bw_MBps_64KiB",
            "emulated_fm_latency_ns_8B", "aeron_pingpong_latency_ns_32B", "aeron_overhead_ratio")) {
            assertTrue(fmMetrics.path(key).asDouble() > 0, key + " in " + fmMetrics);
        }
        final Path shmem = dir.resolve("shmem.json");
        final Run s = run("launch", "-n", "2", "--", "bench", "shmem", "--trials", "1", "--warmups", "0",
            "--round-trips", "200", "--mb-per-point", "1", "--json", shmem.toString());
        assertEquals(0, s.status(), s.out() + s.err());
        assertFalse(s.out().contains("[PE 1] bench shmem under launch"), "only rank 0 reports: " + s.out());
        final var shMetrics = new ObjectMapper().readTree(shmem.toFile())
            .get("metrics");
        for (final String key : List.of("aeron_ipc_shmem_put_latency_ns_8B", "aeron_ipc_shmem_put_bw_MBps_64KiB",
            "aeron_ipc_shmem_barrier_ns_2pe", "emulated_shmem_put_latency_ns_8B", "process_heap_put_latency_ratio_8B",
            "process_heap_get_latency_ratio_8B", "process_heap_fetch_add_latency_ratio",
            "process_heap_put_bw_arraycopy_ratio_1MiB", "process_heap_get_bw_arraycopy_ratio_1MiB",
            "process_get_latency_busy_target_ns_8B", "process_get_latency_busy_target_ratio")) {
            assertTrue(shMetrics.path(key).asDouble() > 0, key + " in " + shMetrics);
        }
        // The two processes share this host, so the symmetric objects in host memory (mallocSegment) are measured
        // too, on the direct path (until segments existed this test asked for these keys to be absent).
        assertEquals("direct", shMetrics.path("process_segment_path").asText(), shMetrics.toString());
        for (final String key : List.of("process_put_latency_ratio_8B", "process_get_latency_ratio_8B",
            "process_fetch_add_latency_ratio", "process_put_bw_arraycopy_ratio_1MiB",
            "process_get_bw_arraycopy_ratio_1MiB")) {
            assertTrue(shMetrics.path(key).asDouble() > 0, key + " in " + shMetrics);
        }
        assertTrue(s.out().contains("process_heap_get_latency_ratio_8B"), s.out());
        // MPI over the launched fabric: its allReduce sweep stops at the job's 2 PEs (a larger job used to leave one
        // process behind and hang the other), only rank 0 reports, and the JSON says which path it measured.
        final Path mpi = dir.resolve("mpi.json");
        final Run m = run("launch", "-n", "2", "--", "bench", "mpi", "--trials", "1", "--warmups", "0",
            "--round-trips", "100", "--mb-per-point", "1", "--json", mpi.toString());
        assertEquals(0, m.status(), m.out() + m.err());
        assertTrue(m.out().contains("[PE 0] bench mpi: 2 ranks over Aeron IPC"), m.out());
        assertFalse(m.out().contains("[PE 1] bench mpi"), "only rank 0 reports: " + m.out());
        final var mpiJson = new ObjectMapper().readTree(mpi.toFile());
        assertEquals("aeron_ipc", mpiJson.path("config").path("path").asText(), mpiJson.toString());
        assertEquals(2, mpiJson.path("config").path("max_ranks").asInt(), mpiJson.toString());
        assertTrue(mpiJson.path("metrics").path("mpi_bw_MBps_1MiB").asDouble() > 0, mpiJson.toString());
        assertTrue(mpiJson.path("metrics").path("allreduce_us_8B_4ranks").isMissingNode(), mpiJson.toString());
    }


    @Test
    void benchAllShouldRunUnderLaunchWithRankZeroWritingTheReport(@TempDir final Path dir) throws Exception {
        final Path out = dir.resolve("all");
        final Run r = run("launch", "-n", "2", "--", "bench", "all", "--out", out.toString(), "--trials", "1",
            "--warmups", "0", "--round-trips", "300", "--mb", "1", "--zone-cycles", "20000");
        assertEquals(0, r.status(), r.out() + r.err());
        assertFalse(r.out().contains("[PE 1] =="), "only rank 0 prints the commands: " + r.out());
        assertFalse(r.out().contains("[PE 1] bench ga:"), "only rank 0 reports: " + r.out());
        assertFalse(r.out().contains("[PE 1] wrote"), "only rank 0 writes files: " + r.out());
        final ObjectMapper mapper = new ObjectMapper();
        // The jobs ran between the processes; the fabric and the NIC's RDMA in rank 0's JVM, and each says so.
        for (final String bench : List.of("ga", "hydro", "mpi")) {
            final JsonNode j = mapper.readTree(out.resolve(bench + ".json").toFile());
            assertEquals("aeron_ipc", j.path("config").path("path").asText(), bench + ": " + j);
        }
        for (final String bench : List.of("fabric", "via")) {
            final JsonNode j = mapper.readTree(out.resolve(bench + ".json").toFile());
            assertEquals("emulated", j.path("config").path("path").asText(), bench + ": " + j);
        }
        assertTrue(r.out().contains("[PE 0] bench via under launch: it measures the emulated Myrinet of this process"),
            r.out());
        // Hydro ran on the launched job's 2 PEs only; the 1-PE references were left out, not faked.
        final JsonNode hydro = mapper.readTree(out.resolve("hydro.json").toFile()).path("metrics");
        assertTrue(hydro.path("sod_zone_cycles_per_second_per_pe_2pe").asDouble() > 0, hydro.toString());
        assertTrue(hydro.path("sod_zone_cycles_per_second_per_pe_1pe").isMissingNode(), hydro.toString());
        assertTrue(hydro.path("curvilinear_cost_ratio").isMissingNode(), hydro.toString());
        final String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("| Fast Messages over Aeron IPC (2 launched process(es)) |"), report);
        assertTrue(report.contains("| SHMEM put over Aeron IPC (2 launched process(es)) |"), report);
        assertFalse(report.contains("](fm.png)"), "no link to a plot bench fm did not draw under launch");
    }
}
