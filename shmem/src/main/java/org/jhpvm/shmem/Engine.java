package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.ACC_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.GET_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.H_ACC;
import static org.jhpvm.shmem.MessageDescriptor.H_AMO;
import static org.jhpvm.shmem.MessageDescriptor.H_GET;
import static org.jhpvm.shmem.MessageDescriptor.H_LOCK;
import static org.jhpvm.shmem.MessageDescriptor.H_PUT;
import static org.jhpvm.shmem.MessageDescriptor.H_PUT_SIGNAL;
import static org.jhpvm.shmem.MessageDescriptor.H_QUIET;
import static org.jhpvm.shmem.MessageDescriptor.H_REPLY;
import static org.jhpvm.shmem.MessageDescriptor.H_TEAM;
import static org.jhpvm.shmem.MessageDescriptor.MAX_MESSAGE_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.PUT_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.PUT_SIGNAL_HEADER_BYTES;
import static org.jhpvm.shmem.MessageDescriptor.SIG_TEAM;
import static org.jhpvm.shmem.MessageDescriptor.SIG_USER;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_OK;
import static org.jhpvm.shmem.MessageDescriptor.STATUS_REJECTED;
import static org.jhpvm.shmem.MessageDescriptor.TEAM_HEADER_BYTES;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHandler;
import org.jhpvm.fm.FmInputStream;
import org.jhpvm.fm.FmOutputStream;

/**
 * One PE's SHMEM engine: every remote operation is one FM 2.x message whose handler reads a small header and
 * receives the payload straight into the target array (typed scatter, no staging copy). Requests that need an
 * answer (get, fetching atomics, quiet) are answered by a reply message; handlers never send (FM's rule for
 * deadlock-free handlers), so answers are queued by the handler and sent by whichever thread drives progress
 * next. No acknowledgement or retry is added above FM: a quiet is one round trip per PE written to since the last
 * quiet, which works because FM delivers in order and runs one sender's handlers in order.
 * <p>
 * Ownership: the FM endpoint is single-threaded. The PE's thread owns it while inside a SHMEM call; the progress
 * agent owns it only for short non-blocking passes when the PE thread does not ({@link #agentPass()}). Handlers
 * run under that ownership, which is what makes accumulates atomic per element and keeps the handler state simple.
 */
final class Engine {
    private static final long FOREVER_NS = Long.MAX_VALUE / 4;

