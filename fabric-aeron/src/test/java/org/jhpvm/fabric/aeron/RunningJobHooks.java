package org.jhpvm.fabric.aeron;

import org.jhpvm.fabric.ProcessFabric;

/**
 * The hooks of a job whose PEs never finish (no wave of the job-wide end runs), for tests of the control plane. A
 * peer's failure or exit interrupts {@code pe} (if not null), as FM's hooks interrupt a job's PE threads.
 *
 * @param pe the thread a peer's failure interrupts, or null
 */
record RunningJobHooks(Thread pe) implements ProcessFabric.JobHooks {
    /** Hooks that interrupt nobody. */
    static final RunningJobHooks RUNNING = new RunningJobHooks(null);

    @Override
    public boolean localBodiesDone() {
        return false;
    }

    @Override
    public long framesSent() {
        return 0;
    }

    @Override
    public long framesConsumed() {
        return 0;
    }

    @Override
    public void peerFailed(final int nic, final String message) {
        if (pe != null) {
            pe.interrupt();
        }
    }

    @Override
    public void peerExited(final int nic, final int status) {
        peerFailed(nic, "exit " + status);
    }
}
