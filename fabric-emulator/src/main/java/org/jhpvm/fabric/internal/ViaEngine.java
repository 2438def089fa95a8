package org.jhpvm.fabric.internal;

import java.util.Objects;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.jhpvm.fabric.BackoffIdleStrategy;
import org.jhpvm.fabric.Completion;
import org.jhpvm.fabric.CompletionQueue;
import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.Frame;
import org.jhpvm.fabric.FrameDescriptor;
import org.jhpvm.fabric.FrameRejections;
import org.jhpvm.fabric.MemoryRegion;
import org.jhpvm.fabric.Nic;
import org.jhpvm.fabric.NicHandler;
import org.jhpvm.fabric.QueuePair;
import org.jhpvm.fabric.RdmaCounters;
import org.jhpvm.fabric.WorkDescriptor;

/**
 * The emulated NIC as a processor (the VIA paper's NIC and the LANai's programmability): registered memory, RDMA
 * write and read between registered regions, NIC messages whose handlers the target NIC runs, and the completion
 * queue. Like the frame engine it has no thread: a request is carried out on the posting host's turn, by its NIC's
 * engine, which reaches into the target NIC's registered memory directly (one copy, region to region, no frames) and
 * runs the target's handler there, so the target host is never involved. The checks come first, and a refused
 * request touches no memory: the local region must be registered with this NIC and hold the bytes, the remote one
 * must be registered at its NIC with the key the descriptor presents and hold them too; a NIC message needs a handler
 * at its target. Faults of the plan apply to every segment on the way ({@link ReliableConnection}).
 * <p>
 * Host only, but for what other NICs' engines read while they carry a request to this NIC: the region table, the
 * handlers and the counters, all safe to read from any thread.
 */
final class ViaEngine {
    static final int REGISTRATIONS = 0;
    static final int CACHE_HITS = 1;
    static final int DEREGISTRATIONS = 2;
    static final int RDMA_WRITES = 3;
    static final int RDMA_READS = 4;
    static final int RDMA_BYTES = 5;
    static final int NIC_MESSAGES_SENT = 6;
    static final int ERRORS = 7;
    static final int SEGMENTS_LOST = 8;
    static final int SEGMENTS_CORRUPTED = 9;
    static final int SEGMENTS_DUPLICATED = 10;
    static final int RETRANSMISSIONS = 11;
    private static final int COUNTERS = 12;
    /** Cells of {@link #served} on each side of its counters: a cache line pair (128 bytes). */
    private static final int PAD = 16;
    private static final int HANDLED = PAD;
    private static final int REFUSED_AT_TARGET = PAD + 1;
    private static final int SERVED_CELLS = PAD + 2 + PAD;

    private final MyrinetFabric fabric;
    private final int id;
    private final int frameBytes;
    private final int headerBytes;
    private final MyrinetNic nic;
    private final RegionTable regions;
    /** The NIC's own queue pair's completions. */
    final CompletionRing completions;
    private final Supplier<BackoffIdleStrategy> idlePrototype;
    private final AtomicReferenceArray<NicHandler> handlers = new AtomicReferenceArray<>(Nic.MAX_NIC_HANDLERS);
    /** Counted by this NIC's host as it posts (one at a time). */
    private final AtomicLongArray counters = new AtomicLongArray(COUNTERS);
    /**
     * Counted by the engines of the NICs whose requests this NIC serves, on their hosts' threads: messages handled
     * and requests refused. Padded, so that a sender's add does not take the cache line of {@link #counters} from
     * this NIC's host, which writes it on every request (a third of a put's time in a 2-PE put ping-pong when they
     * shared it).
     */
    private final AtomicLongArray served = new AtomicLongArray(SERVED_CELLS);
    private final ReliableConnection connection;
    private final NicMessageContext message;

    ViaEngine(final MyrinetFabric fabric, final int id, final FabricConfig config, final MyrinetNic nic) {
        this.fabric = fabric;
        this.id = id;
        this.frameBytes = config.frameBytes();
        this.headerBytes = config.headerBytes();
        this.nic = nic;
        this.regions = new RegionTable(id, MixHash.mix(System.nanoTime() ^ ((long) id << 40)));
        this.completions = new CompletionRing(fabric, config.completionQueueCapacity(), config.newIdleStrategy());
        this.idlePrototype = config::newIdleStrategy;
        this.connection = new ReliableConnection(id, config.faultPlan(), config.rdmaSegmentBytes(), counters);
        this.message = new NicMessageContext(config.frameBytes());
    }

    MemoryRegion register(final Object memory) {
        fabric.checkOpen();
        return regions.register(Objects.requireNonNull(memory, "memory"));
    }

