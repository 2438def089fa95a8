package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.H_LOCK;
import static org.jhpvm.shmem.MessageDescriptor.H_PUT_SIGNAL;
import static org.jhpvm.shmem.MessageDescriptor.H_REPLY;
import static org.jhpvm.shmem.MessageDescriptor.H_TEAM;
import static org.jhpvm.shmem.MessageDescriptor.N_ACC;
import static org.jhpvm.shmem.MessageDescriptor.N_AMO;
import static org.jhpvm.shmem.MessageDescriptor.N_BATCH;
import static org.jhpvm.shmem.MessageDescriptor.N_GET;
import static org.jhpvm.shmem.MessageDescriptor.N_PUT;
import static org.jhpvm.shmem.MessageDescriptor.N_PUT_SIGNAL;
import static org.jhpvm.shmem.MessageDescriptor.N_SEGMENT_AMO;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.jhpvm.fm.FastMessages;
import org.jhpvm.fm.FmHandler;

/**
 * One PE's SHMEM engine. Remote memory access (put, get, atomics, accumulate, put with signal) is NIC messages whose
 * handlers the target's NIC runs on the target's registered memory, without the target's thread, and RDMA for large
 * contiguous transfers ({@link NicRequests}); where the fabric's NIC cannot, FM carries the same requests and runs
 * the same handlers in the target's extract. The collectives' traffic and locks are FM messages to host handlers,
 * which never send (FM's rule for deadlock-free handlers): their answers are queued and sent by whichever thread
 * drives progress next. No acknowledgement or retry is added above FM and the NIC: a quiet waits for the completion
 * of each NIC request, which comes once the target's memory has it.
 * <p>
 * Ownership: the FM endpoint is single-threaded. The PE's thread owns it while inside a SHMEM call; the progress
 * agent owns it only for short non-blocking passes when the PE thread does not ({@link ProgressAgent#pass(boolean)}:
 * how it takes the endpoint and gives it back). Handlers run under that ownership, which is what makes accumulates
 * atomic per element and keeps the handler state simple.
 * At thread level MULTIPLE the PE's threads take turns at it: a call owns it from start to end, except that a wait
 * which another thread of the PE may have to end ({@link #awaitTurn}) lets the others in between its passes.
 * <p>
 * This class keeps that ownership, progress, the table of this PE's symmetric objects ({@link SymmetricObjects})
 * and the record of refused requests ({@link Rejections}); the operations live in one class per family, each with its
 * requesting side and its handlers ({@link RmaOperations}, {@link AtomicOperations}, {@link AccumulateOperations},
 * {@link LockOperations}; segments in host memory: {@link SegmentTransfers}, {@link SegmentRequests}), over
 * {@link OutstandingRequests} (request slots, replies' landing, quiet) and {@link ReplyQueue}; the messages are
 * laid out in {@link MessageDescriptor}. Callers reach a family through its field ({@code engine.rma.put(...)}), not
 * through a forwarding method here: Global Arrays' calls reach FM's copy loops through a chain that is already as
 * deep as the JIT inlines, and one level more cost it 10-20% on 1-4 KiB puts.
 */
final class Engine {
    private static final long FOREVER_NS = Long.MAX_VALUE / 4;

    /** Idle passes of a wait at MULTIPLE before it sleeps briefly, the endpoint given up meanwhile. */
    private static final int IDLE_PASSES = 64;
    private static final long IDLE_SLEEP_NS = 20_000;

