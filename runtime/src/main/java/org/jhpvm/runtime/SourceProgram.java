package org.jhpvm.runtime;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import javax.lang.model.element.Name;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;

/**
 * A program given as a Java source file, compiled in memory as Java's source launcher does it (JEP 330, with the
 * multi-file programs of JEP 458 and the compact source files of JEP 512): the class to launch is the first
 * top-level class of the file; other classes of the program are found in source files under the file's root
 * directory (its directory, less the package's directories) and compiled when first needed, whether the compiler
 * meets them while compiling a file or a PE's class loader asks for them at run time. The program's class path
 * (libraries) and jhpvm's own classes are on the compiler's class path.
 * <p>
 * The class files are kept once and defined once per PE by each {@link PeClassLoader}. Thread-safe: compilation
 * on demand is serialized on this object.
 */
final class SourceProgram {
    private final JavaCompiler compiler;
    private final Path root;
    private final String classPath;
    private final String mainClass;
    private final CodeSource codeSource;
    private final Map<String, byte[]> classes = new HashMap<>();
    private final Set<Path> compiled = new HashSet<>();

    private SourceProgram(final JavaCompiler compiler, final Path file, final String classPath) throws IOException {
        this.compiler = compiler;
        this.classPath = classPath;
        this.codeSource = new CodeSource(file.toUri().toURL(), (Certificate[]) null);
        // Parsed alone first: the package gives the root of the source tree, which the compilation needs.
        final JavacTask parse = (JavacTask) compiler.getTask(null, null, d -> { }, List.of("-proc:none"), null,
            compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8).getJavaFileObjects(file));
        final CompilationUnitTree unit = parse.parse().iterator().next();
        final String pkg = unit.getPackageName() == null ? "" : unit.getPackageName().toString();
        this.root = rootOf(file, pkg);
        this.mainClass = firstTopLevelClass(unit, pkg, file);
        compile(file); // syntax errors are reported from here, with their lines
        if (mainClass == null) {
            throw new ProgramException(file + ": no class to launch: the file declares no top-level class");
        }
    }

    /**
     * Compiles a program's main source file (and the files it needs).
     *
     * @param file      the source file
     * @param classPath the compiler's class path: the program's libraries, then jhpvm's classes
     * @return the compiled program
     * @throws ProgramException         if it does not compile (the compiler's errors, with files and lines)
     * @throws IllegalArgumentException if the file cannot be read, or this Java has no compiler
     */
    static SourceProgram compile(final Path file, final String classPath) {
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalArgumentException("this Java runtime has no compiler (java.compiler): run source "
                + "programs with a JDK");
        }
        final Path abs = file.toAbsolutePath().normalize();
        try {
            return new SourceProgram(compiler, abs, classPath);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** @return the binary name of the class to launch: the first top-level class of the main file */
    String mainClass() {
        return mainClass;
    }

    /** @return where the program's classes come from, for their protection domain */
    CodeSource codeSource() {
        return codeSource;
    }

    /**
     * The class file of one of the program's classes, compiling its source file first if it has not been yet.
     *
     * @param binaryName the class's binary name ({@code a.b.Outer$Inner})
     * @return its class file, or null if the program has no such class
     * @throws ProgramException if its source file does not compile
     */
    synchronized byte[] classBytes(final String binaryName) {
        byte[] bytes = classes.get(binaryName);
        if (bytes != null) {
            return bytes;
        }
        final int nested = binaryName.indexOf('$');
        final String topLevel = nested < 0 ? binaryName : binaryName.substring(0, nested);
        final Path source = root.resolve(topLevel.replace('.', '/') + ".java");
        if (compiled.contains(source) || !Files.isRegularFile(source)) {
            return null;
        }
        try {
            compile(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return classes.get(binaryName);
    }

    /** Compiles one file (and the sources it refers to), keeping the classes not compiled before. */
    private void compile(final Path file) throws IOException {
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        final StandardJavaFileManager standard = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
            StandardCharsets.UTF_8);
        final Map<String, ByteArrayOutputStream> out = new HashMap<>();
        try (JavaFileManager files = new MemoryOutput(standard, out)) {
            final List<String> options = List.of("-proc:none", "-implicit:class", "-g", "-encoding", "UTF-8",
                "--source-path", root.toString(), "-classpath", classPath);
            final JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostics, options, null,
                standard.getJavaFileObjects(file));
            if (!task.call()) {
                throw new ProgramException(errors(diagnostics));
            }
            compiled.add(file);
            out.forEach((name, bytes) -> classes.putIfAbsent(name, bytes.toByteArray()));
        }
    }

    private static String firstTopLevelClass(final CompilationUnitTree unit, final String pkg, final Path file) {
        final String prefix = pkg.isEmpty() ? "" : pkg + ".";
        for (final Tree t : unit.getTypeDecls()) {
            if (t instanceof ClassTree c) {
                final Name name = c.getSimpleName();
                // A compact source file's implicit class is named after the file (JEP 512).
                return prefix + (name.isEmpty() ? stem(file) : name.toString());
            }
        }
        return unit.getTypeDecls().isEmpty() ? null : prefix + stem(file);
    }

    private static String stem(final Path file) {
        final String n = file.getFileName().toString();
        return n.endsWith(".java") ? n.substring(0, n.length() - 5) : n;
    }

    /** The root of the program's source tree: the file's directory less its package's directories (JEP 458). */
    private static Path rootOf(final Path file, final String pkg) {
        Path dir = file.getParent();
        if (pkg.isEmpty()) {
            return dir;
        }
        final String[] parts = pkg.split("\\.");
        for (int i = parts.length - 1; i >= 0; i--) {
            if (dir == null || dir.getFileName() == null || !dir.getFileName().toString().equals(parts[i])) {
                throw new IllegalArgumentException(file + " declares package " + pkg + " but is not in a directory "
                    + pkg.replace('.', '/') + " (the source launcher's rule: the path ends with the package)");
            }
            dir = dir.getParent();
        }
        return dir;
    }

    /** The compiler's errors as javac prints them: {@code File.java:12: error: message}, the line and a caret. */
    private static String errors(final DiagnosticCollector<JavaFileObject> diagnostics) {
        final StringBuilder sb = new StringBuilder();
        int count = 0;
        for (final Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            count++;
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(d);
        }
        sb.append('\n').append(count).append(count == 1 ? " error" : " errors");
        return sb.toString();
    }

    /** Keeps every class file the compiler writes in memory; everything else goes to the standard manager. */
    private static final class MemoryOutput extends ForwardingJavaFileManager<StandardJavaFileManager> {
        private final Map<String, ByteArrayOutputStream> out;

        MemoryOutput(final StandardJavaFileManager standard, final Map<String, ByteArrayOutputStream> out) {
            super(standard);
            this.out = out;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(final Location location, final String className,
                                                   final JavaFileObject.Kind kind, final FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension),
                kind) {
                @Override
                public OutputStream openOutputStream() {
                    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    out.put(className, bytes);
                    return bytes;
                }
            };
        }
    }

    /**
     * @param urls entries of a class path
     * @return them as a class path string
     */
    static String classPathOf(final List<URL> urls) {
        final List<String> parts = new ArrayList<>();
        for (final URL u : urls) {
            try {
                parts.add(Path.of(u.toURI()).toString());
            } catch (URISyntaxException | IllegalArgumentException e) {
                // not a file: the compiler cannot use it
            }
        }
        return String.join(File.pathSeparator, parts);
    }
}