    MemoryRegion register(final Object memory, final int handle, final int key) {
        fabric.checkOpen();
        return regions.register(Objects.requireNonNull(memory, "memory"), handle, key);
    }

    void deregister(final MemoryRegion region) {
        regions.deregister(Objects.requireNonNull(region, "region"));
    }

    CompletionQueue completionQueue() {
        return completions;
    }

    void registerNicHandler(final int handlerId, final NicHandler handler) {
        Objects.requireNonNull(handler, "handler");
        if (handlerId < 0 || handlerId >= Nic.MAX_NIC_HANDLERS) {
            throw new IllegalArgumentException("NIC handler id " + handlerId + " outside 0.."
                + (Nic.MAX_NIC_HANDLERS - 1));
        }
        if (!handlers.compareAndSet(handlerId, null, handler)) {
            throw new IllegalStateException("NIC handler " + handlerId + " is already registered at NIC " + id);
        }
    }

    /** Opens a queue pair of this NIC: the same engine, a completion queue of its own. */
    QueuePair openQueuePair() {
        fabric.checkOpen();
        return new ViaQueuePair(this, id, new CompletionRing(fabric, completions.capacity(), idlePrototype.get()));
    }

    /**
     * Carries out a request on the posting host's turn, its completion going to {@code completions} (the NIC's own
     * ring, or a queue pair's); see {@link Nic#post}.
     */
    boolean post(final WorkDescriptor d, final CompletionRing completions) {
        fabric.checkOpen();
        Objects.requireNonNull(d, "descriptor");
        final int op = d.op();
        if (op == WorkDescriptor.RDMA_WRITE || op == WorkDescriptor.RDMA_READ) {
            if (d.lengthBytes() < 0) {
                throw new IllegalArgumentException("lengthBytes=" + d.lengthBytes() + " is negative");
            }
            checkNic(d.remoteNic());
            if (!completions.reserve()) {
                return false;
            }
            final int status = rdma(d);
            completions.add(op, status, status == Completion.OK ? d.lengthBytes() : 0, d.context());
            return true;
        }
        if (op == WorkDescriptor.NIC_MESSAGE) {
            final Frame frame = d.frame();
            if (frame == null) {
                throw new IllegalArgumentException("a NIC message needs a frame");
            }
            final int dst = frame.destination();
            if (frame.origin() != fabric || frame.owner() != id || frame.home() != MyrinetNic.HOME_HOST
                || frame.state() != FrameDescriptor.STATE_HOST || dst < 0 || dst >= fabric.nicCount()
                || frame.length() < 0 || frame.length() > frameBytes) {
                throw FrameRejections.send(frame, fabric, id, MyrinetNic.HOME_HOST, fabric.nicCount(), frameBytes);
            }
            if (d.lengthBytes() < 0 || d.lengthBytes() > frameBytes) {
                throw new IllegalArgumentException("reply capacity " + d.lengthBytes() + " outside 0.." + frameBytes
                    + " (a reply is one frame)");
            }
            if (!completions.reserve()) {
                return false;
            }
            final long replied = nicMessage(d, frame);
            nic.recycle(frame);
            completions.add(op, replied < 0 ? (int) -replied : Completion.OK, Math.max(0, replied), d.context());
            return true;
        }
        throw new IllegalArgumentException("the descriptor was never filled (op=" + op + ")");
    }

    private int rdma(final WorkDescriptor d) {
        final long length = d.lengthBytes();
        int status = checkLocal(d.local(), d.localOffsetBytes(), length);
        if (status != Completion.OK) {
            counters.incrementAndGet(ERRORS);
            return status;
        }
        final ViaEngine target = fabric.nicUnchecked(d.remoteNic()).via();
        final MemoryRegion remote = target.regions.lookup(d.remoteHandle());
        status = remote == null ? Completion.ERR_NOT_REGISTERED
            : remote.key() != d.remoteKey() ? Completion.ERR_BAD_KEY
            : !remote.contains(d.remoteOffsetBytes(), length) ? Completion.ERR_OUT_OF_BOUNDS : Completion.OK;
        if (status != Completion.OK) {
            target.served.incrementAndGet(REFUSED_AT_TARGET);
            counters.incrementAndGet(ERRORS);
            return status;
        }
        final MemoryRegion local = d.local();
        if (d.op() == WorkDescriptor.RDMA_WRITE) {
            status = connection.move(id, d.remoteNic(), local.segment(), d.localOffsetBytes(), remote.segment(),
                d.remoteOffsetBytes(), length);
        } else {
            status = connection.move(d.remoteNic(), id, remote.segment(), d.remoteOffsetBytes(), local.segment(),
                d.localOffsetBytes(), length);
        }
        if (status != Completion.OK) {
            counters.incrementAndGet(ERRORS);
            return status;
        }
        counters.incrementAndGet(d.op() == WorkDescriptor.RDMA_WRITE ? RDMA_WRITES : RDMA_READS);
        counters.addAndGet(RDMA_BYTES, length);
        if (d.op() == WorkDescriptor.RDMA_WRITE) {
            fabric.nicUnchecked(d.remoteNic()).memoryWritten();
        }
        return Completion.OK;
    }

