package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jhpvm.runtime.JobOptions;
import org.jhpvm.shmem.ShmemOption;
import org.junit.jupiter.api.Test;

/**
 * The documentation says what the code has, from the code's own lists: every module of the build is in the README's
 * and the design page's module tables, and every configuration key the parsers accept is in the README of the layer
 * that owns it, and its layer in {@code run --help} and the runtime README.
 */
class DocsTest {
    private static final Path ROOT = Path.of("..");
    /** The README that documents each layer's keys. */
    private static final Map<String, String> KEY_README = Map.of("shmem.", "shmem/README.md", "mpi.",
        "mpi/README.md", "fm.", "fm-transport/README.md", "fabric.", "fabric-emulator/README.md");

    private static String read(final String path) throws IOException {
        return Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
    }

    private static List<String> buildModules() throws IOException {
        final List<String> modules = new ArrayList<>();
        final Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(read("pom.xml"));
        while (m.find()) {
            modules.add(m.group(1));
        }
        return modules;
    }

    @Test
    void everyModuleOfTheBuildShouldBeInTheReadmeAndTheDesignPage() throws IOException {
        final List<String> modules = buildModules();
        assertTrue(modules.contains("mpi") && modules.size() >= 10, modules.toString());
        final String readme = read("README.md");
        final String design = read("docs/design.md");
        for (final String module : modules) {
            assertTrue(readme.contains("| **" + module + "** |") || readme.contains("| " + module + " |"),
                "README.md's tables lack module " + module);
            assertTrue(design.contains("| " + module + " |"), "docs/design.md's module table lacks " + module);
            assertTrue(design.contains(module), "docs/design.md's layer diagram lacks " + module);
        }
    }

    @Test
    void everyConfigurationKeyShouldBeDocumentedByItsLayerAndRun() throws IOException {
        final List<ShmemOption> keys = JobOptions.known();
        final String runHelp = help("run", "--help");
        final String runtimeReadme = read("runtime/README.md");
        final List<String> missing = new ArrayList<>();
        for (final ShmemOption o : keys) {
            final String key = o.key();
            final String prefix = key.substring(0, key.indexOf('.') + 1);
            final String name = key.substring(prefix.length());
            final String readme = read(KEY_README.get(prefix));
            if (!readme.contains("`" + key + "`") && !readme.contains("`" + name + "`")) {
                missing.add(key + " in " + KEY_README.get(prefix));
            }
            if (!runHelp.contains(prefix + "*")) {
                missing.add(prefix + "* in run --help");
            }
            if (!runtimeReadme.contains("`" + prefix + "*`")) {
                missing.add(prefix + "* in runtime/README.md");
            }
        }
        assertEquals(List.of(), missing.stream().distinct().toList());
    }

    private static synchronized String help(final String... args) {
        final PrintStream saved = System.out;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Main.execute(args);
        } finally {
            System.setOut(saved);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
