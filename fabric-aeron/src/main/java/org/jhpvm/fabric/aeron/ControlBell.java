package org.jhpvm.fabric.aeron;

import java.lang.foreign.MemorySegment;
import java.util.function.IntSupplier;

/**
 * The control threads' use of the host's {@link Doorbells}: each process's control thread has a bell (slot
 * {@code nicCount + rank}); a control message to a process of this host rings the receiver's, and a message this
 * process queues to send (or the plane's stop, or the last local PE body's return) rings its own. Where every process
 * of the job rings (all on this host, IPC) the control thread sleeps on its bell between heartbeats instead of
 * parking up to 5 ms at a time (200 looks a second).
 */
final class ControlBell {
    private final Doorbells bells;
    private final int bellBase;
    private final int rank;
    /** ringsPeer[r]: a message to process r rings its bell. */
    private final boolean[] ringsPeer;
    private final boolean sleeps;
    private final MemorySegment timespec;
    /** This process's NICs: bells {@code firstNic .. firstNic + nics - 1}. */
    private final int firstNic;
    private final int nics;

    ControlBell(final AeronFabric fabric, final JobEnvironment env) {
        this.bells = fabric.doorbells();
        this.bellBase = env.nicCount();
        this.rank = env.rank();
        this.ringsPeer = new boolean[env.processes()];
        for (int r = 0; r < ringsPeer.length; r++) {
            ringsPeer[r] = r != rank && fabric.rings(r * env.pesPerProcess());
        }
        this.sleeps = fabric.allRing();
        this.timespec = sleeps ? bells.timespec() : null;
        this.firstNic = rank * env.pesPerProcess();
        this.nics = env.pesPerProcess();
    }

    /** @return whether the control thread sleeps on its bell (else its backoff parks) */
    boolean sleeps() {
        return sleeps;
    }

    /** After a message to process {@code r} was offered: rings its control thread if it sleeps. */
    void ringPeer(final int r) {
        if (ringsPeer[r]) {
            bells.ring(bellBase + r);
        }
    }

    /** Rings this process's own control thread (a message queued to send, the stop, the last body's return). */
    void ringSelf() {
        if (bells != null) {
            bells.ring(bellBase + rank);
        }
    }

    /**
     * Rings this process's NICs' bells: the job is aborting (a failure or an exit, here or told by another process),
     * and its PE threads, interrupted already, may sleep on them in the kernel, where an interrupt does not reach.
     * Call after the interrupts.
     */
    void ringLocalNics() {
        if (bells != null) {
            for (int n = firstNic; n < firstNic + nics; n++) {
                bells.ring(n);
            }
        }
    }

    /**
     * Sleeps on this process's bell for at most {@code sleepNs}, unless the last look (after counting in as a sleeper)
     * finds something: {@code lastLook} polls and says how much it found.
     *
     * @return true if it slept, false if the last look found work
     */
    boolean sleep(final long sleepNs, final IntSupplier lastLook) {
        final int slot = bellBase + rank;
        final int word = bells.enterForRings(slot);
        try {
            if (lastLook.getAsInt() > 0) {
                return false;
            }
            bells.sleep(slot, word, sleepNs, timespec);
            return true;
        } finally {
            bells.leaveForRings(slot);
        }
    }
}
