package org.jhpvm.fabric.internal;

import java.util.Comparator;

import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.timing.TimingModel;

/**
 * A frame on its way through a virtual-time fabric: a receive slot of the destination NIC holding a copy of the
 * frame, with its times. Senders fill it; the receiver orders, times and delivers it, and gives it back to its free
 * slots when the host releases the frame.
 */
final class VirtualArrival {
    /** The order the switch port serves frames in: first bytes at the port, then source, then the sender's count. */
    static final Comparator<VirtualArrival> PORT_ORDER = (a, b) -> {
        final int byTime = Long.compare(a.flight.headAtSwitchPs, b.flight.headAtSwitchPs);
        if (byTime != 0) {
            return byTime;
        }
        final int bySource = Integer.compare(a.source, b.source);
        return bySource != 0 ? bySource : Long.compare(a.sequence, b.sequence);
    };

    /** The order frames reach their host in: arrival, then source, then the sender's count. */
    static final Comparator<VirtualArrival> ARRIVAL_ORDER = (a, b) -> {
        final int byTime = Long.compare(a.arrivalPs, b.arrivalPs);
        if (byTime != 0) {
            return byTime;
        }
        final int bySource = Integer.compare(a.source, b.source);
        return bySource != 0 ? bySource : Long.compare(a.sequence, b.sequence);
    };

    final Frame frame;
    final TimingModel.Flight flight = new TimingModel.Flight();
    int source;
    long sequence;
    /** When the frame is in the receiver's memory; set by the receiver. */
    long arrivalPs;

    VirtualArrival(final Object fabric, final int owner, final int headerBytes, final int frameBytes) {
        this.frame = new Frame(fabric, owner, MyrinetNic.HOME_SLOT, headerBytes, frameBytes);
        frame.setState(FrameDescriptor.STATE_FREE);
    }
}
