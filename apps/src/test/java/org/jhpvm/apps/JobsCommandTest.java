package org.jhpvm.apps;

import static org.jhpvm.apps.Commands.run;
import static org.jhpvm.apps.Commands.runWithErrors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jhpvm.apps.Commands.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code jhpvm jobs} and {@code jhpvm bench dcs}: jobs sharing the cores, each policy, failures kept apart. */
@Timeout(300)
class JobsCommandTest {
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
