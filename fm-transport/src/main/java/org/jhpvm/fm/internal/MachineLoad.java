package org.jhpvm.fm.internal;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * Whether the machine's runnable threads outnumber its cores, from Linux's {@code /proc/loadavg} (its fourth field:
 * the threads runnable at this moment), read at most every {@link #EVERY_NS} by whichever waiting thread asks first.
 * The job's own count of PE threads cannot see other processes on the machine: the other processes of a job whose
 * "hosts" are network namespaces of one machine, other jobs, the JIT's compiler threads. Where the file cannot be
 * read, the machine counts as not oversubscribed. Thread-safe.
 */
final class MachineLoad {
    /** How old a reading may be. */
    static final long EVERY_NS = 50_000_000;
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private static final byte[] BUFFER = new byte[128];
    private static RandomAccessFile file = open("/proc/loadavg");
    private static volatile long readAtNs = System.nanoTime() - 2 * EVERY_NS;
    private static volatile boolean oversubscribed;

    private MachineLoad() {
    }

    private static RandomAccessFile open(final String path) {
        try {
            return new RandomAccessFile(path, "r");
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /**
     * Reads from another file of {@code /proc/loadavg}'s form from now on (tests: a machine of a known load).
     *
     * @param path the file
     */
    static synchronized void readFrom(final String path) {
        file = open(path);
        readAtNs = System.nanoTime() - 2 * EVERY_NS;
    }

    /**
     * Whether more threads are runnable now (as of at most {@link #EVERY_NS} ago) than the machine has cores.
     *
     * @param nowNs {@code System.nanoTime()}, recent
     * @return true if the machine is oversubscribed
     */
    static boolean oversubscribed(final long nowNs) {
        if (nowNs - readAtNs >= EVERY_NS) {
            refresh(nowNs);
        }
        return oversubscribed;
    }

    private static synchronized void refresh(final long nowNs) {
        if (nowNs - readAtNs < EVERY_NS || file == null) {
            return;
        }
        readAtNs = nowNs;
        try {
            file.seek(0);
            final int n = file.read(BUFFER);
            oversubscribed = runnable(BUFFER, n) > CORES;
        } catch (IOException e) {
            file = null;
            oversubscribed = false;
        }
    }

    /**
     * The runnable threads in a {@code /proc/loadavg} line ("0.52 0.48 0.40 3/412 12345"): the number before the
     * slash.
     *
     * @return the count, or 0 if the line is not of that form
     */
    static int runnable(final byte[] line, final int length) {
        int i = 0;
        for (int field = 0; field < 3 && i < length; i++) {
            if (line[i] == ' ') {
                field++;
            }
        }
        int count = 0;
        for (; i < length && line[i] >= '0' && line[i] <= '9'; i++) {
            count = 10 * count + line[i] - '0';
        }
        return i < length && line[i] == '/' ? count : 0;
    }
}
