package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.AMO_ADD;
import static org.jhpvm.shmem.MessageDescriptor.AMO_AND;
import static org.jhpvm.shmem.MessageDescriptor.AMO_OR;
import static org.jhpvm.shmem.MessageDescriptor.AMO_SET;
import static org.jhpvm.shmem.MessageDescriptor.AMO_XOR;
import static org.jhpvm.shmem.MessageDescriptor.BATCH_AMO_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.BATCH_OBJECT_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.BATCH_PUT_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.NIC_AMO_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.NIC_PUT_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.N_AMO;
import static org.jhpvm.shmem.MessageDescriptor.N_BATCH;
import static org.jhpvm.shmem.MessageDescriptor.N_PUT;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.jhpvm.fm.FmNicMessage;
import org.jhpvm.fm.FmOutputStream;

/**
 * Aggregation of small puts and non-fetching atomics: consecutive ones to the same PE on the same context are written
 * into one staging frame and leave as one NIC message ({@link MessageDescriptor#N_BATCH}), whose handler the target's
 * NIC runs entry by entry, in the order they were issued. OpenSHMEM allows it: a put or a non-fetching atomic is
 * complete only at the next quiet, and ordered with respect to later operations to the same PE only by a fence.
 * A batch opens only when the call before was a put or atomic to the same PE and context: one between other calls
 * (a put followed by a wait) leaves at once as its own message, as without aggregation.
 * <p>
 * The batch leaves (is <em>flushed</em>) before any other SHMEM call of the PE does anything (every call but the
 * batched ones flushes on entry: a quiet, fence, barrier, wait or test, a get, a fetching atomic, a put to another
 * PE or context, a large put), when the next entry does not fit the frame, and when the progress agent finds that no
 * entry joined it between two of its looks (while a batch is open and idle the agent looks at least every
 * {@code shmem.aggregateDelayNs}), so a PE that puts and then computes without calling SHMEM still delivers. The
 * source is copied into the staging frame before the put returns, so it may be reused at once, as a blocking put
 * promises; the frame is copied once more, whole, into the NIC's frame at the flush (holding a NIC frame open across
 * calls would stop the endpoint's other sends).
 * <p>
 * The target's handler checks every entry (object, key, bounds, an atomic's type) before it writes any: a batch with
 * one bad entry is refused whole and changes nothing, and the refusal comes back as a failed completion, raised by
 * the PE's next call as a refused put is.
 * <p>
 * Used under the engine's ownership only (the PE thread's calls, or the agent's pass); nothing is allocated per
 * entry.
 */
