package org.jhpvm.mpi.internal;

import java.nio.Buffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmCompletion;
import org.jhpvm.fm.FmRegion;

/**
 * The zero-copy half of MPI's rendezvous: the sender registers the array it sends from and names it (handle, key,
 * byte offset) in its request to send; the receiver, once a receive matches, reads the data with one RDMA read
 * straight from the sender's array into the receive's, then answers "finished" so that the sender's send completes.
 * Where the NIC does RDMA that is one handshake and one copy, where the clear-to-send protocol takes two (MPI's
 * clear-to-send, then FM's own rendezvous). Where FM carries RDMA in its messages (Aeron) the sender's extract serves
 * the read as it would have served the clear-to-send, and between the processes of one host the bytes go through
 * FM's host-memory ring: two copies where clear-to-send's data in frames took four. Not on a fabric without host
 * memory (virtual time): there clear-to-send, as MPI-FM had it.
 * <p>
 * Only for what a raw copy moves exactly: a contiguous datatype over an array of {@code byte}, {@code int},
 * {@code long}, {@code float} or {@code double}, or over a writable direct buffer whose byte order is the wire's
 * (little endian; any order for one-byte elements), on a little-endian machine, at least {@link #MIN_BYTES} long.
 * Anything else, or a receive that cannot take the data so (another kind of array, a derived type, a heap buffer, a
 * big-endian or read-only direct buffer), falls back to clear-to-send, which the sender serves as before.
 * <p>
 * Arrays and direct buffers (the whole buffer, from its start to its capacity, as Open MPI addresses it) stay
 * registered between messages in a small round-robin set looked up by identity (a program sends from and receives
 * into the same arrays and buffers over and over), each entry counting the transfers using it; an entry in use is never
 * evicted. So that the set does not keep large arrays alive that the program has dropped, it keeps at most
 * {@link #CACHED_BYTES} of arrays no transfer uses: beyond that an array is deregistered and forgotten when its last
 * transfer ends. The rank's thread only.
 */
final class RdmaReads {
    /** Rendezvous messages at least this long go by RDMA read where they can. */
    static final long MIN_BYTES = 2048;
    /** Arrays kept registered. */
    static final int CACHED = 16;
    /** Most bytes of registered arrays kept between transfers. */
    static final long CACHED_BYTES = 64L << 20;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final FastMessages fm;
    private final boolean enabled;
    private final Object[] arrays = new Object[CACHED];
    private final FmRegion[] regions = new FmRegion[CACHED];
    private final int[] uses = new int[CACHED];
    private int next;
    /** Bytes of the cached arrays. */
    private long cachedBytes;
    /** The completion queue of the reads, opened on the first. */
    private int queue = -1;
    private final FmCompletion completion = new FmCompletion();
    private final Ids ids;
    private final ArrayDeque<RecvOp> finished = new ArrayDeque<>();
    private int reading;

    RdmaReads(final FastMessages fm, final Ids ids) {
        this.fm = fm;
        this.ids = ids;
        // Where the NIC does RDMA, or FM's reads can go through host memory (not in virtual time, whose model of
        // MPI-FM keeps clear-to-send).
        this.enabled = LITTLE_ENDIAN && (fm.nicOffload() || fm.hostMemory().isPresent());
    }

    /**
     * Whether a message can be read straight out of (or into) {@code buf} by RDMA.
     *
     * @param buf   the user's buffer
     * @param type  its datatype's map
     * @param bytes the message's data bytes
     * @return true if so
     */
    boolean fits(final Object buf, final TypeMap type, final long bytes) {
        return enabled && bytes >= MIN_BYTES && type.contiguous() && raw(buf, type.kind());
    }

