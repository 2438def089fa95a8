package org.jhpvm.apps;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jhpvm.fabric.aeron.JobEnvironment;
import org.jhpvm.runtime.JobOptions;
import org.jhpvm.shmem.ShmemOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jhpvm info}: what it says is what the code accepts. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InfoTest {
    @Test
    void shouldTellVersionApisModulesAndFabrics(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("info.json");
        assertEquals(0, Main.execute("info", "--json", json.toString()));
        final JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertTrue(root.get("version").asText().matches("\\d+\\.\\d+\\.\\d+.*"), root.get("version").asText());
        assertEquals(1, root.get("openshmem").get("major").asInt());
        assertEquals(5, root.get("openshmem").get("minor").asInt());
        assertTrue(root.get("apis").has("global_arrays") && root.get("apis").has("mpi"));
        assertTrue(root.get("apis").get("mpi").asText().startsWith("MPI-FM: the Open MPI Java bindings' API"),
            root.get("apis").get("mpi").asText());
        final List<String> fabrics = new ArrayList<>();
        root.get("fabrics").forEach(f -> fabrics.add(f.get("name").asText()));
        assertEquals(List.of("emulated-myrinet", "aeron", "virtual-myrinet"), fabrics);
        // the virtual-time fabric carries RDMA in frames; info --all lists its machines and their switches
        assertFalse(root.get("fabrics").get(2).get("rdma").asBoolean());
        assertTrue(root.get("fabrics").get(1).get("buffered").asBoolean());
        assertFalse(root.get("fabrics").get(0).get("buffered").asBoolean());
        // the emulated NIC does RDMA and runs handlers; Aeron does neither (FM's messages stand in)
        assertTrue(root.get("fabrics").get(0).get("rdma").asBoolean());
        assertTrue(root.get("fabrics").get(0).get("nic_handlers").asBoolean());
        assertFalse(root.get("fabrics").get(1).get("rdma").asBoolean());
        // The build's tests run with native access: the Aeron fabric's waiting threads use futex doorbells.
        assertTrue(root.get("fabrics").get(1).get("waiting").asText().startsWith("futex doorbells"),
            root.get("fabrics").get(1).toString());
        assertFalse(root.get("fabrics").get(0).has("waiting"), "one JVM: nothing is woken across processes");
        assertFalse(root.get("fabrics").get(1).get("nic_handlers").asBoolean());
        assertEquals(8, root.get("modules").size());
        assertFalse(root.has("options"), "keys only with --all");
    }

    @Test
    void shouldListExactlyTheKeysTheCodeAcceptsAndEveryVariable(@TempDir final Path dir) throws Exception {
        final Path json = dir.resolve("info.json");
        assertEquals(0, Main.execute("info", "--all", "--json", json.toString()));
        final JsonNode root = new ObjectMapper().readTree(json.toFile());
        final Set<String> listed = new LinkedHashSet<>();
        for (final JsonNode o : root.get("options")) {
            final String key = o.get("key").asText();
            listed.add(key);
            // every listed key is accepted, with the default it lists
            assertEquals(o.get("default").asText(), JobOptions.parse(List.of(key + "=" + o.get("default").asText()))
                .values().get(key));
        }
        final Set<String> accepted = new LinkedHashSet<>();
        for (final ShmemOption o : JobOptions.known()) {
            accepted.add(o.key());
        }
        assertEquals(accepted, listed, "every key the parsers accept is listed");
        // the virtual clock's machines, each with its switches as the machine file has them
        final List<String> machines = new ArrayList<>();
        root.get("machines").forEach(m -> machines.add(m.get("name").asText()));
        assertEquals(org.jhpvm.fabric.timing.MachineFiles.BUNDLED, machines);
        assertTrue(root.get("machines").get(0).get("switches").get("lcp").asText().startsWith("streamed|baseline"),
            root.get("machines").get(0).toString());
        final Set<String> env = new LinkedHashSet<>();
        root.get("environment").forEach(v -> env.add(v.get("name").asText()));
        for (final JobEnvironment.Variable v : JobEnvironment.variables()) {
            assertTrue(env.contains(v.name()), v.name());
        }
        assertTrue(env.contains("JHPVM_JAVA_OPTS") && env.contains("JHPVM_DEBUG"));
    }
}
