package org.jhpvm.mpi.pvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jhpvm.mpi.internal.Engine;
import org.jhpvm.mpi.internal.Envelope;
import org.jhpvm.mpi.internal.Kind;
import org.jhpvm.mpi.internal.Pending;
import org.jhpvm.mpi.internal.RecvOp;
import org.jhpvm.mpi.internal.SendOp;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * How PVM messages travel, on the MPI engine's point-to-point messages in a context of their own:
 * <ul>
 * <li>a send never waits for its receiver (PVM buffers; a task may send before it receives, whatever the size):
 * the message is handed to the engine and its completion is left to later progress;</li>
 * <li>every PVM call takes in what has arrived (the "pump"), so a message is received, and relayed, even before the
 * program asks for it;</li>
 * <li>{@code mcast} is a binomial tree, FPVM's point: the sender sends to about log2(n) tasks, each of which relays
 * to its part of the rest, instead of n sends from the root;</li>
 * <li>messages from one task to another are delivered in the order sent, relayed or not: each carries the
 * sender's sequence number for that receiver, and the receiver holds back any that arrive early;</li>
 * <li>{@code pvm_exit} waits until nothing is in flight anywhere (sums of messages sent and received, equal in two
 * rounds in a row), so no task leaves while a relay through it is still to come.</li>
 * </ul>
 * Message layout (bytes): origin rank, tag, sequence number, relay count k, k pairs (rank, sequence number), data.
 */
final class PvmTransport {
    /** The engine contexts of PVM's messages and of its exit rounds (never an MPI communicator's). */
    private static final int CONTEXT = -10;
    private static final int EXIT_CONTEXT = -12;
    private static final TypeMap BYTES = TypeMap.basic(Kind.BYTE);
    private static final TypeMap LONGS = TypeMap.basic(Kind.LONG);

    /** A message delivered in order, waiting for a receive. */
    static final class Arrived {
        final int origin;
        final int tag;
        final byte[] bytes;
        final int offset;
        int bufid;

        Arrived(final int origin, final int tag, final byte[] bytes, final int offset) {
            this.origin = origin;
            this.tag = tag;
            this.bytes = bytes;
            this.offset = offset;
        }
    }

    /** A message being received. */
    private record Incoming(byte[] bytes, RecvOp op) {
    }

    final Engine engine;
    private final int me;
    private final int[] nextSeqTo;
    private final int[] expectedFrom;
    private final Map<Integer, TreeMap<Integer, Arrived>> early = new HashMap<>();
    private final LinkedList<Arrived> delivered = new LinkedList<>();
    private final List<Pending> sending = new ArrayList<>();
    private final Envelope probe = new Envelope();
    private final List<Incoming> receiving = new ArrayList<>();
    private long sent;
    private long received;

    PvmTransport(final Engine engine) {
        this.engine = engine;
        this.me = engine.me;
        this.nextSeqTo = new int[engine.size];
        this.expectedFrom = new int[engine.size];
    }

    /** Sends {@code data} with {@code tag} to each rank of {@code dests} (none of them this one for a multicast). */
    void send(final int[] dests, final int tag, final byte[] data) {
        final int[][] pairs = new int[dests.length][];
        for (int i = 0; i < dests.length; i++) {
            pairs[i] = new int[] {dests[i], nextSeqTo[dests[i]]++};
        }
        forward(me, tag, pairs, data, 0);
    }

    /**
     * Sends the message to a binomial tree over {@code pairs}: the middle one gets the rest of its half to relay,
     * and so on for the first half, so every task relays at most about log2(n) times.
     */
    private void forward(final int origin, final int tag, final int[][] pairs, final byte[] data, final int offset) {
        int end = pairs.length;
        while (end > 0) {
            final int mid = end / 2;
            final int[] child = pairs[mid];
            final int relays = end - mid - 1;
            final int header = 16 + 8 * relays;
            final byte[] m = new byte[header + data.length - offset];
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(m).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            b.putInt(origin).putInt(tag).putInt(child[1]).putInt(relays);
            for (int i = mid + 1; i < end; i++) {
                b.putInt(pairs[i][0]).putInt(pairs[i][1]);
            }
            System.arraycopy(data, offset, m, header, data.length - offset);
            final SendOp op = engine.startSend(CONTEXT, me, child[0], Math.max(tag, 0), m, 0, BYTES, m.length,
                false);
            sent++;
            if (!op.done) {
                sending.add(op);
            }
            end = mid;
        }
    }

