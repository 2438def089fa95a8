package org.jhpvm.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * No import circles across packages: the classes of every module's main sources, with an edge from a class to each
 * class it names (imported, fully qualified, or by simple name in its own package), have no cycle that spans two
 * packages (a package's classes may use each other; a package below must not reach back into the one above through
 * any chain). Reads the sources, as a reviewer would.
 */
class ImportCirclesTest {
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\b((?:org\\.jhpvm|mpi)(?:\\.[a-z]\\w*)*\\.[A-Z]\\w*)");
    private static final Pattern TYPE_NAME = Pattern.compile("\\b[A-Z]\\w*\\b");

    @Test
    void noCycleOfClassesShouldSpanTwoPackages() throws IOException {
        final Map<String, String> sources = new HashMap<>(); // class -> code without comments and strings
        final Map<String, Set<String>> packages = new HashMap<>(); // package -> simple names
        final Path root = Path.of("..").toAbsolutePath().normalize();
        try (Stream<Path> modules = Files.list(root)) {
            for (final Path module : modules.toList()) {
                final Path src = module.resolve("src/main/java");
                if (!Files.isDirectory(src)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(src)) {
                    files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"))
                        .forEach(f -> read(f, sources, packages));
                }
            }
        }
        assertTrue(sources.size() > 300, "found the sources under " + root + ": " + sources.size() + " classes");
        final Map<String, Set<String>> uses = new HashMap<>();
        for (final Map.Entry<String, String> e : sources.entrySet()) {
            uses.put(e.getKey(), references(e.getKey(), e.getValue(), sources.keySet(), packages));
        }
        final List<Set<String>> crossing = new ArrayList<>();
        for (final Set<String> component : stronglyConnected(uses)) {
            final Set<String> pkgs = new TreeSet<>();
            component.forEach(c -> pkgs.add(packageOf(c)));
            if (pkgs.size() > 1) {
                crossing.add(new TreeSet<>(component));
            }
        }
        assertEquals(List.of(), crossing, "classes whose uses form a circle across packages");
    }

    private static void read(final Path file, final Map<String, String> sources,
        final Map<String, Set<String>> packages) {
        final String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final Matcher m = PACKAGE.matcher(text);
        if (!m.find()) {
            return;
        }
        final String name = file.getFileName().toString().replace(".java", "");
        String code = text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
        code = code.replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
        sources.put(m.group(1) + "." + name, code);
        packages.computeIfAbsent(m.group(1), k -> new HashSet<>()).add(name);
    }

    private static Set<String> references(final String self, final String code, final Set<String> known,
        final Map<String, Set<String>> packages) {
        final String pkg = packageOf(self);
        final Map<String, String> imported = new HashMap<>();
        final Matcher imp = IMPORT.matcher(code);
        while (imp.find()) {
            final String fq = imp.group(1);
            imported.put(fq.substring(fq.lastIndexOf('.') + 1), fq);
        }
        final String body = code.replaceAll("(?m)^import .*;$", "");
        final Set<String> out = new HashSet<>();
        final Matcher q = QUALIFIED.matcher(body);
        while (q.find()) {
            if (known.contains(q.group(1))) {
                out.add(q.group(1));
            }
        }
        final Matcher t = TYPE_NAME.matcher(body);
        while (t.find()) {
            final String simple = t.group();
            final String fq = imported.get(simple);
            if (fq != null && known.contains(fq)) {
                out.add(fq);
            } else if (packages.get(pkg).contains(simple)) {
                out.add(pkg + "." + simple);
            }
        }
        out.remove(self);
        return out;
    }

    private static String packageOf(final String fq) {
        return fq.substring(0, fq.lastIndexOf('.'));
    }

    /** Tarjan's strongly connected components, iterative (the graph has hundreds of classes). */
    private static List<Set<String>> stronglyConnected(final Map<String, Set<String>> graph) {
        final Map<String, Integer> index = new HashMap<>();
        final Map<String, Integer> low = new HashMap<>();
        final Deque<String> stack = new ArrayDeque<>();
        final Set<String> onStack = new HashSet<>();
        final List<Set<String>> result = new ArrayList<>();
        int next = 0;
        for (final String start : graph.keySet()) {
            if (index.containsKey(start)) {
                continue;
            }
            final Deque<Object[]> work = new ArrayDeque<>(); // {node, iterator of its successors}
            index.put(start, next);
            low.put(start, next++);
            stack.push(start);
            onStack.add(start);
            work.push(new Object[] {start, new ArrayList<>(graph.getOrDefault(start, Set.of())).iterator()});
            while (!work.isEmpty()) {
                final Object[] frame = work.peek();
                final String v = (String) frame[0];
                @SuppressWarnings("unchecked")
                final java.util.Iterator<String> it = (java.util.Iterator<String>) frame[1];
                if (it.hasNext()) {
                    final String w = it.next();
                    if (!index.containsKey(w)) {
                        index.put(w, next);
                        low.put(w, next++);
                        stack.push(w);
                        onStack.add(w);
                        work.push(new Object[] {w, new ArrayList<>(graph.getOrDefault(w, Set.of())).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    final String parent = (String) work.peek()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    final Set<String> component = new HashSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    result.add(component);
                }
            }
        }
        return result;
    }
}
