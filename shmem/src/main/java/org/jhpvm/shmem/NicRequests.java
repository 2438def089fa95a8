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
 * come ({@link #reap()}), waits for one ({@link #await}), for those of one context ({@link #awaitDomain}, for
 * {@code quiet}) or for all ({@link #awaitAll()}), and turns a failed completion into this PE's error (a target that
 * refused a request touched no memory).
 * <p>
 * <b>Contexts.</b> Each {@link ShmemCtx} is a completion domain with an FM completion queue of its own
 * ({@link FastMessages#openQueue()}: on the emulated NIC, a queue pair of the NIC): requests are posted on the
 * current domain's queue ({@link #domain}, 0 for the default context, which uses the endpoint's own queue), its
 * number also travels in the high bits of the completion context, and each domain counts its own requests in flight.
 * A context's quiet polls its own queue only. The NIC carries out every queue's requests to a PE in the order
 * posted, whatever their queues.
 * <p>
 * <b>Deferred completions.</b> Puts and non-fetching atomics want nothing back but their outcome, and their delivery
 * is quiet's business: this PE turns on FM's deferred completions ({@link FastMessages#deferCompletions}), so that
 * where FM carries them in its messages their targets count successes instead of answering each, and every wait here
 * for a completion first asks the targets to report ({@link FastMessages#requestCompletions()}). A refused one is
 * still reported at once.
 * <p>
 * <b>Non-blocking fetches</b> ({@code atomic_fetch_add_nbi} and its siblings) reply into a landing slot of a
 * registered array, one slot per fetch in flight; the slot's number travels in the completion context too, and the
 * completion copies the value into the caller's array.
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
    /** Completion domains: the default context and up to {@link ShmemCtx#MAX_CONTEXTS} more. */
    static final int DOMAINS = ShmemCtx.MAX_CONTEXTS + 1;
    /** Non-blocking fetches in flight at most (more wait for a slot). */
    static final int LANDING_SLOTS = 1024;
    private static final int DOMAIN_SHIFT = 48;
    private static final int SLOT_SHIFT = 32;
    private static final long SEQ_MASK = (1L << SLOT_SHIFT) - 1;

    private final Engine engine;
    private final FastMessages fm;
    /**
     * An RDMA write has taken its source when it is posted ({@link FastMessages#rdmaWriteSourceFreeOnReturn()}): a
     * blocking put then returns without waiting for the target's answer, which its domain's quiet collects.
     */
    final boolean writeSourceFreeOnReturn;
    final int maxMessageBytes;
    /** Where replies land: one frame, registered once. */
    final long[] scratch;
    final MemorySegment scratchSegment;
    final FmRegion scratchRegion;
    private final FmCompletion completion = new FmCompletion();
    private final Object[] cachedMemory = new Object[CACHED_BUFFERS];
    private final FmRegion[] cachedRegion = new FmRegion[CACHED_BUFFERS];
    private int cacheNext;
    private long nextSeq;
    private long lastContext;
    private long outstanding;
    /** Requests in flight per completion domain. */
    private final long[] pending = new long[DOMAINS];
    /** The open batch of small puts, sent before any other request (set once by the engine). */
    PutBatch batch;
    /** The domain new requests are posted on: the context in use ({@link ShmemCtx#use()}), 0 by default. */
    int domain;
    /** The world PEs of the team of the context in use, by team rank (targets are its ranks), or null: world. */
    int[] teamPes;
    private int awaitedDomain;
    /** Each domain's FM completion queue (0, the endpoint's own, for the default context). */
    private final int[] queueOf = new int[DOMAINS];
    /** The domains other than 0 that are open, whose queues {@link #reap()} polls. */
    private final int[] openDomains = new int[DOMAINS];
    private int openCount;
    /** Where non-blocking fetches land (registered), and for each slot in use, the caller's array and index. */
    private final long[] landing = new long[LANDING_SLOTS];
    private final FmRegion landingRegion;
    private final Object[] landingDest = new Object[LANDING_SLOTS];
    private final int[] landingIndex = new int[LANDING_SLOTS];
    private final int[] freeLanding = new int[LANDING_SLOTS];
    private int freeLandingTop;
    // the request a blocking call waits for, and how it ended
    private long waitingFor = -1;
    private boolean found;
    private int foundStatus;
    private long foundLength;
    private int waitingPe;
    private String waitingWhat;
    private final BooleanSupplier waitedDone = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            reapDomain((int) (waitingFor >>> DOMAIN_SHIFT));
            return found;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append("the completion of its ").append(waitingWhat).append(" at PE ").append(waitingPe);
        }
    };
    private final BooleanSupplier allDone = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            reap();
            return outstanding == 0;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append(outstanding).append(" request(s) in flight to complete (quiet)");
        }
    };
    private final BooleanSupplier domainDone = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            reapDomain(awaitedDomain);
            return pending[awaitedDomain] == 0;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append(pending[awaitedDomain]).append(" request(s) of context ").append(awaitedDomain)
                .append(" to complete (quiet)");
        }
    };
    private final BooleanSupplier landingFree = new WaitCondition() {
        @Override
        public boolean getAsBoolean() {
            reap();
            return freeLandingTop > 0;
        }

        @Override
        public void describeWait(final StringBuilder out) {
            out.append("a free landing slot for a non-blocking fetch");
        }
    };

    NicRequests(final Engine engine) {
        this.engine = engine;
        this.fm = engine.fm;
        this.maxMessageBytes = fm.maxNicMessageBytes();
        this.writeSourceFreeOnReturn = fm.rdmaWriteSourceFreeOnReturn();
        fm.deferCompletions(true); // puts and non-fetching atomics: their targets report successes when asked
        this.scratch = new long[(maxMessageBytes + 7) / 8];
        this.scratchSegment = MemorySegment.ofArray(scratch);
        this.scratchRegion = fm.register(scratch);
        this.landingRegion = fm.register(landing);
        for (int i = 0; i < LANDING_SLOTS; i++) {
            freeLanding[i] = LANDING_SLOTS - 1 - i;
        }
        freeLandingTop = LANDING_SLOTS;
    }

    private long nextContext(final int slotPlusOne) {
        outstanding++;
        pending[domain]++;
        lastContext = (long) domain << DOMAIN_SHIFT | (long) slotPlusOne << SLOT_SHIFT | (++nextSeq & SEQ_MASK);
        return lastContext;
    }

    /** The protection key of symmetric object {@code id}: a function of the id, the same on every PE. */
    static int keyOf(final int id) {
        long z = (id + 0x5348_454DL) * 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 31)) * 0xBF58_476D_1CE4_E5B9L;
        return (int) (z ^ (z >>> 29)) | 1;
    }

    /** Opens a NIC message to {@code pe} whose reply (if any) lands in the scratch. */
    FmOutputStream begin(final int pe, final int lengthBytes, final int handler, final int replyBytes) {
        if (batch.pending()) {
            batch.flush(); // the open batch goes first: a cold call, so the post path stays small
        }
        return fm.beginNicMessage(queueOf[domain], pe, lengthBytes, handler, replyBytes > 0 ? scratchRegion : null, 0,
            replyBytes, nextContext(0));
    }

    /**
     * Opens a NIC message to {@code pe} whose 8-byte reply lands in a slot and, on completion, is stored as element
     * {@code index} of {@code dest} (a non-blocking fetch), waiting for a free slot if all are in use.
     */
    FmOutputStream beginFetchNbi(final int pe, final int lengthBytes, final int handler, final Object dest,
        final int index) {
        if (batch.pending()) {
            batch.flush(); // the open batch goes first: a cold call, so the post path stays small
        }
        if (freeLandingTop == 0) {
            engine.await(landingFree);
        }
        final int slot = freeLanding[--freeLandingTop];
        landingDest[slot] = dest;
        landingIndex[slot] = index;
        return fm.beginNicMessage(queueOf[domain], pe, lengthBytes, handler, landingRegion, (long) slot * Long.BYTES,
            Long.BYTES, nextContext(slot + 1));
    }

    /** Starts an RDMA write or read of a user buffer (registered through the cache); returns its context. */
    long rdma(final boolean write, final Object buffer, final long bufferOffset, final int pe, final int id,
              final long remoteOffset, final long lengthBytes) {
        if (batch.pending()) {
            batch.flush(); // the open batch goes first: a cold call, so the post path stays small
        }
        final FmRegion local = registered(buffer);
        final long ctx = nextContext(0);
        final int queue = queueOf[domain];
        if (write) {
            fm.rdmaWrite(queue, local, bufferOffset, pe, id, keyOf(id), remoteOffset, lengthBytes, ctx);
        } else {
            fm.rdmaRead(queue, local, bufferOffset, pe, id, keyOf(id), remoteOffset, lengthBytes, ctx);
        }
        return ctx;
    }

    /** @return the context of the request opened or started last */
    long lastContext() {
        return lastContext;
    }

    /** Opens completion domain {@code d} (a new context): its requests complete on an FM queue of its own. */
    void openDomain(final int d) {
        queueOf[d] = fm.openQueue();
        openDomains[openCount++] = d;
    }

    /** Closes domain {@code d} once its requests are complete (a destroyed context's quiet came first). */
    void closeDomain(final int d) {
        awaitDomain(d);
        reapDomain(d);
        fm.closeQueue(queueOf[d]);
        queueOf[d] = 0;
        for (int i = 0; i < openCount; i++) {
            if (openDomains[i] == d) {
                openDomains[i] = openDomains[--openCount];
                break;
            }
        }
    }

    /** Takes every completion there is, of every domain. */
    void reap() {
        reapQueue(0);
        for (int i = 0; i < openCount; i++) {
            reapQueue(queueOf[openDomains[i]]);
        }
    }

    /**
     * Takes the completions of the domain requests are posted on now: a post's bookkeeping, which looks at its own
     * context's queue only.
     */
    void reapCurrent() {
        reapQueue(queueOf[domain]);
    }

    /** @return the FM completion queue of domain {@code d} (0 for the default context, and for a closed domain) */
    int queueOf(final int d) {
        return queueOf[d];
    }

    /** Takes the completions of domain {@code d} (its own queue only: another context's are not looked at). */
    void reapDomain(final int d) {
        reapQueue(queueOf[d]);
    }

    private void reapQueue(final int queue) {
        while (fm.pollCompletion(queue, completion)) {
            final long ctx = completion.context();
            outstanding--;
            pending[(int) (ctx >>> DOMAIN_SHIFT)]--;
            final int slot = (int) ((ctx >>> SLOT_SHIFT) & 0xFFFF) - 1;
            if (slot >= 0) {
                landed(slot, completion.ok());
            }
            if (ctx == waitingFor) {
                found = true;
                foundStatus = completion.status();
                foundLength = completion.lengthBytes();
            } else if (!completion.ok()) {
                engine.rejections.requestFailed(completion.status());
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
        waitingPe = pe;
        waitingWhat = what;
        found = false;
        fm.requestCompletions();
        try {
            engine.await(waitedDone);
        } finally {
            waitingFor = -1;
        }
        if (foundStatus != FmCompletion.OK) {
            engine.rejections.countRejected();
            throw new IllegalStateException("PE " + pe + " refused the " + what + " of PE " + engine.me + ": "
                + FmCompletion.statusName(foundStatus) + " (no such live symmetric object there, or an index outside "
                + "it); no memory was touched");
        }
        return foundLength;
    }

    private void landed(final int slot, final boolean ok) {
        final Object dest = landingDest[slot];
        if (ok) {
            final long bits = landing[slot];
            Kind.of(dest).setBits(dest, landingIndex[slot], bits);
        }
        landingDest[slot] = null;
        freeLanding[freeLandingTop++] = slot;
    }

    /** Waits (with progress) until every request of completion domain {@code d} is complete: a context's quiet. */
    void awaitDomain(final int d) {
        if (pending[d] > 0) {
            reap();
            if (pending[d] > 0) {
                final int saved = awaitedDomain;
                awaitedDomain = d;
                fm.requestCompletions();
                try {
                    engine.await(domainDone);
                } finally {
                    awaitedDomain = saved;
                }
            }
        }
    }

    /** Requests in flight on domain {@code d}. */
    long pending(final int d) {
        return pending[d];
    }

    /** Counts {@code delta} requests as in flight on domain {@code d} (tests: a request that never completes). */
    void countInFlight(final int d, final long delta) {
        pending[d] += delta;
        outstanding += delta;
    }

    /** Waits (with progress) until every request of every domain is complete. */
    void awaitAll() {
        if (outstanding > 0) {
            reap();
            if (outstanding > 0) {
                fm.requestCompletions();
                engine.await(allDone);
            }
        }
    }

    /**
     * Ends the issue of an atomic's NIC message just sent to {@code pe}: a non-fetching one is left to complete (its
     * completion taken if it is there already), a fetching one is waited for.
     *
     * @return the old value a fetching atomic replied, else 0
     */
    long finishAmo(final int pe, final boolean fetch) {
        if (!fetch) {
            reapCurrent();
            return 0;
        }
        await(lastContext(), pe, "atomic");
        return scratchLong();
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
