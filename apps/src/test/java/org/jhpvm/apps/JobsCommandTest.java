package org.jhpvm.apps;

import static org.jhpvm.apps.Commands.run;
import static org.jhpvm.apps.Commands.runWithErrors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jhpvm.apps.Commands.Run;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code jhpvm jobs} and {@code jhpvm bench dcs}: jobs sharing the cores, each policy, failures kept apart. */
@Timeout(300)
class JobsCommandTest {
    @Tag("soak")
    @Test
    void jobsShouldRunEachJobAloneAndTogetherUnderEveryPolicy(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("jobs.json");
        final Run r = run("jobs", "hydro sod --pes 2 --zones 64", "ring --pes 3 --laps 20", "--json",
            json.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode root = new ObjectMapper().readTree(json.toFile());
        for (final String policy : new String[] {"none", "dcs", "gang"}) {
            final JsonNode p = root.get("policies").get(policy);
            assertTrue(p.get("succeeded").asBoolean(), policy);
            assertEquals(2, p.get("jobs").size());
            double max = 0;
            for (final JsonNode j : p.get("jobs")) {
                assertEquals(0, j.get("exit_alone").asInt());
                assertEquals(0, j.get("exit_together").asInt());
                assertTrue(j.get("alone_seconds").asDouble() > 0 && j.get("together_seconds").asDouble() > 0);
                assertEquals(j.get("together_seconds").asDouble() / j.get("alone_seconds").asDouble(),
                    j.get("slowdown").asDouble(), 1e-9);
                max = Math.max(max, j.get("slowdown").asDouble());
            }
            assertEquals(max, root.get("metrics").get(policy + "_slowdown_max").asDouble(), 1e-12);
            // Both jobs on the shared fabric, on as many nodes as they have PEs (which nodes depends on which job
            // started first, and on whether the short ring was over before the other began).
            final JsonNode jobs = p.get("jobs");
            assertEquals(1, jobs.get(0).get("nodes_together").size(), jobs.toString());
            assertEquals(2, nodes(jobs.get(0).get("nodes_together").get(0).asText()).size(), jobs.toString());
            assertEquals(3, nodes(jobs.get(1).get("nodes_together").get(0).asText()).size(), jobs.toString());
            assertTrue(nodes(jobs.get(1).get("nodes_together").get(0).asText()).stream().allMatch(n -> n < 5));
        }
        assertTrue(r.out().contains("dcs_slowdown_max"), r.out());
        assertFalse(r.out().contains("sod: L1"), "the jobs' own output is not mixed into the table");
    }

    @Test
    void aJobThatFailsShouldEndAloneAndTheOthersFinish(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("jobs.json");
        // gups refuses 3 PEs (a power of two); the hydro job beside it must still finish, with its own result.
        final Run r = runWithErrors("jobs", "--scheduling", "dcs", "gups --pes 3", "hydro sod --pes 2 --zones 64",
            "--json", json.toString());
        assertEquals(1, r.exitCode(), r.out());
        final JsonNode jobs = new ObjectMapper().readTree(json.toFile()).get("policies").get("dcs").get("jobs");
        assertEquals(2, jobs.get(0).get("exit_together").asInt());
        assertEquals(0, jobs.get(1).get("exit_alone").asInt());
        assertEquals(0, jobs.get(1).get("exit_together").asInt());
        assertTrue(r.out().contains("a job failed") && r.out().contains("power of two"), r.out());
    }

    /** The nodes of "nodes a-b" or "node a". */
    private static Set<Integer> nodes(final String range) {
        final String[] words = range.split(" ");
        final String[] ends = words[1].split("-");
        final Set<Integer> set = new HashSet<>();
        for (int i = Integer.parseInt(ends[0]); i <= Integer.parseInt(ends[ends.length - 1]); i++) {
            set.add(i);
        }
        return set;
    }

    @Test
    void aJobThatFindsTooFewFreeNodesShouldFailAloneAndTheOtherFinish(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("jobs.json");
        // Each job fits the 3 nodes alone; together the one that comes second finds 1 free and fails alone. (Both
        // hold their nodes for most of a second, against the few milliseconds between their starts.)
        final Run r = runWithErrors("jobs", "--scheduling", "none", "--nodes", "3", "hydro sod --pes 2 --zones 400",
            "hydro sod --pes 2 --zones 400 --x0 0.4", "--json", json.toString());
        assertEquals(1, r.exitCode(), r.out());
        final JsonNode p = new ObjectMapper().readTree(json.toFile()).get("policies").get("none");
        assertEquals(3, p.get("fabric_nodes").asInt());
        int failed = 0;
        for (final JsonNode j : p.get("jobs")) {
            assertEquals(0, j.get("exit_alone").asInt(), j.toString());
            if (j.get("exit_together").asInt() != 0) {
                failed++;
                assertEquals(0, j.get("nodes_together").size(), j.toString());
            } else {
                assertEquals("nodes 0-1", j.get("nodes_together").get(0).asText(), j.toString());
            }
        }
        assertEquals(1, failed, p.toString());
        assertTrue(r.out().contains("does not fit on the shared fabric: 1 of its 3 nodes are free"), r.out());
        final Run bad = runWithErrors("jobs", "--nodes", "0", "hydro sod --pes 2");
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.out().contains("--nodes 0: the shared fabric has 1 to 65536 nodes"), bad.out());
    }

