package org.jhpvm.mpi.internal;

import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;
import org.jhpvm.fm.FmWaitCondition;

/**
 * One rank's message-passing engine over its FM endpoint: the eager and rendezvous protocols, matching, the
 * unexpected-message budget and the progress loop. Used by the rank's own thread; its FM handlers run inside that
 * thread's extract. Progress is made inside MPI calls, as MPI-FM made it.
 * <p>
 * An <b>eager</b> message (at most {@link #eagerLimit()} bytes, with credit at the receiver) goes whole, envelope and
 * data in one FM message, received straight into the matched receive's buffer or kept, within the sender's share of
 * the unexpected budget ({@link Credits}), until a receive comes. Anything larger, every synchronous send and eager
 * sends without credit go by <b>rendezvous</b>: a request to send, then either the receiver's RDMA read of the
 * sender's array ({@link RdmaReads}) or a clear-to-send and the data. The module README has the wire formats.
 */
public final class Engine {
    /** A wildcard source or tag ({@code MPI.ANY_SOURCE}, {@code MPI.ANY_TAG}). */
    public static final int ANY = Matching.ANY;

    /** FM handler ids of the protocol. */
    static final int H_EAGER = 3000;
    static final int H_RTS = 3001;
    static final int H_CTS = 3002;
    static final int H_DATA = 3003;
    static final int H_CREDIT = 3004;
    static final int H_RGET = 3005;
    static final int H_FIN = 3006;

    /** The API's per-rank state (communicators, initialization), kept here for the rank's threads to find. */
    public Object attachment;
    /** Run by {@code MPI.Finalize} once the rank is done with its endpoint (a rank attached to a program thread). */
    public Runnable onFinalize;
    /** The PVM face's per-task state, made on its first use. */
    public Object pvm;

    /** This rank in the world. */
    public final int me;
    /** The world's size. */
    public final int size;
    /** The rank's endpoint. */
    public final FastMessages fm;
    private final Transfer transfer = new Transfer();
    private final Matching matching = new Matching();
    private final Ids ids = new Ids();
    private final RdmaReads reads;
    private final ArrayDeque<RecvOp> clearToSend = new ArrayDeque<>();
    private final OpPool pool = new OpPool();
    private final ArrayDeque<SendOp> readyData = new ArrayDeque<>();
    private final int eagerLimit;
    private final Credits credits;
    private long unexpectedBytes;
    private final Arrival arrival = new Arrival();
    /** A message's header as it is sent ({@link Arrival#putEnvelope}): one piece. */
    private final byte[] header = new byte[Arrival.HEADER];
    private final Schedules schedules = new Schedules(() -> this.events++);
    private long events;
    private long seen;
    private final BooleanSupplier wake;
    /** MPI's own costs on a modelled machine (virtual time), or none. */
    private final ModelCosts costs = ModelCosts.ofThisThread();
    /** The operation a blocking call waits for, or null (a collective, a probe, a wait on several requests). */
    private Pending awaited;

    /**
     * Makes the engine and registers its handlers (before the endpoint's first send or extract).
     *
     * @param fm              the rank's endpoint
     * @param eagerBytes      the largest message sent eagerly
     * @param unexpectedBytes the most data of unexpected messages this rank holds
     */
    public Engine(final FastMessages fm, final int eagerBytes, final long unexpectedBytes) {
        this.fm = fm;
        this.me = fm.pe();
        this.size = fm.pes();
        final long creditPerPeer = unexpectedBytes / size;
        this.eagerLimit = (int) Math.max(0, Math.min(eagerBytes, creditPerPeer / 2 - Credits.OVERHEAD));
        this.credits = new Credits(size, creditPerPeer, H_CREDIT);
        this.reads = new RdmaReads(fm, ids);
        this.wake = new FmWaitCondition() {
            @Override
            public boolean getAsBoolean() {
                return events != seen || !clearToSend.isEmpty() || !readyData.isEmpty() || credits.pending()
                    || reads.ready();
            }

            @Override
            public void describeWait(final StringBuilder out) {
                describeAwaited(out);
            }
        };
        fm.register(H_EAGER, this::onEager);
        fm.register(H_RTS, this::onRequestToSend);
        fm.register(H_CTS, (sender, buf, off, len) -> onClearToSend(FastMessages.word(buf, off, 0),
            FastMessages.word(buf, off, 1)));
        fm.register(H_DATA, this::onData);
        fm.register(H_CREDIT, (sender, buf, off, len) -> credits.returned(sender, FastMessages.word(buf, off, 0)));
        fm.register(H_RGET, this::onRequestToSend);
        fm.register(H_FIN, (sender, buf, off, len) -> onFinished(FastMessages.word(buf, off, 0)));
    }