    /** Whether {@code buf}'s memory holds elements of {@code kind} as the wire carries them. */
    private static boolean raw(final Object buf, final Kind kind) {
        return switch (buf) {
            case byte[] a -> true;
            case int[] a -> true;
            case long[] a -> true;
            case float[] a -> true;
            case double[] a -> true;
            case Buffer b -> b.isDirect() && !b.isReadOnly()
                && (kind.bytes == 1 || Transfer.memoryLayout(b, kind).order() == ByteOrder.LITTLE_ENDIAN);
            default -> false;
        };
    }

    /**
     * Registers {@code array} for one transfer (or finds it registered).
     *
     * @param array the array, or a direct buffer
     * @return its region, or null if every cached array is in use by transfers in flight (the caller falls back)
     */
    FmRegion acquire(final Object array) {
        for (int i = 0; i < CACHED; i++) {
            if (arrays[i] == array) {
                uses[i]++;
                return regions[i];
            }
        }
        for (int k = 0; k < CACHED; k++) {
            final int i = (next + k) % CACHED;
            if (uses[i] == 0) {
                forget(i);
                regions[i] = fm.register(array instanceof Buffer b ? Transfer.segmentOf(b) : array);
                arrays[i] = array;
                cachedBytes += regions[i].lengthBytes();
                uses[i] = 1;
                next = (i + 1) % CACHED;
                return regions[i];
            }
        }
        return null;
    }

    /**
     * Ends one transfer's use of a region {@link #acquire} gave; it stays registered until evicted.
     *
     * @param region the region
     */
    void release(final FmRegion region) {
        for (int i = 0; i < CACHED; i++) {
            if (regions[i] == region) {
                if (--uses[i] == 0 && cachedBytes > CACHED_BYTES) {
                    forget(i);
                }
                return;
            }
        }
        throw new IllegalStateException("region " + region + " is not one of MPI's registered arrays");
    }

    /** Deregisters entry {@code i}'s array, if it has one, and lets go of it. */
    private void forget(final int i) {
        if (regions[i] != null) {
            cachedBytes -= regions[i].lengthBytes();
            fm.deregister(regions[i]);
            regions[i] = null;
            arrays[i] = null;
        }
    }

    /** @return bytes of the arrays kept registered now (tests) */
    long cachedBytes() {
        return cachedBytes;
    }

    /**
     * Starts reading a matched request's data into its receive, if the receive can take it so.
     *
     * @param r a receive matched with a request to send that named the sender's array
     * @return true if the read is under way; false if the receive must ask for the data by clear-to-send
     */
    boolean start(final RecvOp r) {
        final long n = Math.min(r.elements, r.capacity);
        if (r.kind != r.type.kind() || !fits(r.buf, r.type, n * r.kind.bytes)) {
            return false;
        }
        final FmRegion local = acquire(r.buf);
        if (local == null) {
            return false;
        }
        if (queue < 0) {
            queue = fm.openQueue();
        }
        r.region = local;
        fm.rdmaRead(queue, local, r.offset * r.kind.bytes, r.senderWorld, r.remoteHandle, r.remoteKey,
            r.remoteOffset, n * r.kind.bytes, r.id);
        reading++;
        return true;
    }

    /**
     * Takes the next receive whose read has finished, its region released and, if the read failed, its error set.
     *
     * @return the receive, or null if none has finished
     */
    RecvOp poll() {
        collect();
        return finished.poll();
    }

    /** @return whether a read is under way or has finished and waits for {@link #poll()} */
    boolean busy() {
        return reading > 0 || !finished.isEmpty();
    }

    /** @return whether a read has finished and waits for {@link #poll()} */
    boolean ready() {
        collect();
        return !finished.isEmpty();
    }

    private void collect() {
        while (reading > 0 && fm.pollCompletion(queue, completion)) {
            reading--;
            if (!(ids.get((int) completion.context()) instanceof RecvOp r)) {
                throw new IllegalStateException("an RDMA read completed for no receive (id "
                    + completion.context() + ")");
            }
            release(r.region);
            r.region = null;
            if (completion.status() != FmCompletion.OK) {
                r.error = ErrorClasses.ERR_OTHER;
            }
            finished.add(r);
        }
    }
}