    static final VarHandle OWNER;
    static final VarHandle ENTERS;
    private static final VarHandle WAITING;
    static final VarHandle IN_WAIT;
    static final VarHandle KNOCK;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(Engine.class, "owner", int.class);
            ENTERS = MethodHandles.lookup().findVarHandle(Engine.class, "enters", long.class);
            WAITING = MethodHandles.lookup().findVarHandle(Engine.class, "waitingCallers", int.class);
            IN_WAIT = MethodHandles.lookup().findVarHandle(Engine.class, "inWait", boolean.class);
            KNOCK = MethodHandles.lookup().findVarHandle(Engine.class, "agentKnocks", boolean.class);
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
    /** Thread levels SERIALIZED and MULTIPLE: any thread may call, each with its own {@link Caller}. */
    boolean anyThread;
    /** This PE made direct stores into host memory since its last quiet ({@link #fenceDirectStores()}). */
    boolean directStores;
    /** Whether segments ({@link SymmetricSegment}) use the host memory (option {@code shmem.hostMemory}). */
    boolean directHostMemory = true;
    /** Thread level MULTIPLE: threads of the PE call at once and take turns at the endpoint. */
    boolean multiple;
    /** The thread that owns the endpoint inside a call, at SERIALIZED and MULTIPLE (null between calls). */
    private volatile Thread ownerThread;
    /** The state of the thread that owns the endpoint (the PE thread's at SINGLE and FUNNELED). */
    Caller current = new Caller();
    /** Each calling thread's state, at SERIALIZED and MULTIPLE. */
    private final ThreadLocal<Caller> callers = ThreadLocal.withInitial(Caller::new);
    /** Threads waiting to take the endpoint (MULTIPLE): a wait in progress lets them in. */
    @SuppressWarnings("unused") // through WAITING
    private volatile int waitingCallers;
    final ReplyQueue replies;
    final NicRequests nic;
    final OutstandingRequests requests;
    final RmaOperations rma;
    final AtomicOperations atomics;
    final AccumulateOperations accumulates;
    final LockOperations locks;
    /** Small puts and non-fetching atomics to one PE, sent together ({@link PutBatch}). */
    final PutBatch batch;

    @SuppressWarnings("unused") // through OWNER
    private volatile int owner;
    private int depth;
    private int collectiveDepth;
    private int savedDomain;
    private int[] savedTeamPes;
    /**
     * Times the PE thread extracted (opaque: the agent only needs to see that it changes). Calls that stay local (an
     * atomic or {@code g} on its own memory, {@code testLock} on a lock it homes) do not count: a PE spinning on them
     * drives no progress, and the agent must.
     */
    @SuppressWarnings("unused") // through ENTERS
    private long enters;
    /** The PE thread is inside a wait, which extracts (opaque: the agent only reads it). */
    @SuppressWarnings("unused") // through IN_WAIT
    private boolean inWait;
    /**
     * The agent asks for the endpoint: the PE thread's next exit hands it over (owner 2) instead of freeing it, so an
     * agent gets in even between the short calls of a PE that calls SHMEM in a loop without extracting.
     */
    volatile boolean agentKnocks;
    volatile boolean agentWanted;
    /** Passes the agent made (its wake-ups), for the test that an idle agent does not spin. */
    volatile long agentPasses;
    /** Extracts made between batches ({@link #serveBetweenBatches}), for the tests. */
    long batchServes;
    /** The PE's progress agent, told when a wait ends; null without one (virtual time). */
    volatile ProgressAgent agent;
    /**
     * The fabric keeps a virtual clock: the PE has no progress agent (when an agent looks is a matter of wall time, and
     * would decide the modelled times), and its calls that stay local poll the NIC instead ({@link #pollIfVirtual()}).
     */
    final boolean virtualClock;

    /** This PE's symmetric objects by id. */
    final SymmetricObjects objects = new SymmetricObjects();

    /** The requests this PE refused or had refused, raised by its next call. */
    final Rejections rejections;

    // Wait conditions without a capturing lambda per call.
    private BooleanSupplier condition;
    private final BooleanSupplier progressThen;

