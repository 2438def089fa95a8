package org.jhpvm.fabric;

/**
 * A snapshot of one NIC's counters, or of the totals over all NICs. Frames this NIC sent are counted at the
 * source ({@code sent}, {@code delivered}, {@code dropped}, ...); frames that arrived here at the destination
 * ({@code received}).
 * <p>
 * At quiescence (nothing in flight) the counters balance: {@code sent + duplicated == delivered + dropped}, and
 * over the whole fabric {@code sum(delivered) == sum(received)}.
 *
 * @param framesSent          frames the host handed to this NIC
 * @param bytesSent           payload bytes of those frames
 * @param framesDelivered     frames this NIC put into a destination's receive ring (duplicates included)
 * @param bytesDelivered      payload bytes of those frames
 * @param framesReceived      frames that arrived in this NIC's receive ring
 * @param bytesReceived       payload bytes of those frames
 * @param framesDropped       frames lost by fault injection (drops and link-down windows)
 * @param framesCorrupted     frames whose bytes fault injection flipped
 * @param framesDuplicated    extra copies fault injection delivered
 * @param framesReordered     frames overtaken on their path by a later frame
 * @param framesDelayed       frames held back by fault injection before delivery
 * @param linkDownDrops       of the dropped frames, those lost to a link-down window
 * @param backPressureStalls  times a frame had to wait because the destination ring was full or stalled
 * @param receiverStalls      receiver stall windows this NIC's traffic started at a destination
 */
public record NicCounters(
    long framesSent,
    long bytesSent,
    long framesDelivered,
    long bytesDelivered,
    long framesReceived,
    long bytesReceived,
    long framesDropped,
    long framesCorrupted,
    long framesDuplicated,
    long framesReordered,
    long framesDelayed,
    long linkDownDrops,
    long backPressureStalls,
    long receiverStalls) {

    /** All zero. */
    public static final NicCounters ZERO = new NicCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Adds two snapshots field by field, as {@link Fabric#totals()} sums its NICs; neither is changed.
     *
     * @param o other counters
     * @return the element-wise sum
     */
    public NicCounters plus(final NicCounters o) {
        return new NicCounters(
            framesSent + o.framesSent,
            bytesSent + o.bytesSent,
            framesDelivered + o.framesDelivered,
            bytesDelivered + o.bytesDelivered,
            framesReceived + o.framesReceived,
            bytesReceived + o.bytesReceived,
            framesDropped + o.framesDropped,
            framesCorrupted + o.framesCorrupted,
            framesDuplicated + o.framesDuplicated,
            framesReordered + o.framesReordered,
            framesDelayed + o.framesDelayed,
            linkDownDrops + o.linkDownDrops,
            backPressureStalls + o.backPressureStalls,
            receiverStalls + o.receiverStalls);
    }
}
