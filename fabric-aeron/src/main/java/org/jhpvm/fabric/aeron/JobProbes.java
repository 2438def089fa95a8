package org.jhpvm.fabric.aeron;

import java.util.concurrent.TimeUnit;

import org.jhpvm.fabric.ProcessFabric;

/**
 * Rank 0's probes of the running job, in waves: each wave asks every process for (bodies done, frames sent, frames
 * consumed, blocked stamp) and adds the answers up. Two tests run on them:
 * <ul>
 *   <li>the end of the job, by Mattern's four-counter method: two waves in a row with every body done and the same
 *       totals, sent equal to consumed (while rank 0's bodies are done, waves follow each other at once when the last
 *       found every body done, else after a gap doubling from 100 us to {@link #MAX_END_WAVE_GAP_NS});</li>
 *   <li>a deadlock: waves at least the job's {@code deadlockAfterNs} apart in which every process answers the same
 *       blocked stamp ({@link ProcessFabric.JobHooks#blockedStamp()}: all its PEs wait, none has ended a wait since),
 *       with the same totals, sent equal to consumed, and not every body done (deadlock waves run every
 *       {@link #DEADLOCK_WAVE_EVERY_NS} while rank 0's own PEs all wait).</li>
 * </ul>
 * Used by the control thread only.
 */
final class JobProbes {
    /** The longest gap between deadlock waves while rank 0's PEs all wait. */
    static final long DEADLOCK_WAVE_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * End-of-job waves that find some body still running are spaced from 100 us, doubling to this, so that a rank 0
     * that finished early does not keep every process's control thread busy.
     */
    static final long MAX_END_WAVE_GAP_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MIN_END_WAVE_GAP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    /** What a completed wave found. */
    enum Outcome { NOTHING, ENDED, DEADLOCKED }

    private final int processes;
    private int wave;
    private int waveJob;
    private int reports;
    private boolean waveAllDone;
    private boolean waveBlocked;
    private long waveSent;
    private long waveConsumed;
    private long waveStamps;
    private boolean prevValid;
    private long prevSent;
    private long prevConsumed;
    private boolean blockedValid;
    private long blockedSinceNs;
    private long blockedStamps;
    private long blockedSent;
    private long nextDeadlockWaveNs;
    private long endWaveGapNs = MIN_END_WAVE_GAP_NS;
    private long nextEndWaveNs;

    JobProbes(final int processes) {
        this.processes = processes;
    }

    /**
     * Starts the next wave of {@code job} if none is out and there is a reason: rank 0's bodies are done, or its
     * PEs all wait and the last deadlock wave is {@link #DEADLOCK_WAVE_EVERY_NS} old.
     *
     * @return the new wave's number, or -1
     */
    int start(final int job, final ProcessFabric.JobHooks h, final long nowNs) {
        if (waveJob == job && reports < processes) {
            return -1; // a wave is out
        }
        final boolean done = h.localBodiesDone();
        if (done ? nowNs - nextEndWaveNs < 0
            : !(h.deadlockAfterNs() > 0 && nowNs - nextDeadlockWaveNs >= 0 && h.blocked())) {
            return -1;
        }
        if (!done) {
            nextDeadlockWaveNs = nowNs + DEADLOCK_WAVE_EVERY_NS;
        }
        if (waveJob != job) {
            endWaveGapNs = MIN_END_WAVE_GAP_NS;
            waveJob = job;
            prevValid = false;
            blockedValid = false;
        }
        wave++;
        reports = 0;
        waveAllDone = true;
        waveBlocked = true;
        waveSent = 0;
        waveConsumed = 0;
        waveStamps = 0;
        return wave;
    }

    /** @return when the next deadlock wave may start ({@link System#nanoTime()}), while rank 0's PEs all wait */
    long nextDeadlockWaveNs() {
        return nextDeadlockWaveNs;
    }

    /**
     * One process's answer to the current wave.
     *
     * @return what the wave found, once it is complete ({@link Outcome#NOTHING} until then, and for answers to
     *     another wave)
     */
    Outcome report(final int job, final int w, final boolean done, final long sent, final long consumed,
                   final long stamp, final long deadlockAfterNs, final long nowNs) {
        if (job != waveJob || w != wave) {
            return Outcome.NOTHING;
        }
        reports++;
        waveAllDone &= done;
        waveBlocked &= stamp >= 0;
        waveSent += sent;
        waveConsumed += consumed;
        waveStamps += Math.max(0, stamp);
        if (reports < processes) {
            return Outcome.NOTHING;
        }
        final boolean quiet = waveSent == waveConsumed;
        if (waveAllDone && quiet && prevValid && prevSent == waveSent && prevConsumed == waveConsumed) {
            return Outcome.ENDED;
        }
        prevValid = waveAllDone && quiet;
        prevSent = waveSent;
        prevConsumed = waveConsumed;
        if (waveAllDone) {
            endWaveGapNs = MIN_END_WAVE_GAP_NS; // the end may be a wave away: the next one at once
            nextEndWaveNs = nowNs;
        } else {
            nextEndWaveNs = nowNs + endWaveGapNs;
            endWaveGapNs = Math.min(2 * endWaveGapNs, MAX_END_WAVE_GAP_NS);
        }
        if (!waveBlocked || !quiet || waveAllDone || deadlockAfterNs <= 0) {
            blockedValid = false;
            return Outcome.NOTHING;
        }
        // Stamps only grow, so equal sums mean every process's stamp is unchanged.
        if (!blockedValid || blockedStamps != waveStamps || blockedSent != waveSent) {
            blockedValid = true;
            blockedSinceNs = nowNs;
            blockedStamps = waveStamps;
            blockedSent = waveSent;
            return Outcome.NOTHING;
        }
        return nowNs - blockedSinceNs >= deadlockAfterNs ? Outcome.DEADLOCKED : Outcome.NOTHING;
    }
}