    Engine(final FastMessages fm, final World world) {
        this.fm = fm;
        this.me = fm.pe();
        this.npes = fm.pes();
        this.world = world;
        this.peThread = Thread.currentThread();
        this.virtualClock = org.jhpvm.fm.FmClock.isVirtual();
        this.teams = new Teams(this);
        this.replies = new ReplyQueue(fm);
        this.rejections = new Rejections(me);
        this.nic = new NicRequests(this);
        this.requests = new OutstandingRequests(this, replies, nic);
        this.batch = new PutBatch(nic, PutBatch.DEFAULT_PUT_BYTES, PutBatch.DEFAULT_DELAY_NS);
        if (!fm.nicOffload() && !virtualClock) {
            batch.serveAfterBatch(this::serveBetweenBatches);
        }
        nic.batch = batch;
        this.rma = new RmaOperations(this, nic);
        this.atomics = new AtomicOperations(this, nic);
        this.accumulates = new AccumulateOperations(this, rma, nic);
        this.locks = new LockOperations(this, requests, replies);
        this.progressThen = new WaitCondition() {
            @Override
            public boolean getAsBoolean() {
                replies.send();
                checkRejected();
                return condition.getAsBoolean();
            }

            @Override
            public void describeWait(final StringBuilder out) {
                if (condition instanceof WaitCondition c) {
                    c.describeWait(out);
                } else {
                    out.append("a SHMEM operation");
                }
            }
        };
        fm.registerNicHandler(N_PUT, RmaOperations::onPutNic);
        fm.registerNicHandler(N_GET, RmaOperations::onGetNic);
        fm.registerNicHandler(N_AMO, AtomicOperations::onAmoNic);
        fm.registerNicHandler(N_ACC, accumulates::onAccNic);
        fm.registerNicHandler(N_PUT_SIGNAL, RmaOperations::onPutSignalNic);
        fm.registerNicHandler(N_BATCH, PutBatch::onBatchNic);
        fm.registerNicHandler(N_SEGMENT_AMO, SegmentRequests::onAmoNic);
        fm.register(H_PUT_SIGNAL, (FmHandler) rma::onPutSignal);
        fm.register(H_REPLY, (FmHandler) requests::onReply);
        fm.register(H_TEAM, (FmHandler) rma::onTeam);
        fm.register(H_LOCK, (FmHandler) locks::onLock);
        world.register(this);
    }

    // ------------------------------------------------------------------ ownership and progress

    /**
     * The PE thread (at SERIALIZED and MULTIPLE, the calling thread) takes the endpoint (reentrant), and sends the
     * open batch of small puts first: every call but those that add to it ({@link #enterToBatch()}) does.
     */
    void enter() {
        enterToBatch();
        batch.otherCall();
        if (batch.pending()) {
            flushEntered();
        }
    }

    /** Sends the open batch for a call that has entered (a cold path: {@link #enter()} stays small to inline). */
    private void flushEntered() {
        try {
            batch.flush();
        } catch (RuntimeException | Error e) {
            exit();
            throw e;
        }
    }

    /** {@link #enter()} without sending the open batch: a small put or atomic that may add to it. */
    void enterToBatch() {
        if (anyThread) {
            enterAnyThread();
            return;
        }
        if (Thread.currentThread() != peThread) {
            throw wrongThread();
        }
        checkRejected();
        if (depth++ == 0 && !OWNER.compareAndSet(this, 0, 1)) {
            acquire();
        }
    }

    /**
     * Part of a quiet: makes this PE's direct stores into host memory visible before anything it does next (a full
     * fence, only if it made some since the last quiet).
     */
    void fenceDirectStores() {
        if (directStores) {
            directStores = false;
            VarHandle.fullFence();
        }
    }

    /**
     * The thread check of {@link #enter()}, alone: for calls that touch no state of the engine (loads, stores and
     * atomics straight on host memory, {@link SymmetricSegment}), so a program is refused the same on every path.
     */
    void checkCaller() {
        if (!anyThread && Thread.currentThread() != peThread) {
            throw wrongThread();
        }
    }

    /**
     * The checks of {@link #enter()} without taking the endpoint: the caller's thread, then the refusals to raise. For
     * calls that touch only this PE's own memory, atomically, and no state of the engine.
     */
    void checkLocalCall() {
        checkCaller();
        checkRejected();
    }

    private IllegalStateException wrongThread() {
        return new IllegalStateException("SHMEM calls of PE " + me + " must come from its own thread "
            + peThread.getName() + " (thread level FUNNELED), not from " + Thread.currentThread().getName());
    }

    void exit() {
        if (--depth == 0) {
            if (anyThread) {
                store(current);
                ownerThread = null;
            }
            if (agentKnocks && KNOCK.compareAndSet(this, true, false)) {
                OWNER.setRelease(this, 2); // to the agent that knocked
            } else {
                OWNER.setRelease(this, 0);
            }
        }
    }

