package org.jhpvm.shmem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmCompletion;
import org.jhpvm.fm.FmOutputStream;
import org.jhpvm.fm.FmRegion;

/**
 * This PE's NIC messages and RDMA transfers in flight: SHMEM's puts, gets, atomics, accumulates and signals are NIC
 * messages whose handlers the target's NIC runs ({@link FastMessages#nicOffload()}), or, where the fabric has no
 * such NIC, FM runs them in the target's extract; large contiguous transfers are RDMA between registered regions.
 * Every request completes on FM's completion queue: this class counts what is in flight, takes completions as they
 * come ({@link #reap()}), waits for one ({@link #await}) or all ({@link #awaitAll()}, for {@code quiet}), and turns a
 * failed completion into this PE's error (a target that refused a request touched no memory).
 * <p>
 * It also owns the reply room (a registered scratch of one frame, where a get's or a fetching atomic's reply lands
 * before it is copied to the caller's array), the protection keys of symmetric objects (the same on every PE, so no
 * PE needs to ask another), and a small registration cache for the user buffers of RDMA.
 * <p>
 * Used under the engine's ownership only; nothing is allocated per request.
 */
final class NicRequests {
    private static final ValueLayout.OfLong LONG_LE =
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** User buffers of RDMA kept registered (the registration cache): a buffer used again is not registered again. */
    private static final int CACHED_BUFFERS = 16;

    private final Engine engine;
    private final FastMessages fm;
    final int maxMessageBytes;
    /** Where replies land: one frame, registered once. */
    final long[] scratch;
    final MemorySegment scratchSegment;
    final FmRegion scratchRegion;
    private final FmCompletion completion = new FmCompletion();
    private final Object[] cachedMemory = new Object[CACHED_BUFFERS];
    private final FmRegion[] cachedRegion = new FmRegion[CACHED_BUFFERS];
    private int cacheNext;
    private long nextContext;
    private long outstanding;
    // the request a blocking call waits for, and how it ended
    private long waitingFor = -1;
    private boolean found;
    private int foundStatus;
    private long foundLength;
    private final BooleanSupplier waitedDone = () -> {
        reap();
        return found;
    };
    private final BooleanSupplier allDone = () -> {
        reap();
        return outstanding == 0;
    };

    NicRequests(final Engine engine) {
        this.engine = engine;
        this.fm = engine.fm;
        this.maxMessageBytes = fm.maxNicMessageBytes();
        this.scratch = new long[(maxMessageBytes + 7) / 8];
        this.scratchSegment = MemorySegment.ofArray(scratch);
        this.scratchRegion = fm.register(scratch);
    }

    /** The protection key of symmetric object {@code id}: a function of the id, the same on every PE. */
    static int keyOf(final int id) {
        long z = (id + 0x5348_454DL) * 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 31)) * 0xBF58_476D_1CE4_E5B9L;
        return (int) (z ^ (z >>> 29)) | 1;
    }

    /** Opens a NIC message to {@code pe} whose reply (if any) lands in the scratch. */
    FmOutputStream begin(final int pe, final int lengthBytes, final int handler, final int replyBytes) {
        outstanding++;
        return fm.beginNicMessage(pe, lengthBytes, handler, replyBytes > 0 ? scratchRegion : null, 0, replyBytes,
            ++nextContext);
    }

    /** Starts an RDMA write or read of a user buffer (registered through the cache); returns its context. */
    long rdma(final boolean write, final Object buffer, final long bufferOffset, final int pe, final int id,
              final long remoteOffset, final long lengthBytes) {
        final FmRegion local = registered(buffer);
        outstanding++;
        final long ctx = ++nextContext;
        if (write) {
            fm.rdmaWrite(local, bufferOffset, pe, id, keyOf(id), remoteOffset, lengthBytes, ctx);
        } else {
            fm.rdmaRead(local, bufferOffset, pe, id, keyOf(id), remoteOffset, lengthBytes, ctx);
        }
        return ctx;
    }

    /** @return the context of the request opened or started last */
    long lastContext() {
        return nextContext;
    }

    /** Takes every completion there is. */
    void reap() {
        while (fm.pollCompletion(completion)) {
            outstanding--;
            if (completion.context() == waitingFor) {
                found = true;
                foundStatus = completion.status();
                foundLength = completion.lengthBytes();
            } else if (!completion.ok()) {
                engine.requestFailed(completion.status());
            }
        }
    }

    /**
     * Waits (with progress) for request {@code ctx} to complete.
     *
     * @return its reply's (or transfer's) length
     * @throws IllegalStateException if the target refused it (naming what)
     */
    long await(final long ctx, final int pe, final String what) {
        waitingFor = ctx;
        found = false;
        try {
            engine.await(waitedDone);
        } finally {
            waitingFor = -1;
        }
        if (foundStatus != FmCompletion.OK) {
            engine.countRejected();
            throw new IllegalStateException("PE " + pe + " refused the " + what + " of PE " + engine.me + ": "
                + FmCompletion.statusName(foundStatus) + " (no such live symmetric object there, or an index outside "
                + "it); no memory was touched");
        }
        return foundLength;
    }

    /** Waits (with progress) until every request is complete: {@code quiet}. */
    void awaitAll() {
        if (outstanding > 0) {
            reap();
            if (outstanding > 0) {
                engine.await(allDone);
            }
        }
    }

    /** @return the first long of the scratch: a fetching atomic's reply */
    long scratchLong() {
        return scratchSegment.get(LONG_LE, 0);
    }

    private FmRegion registered(final Object buffer) {
        for (int i = 0; i < CACHED_BUFFERS; i++) {
            if (cachedMemory[i] == buffer) {
                return cachedRegion[i];
            }
        }
        // Round robin: the oldest entry goes (deregistered once its transfers are complete).
        final int slot = cacheNext;
        cacheNext = (cacheNext + 1) % CACHED_BUFFERS;
        if (cachedRegion[slot] != null) {
            awaitAll();
            fm.deregister(cachedRegion[slot]);
        }
        cachedMemory[slot] = buffer;
        cachedRegion[slot] = fm.register(buffer);
        return cachedRegion[slot];
    }

    long outstanding() {
        return outstanding;
    }
}
