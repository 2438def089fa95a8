package org.jhpvm.fm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

import org.jhpvm.fm.FmHostMemory;

/**
 * The bytes of RDMA carried in FM's messages ({@link MessageOffload}) between two PEs of one host, moved through host
 * memory instead of frames: the side that has the bytes (the writer, or the target of a read) copies each piece into
 * a ring in its host memory, and a short message tells the other side, which maps the ring, to copy the piece out.
 * Two copies, where frames take four on Aeron (into a frame, into the publication's log, out of it into a receive
 * frame, out of that into the region), and the log's cleaning; and the two copies of successive pieces run at once on
 * the two PEs' cores.
 * <p>
 * Each PE keeps one ring for each PE of its host it sends such bytes to, made at the first transfer: {@link #SLOTS}
 * slots of {@link #PIECE_BYTES} (2 MiB), each with a state word on a cache line of its own (full or free). A ring
 * holds a whole 1 MiB transfer and the next one's first pieces, so a producer that streams large puts seldom waits
 * for its consumer (with 512 KiB, a stream of 1 MiB puts ran at a third of the speed: measured). The producer takes
 * a free slot, fills it, marks it full and sends the piece's message, whose delivery publishes the bytes; the consumer
 * copies the piece out and marks the slot free (a release store), which the producer reads with an acquire load. A
 * producer whose slots are all full waits as a rendezvous sender does, and runs its own handlers meanwhile, so two PEs
 * filling rings towards each other both drain. A slot is named in its message, so messages may go out in another
 * order than their slots were taken (a handler that starts a transfer while a send waits).
 * <pre>
 *   ring: SLOTS x (int state, padded to 64 bytes), then SLOTS x PIECE_BYTES
 * </pre>
 * A ring's name is negative (a PE's symmetric objects use names from 0) and unique in this process, so the rings of
 * successive jobs over one fabric never meet. The producer removes its rings when its PE leaves the job with every slot
 * free, and the consumer gives its mappings back; a ring a failed job left is removed with the fabric's host memory.
 * <p>
 * The endpoint's thread only.
 */
final class StagedTransfers {
    /** Bytes a slot holds: a transfer moves in pieces of at most this. */
    static final int PIECE_BYTES = 128 << 10;
    /** Slots of a ring: pieces one producer may have in flight to one consumer. */
    static final int SLOTS = 16;
    private static final int LINE = 64;
    private static final long DATA = (long) SLOTS * LINE;
    /** A ring's length. */
    static final long RING_BYTES = DATA + (long) SLOTS * PIECE_BYTES;
    private static final int FREE = 0;
    private static final int FULL = 1;
    private static final VarHandle STATE = ValueLayout.JAVA_INT.varHandle();
    /** Names of rings this process made, counted down from -1. */
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final FmHostMemory host;
    private final int me;
    private final long minBytes;
    private final FlowControl flow;
    /** Rings this PE fills, by consumer, and their names. */
    private final MemorySegment[] out;
    private final int[] outName;
    private final int[] nextSlot;
    /** Consumers no ring could be made for (the host's memory full): their transfers stay in frames. */
    private final boolean[] unavailable;
    /** Rings this PE has mapped, by producer, and their names. */
    private final MemorySegment[] in;
    private final int[] inName;

    /**
     * @param host     this PE's view of its host's memory
     * @param me       this PE
     * @param pes      PEs of the job
     * @param minBytes transfers of at least this many bytes are staged (at least 1)
     * @param flow     the endpoint's flow control, whose busy wait a producer with no free slot waits in
     */
    StagedTransfers(final FmHostMemory host, final int me, final int pes, final long minBytes,
                    final FlowControl flow) {
        this.host = host;
        this.me = me;
        this.minBytes = minBytes;
        this.flow = flow;
        this.out = new MemorySegment[pes];
        this.outName = new int[pes];
        this.nextSlot = new int[pes];
        this.unavailable = new boolean[pes];
        this.in = new MemorySegment[pes];
        this.inName = new int[pes];
    }