    /** Spins until the endpoint is free and takes it (the agent gives it back within a bounded pass). */
    private void acquire() {
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

    /**
     * Any thread may call. The owner's nested calls just count. At SERIALIZED a call from a thread while another
     * thread is inside a call breaks the program's promise to serialise its calls and is refused (a best-effort
     * check: the promise is the program's); at MULTIPLE the thread waits for its turn. The thread that takes the
     * endpoint brings its own {@link Caller} state.
     */
    private void enterAnyThread() {
        final Thread t = Thread.currentThread();
        if (ownerThread == t) {
            checkRejected();
            depth++;
            return;
        }
        if (!multiple) {
            final Thread inside = ownerThread;
            if (inside != null) {
                throw new IllegalStateException("thread " + t.getName() + " called SHMEM of PE " + me
                    + " while thread " + inside.getName() + " was inside a call: thread level SERIALIZED needs the "
                    + "calls serialised");
            }
        }
        checkRejected();
        take(t);
        depth++;
    }

    /** Takes the endpoint for thread {@code t} (SERIALIZED and MULTIPLE) and loads its state. */
    private void take(final Thread t) {
        if (!OWNER.compareAndSet(this, 0, 1)) {
            WAITING.getAndAdd(this, 1);
            try {
                acquire();
            } finally {
                WAITING.getAndAdd(this, -1);
            }
        }
        ownerThread = t;
        load(callers.get());
    }

    private void load(final Caller c) {
        current = c;
        depth = c.depth;
        collectiveDepth = c.collectiveDepth;
        savedDomain = c.savedDomain;
        savedTeamPes = c.savedTeamPes;
        nic.domain = c.domain;
        nic.teamPes = c.teamPes;
    }

    private void store(final Caller c) {
        c.depth = depth;
        c.collectiveDepth = collectiveDepth;
        c.savedDomain = savedDomain;
        c.savedTeamPes = savedTeamPes;
        c.domain = nic.domain;
        c.teamPes = nic.teamPes;
    }

    /**
     * The target translation of the calling thread's context in use (its team's world PEs, or null for world
     * numbers), read before the call takes the endpoint: the thread's own, not the last owner's. Below SERIALIZED the
     * PE thread is the only caller; above it, a thread that does not own the endpoint finds its context in its
     * {@link Caller}, which only it changes.
     */
    int[] callerTeamPes() {
        if (!anyThread || ownerThread == Thread.currentThread()) {
            return nic.teamPes;
        }
        return callers.get().teamPes;
    }

    /** The calling thread's context in use (its completion domain; 0: the default), read as {@link #callerTeamPes}. */
    int callerDomain() {
        if (!anyThread || ownerThread == Thread.currentThread()) {
            return nic.domain;
        }
        return callers.get().domain;
    }

    /** The calling thread's one-element array of {@code kind} for {@code p} and {@code g} ({@link Caller#one}). */
    Object one(final Kind kind) {
        return (anyThread ? callers.get() : current).one(kind);
    }

    /**
     * Enters for a collective or an allocation: their own traffic always goes on the default context, with stores
     * allowed, whatever context the caller has in use ({@link ShmemCtx#use()}); {@link #exitCollective()} restores it.
     */
    void enterCollective() {
        enter();
        if (collectiveDepth++ == 0) {
            savedDomain = nic.domain;
            savedTeamPes = nic.teamPes;
            nic.domain = 0;
            nic.teamPes = null;
        }
    }

    void exitCollective() {
        if (--collectiveDepth == 0) {
            nic.domain = savedDomain;
            nic.teamPes = savedTeamPes;
        }
        exit();
    }

    /** Extracts (running handlers) and sends replies until {@code cond} holds; the caller has entered. */
    void await(final BooleanSupplier cond) {
        replies.send();
        if (cond.getAsBoolean()) {
            return;
        }
        final BooleanSupplier saved = condition;
        final boolean savedInWait = inWait;
        condition = cond;
        ENTERS.setOpaque(this, enters + 1);
        IN_WAIT.setOpaque(this, true);
        try {
            if (!fm.extractUntil(progressThen, FOREVER_NS)) {
                throw new IllegalStateException("PE " + me + " waited " + FOREVER_NS + " ns");
            }
        } finally {
            condition = saved;
            if (savedInWait) {
                IN_WAIT.setOpaque(this, true);
            } else {
                // Volatile, then the agent's flag: an agent that sleeps through the wait is woken (ProgressAgent).
                IN_WAIT.setVolatile(this, false);
                final ProgressAgent a = agent;
                if (a != null) {
                    a.peLeftWait();
                }
            }
        }
    }

    /** @return whether the PE thread is inside a wait (volatile: {@link ProgressAgent} pairs it with its own flag) */
    boolean peInWait() {
        return (boolean) IN_WAIT.getVolatile(this);
    }

    /**
     * A wait that may depend on what another thread of this PE does (a point-to-point wait, a collective's arrival,
     * a lock's grant). Below MULTIPLE it is {@link #await}. At MULTIPLE the waiting thread drives progress while no
     * other thread of the PE wants the endpoint, and lets the others in between its passes: when one is waiting to
     * enter, and after {@value #IDLE_PASSES} idle passes (then it sleeps {@value #IDLE_SLEEP_NS} ns without the
     * endpoint, the progress agent serving the PE meanwhile). Its own state (nesting, context in use) is kept across;
     * the state {@code cond} reads is the call site's, which another thread's wait may have overwritten meanwhile.
     *
     * @return true once {@code cond} holds; false after giving the endpoint up and taking it back, when the call
     *         site sets what {@code cond} reads again and calls again
     */
    boolean awaitTurn(final BooleanSupplier cond) {
        if (!multiple) {
            await(cond);
            return true;
        }
        int idle = 0;
        while (true) {
            ENTERS.setOpaque(this, enters + 1);
            final int work = fm.extract(1 << 20) + replies.send();
            checkRejected();
            if (cond.getAsBoolean()) {
                return true;
            }
            if ((int) WAITING.getOpaque(this) > 0) {
                yieldTurn(false);
                return false;
            }
            if (work > 0) {
                idle = 0;
            } else if (++idle >= IDLE_PASSES) {
                yieldTurn(true);
                return false;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Gives the endpoint up in the middle of a call and takes it back (MULTIPLE), the thread's state kept. */
    private void yieldTurn(final boolean sleep) {
        final Thread t = ownerThread;
        store(current);
        ownerThread = null;
        OWNER.setRelease(this, 0);
        if (sleep) {
            LockSupport.parkNanos(IDLE_SLEEP_NS);
        } else {
            // Let a waiting thread take it before competing again.
            for (int i = 0; i < 1_000 && (int) WAITING.getOpaque(this) > 0 && (int) OWNER.getOpaque(this) == 0; i++) {
                Thread.onSpinWait();
            }
        }
        take(t);
    }

    /**
     * In virtual time (no progress agent) a read of its own memory (a {@code g}, a fetching atomic) polls once, so
     * that a PE spinning on it serves the put it waits for, at its own point in its program.
     */
    void pollIfVirtual() {
        if (virtualClock) {
            poll();
        }
    }

    /** On FM's message path, after each batch the PE sends: serve others' (the agent then keeps away). */
    void serveBetweenBatches() {
        if (depth == 1 && !anyThread && Thread.currentThread() == peThread) {
            batchServes++;
            serve();
        }
    }

    /** One non-blocking progress step from the PE thread (test routines call it). */
    void poll() {
        serve();
        checkRejected();
    }

    /** Extracts what has arrived and sends the replies it produced, counted as the PE thread's own progress. */
    private void serve() {
        ENTERS.setOpaque(this, enters + 1);
        fm.extract(1 << 20);
        replies.send();
    }

    private void checkRejected() {
        rejections.check();
    }

    /** @return a one-line state for timeouts and debugging */
    String describe() {
        return "PE " + me + ": " + requests.describe() + ", rejected " + rejections.count();
    }
}