    /**
     * The largest message (data bytes) sent eagerly: the configured size, or less where the per-peer share of the
     * unexpected budget is small.
     *
     * @return bytes
     */
    public int eagerLimit() {
        return eagerLimit;
    }

    // ------------------------------------------------------------------------------------------------ sends

    /**
     * Starts a send; an eager one is done on return, a rendezvous one when its data has gone.
     *
     * @param context   the communicator's context
     * @param source    the sender's rank in the communicator
     * @param destWorld the destination's world rank
     * @param tag       the tag
     * @param buf       the data, checked by the caller
     * @param offset    the element of {@code buf} where item 0 starts
     * @param type      its datatype's map
     * @param count     items
     * @param sync      a synchronous send: always by rendezvous, so it completes only once matched
     * @return the send's state
     */
    public SendOp startSend(final int context, final int source, final int destWorld, final int tag, final Object buf,
                            final long offset, final TypeMap type, final int count, final boolean sync) {
        return startSend(context, source, destWorld, tag, buf, offset, type, count, sync, false);
    }

    /**
     * {@link #startSend} for a blocking send, whose caller reads only its completion and error: an eager one returns
     * one shared, completed state instead of a new one (the eager path allocates nothing). Not to be kept.
     */
    public SendOp startBlockingSend(final int context, final int source, final int destWorld, final int tag,
                                    final Object buf, final long offset, final TypeMap type, final int count,
                                    final boolean sync) {
        return startSend(context, source, destWorld, tag, buf, offset, type, count, sync, true);
    }

    private SendOp startSend(final int context, final int source, final int destWorld, final int tag,
                             final Object buf, final long offset, final TypeMap type, final int count,
                             final boolean sync, final boolean blocking) {
        costs.sent();
        final Kind kind = type.kind();
        final long elements = count * type.size();
        final long bytes = elements * kind.bytes;
        if (!sync && bytes <= eagerLimit && credits.take(destWorld, bytes)) {
            final FmOutputStream out = fm.beginMessage(destWorld, Arrival.ENVELOPE + (int) bytes, H_EAGER);
            out.sendPiece(header, 0, Arrival.putEnvelope(header, context, source, tag, kind, elements));
            transfer.send(out, buf, offset, type, count);
            out.endMessage();
            if (blocking) {
                return SendOp.SENT;
            }
            final SendOp op = pool.send().of(source, tag, kind, elements);
            op.done = true;
            return op;
        }
        final SendOp op = pool.send().of(source, tag, kind, elements);
        op.destWorld = destWorld;
        op.buf = buf;
        op.offset = offset;
        op.type = type;
        op.count = count;
        final int id = ids.add(op);
        op.region = reads.fits(buf, type, bytes) ? reads.acquire(buf) : null;
        final FmOutputStream out = fm.beginMessage(destWorld, Arrival.requestBytes(op.region),
            op.region == null ? H_RTS : H_RGET);
        Arrival.putEnvelope(header, context, source, tag, kind, elements); // after a wait in beginMessage, if any
        out.sendPiece(header, 0, Arrival.putRequest(header, id, op.region, offset * kind.bytes));
        out.endMessage();
        return op;
    }

    private void sendData(final SendOp op) {
        final long bytes = op.elements * op.kind.bytes;
        final FmOutputStream out = fm.beginMessage(op.destWorld, 4 + (int) bytes, H_DATA);
        out.sendInt(op.recvId);
        transfer.send(out, op.buf, op.offset, op.type, op.count);
        out.endMessage();
        finishSend(op);
    }

    /** The receiver read the data of a send by RDMA. */
    private void onFinished(final int sendId) {
        if (ids.get(sendId) instanceof SendOp s) {
            finishSend(s);
        }
    }

