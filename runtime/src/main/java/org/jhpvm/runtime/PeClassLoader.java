package org.jhpvm.runtime;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of one PE's copy of the user's program: the program's classes (compiled from source, or from its
 * jar or class path) are defined here, once per PE, so each PE has its own static fields, as each process has under
 * {@code mpirun} or {@code oshrun}. Everything else comes from the parent: the JDK first (always), jhpvm's own
 * classes next ({@code org.jhpvm.*}: one {@link Jhpvm} for the whole JVM, whatever a user's jar bundles), and then
 * libraries on the program's class path, which are loaded per PE like the program (child first).
 * <p>
 * Its name, {@code jhpvm-pe-N}, is what stack traces show as the loader of the user's frames.
 */
final class PeClassLoader extends URLClassLoader {
    /** Prefix of every PE loader's name. */
    static final String NAME_PREFIX = "jhpvm-pe-";

    static {
        registerAsParallelCapable();
    }

    private final SourceProgram source;

    /**
     * @param pe     the PE
     * @param urls   the program's class path (jar, directories, libraries)
     * @param source the compiled source program, or null
     * @param parent the loader of jhpvm's classes
     */
    PeClassLoader(final int pe, final URL[] urls, final SourceProgram source, final ClassLoader parent) {
        super(NAME_PREFIX + pe, urls, parent);
        this.source = source;
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = platformClass(name);
            }
            if (c == null && (name.startsWith("org.jhpvm.") || name.startsWith("mpi."))) {
                c = parentClass(name);
            }
            if (c == null) {
                c = ownClass(name);
            }
            if (c == null) {
                c = getParent().loadClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private static Class<?> platformClass(final String name) {
        try {
            return ClassLoader.getPlatformClassLoader().loadClass(name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private Class<?> parentClass(final String name) {
        try {
            return getParent().loadClass(name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private Class<?> ownClass(final String name) {
        if (source != null) {
            final byte[] bytes = source.classBytes(name);
            if (bytes != null) {
                return defineClass(name, bytes, 0, bytes.length, source.codeSource());
            }
        }
        try {
            return findClass(name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    @Override
    public URL getResource(final String name) {
        final URL own = findResource(name);
        return own != null ? own : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(final String name) throws IOException {
        final List<URL> all = new ArrayList<>(Collections.list(findResources(name)));
        if (getParent() != null) {
            all.addAll(Collections.list(getParent().getResources(name)));
        }
        return Collections.enumeration(all);
    }
}
