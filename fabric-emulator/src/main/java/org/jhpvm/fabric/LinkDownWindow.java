package org.jhpvm.fabric;

/**
 * A window during which a NIC's link to the switch is down: every frame on a path out of or into {@code nic}
 * whose frame number on that path is in {@code [fromFrame, toFrame)} is lost. Counting in frames per path rather
 * than in time keeps the faults a pure function of the seed and the traffic, whatever the thread timing.
 *
 * @param nic       the NIC whose link goes down
 * @param fromFrame first frame number (per path) lost
 * @param toFrame   first frame number (per path) that gets through again
 */
public record LinkDownWindow(int nic, long fromFrame, long toFrame) {
    /**
     * Checks the window. Whether the NIC exists is checked when the window's plan meets a {@link FabricConfig}.
     *
     * @throws IllegalArgumentException if the NIC is negative or the window is empty or negative
     */
    public LinkDownWindow {
        if (nic < 0) {
            throw new IllegalArgumentException("link-down nic=" + nic + " is negative");
        }
        if (fromFrame < 0 || toFrame <= fromFrame) {
            throw new IllegalArgumentException("link-down window [" + fromFrame + ", " + toFrame
                + ") must satisfy 0 <= from < to");
        }
    }

    /**
     * Whether a frame is lost to this window: the path must start or end at the window's NIC, and the frame's number
     * on that path fall in {@code [fromFrame, toFrame)}.
     *
     * @param src         source NIC of the path
     * @param dst         destination NIC of the path
     * @param frameNumber frame number on the path
     * @return true if the window covers this frame
     */
    public boolean covers(final int src, final int dst, final long frameNumber) {
        return (src == nic || dst == nic) && frameNumber >= fromFrame && frameNumber < toFrame;
    }
}