    private void finishSend(final SendOp op) {
        ids.remove(op);
        if (op.region != null) {
            reads.release(op.region);
            op.region = null;
        }
        op.buf = null;
        complete(op);
    }

    // ------------------------------------------------------------------------------------------------ receives

    /**
     * Posts a receive, or satisfies it at once from an unexpected message.
     *
     * @param context    the communicator's context
     * @param wantSource the source's rank in the communicator, or {@code MPI.ANY_SOURCE}
     * @param wantTag    the tag, or {@code MPI.ANY_TAG}
     * @param buf        where the data goes, checked by the caller
     * @param offset     the element of {@code buf} where item 0 starts
     * @param type       its datatype's map
     * @param count      items it holds
     * @return the receive's state
     */
    public RecvOp startReceive(final int context, final int wantSource, final int wantTag, final Object buf,
                               final long offset, final TypeMap type, final int count) {
        return startReceive(pool.receive(), context, wantSource, wantTag, buf, offset, type, count);
    }

    /**
     * As {@link #startReceive}, for a blocking receive, whose caller waits for it, reads it and then gives it back
     * with {@link #recycle}: the operation of the last blocking receive is used again ({@link OpPool}).
     */
    public RecvOp startBlockingReceive(final int context, final int wantSource, final int wantTag, final Object buf,
                                       final long offset, final TypeMap type, final int count) {
        return startReceive(pool.spareReceive(), context, wantSource, wantTag, buf, offset, type, count);
    }

    /**
     * Takes back the finished operation of a request that has let go of it, once, for the next non-blocking send or
     * receive ({@link OpPool}); anything else is ignored.
     *
     * @param p the request's operation
     */
    public void release(final Pending p) {
        pool.give(p);
    }

    /**
     * Takes back the operation of a blocking receive its caller has finished with (one not done, its wait ended by
     * an abort, may still be posted, and is left alone).
     *
     * @param r the operation {@link #startBlockingReceive} gave
     */
    public void recycle(final RecvOp r) {
        pool.giveSpare(r);
    }

    private RecvOp startReceive(final RecvOp r, final int context, final int wantSource, final int wantTag,
                                final Object buf, final long offset, final TypeMap type, final int count) {
        r.wants(context, wantSource, wantTag, buf, offset, type, count);
        final Unexpected u = matching.findUnexpected(context, wantSource, wantTag);
        if (u == null) {
            matching.post(r);
            return r;
        }
        matching.removeUnexpected(u);
        return receive(r, u);
    }

    /**
     * A matched probe ({@code MPI_Improbe}): takes a matching message out of matching, so that no other receive can
     * get it, for {@link #receiveMatched}.
     *
     * @param context the communicator's context
     * @param source  the source's rank in the communicator, or {@code MPI.ANY_SOURCE}
     * @param tag     the tag, or {@code MPI.ANY_TAG}
     * @param into    gets the message's envelope (source, tag, kind, elements)
     * @return the message, or null if none matches now
     */
    public Unexpected takeMatch(final int context, final int source, final int tag, final Pending into) {
        final Unexpected u = matching.findUnexpected(context, source, tag);
        if (u != null) {
            matching.removeUnexpected(u);
            u.describeInto(into);
        }
        return u;
    }

    /**
     * Receives a message a matched probe took ({@code MPI_Mrecv}).
     *
     * @param u      the message
     * @param buf    where the data goes, checked by the caller
     * @param offset the element of {@code buf} where item 0 starts
     * @param type   its datatype's map
     * @param count  items it holds
     * @return the receive's state
     */
    public RecvOp receiveMatched(final Unexpected u, final Object buf, final long offset, final TypeMap type,
                                 final int count) {
        final RecvOp r = new RecvOp();
        r.wants(u.context, u.source, u.tag, buf, offset, type, count);
        return receive(r, u);
    }

