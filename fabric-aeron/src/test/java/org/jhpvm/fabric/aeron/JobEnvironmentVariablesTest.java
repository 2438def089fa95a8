package org.jhpvm.fabric.aeron;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link JobEnvironment#variables()} lists exactly what {@link JobEnvironment#from} reads, and its defaults. */
class JobEnvironmentVariablesTest {
    /** An environment that remembers every name asked for. */
    private static final class Recording extends HashMap<String, String> {
        private static final long serialVersionUID = 1L;
        final Set<String> read = new LinkedHashSet<>();

        Recording(final Map<String, String> values) {
            super(values);
        }

        @Override
        public String get(final Object key) {
            read.add((String) key);
            return super.get(key);
        }

        @Override
        public String getOrDefault(final Object key, final String dflt) {
            read.add((String) key);
            return super.getOrDefault(key, dflt);
        }
    }

    @Test
    void shouldListEveryVariableReadAndReadEveryVariableListed() {
        final Set<String> read = new LinkedHashSet<>();
        // jhpvm's own launcher, then srun, Open MPI's and a PMI launcher, with and without our variables: together
        // they reach every branch.
        for (final Map<String, String> env : new Map[] {
            Map.of("JHPVM_RANK", "0", "JHPVM_PROCESSES", "1", "JHPVM_SECRET", "0123456789abcdef"),
            Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1", "SLURM_JOB_ID", "7", "JHPVM_SECRET", "0123456789abcdef"),
            Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "1", "JHPVM_SECRET", "0123456789abcdef"),
            Map.of("PMI_RANK", "0", "PMI_SIZE", "1", "JHPVM_SECRET", "0123456789abcdef"),
            // srun and mpirun without our secret or hosts: the launcher's placement and job identity.
            Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "7", "SLURM_JOB_NODELIST", "n[1-2]",
                "SLURM_TASKS_PER_NODE", "1(x2)", "SLURM_DISTRIBUTION", "block", "SLURM_NODEID", "0", "SLURM_LOCALID",
                "0"),
            Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2", "OMPI_COMM_WORLD_LOCAL_SIZE", "2",
                "PMIX_NAMESPACE", "42"),
            Map.of()}) {
            final Recording r = new Recording(env);
            JobEnvironment.from(r);
            read.addAll(r.read);
        }
        final Set<String> listed = new LinkedHashSet<>();
        for (final JobEnvironment.Variable v : JobEnvironment.variables()) {
            assertTrue(listed.add(v.name()), "listed twice: " + v.name());
            assertTrue(!v.meaning().isBlank(), v.name());
        }
        assertEquals(listed, read);
    }

    @Test
    void shouldListTheDefaultsFromUses() {
        final JobEnvironment e = JobEnvironment.from(Map.of("JHPVM_RANK", "0", "JHPVM_PROCESSES", "1",
            "JHPVM_SECRET", "0123456789abcdef")).orElseThrow();
        final Map<String, String> defaults = new HashMap<>();
        JobEnvironment.variables().forEach(v -> defaults.put(v.name(), v.defaultValue()));
        assertEquals(Integer.toString(e.basePort()), defaults.get("JHPVM_PORT"));
        assertEquals(Long.toString(e.heartbeatTimeoutMs()), defaults.get("JHPVM_HEARTBEAT_TIMEOUT_MS"));
        assertEquals(Long.toString(e.joinTimeoutMs()), defaults.get("JHPVM_JOIN_TIMEOUT_MS"));
        assertEquals(Integer.toString(e.pesPerProcess()), defaults.get("JHPVM_PES_PER_PROCESS"));
        assertEquals(e.hosts().get(0), defaults.get("JHPVM_HOSTS"));
        assertEquals(e.udpOnly() ? "udp" : "auto", defaults.get("JHPVM_TRANSPORT"));
    }
}
