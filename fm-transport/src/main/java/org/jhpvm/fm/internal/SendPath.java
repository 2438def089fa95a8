package org.jhpvm.fm.internal;

import java.lang.invoke.VarHandle;

import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.Nic;

/**
 * Data frames out: stamps FM's header (the next sequence number of the pair, the acknowledgement of the reverse pair
 * riding along, lengths, the CRC where the fabric may corrupt), keeps the copy go-back-N may resend, counts the frame
 * for the exit barrier and hands it to the NIC. {@link OutboundStream} fills the frames, {@link FlowControl} gives
 * them out and waits when the send ring is full. Single-threaded; nothing here allocates.
 */
final class SendPath {
    private static final VarHandle INT = FmFrameDescriptor.INT;

    private final Nic nic;
    private final Counters counters;
    private final FrameChecksum checksum;
    private final Retransmitter retransmitter;
    private final Acknowledger acks;
    private final FlowControl flow;
    private final boolean lean;

    SendPath(final Nic nic, final Counters counters, final FrameChecksum checksum, final Retransmitter retransmitter,
             final Acknowledger acks, final FlowControl flow, final boolean lean) {
        this.nic = nic;
        this.counters = counters;
        this.checksum = checksum;
        this.retransmitter = retransmitter;
        this.acks = acks;
        this.flow = flow;
        this.lean = lean;
    }

    /** Stamps, checksums, keeps a copy of and sends a data frame. */
    void sendData(final Frame f, final int dest, final int flags, final int handler, final int declared,
                  final int lengthBytes) {
        final byte[] a = f.array();
        final int h = f.headerOffset();
        final int seq = retransmitter.nextSeq(dest);
        final int ack = lean ? 0 : acks.expected(dest);
        INT.set(a, h + FmFrameDescriptor.WORD_OFFSET, FmFrameDescriptor.word(FmFrameDescriptor.TYPE_DATA, flags,
            handler));
        INT.set(a, h + FmFrameDescriptor.SEQ_OFFSET, seq);
        INT.set(a, h + FmFrameDescriptor.ACK_OFFSET, ack);
        INT.set(a, h + FmFrameDescriptor.LENGTH_OFFSET, lengthBytes);
        INT.set(a, h + FmFrameDescriptor.DECLARED_OFFSET, declared);
        FrameChecksum.clearSpareHeader(f);
        INT.set(a, h + FmFrameDescriptor.CRC_OFFSET, checksum.valueFor(f, lengthBytes));
        acks.piggybacked(dest, ack);
        f.setDestination(dest).setLength(lengthBytes);
        if (!lean) {
            retransmitter.keepCopy(f, dest, seq, lengthBytes);
        }
        // Counted before it leaves: the exit barrier must never see it consumed and not sent.
        counters.incrementRelease(Counters.FRAMES_SENT);
        if (!nic.trySend(f)) {
            flow.awaitSend(f);
        }
    }
}