    /** Takes in everything that has arrived: relays it on, and delivers it in each sender's order. */
    void pump() {
        engine.poll();
        sending.removeIf(p -> p.done);
        // Start a receive for everything there (a large message's data comes later, by rendezvous) ...
        while (engine.probe(CONTEXT, Engine.ANY, Engine.ANY, probe)) {
            final byte[] m = new byte[(int) probe.elements];
            receiving.add(new Incoming(m, engine.startReceive(CONTEXT, probe.source, probe.tag, m, 0, BYTES,
                m.length)));
        }
        engine.drainWork();
        // ... and take in those whose data is here, in any order: sequence numbers restore each sender's.
        for (final Iterator<Incoming> it = receiving.iterator(); it.hasNext();) {
            final Incoming in = it.next();
            if (!in.op.done) {
                continue;
            }
            it.remove();
            received++;
            final byte[] m = in.bytes;
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(m).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            final int origin = b.getInt();
            final int tag = b.getInt();
            final int seq = b.getInt();
            final int relays = b.getInt();
            final int[][] pairs = new int[relays][];
            for (int i = 0; i < relays; i++) {
                pairs[i] = new int[] {b.getInt(), b.getInt()};
            }
            final int offset = 16 + 8 * relays;
            if (relays > 0) {
                forward(origin, tag, pairs, m, offset);
            }
            arrive(new Arrived(origin, tag, m, offset), seq);
        }
    }

    private void arrive(final Arrived a, final int seq) {
        if (seq != expectedFrom[a.origin]) {
            early.computeIfAbsent(a.origin, k -> new TreeMap<>()).put(seq, a);
            return;
        }
        delivered.add(a);
        expectedFrom[a.origin]++;
        final TreeMap<Integer, Arrived> held = early.get(a.origin);
        while (held != null && held.containsKey(expectedFrom[a.origin])) {
            delivered.add(held.remove(expectedFrom[a.origin]++));
        }
    }

    /** The first delivered message from {@code origin} (or any, -1) with {@code tag} (or any, -1), left in place. */
    Arrived find(final int origin, final int tag) {
        for (final Arrived a : delivered) {
            if ((origin < 0 || a.origin == origin) && (tag < 0 || a.tag == tag)) {
                return a;
            }
        }
        return null;
    }

    void take(final Arrived a) {
        delivered.remove(a);
    }

    /** Waits a little for something to arrive. */
    void idle(final long timeoutNs) {
        engine.idle(timeoutNs);
    }

    /** PVM's exit: waits until every task is here and no message is in flight, relaying meanwhile. */
    void quiesce() {
        while (!sending.isEmpty() || !receiving.isEmpty()) {
            pump();
            if (!sending.isEmpty() || !receiving.isEmpty()) {
                idle(1_000_000);
            }
        }
        long[] last = null;
        for (int round = 0; ; round++) {
            final long[] now = sum(new long[] {sent, received}, round);
            if (last != null && now[0] == now[1] && now[0] == last[0] && now[1] == last[1]) {
                return;
            }
            last = now;
        }
    }

    /** Sums {@code mine} over every task (a binomial tree to rank 0 and back), relaying while it waits. */
    private long[] sum(final long[] mine, final int round) {
        final int n = engine.size;
        final long[] acc = mine.clone();
        final long[] got = new long[2];
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((me & mask) != 0) {
                await(engine.startSend(EXIT_CONTEXT, me, me - mask, round, acc, 0, LONGS, 2, false));
                break;
            }
            if (me + mask < n) {
                await(engine.startReceive(EXIT_CONTEXT, me + mask, round, got, 0, LONGS, 2));
                acc[0] += got[0];
                acc[1] += got[1];
            }
        }
        // Back down the same tree.
        int mask = 1;
        while (mask < n && (me & mask) == 0) {
            mask <<= 1;
        }
        if (me != 0) {
            await(engine.startReceive(EXIT_CONTEXT, me - mask, round, acc, 0, LONGS, 2));
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (me + mask < n) {
                await(engine.startSend(EXIT_CONTEXT, me, me + mask, round, acc, 0, LONGS, 2, false));
            }
        }
        return acc;
    }

    private void await(final Pending p) {
        while (!p.done) {
            pump();
            if (!p.done) {
                idle(1_000_000);
            }
        }
    }

    /** Messages this task has handed to the engine (its own sends and its relays). */
    long sentCount() {
        return sent;
    }

    /** Messages this task has sent that are not yet delivered to the engine of their receiver. */
    int inFlight() {
        for (final Iterator<Pending> it = sending.iterator(); it.hasNext();) {
            if (it.next().done) {
                it.remove();
            }
        }
        return sending.size();
    }
}