    @Test
    void aJobWithTheLargestFramesShouldFitTheSharedFabricBesideAnother(@TempDir final Path dir) throws Exception {
        // The shared switch carries any frame a node may have, as Myrinet's cut-through crossbar did: a job that asks
        // for 1 MiB frames runs beside one with the default frames.
        final Path json = dir.resolve("jobs.json");
        final Run r = run("jobs", "--scheduling", "none", "--nodes", "4", "fabric --pes 2 --frame-bytes 1048576 "
            + "--frames 20", "hello --pes 2", "--json", json.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode jobs = new ObjectMapper().readTree(json.toFile()).get("policies").get("none").get("jobs");
        for (final JsonNode j : jobs) {
            assertEquals(0, j.get("exit_together").asInt(), j.toString());
            assertEquals(1, j.get("nodes_together").size(), j.toString());
        }
    }

    @Test
    void jobsShouldRefuseACommandThatIsNotAJobOfThisJvmBeforeRunningAnything(@TempDir final Path dir) {
        final Path json = dir.resolve("never.json");
        final Run r = runWithErrors("jobs", "hydro sod --pes 2", "launch -n 2 -- hydro sod", "--json",
            json.toString());
        assertEquals(2, r.exitCode(), r.out());
        assertTrue(r.out().contains("job 'launch -n 2 -- hydro sod': a command of"), r.out());
        assertFalse(Files.exists(json));
        final Run bad = runWithErrors("jobs", "--scheduling", "fair", "hydro sod --pes 2");
        assertEquals(2, bad.exitCode(), bad.out());
        assertTrue(bad.out().contains("'fair' is not a scheduling policy"), bad.out());
    }

    @Test
    void benchDcsShouldWriteTheContractKeys(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("dcs.json");
        final Run r = run("bench", "dcs", "--zones", "8", "--pes", "2", "--jacobi-n", "16", "--gups-log-size", "10",
            "--idle-pes", "3", "--idle-ms", "300", "--trials", "2", "--json", json.toString());
        assertEquals(0, r.exitCode(), r.out());
        final JsonNode m = new ObjectMapper().readTree(json.toFile()).get("metrics");
        CommandLineTest.assertTargetsReported("dcs", m);
        final JsonNode rounds = m.get("dcs_slowdown_max_rounds");
        assertEquals(2, rounds.size());
        // The figure is the median round's: of two, the lower.
        assertEquals(Math.min(rounds.get(0).asDouble(), rounds.get(1).asDouble()),
            m.get("dcs_slowdown_max").asDouble());
        for (final String key : new String[] {"dcs_slowdown_max", "none_slowdown_max", "gang_slowdown_max",
            "dcs_slowdown_max_mixed", "idle_job_core_fraction"}) {
            assertTrue(m.has(key) && m.get(key).asDouble() > 0, key + " = " + m.get(key));
        }
        assertTrue(m.get("idle_cpu_fraction_waiting").asDouble() >= 0);
        final double perWaitingPe = m.get("idle_cpu_fraction_waiting").asDouble();
        assertTrue(m.get("idle_job_core_fraction").asDouble() >= perWaitingPe * 2 - 1e-9, "the job holds its 2 "
            + "waiting PEs");
        assertTrue(r.out().contains("dcs_slowdown_max") && r.out().contains("idle_cpu_fraction_waiting"), r.out());
    }
}