final class PutBatch {
    private static final VarHandle PENDING;
    private static final VarHandle APPENDED;
    /** Where the check pass leaves what it touched, so that the loads are not dropped as unused. */
    @SuppressWarnings("unused")
    private static long touchedSink;
    /** FM's wire layout (little endian, unaligned) over the staging bytes. */
    private static final VarHandle INT_VIEW = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_VIEW =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The same layout, as the target's handler reads it from the request's segment: the kinds' wire layouts. */
    private static final ValueLayout.OfInt INT_LE = (ValueLayout.OfInt) Kind.INT.wire;
    private static final ValueLayout.OfLong LONG_LE = (ValueLayout.OfLong) Kind.LONG.wire;
    private static final ValueLayout.OfDouble DOUBLE_LE = (ValueLayout.OfDouble) Kind.DOUBLE.wire;
    /** Puts of up to this many bytes are batched by default ({@code shmem.aggregateBytes}). */
    static final int DEFAULT_PUT_BYTES = 256;
    /** The progress agent sends a batch older than this by default ({@code shmem.aggregateDelayNs}). */
    static final long DEFAULT_DELAY_NS = 50_000;
    /** The op of a put entry (atomics' entries carry their {@code AMO_*} op, 0 to 7); its count is above the op. */
    static final int OP_PUT = 8;
    /** The op of an entry naming the object of the entries after it. */
    static final int OP_OBJECT = 9;
    /** Bits of the op in an entry's first word. */
    static final int OP_BITS = 8;
    private static final int OP_MASK = (1 << OP_BITS) - 1;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(PutBatch.class, "pending", boolean.class);
            APPENDED = MethodHandles.lookup().findVarHandle(PutBatch.class, "appended", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NicRequests nic;
    private final byte[] staging;
    private final MemorySegment segment;
    /** The largest put (bytes) that is batched; 0: aggregation off. */
    private int maxPutBytes;
    /** How old a batch may grow before the progress agent sends it. */
    private long delayNs;
    private int pe = -1;
    private int domain;
    /** The object of the open batch's last entries. */
    private int objectId = -1;
    private int length;
    private int entries;
    /**
     * Entries added so far, ever (opaque: the agent reads it without the endpoint): the agent's clock. A batch that
     * gained nothing between two of the agent's looks is one its PE left open; one that grows is being filled, and
     * leaves when it is full. (Reading the time at every new batch cost a put followed by quiet about 100 ns.)
     */
    private long appended;
    /** {@link #appended} at the agent's last look, or -1. */
    private long seenByAgent = -1;
    /** A batch is open (opaque: the progress agent reads it without the endpoint). */
    @SuppressWarnings("unused") // through PENDING
    private boolean pending;
    /**
     * The PE and context of the previous SHMEM call if it was a put or atomic sent alone (-1 after any other call): a
     * put or atomic opens a batch only when it follows one to the same PE, so a lone put (a put followed by a wait,
     * the ping-pong of users' programs) leaves at once as its own message, as without aggregation, and a stream of
     * them is batched from its second entry on.
     */
    private int alonePe = -1;
    private int aloneDomain;
    /**
     * Batches of two entries or more sent, and the entries they carried; and batches that found no company and left
     * as a lone put or atomic (the agent sends an idle batch of one when its PE is descheduled): for the tests.
     */
    private long batchesSent;
    /**
     * Run after a batch of several entries is sent, or null: on FM's message path the engine serves what other PEs
     * sent meanwhile ({@link Engine#serveBetweenBatches}), so a PE that streams puts or atomics also serves the
     * streams aimed at it, where its progress agent would have had to take the endpoint from it between its calls.
     */
    private Runnable afterBatch;
    private long entriesSent;
    private long singlesSent;

    PutBatch(final NicRequests nic, final int maxPutBytes, final long delayNs) {
        this.nic = nic;
        this.staging = new byte[nic.maxMessageBytes];
        this.segment = MemorySegment.ofArray(staging);
        configure(maxPutBytes, delayNs);
    }

    /** Sets the largest batched put ({@code 0}: off) and the agent's delay; under ownership, with no batch open. */
    void configure(final int putBytes, final long ns) {
        if (putBytes < 0 || ns < 0) {
            throw new IllegalArgumentException("aggregation bytes=" + putBytes + " and delay=" + ns + " ns must not be "
                + "negative");
        }
        flush();
        this.maxPutBytes = Math.min(putBytes, staging.length - BATCH_OBJECT_BYTES - BATCH_PUT_HEADER_BYTES);
        this.delayNs = ns;
    }

    int maxPutBytes() {
        return maxPutBytes;
    }

    long delayNs() {
        return delayNs;
    }

    /** @return whether a batch is open (the agent's unowned look) */
    boolean pendingOpaque() {
        return (boolean) PENDING.getOpaque(this);
    }

    /** @return whether a batch is open (under ownership) */
    boolean pending() {
        return pe >= 0;
    }

    /**
     * Adds a contiguous put of {@code count} elements to the batch to {@code target} on the context in use, sending
     * the open batch first if it goes elsewhere or the entry does not fit.
     *
     * @return false if the put is not one to batch (too large, or aggregation is off): the caller sends it
     */
    boolean put(final SymmetricArray s, final int target, final int di, final Object src, final int si,
        final int count) {
        final int bytes = count * s.kind.bytes;
        if (bytes > maxPutBytes) {
            alonePe = -1; // a call of another kind: the next small put starts alone
            return false;
        }
        if (!joins(target)) {
            return false;
        }
        final int at = open(target, s, BATCH_PUT_HEADER_BYTES + bytes);
        INT_VIEW.set(staging, at, OP_PUT | count << OP_BITS);
        INT_VIEW.set(staging, at + 4, di);
        final int data = at + BATCH_PUT_HEADER_BYTES;
        if (count == 1) {
            // One element by a typed store: the bulk copy's checks cost more than the element.
            switch (src) {
                case long[] x -> LONG_VIEW.set(staging, data, x[si]);
                case double[] x -> LONG_VIEW.set(staging, data, Double.doubleToRawLongBits(x[si]));
                case int[] x -> INT_VIEW.set(staging, data, x[si]);
                case float[] x -> INT_VIEW.set(staging, data, Float.floatToRawIntBits(x[si]));
                default -> MemorySegment.copy(src, si, segment, s.kind.wire, data, 1);
            }
        } else {
            MemorySegment.copy(src, si, segment, s.kind.wire, data, count);
        }
        return true;
    }

    /**
     * Adds a non-fetching atomic ({@code AMO_SET}, {@code AMO_ADD}, {@code AMO_AND}, {@code AMO_OR} or
     * {@code AMO_XOR}) on element {@code index} at {@code target}, as {@link #put}.
     *
     * @return false if it is not one to batch: the caller sends it
     */
    boolean amo(final SymmetricArray s, final int target, final int index, final int op, final long a) {
        if (maxPutBytes == 0 || !batchable(op)) {
            alonePe = -1; // a call of another kind: the next small put starts alone
            return false;
        }
        if (!joins(target)) {
            return false;
        }
        final int at = open(target, s, BATCH_AMO_BYTES);
        INT_VIEW.set(staging, at, op);
        INT_VIEW.set(staging, at + 4, index);
        LONG_VIEW.set(staging, at + 8, a);
        return true;
    }

    /**
     * Whether a batchable put or atomic to {@code target} joins a batch: the open one to it, or a new one if the call
     * before was one to the same PE and context sent alone; otherwise it is sent alone and remembered.
     */
    private boolean joins(final int target) {
        final int d = nic.domain;
        if (pe == target && domain == d || alonePe == target && aloneDomain == d) {
            return true;
        }
        alonePe = target;
        aloneDomain = d;
        return false;
    }

    /** A call other than a batched put or atomic: the next one to any PE starts alone. */
    void otherCall() {
        alonePe = -1;
    }

    static boolean batchable(final int op) {
        return op == AMO_SET || op == AMO_ADD || op == AMO_AND || op == AMO_OR || op == AMO_XOR;
    }

    /**
     * Makes room for an entry of {@code bytes} on object {@code s} in the batch to {@code target} (and for an object
     * entry before it, if the batch's entries so far were on another object); returns where the entry goes.
     */
    private int open(final int target, final SymmetricArray s, final int bytes) {
        final int at = length;
        if (pe == target && s.id == objectId && domain == nic.domain && bytes <= staging.length - at) {
            length = at + bytes;
            entries++;
            APPENDED.setOpaque(this, appended + 1);
            return at;
        }
        return openSlow(target, s, bytes);
    }

    /** {@link #open}: a new batch, or a new object entry in this one. */
    private int openSlow(final int target, final SymmetricArray s, final int bytes) {
        if (pe != target || domain != nic.domain || bytes + BATCH_OBJECT_BYTES > staging.length - length) {
            flush();
            pe = target;
            domain = nic.domain;
            PENDING.setOpaque(this, true);
        }
        INT_VIEW.set(staging, length, OP_OBJECT);
        INT_VIEW.set(staging, length + 4, s.id);
        INT_VIEW.set(staging, length + 8, s.key);
        length += BATCH_OBJECT_BYTES;
        objectId = s.id;
        final int at = length;
        length += bytes;
        entries++;
        APPENDED.setOpaque(this, appended + 1);
        return at;
    }

    /** Sends the open batch, if any, as one NIC message on its own context. */
    void flush() {
        if (pe < 0) {
            return;
        }
        final int target = pe;
        final int len = length;
        final int n = entries;
        pe = -1;
        length = 0;
        PENDING.setOpaque(this, false);
        entries = 0;
        final int current = nic.domain;
        nic.domain = domain;
        try {
            if (n == 1) {
                singlesSent++;
                sendAlone(target, len); // a put or atomic that found no company: its own message, one pass
            } else {
                batchesSent++;
                entriesSent += n;
                final FmOutputStream out = nic.begin(target, len, N_BATCH, 0);
                out.sendPiece(staging, 0, len);
                out.endMessage();
            }
            nic.reapCurrent();
        } finally {
            nic.domain = current;
        }
        if (n > 1 && afterBatch != null) {
            afterBatch.run();
        }
    }

    /** Sets what runs after a batch of several entries is sent ({@link #afterBatch}); null for nothing. */
    void serveAfterBatch(final Runnable r) {
        this.afterBatch = r;
    }

    /**
     * Sends a batch of one entry (after its object entry) as the put or atomic message it would have been without
     * aggregation, which the target's NIC runs in one pass: a put followed by a wait costs what it did before.
     */
    private void sendAlone(final int target, final int len) {
        final int id = (int) INT_VIEW.get(staging, 4);
        final int key = (int) INT_VIEW.get(staging, 8);
        final int word = (int) INT_VIEW.get(staging, BATCH_OBJECT_BYTES);
        final int index = (int) INT_VIEW.get(staging, BATCH_OBJECT_BYTES + 4);
        final int op = word & OP_MASK;
        if (op == OP_PUT) {
            final int data = BATCH_OBJECT_BYTES + BATCH_PUT_HEADER_BYTES;
            final FmOutputStream out = nic.begin(target, NIC_PUT_HEADER_BYTES + len - data, N_PUT, 0);
            out.sendInt(id);
            out.sendInt(key);
            out.sendInt(index);
            out.sendInt(1);
            out.sendInt(word >>> OP_BITS);
            out.sendInt(1);
            out.sendPiece(staging, data, len - data);
            out.endMessage();
        } else {
            final FmOutputStream out = nic.begin(target, NIC_AMO_BYTES, N_AMO, 0);
            out.sendInt(op);
            out.sendInt(id);
            out.sendInt(key);
            out.sendInt(index);
            out.sendLong((long) LONG_VIEW.get(staging, BATCH_OBJECT_BYTES + 8));
            out.sendLong(0);
            out.endMessage();
        }
    }

    /**
     * The agent's look: sends the open batch if no entry joined it since the agent's previous look (its PE left it
     * open and went on without SHMEM). While a batch is open and idle the agent looks at least every
     * {@code delayNs}; while its PE keeps adding entries it leaves the batch alone (it leaves when full).
     */
    void flushIfIdleSinceLastLook() {
        if (pe < 0) {
            seenByAgent = -1;
        } else if (seenByAgent == appended) {
            flush();
            seenByAgent = -1;
        } else {
            seenByAgent = appended;
        }
    }

    /** @return entries added so far, ever (the agent's unowned look) */
    long appendedOpaque() {
        return (long) APPENDED.getOpaque(this);
    }

    long batchesSent() {
        return batchesSent;
    }

    long entriesSent() {
        return entriesSent;
    }

    long singlesSent() {
        return singlesSent;
    }

    // ------------------------------------------------------------------ the NIC handler (on the target's NIC)

    /**
     * Runs a batch: checks every entry, then applies them in order; one bad entry refuses the whole batch before
     * any memory changes.
     */
    static void onBatchNic(final FmNicMessage m) {
        final MemorySegment seg = m.requestSegment();
        final long start = m.requestOffset();
        final long end = start + m.lengthBytes();
        if (!check(m, seg, start, end)) {
            m.reject();
            return;
        }
        long at = start;
        Object a = null;
        while (at < end) {
            final int word = seg.get(INT_LE, at);
            final int op = word & OP_MASK;
            if (op == OP_OBJECT) {
                a = m.memory(seg.get(INT_LE, at + 4), seg.get(INT_LE, at + 8));
                at += BATCH_OBJECT_BYTES;
                continue;
            }
            final int index = seg.get(INT_LE, at + 4);
            at += BATCH_PUT_HEADER_BYTES;
            if (op == OP_PUT) {
                at += receive(seg, at, a, index, word >>> OP_BITS);
            } else {
                AtomicOperations.applyAmo(Kind.of(a), a, index, op, seg.get(LONG_LE, at), 0);
                at += BATCH_AMO_BYTES - BATCH_PUT_HEADER_BYTES;
            }
        }
    }

    /**
     * Stores a put entry's elements, which start at {@code at} (a single long, double or int by one load, anything
     * else by one copy in the kind's wire layout); returns their bytes.
     */
    private static int receive(final MemorySegment seg, final long at, final Object a, final int index,
        final int count) {
        if (count == 1) {
            switch (a) {
                case long[] x -> {
                    x[index] = seg.get(LONG_LE, at);
                    return Long.BYTES;
                }
                case double[] x -> {
                    x[index] = seg.get(DOUBLE_LE, at);
                    return Double.BYTES;
                }
                case int[] x -> {
                    x[index] = seg.get(INT_LE, at);
                    return Integer.BYTES;
                }
                default -> {
                }
            }
        }
        final Kind kind = Kind.of(a);
        MemorySegment.copy(seg, kind.wire, at, a, index, count);
        return count * kind.bytes;
    }

    private static boolean check(final FmNicMessage m, final MemorySegment seg, final long start, final long end) {
        long touched = 0;
        long at = start;
        Object a = null;
        Kind kind = null;
        int length = 0;
        while (at < end) {
            final long left = end - at;
            if (left < Integer.BYTES) {
                return false;
            }
            final int word = seg.get(INT_LE, at);
            final int op = word & OP_MASK;
            if (op == OP_OBJECT) {
                if (left < BATCH_OBJECT_BYTES) {
                    return false;
                }
                a = m.memory(seg.get(INT_LE, at + 4), seg.get(INT_LE, at + 8));
                kind = a == null ? null : Kind.of(a);
                if (kind == null) {
                    return false;
                }
                length = Kind.length(a);
                at += BATCH_OBJECT_BYTES;
                continue;
            }
            if (kind == null || left < BATCH_PUT_HEADER_BYTES) {
                return false;
            }
            final int index = seg.get(INT_LE, at + 4);
            if (op == OP_PUT) {
                final int count = word >>> OP_BITS;
                final long bytes = (long) count * kind.bytes;
                if (!Bounds.valid(length, index, 1, count, 1) || bytes > left - BATCH_PUT_HEADER_BYTES) {
                    return false;
                }
                at += BATCH_PUT_HEADER_BYTES + bytes;
            } else {
                if (left < BATCH_AMO_BYTES || !batchable(op) || !AtomicOperations.defined(kind, op)
                    || !Bounds.valid(length, index, 1, 1, 1)) {
                    return false;
                }
                at += BATCH_AMO_BYTES;
                // Touch the element: the loads of a batch's elements overlap here, so the atomics of the second pass
                // find them in the cache instead of each waiting for memory in turn (random updates, as GUPS's).
                touched ^= touch(a, index);
            }
        }
        touchedSink = touched;
        return true;
    }

    /** A plain load of element {@code index} (its bits), to bring its line into the cache. */
    private static long touch(final Object a, final int index) {
        return switch (a) {
            case long[] x -> x[index];
            case int[] x -> x[index];
            case double[] x -> Double.doubleToRawLongBits(x[index]);
            case float[] x -> Float.floatToRawIntBits(x[index]);
            default -> 0;
        };
    }
}