    private static final VarHandle OWNER;
    private static final VarHandle ENTERS;
    private static final VarHandle OBJECTS = MethodHandles.arrayElementVarHandle(SymmetricArray[].class);

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(Engine.class, "owner", int.class);
            ENTERS = MethodHandles.lookup().findVarHandle(Engine.class, "enters", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final FastMessages fm;
    final int me;
    final int npes;
    final World world;
    final Teams teams;
    private final Thread peThread;
    final ReplyQueue replies;
    final OutstandingRequests requests;
    final LockOperations locks;
    final AtomicOperations atomics;
    final AccumulateOperations accumulates;

    @SuppressWarnings("unused") // through OWNER
    private volatile int owner;
    private int depth;
    /** SHMEM calls the PE thread has made (opaque: the agent only needs to see that it changes). */
    @SuppressWarnings("unused") // through ENTERS
    private long enters;
    private long entersSeenByAgent;
    private volatile boolean agentWanted;
    /** Passes the agent made (its wake-ups), for the test that an idle agent does not spin. */
    volatile long agentPasses;

    /** This PE's symmetric objects by id (published with release: {@code ptr} reads them from other PEs). */
    private volatile SymmetricArray[] objects = new SymmetricArray[64];

    private final Object[] ones = new Object[Kind.values().length];
    private volatile String rejected;
    private long rejectedCount;

    // Wait conditions without a capturing lambda per call.
    private BooleanSupplier condition;
    private final BooleanSupplier progressThen;

    Engine(final FastMessages fm, final World world) {
        this.fm = fm;
        this.me = fm.pe();
        this.npes = fm.pes();
        this.world = world;
        this.peThread = Thread.currentThread();
        this.replies = new ReplyQueue(fm);
        this.requests = new OutstandingRequests(this, replies);
        this.locks = new LockOperations(this, requests, replies);
        this.atomics = new AtomicOperations(this, requests, replies);
        this.accumulates = new AccumulateOperations(this);
        this.progressThen = () -> {
            replies.send();
            checkRejected();
            return condition.getAsBoolean();
        };
        fm.register(H_PUT, (FmHandler) this::onPut);
        fm.register(H_PUT_SIGNAL, (FmHandler) this::onPutSignal);
        fm.register(H_GET, (FmHandler) this::onGet);
        fm.register(H_REPLY, (FmHandler) requests::onReply);
        fm.register(H_AMO, (FmHandler) atomics::onAmo);
        fm.register(H_ACC, (FmHandler) accumulates::onAcc);
        fm.register(H_QUIET, (FmHandler) requests::onQuiet);
        fm.register(H_TEAM, (FmHandler) this::onTeam);
        fm.register(H_LOCK, (FmHandler) locks::onLock);
        this.teams = new Teams(this);
        world.register(this);
    }

    // ------------------------------------------------------------------ ownership and progress

    /** The PE thread takes the endpoint (reentrant). */
    void enter() {
        if (Thread.currentThread() != peThread) {
            throw new IllegalStateException("SHMEM calls of PE " + me + " must come from its own thread "
                + peThread.getName() + " (thread level FUNNELED), not from " + Thread.currentThread().getName());
        }
        checkRejected();
        ENTERS.setOpaque(this, enters + 1);
        if (depth++ == 0 && !OWNER.compareAndSet(this, 0, 1)) {
            agentWanted = true;
            int spins = 0;
            while (!OWNER.compareAndSet(this, 0, 1)) {
                if (++spins < 100) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
            agentWanted = false;
        }
    }

    void exit() {
        if (--depth == 0) {
            OWNER.setRelease(this, 0);
        }
    }

    /**
     * One pass of the progress agent: if the PE thread is not inside SHMEM, extract what has arrived and send the
     * replies it produced.
     *
     * @return work done, or -1 if the PE thread owns the endpoint or has used it since the last pass
     */
    int agentPass() {
        agentPasses++;
        // A PE thread that called SHMEM since the last pass drives progress itself: leave the endpoint to it (an
        // agent competing for it would only slow it down, and take a core from it).
        final long e = (long) ENTERS.getOpaque(this);
        if (e != entersSeenByAgent) {
            entersSeenByAgent = e;
            return -1;
        }
        if (!OWNER.compareAndSet(this, 0, 2)) {
            return -1;
        }
        try {
            int work = 0;
            // Bounded: give the endpoint back soon if the PE thread wants it.
            for (int i = 0; i < 8 && !agentWanted; i++) {
                final int w = fm.extract(1 << 20) + replies.send();
                if (w == 0) {
                    break;
                }
                work += w;
            }
            return work;
        } finally {
            OWNER.setRelease(this, 0);
        }
    }

    /** Extracts (running handlers) and sends replies until {@code cond} holds; the caller has entered. */
    void await(final BooleanSupplier cond) {
        replies.send();
        if (cond.getAsBoolean()) {
            return;
        }
        final BooleanSupplier saved = condition;
        condition = cond;
        try {
            if (!fm.extractUntil(progressThen, FOREVER_NS)) {
                throw new IllegalStateException("PE " + me + " waited " + FOREVER_NS + " ns");
            }
        } finally {
            condition = saved;
        }
    }

    /** One non-blocking progress step from the PE thread (test routines call it). */
    void poll() {
        fm.extract(1 << 20);
        replies.send();
        checkRejected();
    }

    private void checkRejected() {
        final String r = rejected;
        if (r != null) {
            throw new IllegalStateException(r);
        }
    }

    // ------------------------------------------------------------------ symmetric objects

    void register(final SymmetricArray s) {
        SymmetricArray[] t = objects;
        if (s.id >= t.length) {
            final SymmetricArray[] grown = new SymmetricArray[Math.max(s.id + 1, 2 * t.length)];
            System.arraycopy(t, 0, grown, 0, t.length);
            t = grown;
            objects = t;
        }
        OBJECTS.setRelease(t, s.id, s);
    }

    void unregister(final SymmetricArray s) {
        OBJECTS.setRelease(objects, s.id, (SymmetricArray) null);
    }

    /** @return the live object with this id, or null (any thread) */
    SymmetricArray lookup(final int id) {
        final SymmetricArray[] t = objects;
        if (id < 0 || id >= t.length) {
            return null;
        }
        final SymmetricArray s = (SymmetricArray) OBJECTS.getAcquire(t, id);
        return s == null || s.freed ? null : s;
    }

    // ------------------------------------------------------------------ RMA

    void put(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count) {
        put(s, pe, di, ds, src, si, ss, count, 1);
    }

    /** Block-strided put: {@code count} blocks of {@code block} elements ({@code block == 1}: element stride). */
    void put(final SymmetricArray s, final int pe, final int di, final int ds, final Object src, final int si,
        final int ss, final int count, final int block) {
        enter();
        try {
            if (pe == me) {
                Kind.copyBlocks(src, si, ss, s.array, di, ds, count, block);
                return;
            }
            sendElements(H_PUT, s, pe, di, ds, src, si, ss, count, block, 0);
        } finally {
            exit();
        }
    }

    /**
     * A put or accumulate message per at most {@link #MAX_MESSAGE_BYTES} of payload: header (id, index, stride,
     * count of blocks, block length, and alpha for an accumulate), then the elements gathered straight from
     * {@code src}. The public API keeps a block within {@link #MAX_MESSAGE_BYTES}.
     */
    void sendElements(final int handler, final SymmetricArray s, final int pe, final int di, final int ds,
        final Object src, final int si, final int ss, final int count, final int block, final long alpha) {
        final int headerBytes = handler == H_ACC ? ACC_HEADER_BYTES : PUT_HEADER_BYTES;
        final int chunk = Math.max(1, MAX_MESSAGE_BYTES / (s.kind.bytes * block));
        int done = 0;
        do {
            final int n = Math.min(chunk, count - done);
            final FmOutputStream out = fm.beginMessage(pe, headerBytes + n * block * s.kind.bytes, handler);
            out.sendInt(s.id);
            out.sendInt(di + done * ds);
            out.sendInt(ds);
            out.sendInt(n);
            out.sendInt(block);
            if (handler == H_ACC) {
                out.sendLong(alpha);
            }
            s.kind.sendBlocks(out, src, si + done * ss, ss, n, block);
            out.endMessage();
            done += n;
        } while (done < count);
        requests.markDirty(pe);
    }

    void get(final SymmetricArray s, final int pe, final int si, final int ss, final Object dst, final int di,
        final int ds, final int count, final boolean nbi) {
        get(s, pe, si, ss, dst, di, ds, count, 1, nbi);
    }

    /** Block-strided get: {@code count} blocks of {@code block} elements ({@code block == 1}: element stride). */
    void get(final SymmetricArray s, final int pe, final int si, final int ss, final Object dst, final int di,
        final int ds, final int count, final int block, final boolean nbi) {
        enter();
        try {
            if (pe == me) {
                Kind.copyBlocks(s.array, si, ss, dst, di, ds, count, block);
                return;
            }
            final int chunk = Math.max(1, MAX_MESSAGE_BYTES / (s.kind.bytes * block));
            int done = 0;
            do {
                final int n = Math.min(chunk, count - done);
                final int state = nbi ? OutstandingRequests.NBI : OutstandingRequests.WAITING;
                final int slot = requests.alloc(state, s.kind, dst, di + done * ds, ds, n, block);
                final FmOutputStream out = fm.beginMessage(pe, GET_BYTES, H_GET);
                out.sendInt(slot);
                out.sendInt(s.id);
                out.sendInt(si + done * ss);
                out.sendInt(ss);
                out.sendInt(n);
                out.sendInt(block);
                out.endMessage();
                if (!nbi) {
                    requests.awaitReply(slot, pe, "get");
                }
                done += n;
            } while (done < count);
        } finally {
            exit();
        }
    }

    /**
     * Put with signal: the data, then the signal, in one message (FM delivers it whole and in order, so the data is
     * there before the signal). {@code s} may be null for a signal alone. A team signal ({@code sigMode ==
     * SIG_TEAM}) counts an arrival in a team's collective state: {@code sigA} team id, {@code sigB} the counter,
     * {@code sigOp} the sender's team rank.
     */
    void putSignal(final SymmetricArray s, final int pe, final int di, final Object src, final int si, final int count,
        final int sigMode, final int sigA, final int sigB, final int sigOp, final long signal) {
        enter();
        try {
            if (pe == me) {
                if (s != null) {
                    Kind.copy(src, si, 1, s.array, di, 1, count);
                }
                applySignal(me, sigMode, sigA, sigB, sigOp, signal);
                return;
            }
            final int bytes = s == null ? 0 : count * s.kind.bytes;
            if (bytes > MAX_MESSAGE_BYTES) {
                throw new IllegalArgumentException("putSignal of " + bytes + " bytes exceeds " + MAX_MESSAGE_BYTES);
            }
            final FmOutputStream out = fm.beginMessage(pe, PUT_SIGNAL_HEADER_BYTES + bytes, H_PUT_SIGNAL);
            out.sendInt(s == null ? -1 : s.id);
            out.sendInt(di);
            out.sendInt(s == null ? 0 : count);
            out.sendInt(sigMode);
            out.sendInt(sigA);
            out.sendInt(sigB);
            out.sendInt(sigOp);
            out.sendInt(0);
            out.sendLong(signal);
            if (s != null) {
                s.kind.send(out, src, si, 1, count);
            }
            out.endMessage();
            if (sigMode == SIG_USER) {
                // Collective traffic needs no quiet: the collective itself waits for what it needs.
                requests.markDirty(pe);
            }
        } finally {
            exit();
        }
    }

    /** Sends elements to a team member's collective inbox (reductions); the caller has entered. */
    void teamData(final int pe, final int teamId, final int counter, final int senderRank, final Kind kind,
        final Object src, final int count) {
        if (pe == me) {
            final Object box = teams.inbox(teamId, senderRank, kind, count);
            Kind.copy(src, 0, 1, box, 0, 1, count);
            teams.arrive(teamId, counter, senderRank, count);
            return;
        }
        final FmOutputStream out = fm.beginMessage(pe, TEAM_HEADER_BYTES + count * kind.bytes, H_TEAM);
        out.sendInt(teamId);
        out.sendInt(counter);
        out.sendInt(senderRank);
        out.sendInt(kind.ordinal());
        out.sendInt(count);
        kind.send(out, src, 0, 1, count);
        out.endMessage();
    }

    // ------------------------------------------------------------------ handlers (run under ownership)

    private void onPut(final FmInputStream in, final int sender) {
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int stride = in.receiveInt();
        final int count = in.receiveInt();
        final int block = in.receiveInt();
        final SymmetricArray s = lookup(id);
        if (!valid(s, index, stride, count, block)) {
            reject(sender, "put", id, index, stride, count);
            return;
        }
        s.kind.receiveBlocks(in, s.array, index, stride, count, block);
    }

    private void onPutSignal(final FmInputStream in, final int sender) {
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int count = in.receiveInt();
        final int sigMode = in.receiveInt();
        final int sigA = in.receiveInt();
        final int sigB = in.receiveInt();
        final int sigOp = in.receiveInt();
        in.receiveInt();
        final long signal = in.receiveLong();
        final SymmetricArray s = id < 0 ? null : lookup(id);
        if (id >= 0 && !valid(s, index, 1, count)) {
            reject(sender, "put with signal", id, index, 1, count);
            return;
        }
        if (sigMode == SIG_USER && !validSignal(sigA, sigB)) {
            reject(sender, "signal", sigA, sigB, 1, 1);
            return;
        }
        if (s != null) {
            s.kind.receive(in, s.array, index, 1, count);
        }
        applySignal(sender, sigMode, sigA, sigB, sigOp, signal);
    }

    private boolean validSignal(final int id, final int index) {
        final SymmetricArray sig = lookup(id);
        return sig != null && sig.kind == Kind.LONG && index >= 0 && index < sig.length;
    }

    private void applySignal(final int sender, final int sigMode, final int sigA, final int sigB, final int sigOp,
        final long signal) {
        if (sigMode == SIG_TEAM) {
            teams.arrive(sigA, sigB, sigOp, signal);
            return;
        }
        final long[] a = (long[]) lookup(sigA).array;
        if (sigOp == SignalOp.ADD.ordinal()) {
            Kind.LONGS.getAndAdd(a, sigB, signal);
        } else {
            Kind.LONGS.setVolatile(a, sigB, signal);
        }
    }

    private void onGet(final FmInputStream in, final int sender) {
        final int req = in.receiveInt();
        final int id = in.receiveInt();
        final int index = in.receiveInt();
        final int stride = in.receiveInt();
        final int count = in.receiveInt();
        final int block = in.receiveInt();
        final SymmetricArray s = lookup(id);
        if (!valid(s, index, stride, count, block)) {
            reject(sender, "get", id, index, stride, count);
            replies.queue(sender, req, STATUS_REJECTED, null, 0, 0, 0, 1, 0);
            return;
        }
        replies.queue(sender, req, STATUS_OK, s, index, stride, count, block, 0);
    }

    private void onTeam(final FmInputStream in, final int sender) {
        final int teamId = in.receiveInt();
        final int counter = in.receiveInt();
        final int senderRank = in.receiveInt();
        final int kindOrdinal = in.receiveInt();
        final int count = in.receiveInt();
        if (kindOrdinal < 0 || kindOrdinal >= Kind.values().length || count < 0) {
            reject(sender, "collective data", teamId, counter, kindOrdinal, count);
            return;
        }
        final Kind kind = Kind.values()[kindOrdinal];
        kind.receive(in, teams.inbox(teamId, senderRank, kind, count), 0, 1, count);
        teams.arrive(teamId, counter, senderRank, count);
    }

    static boolean valid(final SymmetricArray s, final int index, final int stride, final int count) {
        return valid(s, index, stride, count, 1);
    }

    static boolean valid(final SymmetricArray s, final int index, final int stride, final int count,
        final int block) {
        if (s == null || count < 0 || stride < 1 || index < 0 || block < 1) {
            return false;
        }
        return count == 0 ? index <= s.length : index + (long) (count - 1) * stride + block - 1 < s.length;
    }

    /** A request that can only come from a bug or corruption: counted, memory untouched, raised on this PE. */
    void reject(final int sender, final String what, final int id, final int index, final int stride,
        final int count) {
        rejectedCount++;
        if (rejected == null) {
            rejected = "PE " + me + " rejected a " + what + " from PE " + sender + ": symmetric object #" + id
                + ", index " + index + ", stride " + stride + ", count " + count
                + " is not a live object or not inside it; memory was not touched";
        }
    }

    /** The agent hit an unexpected error: the PE thread's next SHMEM call throws it. */
    void agentFailed(final Throwable t) {
        if (rejected == null) {
            rejected = "the progress agent of PE " + me + " failed: " + t;
        }
    }

    long rejectedCount() {
        return rejectedCount;
    }

    /** A one-element array of the kind, reused by p and g (the PE thread's, under ownership). */
    Object one(final Kind kind) {
        Object a = ones[kind.ordinal()];
        if (a == null) {
            a = kind.newArray(1);
            ones[kind.ordinal()] = a;
        }
        return a;
    }

    // ------------------------------------------------------------------ replies

    /** @return a one-line state for timeouts and debugging */
    String describe() {
        return "PE " + me + ": " + requests.describe() + ", rejected " + rejectedCount;
    }
}