    /**
     * @param peer   the other PE of the transfer
     * @param length its bytes
     * @return whether the transfer's bytes go through a ring (made here at the first transfer to {@code peer}; where
     *         the host has no room for it, never, and the transfers to {@code peer} stay in frames)
     */
    boolean applies(final int peer, final long length) {
        return length >= minBytes && peer != me && !unavailable[peer] && host.reaches(peer) && ring(peer) != null;
    }

    /**
     * Copies one piece into a free slot of the ring to {@code peer}, waiting for one, and marks it full; the caller
     * then sends the piece's message naming {@link #ringName} and the slot.
     *
     * @param peer   the consumer
     * @param src    the bytes
     * @param offset where the piece begins in {@code src}
     * @param length the piece's bytes, at most {@link #PIECE_BYTES}
     * @return the slot
     */
    int stage(final int peer, final MemorySegment src, final long offset, final int length) {
        final MemorySegment ring = ring(peer);
        final int slot = freeSlot(peer, ring);
        MemorySegment.copy(src, offset, ring, DATA + (long) slot * PIECE_BYTES, length);
        return slot;
    }

    /**
     * @param peer a consumer this PE has a ring to
     * @return the ring's name
     */
    int ringName(final int peer) {
        return outName[peer];
    }

    /**
     * Copies one piece out of a producer's ring and frees its slot.
     *
     * @param peer   the producer
     * @param name   its ring's name, from the piece's message
     * @param slot   the slot, from the message
     * @param dst    where the piece goes, or null to only free the slot (a transfer that failed its checks)
     * @param offset where in {@code dst}
     * @param length the piece's bytes
     */
    void unstage(final int peer, final int name, final int slot, final MemorySegment dst, final long offset,
                 final int length) {
        if (slot < 0 || slot >= SLOTS || length < 0 || length > PIECE_BYTES) {
            throw new IllegalStateException("PE " + peer + " sent a staged piece of " + length + " bytes in slot "
                + slot + " (a ring has " + SLOTS + " slots of " + PIECE_BYTES + " bytes)");
        }
        MemorySegment ring = in[peer];
        if (ring == null || inName[peer] != name) {
            if (ring != null) {
                host.unmap(peer, inName[peer]);
                in[peer] = null;
            }
            ring = host.map(peer, name);
            in[peer] = ring;
            inName[peer] = name;
        }
        if (dst != null) {
            MemorySegment.copy(ring, DATA + (long) slot * PIECE_BYTES, dst, offset, length);
        }
        STATE.setRelease(ring, (long) slot * LINE, FREE);
    }

    /** The PE leaves the job: removes its rings whose slots are all free and gives its mappings back. */
    void close() {
        for (int p = 0; p < out.length; p++) {
            final MemorySegment ring = out[p];
            if (ring != null && allFree(ring)) {
                out[p] = null;
                host.remove(outName[p]);
            }
            if (in[p] != null) {
                in[p] = null;
                host.unmap(p, inName[p]);
            }
        }
    }

    /** The ring to {@code peer}, made at the first call; null, and frames from then on, if the host has no room. */
    private MemorySegment ring(final int peer) {
        MemorySegment ring = out[peer];
        if (ring == null) {
            final int name = NAMES.decrementAndGet();
            try {
                if (name >= 0) {
                    throw new IllegalStateException("host memory rings: names used up in this process");
                }
                ring = host.create(name, RING_BYTES);
            } catch (final IllegalStateException e) {
                unavailable[peer] = true;
                return null;
            }
            out[peer] = ring;
            outName[peer] = name;
        }
        return ring;
    }

    private int freeSlot(final int peer, final MemorySegment ring) {
        int slot = nextSlot[peer];
        while (true) {
            for (int i = 0; i < SLOTS; i++) {
                if ((int) STATE.getAcquire(ring, (long) slot * LINE) == FREE) {
                    STATE.set(ring, (long) slot * LINE, FULL);
                    nextSlot[peer] = slot + 1 == SLOTS ? 0 : slot + 1;
                    return slot;
                }
                slot = slot + 1 == SLOTS ? 0 : slot + 1;
            }
            flow.waitOnceBusy();
        }
    }

    private static boolean allFree(final MemorySegment ring) {
        for (int i = 0; i < SLOTS; i++) {
            if ((int) STATE.getAcquire(ring, (long) i * LINE) != FREE) {
                return false;
            }
        }
        return true;
    }
}
