package org.jhpvm.fabric.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.zip.CRC32C;

import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;
import org.jhpvm.fabric.Bytes;
import org.jhpvm.fabric.Completion;
import org.jhpvm.fabric.FaultPlan;

/**
 * The emulated NIC's reliable-connection protocol (VIA's reliable delivery level) for RDMA segments and NIC
 * messages, run by the NIC that starts a transfer. Without a fault plan a transfer is one copy, region to region.
 * With one, every transmission of a segment takes the next number on its path, and the plan decides its fate from
 * (seed, source, destination, number): a dropped, link-down or reordered segment never reaches the receiving NIC
 * (which, taking segments only in order, discards one that overtook another), so the sender sends it again; a
 * corrupted one reaches it with bits flipped, fails the CRC32C the sender computed, and is sent again; a duplicated
 * one reaches it twice and the second copy is discarded by its sequence number. After {@link Completion#MAX_ATTEMPTS}
 * lost tries the transfer fails with {@link Completion#ERR_RETRY_EXCEEDED} (bytes of earlier segments may have
 * landed, as on a real connection that broke). Delays and receiver stalls belong to the frame path and do not apply
 * here.
 * <p>
 * Host only (the sending NIC's host runs it); the counters are shared with the NIC's snapshot.
 */
final class ReliableConnection {
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private static final int LOST = FaultPlan.DROP | FaultPlan.LINK_DOWN | FaultPlan.REORDER;

    private final int nic;
    private final FaultPlan plan;
    private final int segmentBytes;
    private final AtomicLongArray counters;
    private final IntLongHashMap pathSegments;
    private final CRC32C crc;
    private MemorySegment scratch;

    ReliableConnection(final int nic, final FaultPlan plan, final int segmentBytes, final AtomicLongArray counters) {
        this.nic = nic;
        this.plan = plan.isNone() ? null : plan;
        this.segmentBytes = segmentBytes;
        this.counters = counters;
        this.pathSegments = this.plan == null ? null : new IntLongHashMap();
        this.crc = this.plan == null ? null : new CRC32C();
    }

    /**
     * Moves bytes from one NIC's memory to another's.
     *
     * @return {@link Completion#OK} or {@link Completion#ERR_RETRY_EXCEEDED}
     */
    int move(final int src, final int dst, final MemorySegment from, final long fromOffset, final MemorySegment to,
             final long toOffset, final long lengthBytes) {
        if (plan == null) {
            if (lengthBytes == Long.BYTES) {
                // One word (a get's or a fetch's reply): a load and a store cost less than the bulk copy's set-up.
                to.set(WORD, toOffset, from.get(WORD, fromOffset));
                return Completion.OK;
            }
            Bytes.copy(from, fromOffset, to, toOffset, lengthBytes);
            return Completion.OK;
        }
        long done = 0;
        do {
            final long n = Math.min(segmentBytes, lengthBytes - done);
            if (!deliver(src, dst, from, fromOffset + done, to, toOffset + done, n)) {
                return Completion.ERR_RETRY_EXCEEDED;
            }
            done += n;
        } while (done < lengthBytes);
        return Completion.OK;
    }

    /**
     * Carries one frame's bytes (a NIC message) to the receiving NIC, leaving them in place: a message is handed to
     * its handler only once an intact copy has arrived.
     *
     * @return true if an intact copy arrived, false if every try was lost
     */
    boolean carry(final int src, final int dst, final MemorySegment bytes, final long offset, final long length) {
        return plan == null || deliver(src, dst, bytes, offset, null, 0, length);
    }

    /** One segment, tried until an intact copy arrives; copies it to {@code to} unless that is null. */
    private boolean deliver(final int src, final int dst, final MemorySegment from, final long fromOffset,
                            final MemorySegment to, final long toOffset, final long n) {
        final int path = src == nic ? dst << 1 : src << 1 | 1;
        for (int attempt = 0; attempt < Completion.MAX_ATTEMPTS; attempt++) {
            final long number = pathSegments.getIfAbsent(path, 0);
            pathSegments.put(path, number + 1);
            if (attempt > 0) {
                counters.incrementAndGet(ViaEngine.RETRANSMISSIONS);
            }
            final int fate = plan.decide(src, dst, number, 0);
            if ((fate & LOST) != 0) {
                counters.incrementAndGet(ViaEngine.SEGMENTS_LOST);
                continue;
            }
            if ((fate & FaultPlan.CORRUPT) != 0 && corruptedOnArrival(src, dst, number, from, fromOffset, n)) {
                counters.incrementAndGet(ViaEngine.SEGMENTS_CORRUPTED);
                continue;
            }
            if (to != null) {
                Bytes.copy(from, fromOffset, to, toOffset, n);
            }
            if ((fate & FaultPlan.DUPLICATE) != 0) {
                counters.incrementAndGet(ViaEngine.SEGMENTS_DUPLICATED); // the receiver discards the second copy
            }
            return true;
        }
        return false;
    }

    /**
     * Flips the plan's bits in a copy of the segment, as the link would, and checks the copy's CRC32C against the
     * sender's, as the receiving NIC does: true if the receiver sees the damage (it always does for 1 to 3 flipped
     * bits, which CRC32C detects).
     */
    private boolean corruptedOnArrival(final int src, final int dst, final long number, final MemorySegment from,
                                       final long fromOffset, final long n) {
        if (n == 0) {
            return false;
        }
        if (scratch == null || scratch.byteSize() < n) {
            scratch = MemorySegment.ofArray(new byte[(int) Math.max(n, segmentBytes)]);
        }
        Bytes.copy(from, fromOffset, scratch, 0, n);
        final long sent = checksum(scratch, n);
        final int flips = plan.corruptionFlips(src, dst, number, 0);
        for (int f = 0; f < flips; f++) {
            final int bit = plan.corruptionBit(src, dst, number, 0, f, (int) Math.min(Integer.MAX_VALUE, n * 8));
            final long at = bit >>> 3;
            final byte b = scratch.get(ValueLayout.JAVA_BYTE, at);
            scratch.set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ (1 << (bit & 7))));
        }
        return checksum(scratch, n) != sent;
    }

    private long checksum(final MemorySegment bytes, final long n) {
        crc.reset();
        crc.update(bytes.asSlice(0, n).asByteBuffer());
        return crc.getValue();
    }

    long footprintBytes() {
        return HeapFootprint.PADDED_OBJECT + (scratch == null ? 0 : HeapFootprint.byteArray(scratch.byteSize()));
    }
}
