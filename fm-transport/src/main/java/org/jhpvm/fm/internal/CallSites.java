package org.jhpvm.fm.internal;

import java.lang.reflect.Modifier;

/**
 * Where a PE's thread is, as a program's author reads it: the call into jhpvm it is in ({@code Shmem.barrierAll},
 * {@code waitUntil}, {@code Comm.recv}) and the program's own line that made the call. A frame is the program's
 * unless its class belongs to jhpvm's layers (the fabric, FM, SHMEM, Global Arrays, MPI and the runtime, and Open MPI's
 * {@code mpi} package) or to the JDK and the libraries under them; classes named {@code ...Test}, the layers' own
 * tests, count as programs.
 */
final class CallSites {
    private static final String[] LIBRARY = {
        "org.jhpvm.fabric.", "org.jhpvm.fm.", "org.jhpvm.shmem.", "org.jhpvm.ga.", "org.jhpvm.mpi.",
        "org.jhpvm.runtime.", "mpi.", "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.agrona.", "io.aeron.",
        "org.jctools.", "org.eclipse.collections.", "org.ejml."};

    private CallSites() {
    }

    /**
     * Appends where {@code thread} is: "CALL at FILE:LINE" when it is inside a call into jhpvm made by the program,
     * "running at FILE:LINE" when it runs the program's own code, or "in CALL" when no frame of the program is seen.
     *
     * @param thread the thread (its stack is taken now)
     * @param out    where to append
     * @return true if the thread is inside a call into jhpvm
     */
    static boolean append(final Thread thread, final StringBuilder out) {
        final StackTraceElement[] frames = thread.getStackTrace();
        int user = -1;
        for (int i = 0; i < frames.length; i++) {
            if (!library(frames[i].getClassName())) {
                user = i;
                break;
            }
        }
        if (user < 0) {
            // No frame of the program (a layer's own step after the body, such as SHMEM's finalize): the innermost
            // call of a public class of a layer above FM names it.
            for (final StackTraceElement f : frames) {
                final String c = f.getClassName();
                if (jhpvm(c) && !c.startsWith("org.jhpvm.fm.") && !c.startsWith("org.jhpvm.fabric.")
                    && call(f).indexOf('.') > 0) {
                    out.append("in ").append(call(f));
                    return true;
                }
            }
            out.append("in jhpvm's own code");
            return frames.length > 0 && jhpvm(frames[0].getClassName());
        }
        if (user == 0 || !jhpvm(frames[user - 1].getClassName())) {
            out.append("running at ").append(place(frames[user]));
            return false;
        }
        // The outermost jhpvm frame above the program's: the call the program made.
        out.append(call(frames[user - 1])).append(" at ").append(place(frames[user]));
        return true;
    }

    static boolean library(final String className) {
        for (final String p : LIBRARY) {
            if (className.startsWith(p)) {
                final int dollar = className.indexOf('$');
                final String top = dollar < 0 ? className : className.substring(0, dollar);
                return !(p.startsWith("org.jhpvm.") && (top.endsWith("Test") || top.endsWith("Tests")));
            }
        }
        return false;
    }

    private static boolean jhpvm(final String className) {
        return (className.startsWith("org.jhpvm.") || className.startsWith("mpi.")) && library(className);
    }

    /**
     * "Shmem.barrierAll" for a method of a public API class, "waitUntil" for one a public class inherits from a class
     * of its package, "extractUntil" for an implementation's.
     */
    private static String call(final StackTraceElement f) {
        String method = f.getMethodName();
        if (method.startsWith("lambda$")) {
            final int end = method.indexOf('$', 7);
            method = end < 0 ? method.substring(7) : method.substring(7, end);
        }
        final String cls = f.getClassName();
        final int dollar = cls.indexOf('$');
        final String top = dollar < 0 ? cls : cls.substring(0, dollar);
        return publicClass(top) && !top.contains(".internal.") ? top.substring(top.lastIndexOf('.') + 1) + "." + method
            : method;
    }

    private static boolean publicClass(final String name) {
        try {
            return Modifier.isPublic(Class.forName(name, false, CallSites.class.getClassLoader()).getModifiers());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static String place(final StackTraceElement f) {
        return (f.getFileName() == null ? f.getClassName() : f.getFileName())
            + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : "");
    }
}
