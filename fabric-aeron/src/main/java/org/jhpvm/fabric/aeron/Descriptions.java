package org.jhpvm.fabric.aeron;

import static org.jhpvm.fabric.aeron.ControlMessages.DESCRIBE;
import static org.jhpvm.fabric.aeron.ControlMessages.DESCRIPTION;
import static org.jhpvm.fabric.aeron.ControlMessages.LE;
import static org.jhpvm.fabric.aeron.ControlMessages.MAGIC;
import static org.jhpvm.fabric.aeron.ControlMessages.MAX_DESCRIPTION_BYTES;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A control plane's gatherings of every process's description of its PEs (DESCRIBE, DESCRIPTION), for a deadlock or
 * timeout report that names what each PE waits for: a job's launching thread asks and waits; the control thread
 * writes the answers this process gives and takes the answers of the others. One gathering at a time.
 */
final class Descriptions {
    private final int processes;
    private final int rank;
    /** The current gathering, or null. */
    private volatile Gathering gathering;
    private int nextGathering;

    /** Descriptions of every process's PEs, gathered for one report. */
    private static final class Gathering {
        final int job;
        final int id;
        final String[] texts;
        final CountDownLatch answered;

        Gathering(final int job, final int id, final int processes) {
            this.job = job;
            this.id = id;
            this.texts = new String[processes];
            this.answered = new CountDownLatch(processes - 1);
        }
    }

    Descriptions(final int processes, final int rank) {
        this.processes = processes;
        this.rank = rank;
    }

    /**
     * Starts a gathering for {@code job} with this process's own lines; returns the DESCRIBE message to send to every
     * other process. The caller then {@link #await}s.
     */
    synchronized byte[] start(final int job, final String localLines) {
        final Gathering g = new Gathering(job, ++nextGathering, processes);
        g.texts[rank] = localLines;
        gathering = g;
        final byte[] m = new byte[16];
        final UnsafeBuffer b = new UnsafeBuffer(m);
        b.putInt(0, MAGIC, LE);
        b.putInt(4, DESCRIBE, LE);
        b.putInt(8, job, LE);
        b.putInt(12, g.id, LE);
        return m;
    }

    /**
     * Waits (at most {@code timeoutNs}) for the other processes' answers to the last {@link #start}, and joins every
     * process's lines; a process that did not answer is named by {@code silent}.
     */
    String await(final long timeoutNs, final IntFunction<String> silent) {
        final Gathering g = gathering;
        try {
            g.answered.await(timeoutNs, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        final StringBuilder all = new StringBuilder();
        for (int r = 0; r < processes; r++) {
            final String t = g.texts[r];
            all.append(t != null ? t : silent.apply(r));
        }
        return all.toString();
    }

    /** The control thread: process {@code from}'s answer to gathering {@code id} of {@code job}. */
    void answered(final int from, final int job, final int id, final String text) {
        final Gathering g = gathering;
        if (g != null && g.job == job && g.id == id && g.texts[from] == null) {
            g.texts[from] = text;
            g.answered.countDown();
        }
    }

    /** Writes this process's DESCRIPTION answer into {@code out}; returns its length. */
    static int answer(final UnsafeBuffer out, final int job, final int id, final String lines) {
        final byte[] text = lines.getBytes(StandardCharsets.UTF_8);
        final int n = Math.min(text.length, MAX_DESCRIPTION_BYTES);
        out.putInt(0, MAGIC, LE);
        out.putInt(4, DESCRIPTION, LE);
        out.putInt(8, job, LE);
        out.putInt(12, id, LE);
        out.putBytes(16, text, 0, n);
        return 16 + n;
    }
}
