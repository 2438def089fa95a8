package org.jhpvm.apps.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The start of a command line for a child JVM like this one: the same java and JVM options (agents left out). */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * A new, mutable command line that starts a JVM configured like this one: its {@code java} binary and the JVM
     * options it was started with, less agents ({@code -agentlib}, {@code -javaagent}, {@code -Xrunjdwp}).
     *
     * @return this JVM's java binary and its JVM options, to which the caller adds -cp and the main class
     */
    public static List<String> command() {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib") && !a.startsWith("-javaagent") && !a.startsWith("-Xrunjdwp")) {
                cmd.add(a);
            }
        }
        return cmd;
    }
}
