package org.jhpvm.fm.internal;

import org.jhpvm.fabric.ProcessFabric;
import org.jhpvm.fm.FmJobExit;
import org.jhpvm.fm.FmRemoteFailure;

/**
 * What a launched job's process tells its fabric, and how it takes what the fabric tells it: the end-of-job counts,
 * the local part of the job-wide deadlock test and the local PEs' states (from the job's {@link JobWatch}), and the
 * failures and exits of other processes, which abort the local PEs. Thread-safe: the fabric calls it from its own
 * thread, once the job's threads have {@link #started}.
 */
public final class LaunchedJobHooks implements ProcessFabric.JobHooks {
    private final JobControl job;
    private final long deadlockAfterNs;
    private volatile Thread[] threads;
    private volatile JobWatch watch;

    /**
     * @param job             the job's control
     * @param deadlockAfterNs the job's deadlock setting ({@code fm.deadlockAfterNs}; 0: no test)
     */
    public LaunchedJobHooks(final JobControl job, final long deadlockAfterNs) {
        this.job = job;
        this.deadlockAfterNs = deadlockAfterNs;
    }

    /**
     * The local PEs' threads have been made: aborts interrupt them, and the watch answers for them.
     *
     * @param peThreads the PE threads
     * @param jobWatch  the job's watch
     */
    public void started(final Thread[] peThreads, final JobWatch jobWatch) {
        this.watch = jobWatch;
        this.threads = peThreads;
    }

    @Override
    public boolean localBodiesDone() {
        return job.localBodiesDone();
    }

    @Override
    public long framesSent() {
        return job.framesSent();
    }

    @Override
    public long framesConsumed() {
        return job.framesConsumed();
    }

    @Override
    public void peerFailed(final int nic, final String message) {
        peerFailed(nic, message, false);
    }

    @Override
    public void peerFailed(final int nic, final String message, final boolean reportedElsewhere) {
        abort(nic, new FmRemoteFailure(nic, message, reportedElsewhere));
    }

    @Override
    public void peerExited(final int nic, final int status) {
        abort(nic, new FmJobExit(nic, status));
    }

    @Override
    public long blockedStamp() {
        final JobWatch w = watch;
        return w == null || deadlockAfterNs == 0 ? -1 : w.blockedStamp();
    }

    @Override
    public boolean blocked() {
        final JobWatch w = watch;
        return w != null && deadlockAfterNs > 0 && w.blocked();
    }

    @Override
    public long deadlockAfterNs() {
        return deadlockAfterNs;
    }

    @Override
    public String describeLocalPes() {
        final JobWatch w = watch;
        if (w == null) {
            return "";
        }
        final StringBuilder b = new StringBuilder();
        w.describe(b);
        return b.toString();
    }

    private void abort(final int nic, final Throwable cause) {
        if (job.fail(nic, cause)) {
            final Thread[] t = threads;
            if (t != null) {
                for (final Thread x : t) {
                    if (x != null && x != Thread.currentThread()) {
                        x.interrupt();
                    }
                }
            }
        }
    }
}
