package org.jhpvm.fabric.internal;

import org.jhpvm.fabric.FaultPlan;
import org.jhpvm.fabric.Frame;

/**
 * The fault plan as one sending NIC of a virtual-time fabric applies it: drops and corruptions, decided by the plan
 * from the frame's number on its path, as the emulated Myrinet decides them, so a seed replays the same faults. A
 * dropped frame still takes its time on the sender's resources; it never reaches the switch port. Host thread of
 * the sending NIC only.
 */
final class VirtualFaults {
    private final FaultPlan plan;
    private final int nic;
    private final long[] pathFrames;
    /** The path's number of the frame {@link #next} last decided. */
    private long last;

    VirtualFaults(final FaultPlan plan, final int nic, final int nics) {
        this.plan = plan;
        this.nic = nic;
        this.pathFrames = new long[nics];
    }

    /**
     * The faults of the next frame to {@code dst}.
     *
     * @return {@link FaultPlan#DROP}, {@link FaultPlan#CORRUPT}, both or neither
     */
    int next(final int dst) {
        last = pathFrames[dst]++;
        return plan.decide(nic, dst, last, 0) & (FaultPlan.DROP | FaultPlan.CORRUPT);
    }


    /** Flips 1 to 3 distinct bits of the opaque header and payload of the copy, as the plan chooses them. */
    void corrupt(final Frame frame, final int dst) {
        plan.corrupt(frame, nic, dst, last, 0);
    }
}