    /** Gives {@code r} the unexpected message {@code u}, taken out of matching. */
    private RecvOp receive(final RecvOp r, final Unexpected u) {
        final Object buf = r.buf;
        final long offset = r.offset;
        final TypeMap type = r.type;
        r.source = u.source;
        r.tag = u.tag;
        r.kind = u.kind;
        r.elements = u.elements;
        if (u.data == null) {
            r.remoteFrom(u.remote, u.remoteHandle, u.remoteKey, u.remoteOffset);
            matchedRequest(r, u.senderWorld, u.sendId);
            return r;
        }
        unexpectedBytes -= u.data.length;
        credits.owe(u.senderWorld, u.data.length);
        if (r.kind != type.kind()) {
            r.error = ErrorClasses.ERR_TYPE;
        } else {
            transfer.unpack(u.data, buf, offset, type, Math.min(u.elements, r.capacity));
            costs.received(Math.min(u.elements, r.capacity) * u.kind.bytes);
            if (u.elements > r.capacity) {
                r.error = ErrorClasses.ERR_TRUNCATE;
            }
        }
        r.buf = null;
        complete(r);
        return r;
    }

    /**
     * Cancels a receive that has not been matched.
     *
     * @param r the receive
     * @return true if it was still posted (it is now done and cancelled)
     */
    public boolean cancel(final RecvOp r) {
        if (!matching.unpost(r)) {
            return false;
        }
        r.cancelled = true;
        r.buf = null;
        complete(r);
        return true;
    }

    /**
     * Looks for an unexpected message a receive would match, without receiving it ({@code MPI_Iprobe}).
     *
     * @param context the communicator's context
     * @param source  the source or ANY
     * @param tag     the tag or ANY
     * @param into    gets the envelope if one is found
     * @return true if one was found
     */
    public boolean probe(final int context, final int source, final int tag, final Pending into) {
        final Unexpected u = matching.findUnexpected(context, source, tag);
        if (u == null) {
            return false;
        }
        u.describeInto(into);
        return true;
    }

    private void matchedRequest(final RecvOp r, final int senderWorld, final int sendId) {
        r.senderWorld = senderWorld;
        r.sendId = sendId;
        ids.add(r);
        clearToSend.add(r);
        events++;
    }

    private void onEager(final FmInputStream in, final int sender) {
        final Arrival a = arrival;
        a.readEnvelope(in);
        final int source = a.source; // copied: receiving the data may wait for frames while other handlers run
        final int tag = a.tag;
        final Kind kind = a.kind;
        final long elements = a.elements;
        final RecvOp r = matching.takePosted(a.context, source, tag);
        final long bytes = elements * kind.bytes;
        if (r == null) {
            final Unexpected u = new Unexpected(a, sender);
            u.data = new byte[(int) bytes];
            in.receive(u.data, 0, (int) bytes);
            unexpectedBytes += bytes;
            matching.addUnexpected(u);
            events++;
            return;
        }
        credits.owe(sender, bytes);
        deliver(in, r, source, tag, kind, elements);
    }

    private void onRequestToSend(final FmInputStream in, final int sender) {
        final Arrival a = arrival;
        a.readRequest(in, in.handler() == H_RGET);
        final RecvOp r = matching.takePosted(a.context, a.source, a.tag);
        if (r == null) {
            matching.addUnexpected(new Unexpected(a, sender));
            events++;
            return;
        }
        r.source = a.source;
        r.tag = a.tag;
        r.kind = a.kind;
        r.elements = a.elements;
        r.remoteFrom(a.remote, a.remoteHandle, a.remoteKey, a.remoteOffset);
        matchedRequest(r, sender, a.sendId);
    }

    private void onClearToSend(final int sendId, final int recvId) {
        if (ids.get(sendId) instanceof SendOp s) {
            s.recvId = recvId;
            readyData.add(s);
            events++;
        }
    }

    private void onData(final FmInputStream in, final int sender) {
        final int recvId = in.receiveInt();
        if (ids.get(recvId) instanceof RecvOp r) {
            ids.remove(r);
            deliver(in, r, r.source, r.tag, r.kind, r.elements);
        }
    }

    /** Receives a matched message's data into its receive, or notes why not, and completes it. */
    private void deliver(final FmInputStream in, final RecvOp r, final int source, final int tag, final Kind kind,
                         final long elements) {
        r.source = source;
        r.tag = tag;
        r.kind = kind;
        r.elements = elements;
        if (kind != r.type.kind()) {
            r.error = ErrorClasses.ERR_TYPE;
        } else {
            transfer.receive(in, r.buf, r.offset, r.type, Math.min(elements, r.capacity));
            costs.received(Math.min(elements, r.capacity) * kind.bytes);
            if (elements > r.capacity) {
                r.error = ErrorClasses.ERR_TRUNCATE;
            }
        }
        r.buf = null;
        complete(r);
    }

