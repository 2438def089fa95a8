package org.jhpvm.runtime;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * A user's exception as people read it: the exception, the frame that threw it, and the frames of the user's own
 * code (classes a PE's class loader defined), with "..." where jhpvm's or the JDK's frames were left out; the same
 * for each cause.
 */
final class UserTrace {
    private UserTrace() {
    }

    /**
     * @param pe        the PE that failed, or {@link ProgramRunner.Result#NO_PE}
     * @param throwable what it failed with
     * @return the report, one line per frame
     */
    static String describe(final int pe, final Throwable throwable) {
        final StringBuilder sb = new StringBuilder(pe == ProgramRunner.Result.NO_PE ? "the program failed: "
            : "PE " + pe + " failed: ");
        final Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable t = throwable;
        String prefix = "";
        while (t != null && seen.add(t)) {
            sb.append(prefix).append(t).append('\n');
            appendFrames(sb, t.getStackTrace());
            t = t.getCause();
            prefix = "Caused by: ";
        }
        return sb.toString();
    }

    private static void appendFrames(final StringBuilder sb, final StackTraceElement[] frames) {
        boolean skipped = false;
        for (int i = 0; i < frames.length; i++) {
            final StackTraceElement f = frames[i];
            if (i > 0 && !isUser(f)) {
                skipped = true;
                continue;
            }
            if (skipped) {
                sb.append("\t...\n");
                skipped = false;
            }
            sb.append("\tat ").append(f.getClassName()).append('.').append(f.getMethodName()).append('(')
                .append(f.getFileName() == null ? "Unknown Source" : f.getFileName()
                    + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : ""))
                .append(")\n");
        }
    }

    /** @return true for a frame of the user's program: its class was defined by a PE's class loader */
    static boolean isUser(final StackTraceElement f) {
        return f.getClassLoaderName() != null && f.getClassLoaderName().startsWith(PeClassLoader.NAME_PREFIX);
    }
}
