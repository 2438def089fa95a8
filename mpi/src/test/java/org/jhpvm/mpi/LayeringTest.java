package org.jhpvm.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/**
 * The layering the build enforces: mpi reads Fast Messages only (not SHMEM, not the fabric), and passes nothing
 * below on to its users (no {@code requires transitive}).
 */
class LayeringTest {
    @Test
    void mpiRequiresOnlyTheFastMessagesLayer() {
        final ModuleDescriptor d = MpiJob.class.getModule().getDescriptor();
        assertNotNull(d, "the tests did not run on the module path");
        assertEquals("org.jhpvm.mpi", d.name());
        final Set<String> requires = new TreeSet<>();
        for (final ModuleDescriptor.Requires r : d.requires()) {
            requires.add(r.name());
            assertTrue(!r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE) || r.name().equals(
                "java.base"), r + " is transitive");
        }
        assertEquals(Set.of("java.base", "org.jhpvm.fm"), requires);
        assertEquals(Set.of("mpi", "org.jhpvm.mpi", "org.jhpvm.mpi.pvm"), new TreeSet<>(d.exports().stream()
            .map(ModuleDescriptor.Exports::source).toList()));
    }
}