    /** An RDMA read into {@code r} has ended: tells the sender, and completes the receive. */
    private void finishRead(final RecvOp r) {
        ids.remove(r);
        fm.send4(r.senderWorld, H_FIN, r.sendId, 0, 0, 0);
        final long n = Math.min(r.elements, r.capacity);
        costs.received(n * r.kind.bytes);
        if (r.error == ErrorClasses.SUCCESS && r.elements > r.capacity) {
            r.error = ErrorClasses.ERR_TRUNCATE;
        }
        r.buf = null;
        complete(r);
    }

    // ------------------------------------------------------------------------------------------------ progress

    private void complete(final Pending p) {
        p.done = true;
        events++;
    }

    /**
     * Sends what handlers asked for (clear-to-send answers, rendezvous data, credit): outside handlers, on the
     * rank's thread.
     *
     * @return true if anything was sent
     */
    public boolean drainWork() {
        if (clearToSend.isEmpty() && readyData.isEmpty() && !credits.pending() && !reads.busy()
            && !schedules.busy()) {
            return false; // the usual case of a small message's wait: one look instead of five polls
        }
        boolean any = false;
        RecvOp r;
        while ((r = clearToSend.poll()) != null) {
            if (!r.remote || !reads.start(r)) {
                fm.send4(r.senderWorld, H_CTS, r.sendId, r.id, 0, 0);
            }
            any = true;
        }
        while ((r = reads.poll()) != null) {
            finishRead(r);
            any = true;
        }
        SendOp s;
        while ((s = readyData.poll()) != null) {
            sendData(s);
            any = true;
        }
        any |= credits.send(fm);
        return schedules.advance() || any;
    }

    /**
     * Starts a non-blocking collective: runs its first steps now; later progress of the rank advances it.
     *
     * @param s the collective's schedule
     * @return {@code s}
     */
    public Schedule start(final Schedule s) {
        schedules.start(s);
        return s;
    }

    /** Extracts once and sends what that asked for ({@code MPI_Test}'s progress). */
    public void poll() {
        fm.extract();
        drainWork();
    }

    /**
     * Waits for something to happen: a completion, an unexpected message, or work for {@link #drainWork()}, which
     * it does. Callers loop on their own condition around it.
     */
    public void idle() {
        idle(Long.MAX_VALUE);
    }

    /**
     * As {@link #idle()}, waiting at most {@code timeoutNs}.
     *
     * @param timeoutNs the longest wait
     */
    public void idle(final long timeoutNs) {
        if (drainWork()) {
            return;
        }
        seen = events;
        fm.extractUntil(wake, timeoutNs);
        drainWork();
    }

    /**
     * Makes progress until {@code p} is done.
     *
     * @param p an operation
     */
    public void await(final Pending p) {
        if (p.done) {
            return;
        }
        final Pending saved = awaited;
        awaited = p;
        try {
            while (!p.done) {
                idle();
            }
        } finally {
            awaited = saved;
        }
    }

    /** What the rank waits for, in words (the job's deadlock and timeout reports; read racily from another thread). */
    private void describeAwaited(final StringBuilder out) {
        final Pending p = awaited;
        if (p == null || !p.describeWait(out)) {
            out.append("messages of other ranks (a collective, a probe, or a wait on several requests; ")
                .append(matching.unexpectedCount()).append(" unexpected message(s) held)");
        }
    }

    /** Data bytes of unexpected messages held now. */
    public long unexpectedBytes() {
        return unexpectedBytes;
    }

    /** Bytes of arrays kept registered for RDMA rendezvous between transfers now. */
    public long registeredBytes() {
        return reads.cachedBytes();
    }

    /** Messages waiting unexpected now. */
    public int unexpectedCount() {
        return matching.unexpectedCount();
    }

    /** Rendezvous operations in flight now. */
    public int inFlight() {
        return ids.inFlight();
    }
}
