package org.jhpvm.fabric.aeron;

import java.io.File;
import java.util.concurrent.TimeUnit;

import io.aeron.CommonContext;
import org.agrona.IoUtil;

/**
 * Removes the Aeron directories of jobs that are gone. A host's media driver deletes its directory when its process
 * ends normally; a process killed (kill -9 of the launcher and its children, a crash) leaves it behind: tens of MB
 * under {@code /dev/shm}. So the process that starts a host's driver first removes every {@code jhpvm-*} directory
 * beside its own whose driver no longer runs: no driver heartbeat for {@link #DRIVER_SILENT_MS}, and the directory
 * older than {@link #MIN_AGE_MS} (a job starting at this moment, whose driver has not yet written its first
 * heartbeat, is left alone).
 */
final class StaleDirectories {
    /** A driver silent this long is gone (Aeron's own default driver timeout is 10 s). */
    static final long DRIVER_SILENT_MS = 10_000;
    /** Younger directories are never removed: their driver may still be starting. */
    static final long MIN_AGE_MS = TimeUnit.MINUTES.toMillis(1);
    private static final String PREFIX = "jhpvm-";

    private StaleDirectories() {
    }

    /**
     * Removes the stale job directories beside {@code ownDir}.
     *
     * @param ownDir this host's directory for the job starting (never removed here)
     * @param nowMs  {@code System.currentTimeMillis()}
     * @return how many were removed
     */
    static int sweep(final String ownDir, final long nowMs) {
        final File own = new File(ownDir).getAbsoluteFile();
        final File[] siblings = own.getParentFile() == null ? null : own.getParentFile().listFiles();
        if (siblings == null) {
            return 0;
        }
        int removed = 0;
        for (final File dir : siblings) {
            if (!dir.getName().startsWith(PREFIX) || !dir.isDirectory() || dir.equals(own)
                || nowMs - dir.lastModified() < MIN_AGE_MS || driverRuns(dir)) {
                continue;
            }
            IoUtil.delete(dir, true);
            removed += dir.exists() ? 0 : 1;
        }
        return removed;
    }

    private static boolean driverRuns(final File dir) {
        try {
            return CommonContext.isDriverActive(dir, DRIVER_SILENT_MS, message -> { });
        } catch (RuntimeException e) {
            return false; // no readable CnC file: no driver has run there for a while (the directory is old)
        }
    }
}
