package org.jhpvm.fabric.aeron;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Jobs started by srun and mpirun without JHPVM_HOSTS or JHPVM_SECRET: hosts, job id and secret from the launcher. */
class LauncherEnvironmentTest {
    private static Map<String, String> srun(final int rank, final String... more) {
        final Map<String, String> env = new HashMap<>(Map.of("SLURM_PROCID", Integer.toString(rank), "SLURM_NTASKS",
            "5", "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "3", "SLURM_JOB_UID", "1000",
            "SLURM_STEP_NODELIST", "n[08-10]", "SLURM_STEP_TASKS_PER_NODE", "2(x2),1"));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    private static Map<String, String> mpirun(final int rank, final int size, final int localSize,
        final String jobId) {
        return Map.of("OMPI_COMM_WORLD_RANK", Integer.toString(rank), "OMPI_COMM_WORLD_SIZE", Integer.toString(size),
            "OMPI_COMM_WORLD_LOCAL_SIZE", Integer.toString(localSize), "OMPI_MCA_ess_base_jobid", jobId,
            "OMPI_MCA_orte_hnp_uri", jobId + ".0;tcp://192.0.2.2:40227");
    }

    @Test
    void shouldExpandSlurmsNodeListsAndTaskCounts() {
        assertEquals(List.of("n08", "n09", "n10", "gpu7"), LauncherEnvironment.expandNodeList("n[08-10],gpu7", "V"));
        assertEquals(List.of("a1", "a2", "a5", "b"), LauncherEnvironment.expandNodeList("a[1-2,5],b", "V"));
        assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2"), LauncherEnvironment.expandNodeList("r[1-2]n[1-2]", "V"));
        assertEquals(List.of("x099", "x100"), LauncherEnvironment.expandNodeList("x[099-100]", "V"));
        assertEquals(List.of(2, 2, 2, 1), LauncherEnvironment.tasksPerNode("2(x3),1", "V"));
        for (final String bad : new String[] {"n[1-", "n]1[", "n[3-1]", "n[a]", "a,,b"}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LauncherEnvironment.expandNodeList(bad, "SLURM_JOB_NODELIST"), bad);
            assertTrue(e.getMessage().startsWith("SLURM_JOB_NODELIST=" + bad), e.getMessage());
        }
        for (final String bad : new String[] {"2(x)", "0", "x", "2(x0)"}) {
            assertThrows(IllegalArgumentException.class, () -> LauncherEnvironment.tasksPerNode(bad, "V"), bad);
        }
    }

    @Test
    void srunWithoutHostsOrSecretShouldBeOneJobPlacedByBlock() {
        final JobEnvironment e = JobEnvironment.from(srun(2, "SLURM_NODEID", "1", "SLURM_LOCALID", "0")).orElseThrow();
        assertEquals(List.of("n08", "n08", "n09", "n09", "n10"), e.hosts());
        assertEquals(2, e.rank());
        assertEquals(5, e.processes());
        assertEquals("4242.3", e.jobId());
        assertEquals(List.of(3), e.hostPeers());
        // Every rank derives the same secret; another step, another job or another user derives another.
        final JobEnvironment r4 = JobEnvironment.from(srun(4)).orElseThrow();
        assertEquals(new String(e.secret()), new String(r4.secret()));
        assertTrue(e.secret().length >= JobEnvironment.MIN_SECRET_BYTES);
        for (final String[] other : new String[][] {{"SLURM_STEP_ID", "4"}, {"SLURM_JOB_ID", "4243"},
            {"SLURM_JOB_UID", "1001"}}) {
            assertNotEquals(new String(e.secret()), new String(JobEnvironment.from(srun(2, other)).orElseThrow()
                .secret()), other[0]);
        }
        // Given ones win.
        final JobEnvironment given = JobEnvironment.from(srun(1, "JHPVM_SECRET", "0123456789abcdef", "JHPVM_HOSTS",
            "h:5")).orElseThrow();
        assertEquals("0123456789abcdef", new String(given.secret()));
        assertEquals(List.of("h", "h", "h", "h", "h"), given.hosts());
    }

