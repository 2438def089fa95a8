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
        final int bits = (frame.headerBytes() + frame.length()) * 8;
        if (bits == 0) {
            return;
        }
        final int flips = Math.min(plan.corruptionFlips(nic, dst, last, 0), bits);
        final byte[] bytes = frame.array();
        int first = -1;
        int second = -1;
        for (int i = 0; i < flips; i++) {
            int bit = plan.corruptionBit(nic, dst, last, 0, i, bits);
            while (bit == first || bit == second) {
                bit = bit + 1 == bits ? 0 : bit + 1;
            }
            bytes[frame.headerOffset() + (bit >>> 3)] ^= (byte) (1 << (bit & 7));
            if (i == 0) {
                first = bit;
            } else {
                second = bit;
            }
        }
    }
}
