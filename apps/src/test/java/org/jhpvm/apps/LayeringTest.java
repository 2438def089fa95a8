package org.jhpvm.apps;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build enforces the layering: a module that requires the layer below (shmem requires fm) cannot use a class
 * two layers down (the fabric). Compiles a probe module against the real layer modules, as the build would.
 */
class LayeringTest {
    private static final String USES_FRAME = "package org.jhpvm.probe;\n"
        + "final class Probe {\n    org.jhpvm.fabric.Frame frame;\n}\n";

    @Test
    void aLayerShouldNotSeeClassesTwoLayersDown(@TempDir final Path dir) throws IOException {
        final StringWriter errors = new StringWriter();
        final int code = compileProbe(dir.resolve("above-shmem"), "org.jhpvm.shmem", errors);
        assertNotEquals(0, code, "a module requiring shmem compiled against org.jhpvm.fabric");
        assertTrue(errors.toString().contains("package org.jhpvm.fabric is not visible"), errors.toString());
    }

    @Test
    void theLayerDirectlyBelowShouldBeVisible(@TempDir final Path dir) throws IOException {
        final StringWriter errors = new StringWriter();
        assertEquals(0, compileProbe(dir.resolve("above-fabric"), "org.jhpvm.fabric", errors), errors.toString());
    }

    private static int compileProbe(final Path dir, final String requires, final StringWriter errors)
        throws IOException {
        final Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("org/jhpvm/probe"));
        Files.writeString(src.resolve("module-info.java"), "module org.jhpvm.probe { requires " + requires + "; }\n");
        Files.writeString(src.resolve("org/jhpvm/probe/Probe.java"), USES_FRAME);
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final List<String> args = new ArrayList<>(List.of("--module-path", layerModulePath(), "-d",
            dir.resolve("out").toString(), src.resolve("module-info.java").toString(),
            src.resolve("org/jhpvm/probe/Probe.java").toString()));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int code = javac.run(null, out, out, args.toArray(String[]::new));
        errors.write(out.toString(StandardCharsets.UTF_8));
        return code;
    }

    /** The layer modules and the libraries they read, from this test's class path. */
    private static String layerModulePath() {
        final String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
        final List<String> wanted = List.of("fabric-emulator", "fm-transport", "shmem", "jctools",
            "eclipse-collections");
        final String path = Arrays.stream(entries)
            .filter(e -> wanted.stream().anyMatch(e::contains))
            .collect(Collectors.joining(File.pathSeparator));
        assertTrue(path.contains("fabric-emulator") && path.contains("shmem"), "layer modules not found in "
            + System.getProperty("java.class.path"));
        return path;
    }
}