    @Test
    void srunPlacementsOtherThanBlockShouldBeRefusedNamingTheVariable() {
        final IllegalArgumentException cyclic = assertThrows(IllegalArgumentException.class,
            () -> JobEnvironment.from(srun(0, "SLURM_DISTRIBUTION", "cyclic")));
        assertTrue(cyclic.getMessage().contains("SLURM_DISTRIBUTION=cyclic"), cyclic.getMessage());
        final IllegalArgumentException moved = assertThrows(IllegalArgumentException.class,
            () -> JobEnvironment.from(srun(2, "SLURM_NODEID", "2")));
        assertTrue(moved.getMessage().contains("SLURM_NODEID=2"), moved.getMessage());
        final IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
            () -> JobEnvironment.from(srun(0, "SLURM_STEP_TASKS_PER_NODE", "2(x3)")));
        assertTrue(size.getMessage().contains("names 3 nodes but") || size.getMessage().contains("job size mismatch"),
            size.getMessage());
        assertEquals(List.of("n08", "n08", "n09", "n09", "n10"),
            JobEnvironment.from(srun(0, "SLURM_DISTRIBUTION", "block:cyclic")).orElseThrow().hosts());
    }

    @Test
    void mpirunOnOneHostShouldBeOneJobWithoutHostsOrSecret() {
        final JobEnvironment e = JobEnvironment.from(mpirun(1, 3, 3, "1512439809")).orElseThrow();
        assertEquals(List.of("localhost", "localhost", "localhost"), e.hosts());
        assertEquals("ompi-1512439809", e.jobId());
        assertEquals(new String(e.secret()), new String(JobEnvironment.from(mpirun(0, 3, 3, "1512439809"))
            .orElseThrow().secret()));
        assertNotEquals(new String(e.secret()), new String(JobEnvironment.from(mpirun(1, 3, 3, "1512439810"))
            .orElseThrow().secret()));
        final IllegalArgumentException spans = assertThrows(IllegalArgumentException.class,
            () -> JobEnvironment.from(mpirun(1, 4, 2, "7")));
        assertTrue(spans.getMessage().startsWith("JHPVM_HOSTS is not set and this mpirun job spans several hosts"),
            spans.getMessage());
        // Open MPI 5's PMIx namespace ("prterun-HOST-PID@1") names the job when the ess job id is missing.
        final JobEnvironment pmix = JobEnvironment.from(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE",
            "2", "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "PMIX_NAMESPACE", "prterun-" + "h".repeat(80) + "-99@1"))
            .orElseThrow();
        assertTrue(pmix.jobId().matches("ompi-[A-Za-z0-9._-]{1,59}"), pmix.jobId());
        final Map<String, String> withHosts = new HashMap<>(mpirun(1, 4, 2, "7"));
        withHosts.put("JHPVM_HOSTS", "a:2,b:2");
        assertEquals(List.of("a", "a", "b", "b"), JobEnvironment.from(withHosts).orElseThrow().hosts());
    }

    @Test
    void aSingleProcessOrAnUnnamedJobShouldStayAPlainRun() {
        assertTrue(JobEnvironment.from(mpirun(0, 1, 1, "5")).isEmpty(), "mpirun -np 1 runs as one JVM");
        assertTrue(JobEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1", "SLURM_JOB_ID", "9"))
            .isEmpty(), "srun -n 1 runs as one JVM");
        assertTrue(JobEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2")).isEmpty(),
            "no job id to derive a secret from");
        assertTrue(JobEnvironment.from(Map.of("PMI_RANK", "0", "PMI_SIZE", "2")).isEmpty(),
            "a PMI launcher names no job: it needs JHPVM_SECRET");
    }
}
