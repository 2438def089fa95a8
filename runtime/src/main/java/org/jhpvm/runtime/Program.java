package org.jhpvm.runtime;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fm.FmJob;
import org.jhpvm.ga.GlobalArrays;
import org.jhpvm.shmem.ShmemJob;

/**
 * A user's program, as {@code bin/jhpvm run} takes it: a Java source file (compiled in memory as Java's source
 * launcher does, multi-file programs included), a jar (its manifest's {@code Main-Class}), or a main class found on
 * a class path. jhpvm's own modules are on its class path; its own class path (libraries, {@code dir/*} for every
 * jar of a directory, as {@code java -cp} reads it) comes next. Immutable.
 */
public final class Program {
    private enum Kind { SOURCE, JAR, CLASS }

    private final Kind kind;
    private final Path file;
    private final String className;
    private final List<Path> classPath;

    private Program(final Kind kind, final Path file, final String className, final List<Path> classPath) {
        this.kind = kind;
        this.file = file;
        this.className = className;
        this.classPath = List.copyOf(classPath);
    }

    /**
     * The program named on a command line: {@code X.java} is a source file, {@code X.jar} a jar, anything else a
     * main class on the class path (the current directory if none is given, as for {@code java}).
     *
     * @param program   the name
     * @param classPath the class path, as {@code -cp} takes it (entries separated by the platform's separator), or
     *                  null
     * @return the program
     * @throws IllegalArgumentException if the file does not exist or the name is not a class name
     */
    public static Program of(final String program, final String classPath) {
        Objects.requireNonNull(program, "program");
        final List<Path> cp = parseClassPath(classPath);
        if (program.endsWith(".java")) {
            return new Program(Kind.SOURCE, existing(program), null, cp);
        }
        if (program.endsWith(".jar")) {
            return new Program(Kind.JAR, existing(program), null, cp);
        }
        if (!program.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")) {
            throw new IllegalArgumentException("'" + program + "' is neither a .java file, a .jar nor a class name");
        }
        return new Program(Kind.CLASS, null, program, cp.isEmpty() ? List.of(Path.of(".")) : cp);
    }

    /**
     * Names the program in messages.
     *
     * @return its file, or its class
     */
    public String describe() {
        return kind == Kind.CLASS ? className : file.toString();
    }

    /**
     * Compiles or opens the program and finds the method to start.
     *
     * @return the program ready to load once per PE
     * @throws ProgramException         if the source does not compile
     * @throws IllegalArgumentException if there is no class to launch or it has no main method
     */
    Prepared prepare() {
        final List<URL> urls = new ArrayList<>();
        SourceProgram source = null;
        String main = className;
        try {
            if (kind == Kind.JAR) {
                urls.add(file.toUri().toURL());
                main = mainClassOf(file);
            }
            for (final Path p : classPath) {
                urls.add(p.toAbsolutePath().toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad class path entry: " + e.getMessage(), e);
        }
        if (kind == Kind.SOURCE) {
            final List<URL> compileCp = new ArrayList<>(urls);
            compileCp.addAll(jhpvmClassPath());
            source = SourceProgram.compile(file, SourceProgram.classPathOf(compileCp));
            main = source.mainClass();
        }
        final Prepared prepared = new Prepared(main, urls.toArray(new URL[0]), source);
        // Found in a loader of its own, not initialized: the PEs' loaders load it again, each for its PE.
        final PeClassLoader probe = prepared.loader(-1, Program.class.getClassLoader());
        try {
            MainMethod.of(Class.forName(main, false, probe));
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            throw new IllegalArgumentException("class " + main + " not found" + (kind == Kind.CLASS
                ? " on the class path " + classPath : " in " + file), e);
        } finally {
            close(probe);
        }
        return prepared;
    }

    /**
     * A program ready to run: its main class and where its classes come from.
     *
     * @param mainClass the class to launch
     * @param urls      the program's class path
     * @param source    its compiled sources, or null
     */
    record Prepared(String mainClass, URL[] urls, SourceProgram source) {
        /**
         * @param pe     the PE
         * @param parent the loader of jhpvm's classes
         * @return a new loader of the program for that PE
         */
        PeClassLoader loader(final int pe, final ClassLoader parent) {
            return new PeClassLoader(pe, urls, source, parent);
        }
    }

    static void close(final PeClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            // nothing was written; an open jar is released by the collector
        }
    }

    private static Path existing(final String name) {
        final Path p = Path.of(name);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException("no such file: " + name);
        }
        return p;
    }

    private static String mainClassOf(final Path jar) {
        try (JarFile j = new JarFile(jar.toFile())) {
            final String main = j.getManifest() == null ? null
                : j.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new IllegalArgumentException(jar + " has no Main-Class in its manifest: give the class with "
                    + "--class-path " + jar + " CLASS");
            }
            return main.trim();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + jar + " as a jar: " + e.getMessage(), e);
        }
    }

    /** Splits a class path; {@code dir/*} stands for the jars in {@code dir}; missing entries are skipped, as java does. */
    static List<Path> parseClassPath(final String classPath) {
        final List<Path> entries = new ArrayList<>();
        if (classPath == null || classPath.isEmpty()) {
            return entries;
        }
        for (final String e : classPath.split(File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            if (e.endsWith("*") && (e.length() == 1 || e.charAt(e.length() - 2) == File.separatorChar)) {
                final Path dir = Path.of(e.length() == 1 ? "." : e.substring(0, e.length() - 1));
                if (Files.isDirectory(dir)) {
                    try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.{jar,JAR}")) {
                        final List<Path> sorted = new ArrayList<>();
                        jars.forEach(sorted::add);
                        sorted.sort(null);
                        entries.addAll(sorted);
                    } catch (IOException x) {
                        throw new IllegalArgumentException("cannot list " + dir + ": " + x.getMessage(), x);
                    }
                }
            } else if (Files.exists(Path.of(e))) {
                entries.add(Path.of(e));
            }
        }
        return entries;
    }

    /** Where jhpvm's classes are, for the compiler: this JVM's class path and each layer's own location. */
    private static List<URL> jhpvmClassPath() {
        final List<URL> urls = new ArrayList<>();
        for (final Path p : parseClassPath(System.getProperty("java.class.path"))) {
            try {
                urls.add(p.toAbsolutePath().toUri().toURL());
            } catch (MalformedURLException e) {
                // skipped, as java skips a bad entry
            }
        }
        // A test runner or an IDE may start the JVM with a class path of its own (a manifest-only jar, say).
        for (final Class<?> c : List.of(Jhpvm.class, GlobalArrays.class, ShmemJob.class, FmJob.class,
            FabricConfig.class)) {
            if (c.getProtectionDomain().getCodeSource() != null) {
                final URL u = c.getProtectionDomain().getCodeSource().getLocation();
                if (!urls.contains(u)) {
                    urls.add(u);
                }
            }
        }
        return urls;
    }
}
