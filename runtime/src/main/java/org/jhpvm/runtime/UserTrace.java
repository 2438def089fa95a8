package org.jhpvm.runtime;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import org.jhpvm.fm.FmDeadlockException;

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
        if (throwable instanceof FmDeadlockException || throwable instanceof TimeoutException) {
            // The message is the report, a line per PE; where the job noticed it says nothing to the program's author.
            return sb.append(throwable.getMessage()).append('\n').toString();
        }
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

    /**
     * Appends where a PE's main thread is, as a timeout reports it: "running at FILE:LINE" in the program's own code,
     * "in CALL at FILE:LINE" inside a call the program made (such as {@code Jhpvm.shmem} waiting for the other PEs),
     * or "ended".
     *
     * @param thread the PE's main thread
     * @param out    where to append
     */
    static void where(final Thread thread, final StringBuilder out) {
        final StackTraceElement[] frames = thread.getStackTrace();
        if (!thread.isAlive() || frames.length == 0) {
            out.append("ended");
            return;
        }
        for (int i = 0; i < frames.length; i++) {
            if (isUser(frames[i])) {
                if (i > 0) {
                    final StackTraceElement call = frames[i - 1];
                    final String cls = call.getClassName();
                    out.append("in ").append(cls.substring(cls.lastIndexOf('.') + 1)).append('.')
                        .append(call.getMethodName()).append(" at ");
                } else {
                    out.append("running at ");
                }
                out.append(frames[i].getFileName()).append(':').append(frames[i].getLineNumber());
                return;
            }
        }
        out.append("in jhpvm's own code (").append(frames[0]).append(')');
    }

    /** @return true for a frame of the user's program: its class was defined by a PE's class loader */
    static boolean isUser(final StackTraceElement f) {
        return f.getClassLoaderName() != null && f.getClassLoaderName().startsWith(PeClassLoader.NAME_PREFIX);
    }
}