    /** @return bytes replied, or the negated error status */
    private long nicMessage(final WorkDescriptor d, final Frame frame) {
        final MemoryRegion replyTo = d.local();
        final long capacity = replyTo == null ? 0 : d.lengthBytes();
        if (replyTo != null) {
            final int status = checkLocal(replyTo, d.localOffsetBytes(), capacity);
            if (status != Completion.OK) {
                counters.incrementAndGet(ERRORS);
                return -status;
            }
        }
        final int dst = frame.destination();
        final ViaEngine target = fabric.nicUnchecked(dst).via();
        final NicHandler handler = d.handler() >= 0 && d.handler() < Nic.MAX_NIC_HANDLERS
            ? target.handlers.get(d.handler()) : null;
        if (handler == null) {
            target.served.incrementAndGet(REFUSED_AT_TARGET);
            counters.incrementAndGet(ERRORS);
            return -Completion.ERR_NO_HANDLER;
        }
        frame.stampSource(id);
        if (!connection.carry(id, dst, frame.segment(), frame.headerOffset(), headerBytes + frame.length())) {
            counters.incrementAndGet(ERRORS);
            return -Completion.ERR_RETRY_EXCEEDED;
        }
        message.begin(id, frame, target.regions, capacity);
        try {
            handler.onMessage(message);
        } catch (final IndexOutOfBoundsException e) {
            if (!message.overflowed()) {
                throw handlerFailed(d.handler(), dst, e);
            }
        } catch (final RuntimeException e) {
            throw handlerFailed(d.handler(), dst, e);
        } finally {
            message.end();
        }
        if (message.rejected() || message.overflowed()) {
            target.served.incrementAndGet(REFUSED_AT_TARGET);
            counters.incrementAndGet(ERRORS);
            return -(message.rejected() ? Completion.ERR_REJECTED : Completion.ERR_OUT_OF_BOUNDS);
        }
        target.served.incrementAndGet(HANDLED);
        if (!message.unchanged()) {
            fabric.nicUnchecked(dst).memoryWritten();
        }
        final long replied = message.replyLength();
        if (replied > 0 && connection.move(dst, id, message.replyBytes(), 0, replyTo.segment(),
            d.localOffsetBytes(), replied) != Completion.OK) {
            counters.incrementAndGet(ERRORS);
            return -Completion.ERR_RETRY_EXCEEDED;
        }
        counters.incrementAndGet(NIC_MESSAGES_SENT);
        return replied;
    }

    private int checkLocal(final MemoryRegion local, final long offset, final long length) {
        if (local == null || local.nic() != id || regions.lookup(local.handle()) != local) {
            return Completion.ERR_NOT_REGISTERED;
        }
        return local.contains(offset, length) ? Completion.OK : Completion.ERR_OUT_OF_BOUNDS;
    }

    private void checkNic(final int remote) {
        if (remote < 0 || remote >= fabric.nicCount()) {
            throw new IllegalArgumentException("NIC " + remote + " is not a NIC of this fabric (0.."
                + (fabric.nicCount() - 1) + ")");
        }
    }

    private static IllegalStateException handlerFailed(final int handler, final int nic, final RuntimeException e) {
        return new IllegalStateException("NIC handler " + handler + " at NIC " + nic + " failed: " + e, e);
    }

    RdmaCounters counters() {
        return new RdmaCounters(regions.registrations(), regions.cacheHits(), regions.deregistrations(),
            counters.get(RDMA_WRITES), counters.get(RDMA_READS), counters.get(RDMA_BYTES),
            counters.get(NIC_MESSAGES_SENT), served.get(HANDLED), counters.get(ERRORS),
            served.get(REFUSED_AT_TARGET), counters.get(SEGMENTS_LOST), counters.get(SEGMENTS_CORRUPTED),
            counters.get(SEGMENTS_DUPLICATED), counters.get(RETRANSMISSIONS));
    }

    long footprintBytes() {
        return HeapFootprint.PADDED_OBJECT + completions.footprintBytes() + connection.footprintBytes()
            + HeapFootprint.refArray(Nic.MAX_NIC_HANDLERS) + HeapFootprint.longArray(COUNTERS)
            + HeapFootprint.longArray(SERVED_CELLS)            + HeapFootprint.byteArray(frameBytes) + 2 * HeapFootprint.PADDED_OBJECT;
    }
}
