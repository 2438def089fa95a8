package org.jhpvm.shmem;

/**
 * An OpenSHMEM communication context ({@code shmem_ctx_t}): its own ordering and completion domain for RMA, atomics
 * and puts with signal. {@link #quiet()} waits for the operations issued on this context only, and
 * {@link Shmem#quiet()} for those of the default context only, so one part of a program (a library, a thread's
 * stream of puts) can complete its own transfers without waiting for another's.
 * <p>
 * <b>Issuing operations on a context.</b> OpenSHMEM's {@code shmem_ctx_TYPE_put(ctx, ...)} forms take the context as
 * an argument; here a context is put <em>in use</em> for a scope, and every RMA, atomic, accumulate and put with
 * signal the PE issues in that scope (any method of the symmetric objects) goes on it:
 * <pre>{@code
 * ShmemCtx ctx = sh.ctxCreate(0);
 * try (ShmemCtx c = ctx.use()) {
 *     a.put(pe, 0, src, 0, n);            // shmem_ctx_long_put(ctx, ...)
 *     b.atomicAdd(pe, 0, 1);              // shmem_ctx_long_atomic_add(ctx, ...)
 *     c.quiet();                          // shmem_ctx_quiet(ctx)
 * }
 * ctx.destroy();
 * }</pre>
 * Scopes nest (the inner one's context is in use until it closes) and must close in the reverse order they were
 * opened, which try-with-resources does. Collectives, allocation and locks always use the default context, as in
 * OpenSHMEM, whatever context is in use. Inside the scope of a context made from a team
 * ({@link ShmemTeam#createCtx}), the PE numbers that operations take are <b>ranks of that team</b>, as OpenSHMEM
 * specifies for team contexts; a context from {@link Shmem#ctxCreate} (or the world team) takes world PE numbers.
 * <p>
 * <b>Options.</b> {@link #SERIALIZED} and {@link #PRIVATE} are accepted and checked: a {@code PRIVATE} context is put
 * in use only by the thread that created it. {@link #NOSTORE} is a hint, as OpenSHMEM 1.5 (9.4.1) defines it: the
 * program promises not to rely on the context's quiet and fence for the completion and order of its <em>own local
 * stores</em>; RMA, atomics, accumulates and puts with signal on the context are allowed as on any other, and its
 * quiet completes them. Nothing here needs the hint (a Java store is the program's own), so a NOSTORE context
 * behaves exactly as one without it.
 * <p>
 * <b>How it maps onto the NIC.</b> A context is a queue pair of its own: its requests are posted on an FM completion
 * queue the context opened ({@code FastMessages.openQueue}, a queue pair of the emulated NIC) and are counted per
 * context; its quiet polls that queue only, and {@link #destroy()} closes it. The NIC carries out each post on the
 * poster's turn, so requests to a PE are still carried out in the order posted whatever their contexts (stronger
 * than OpenSHMEM requires). A PE has at most {@link #MAX_CONTEXTS} live contexts besides the default one.
 * <p>
 * Thread-safety: as {@link Shmem}; a context belongs to one PE.
 */
public final class ShmemCtx implements AutoCloseable {
    /** {@code SHMEM_CTX_SERIALIZED}: the context is used by one thread at a time. */
    public static final long SERIALIZED = 1L;
    /** {@code SHMEM_CTX_PRIVATE}: only the creating thread uses the context. */
    public static final long PRIVATE = 1L << 1;
    /**
     * {@code SHMEM_CTX_NOSTORE}: the context's quiet and fence need not order the program's own local stores. RMA and
     * atomics on it are allowed, and its quiet completes them (the hint changes nothing here).
     */
    public static final long NOSTORE = 1L << 2;
    /** Live contexts a PE may have besides its default context. */
    public static final int MAX_CONTEXTS = 63;

    private static final long ALL_OPTIONS = SERIALIZED | PRIVATE | NOSTORE;

    final Shmem shmem;
    final int domain;
    private final ShmemTeam team;
    private final long options;
    private final Thread creator;
    private boolean destroyed;
    /** Scopes open on this context, over all threads (changed under the engine's ownership). */
    private int scopes;

    ShmemCtx(final Shmem shmem, final int domain, final ShmemTeam team, final long options) {
        this.shmem = shmem;
        this.domain = domain;
        this.team = team;
        this.options = options;
        this.creator = Thread.currentThread();
    }

    /** Checks context creation options: only the three OpenSHMEM defines. */
    static void checkOptions(final long options) {
        if ((options & ~ALL_OPTIONS) != 0) {
            throw new IllegalArgumentException("context options 0x" + Long.toHexString(options)
                + " have bits other than SERIALIZED (1), PRIVATE (2) and NOSTORE (4)");
        }
    }

    /**
     * {@code shmem_ctx_get_team}: the team the context was created from (the world team for {@link Shmem#ctxCreate}
     * and the default context).
     *
     * @return the context's team
     * @throws IllegalStateException if the context was destroyed
     */
    public ShmemTeam team() {
        check();
        return team;
    }

    /**
     * The options the context was created with.
     *
     * @return a bitwise or of {@link #SERIALIZED}, {@link #PRIVATE} and {@link #NOSTORE}, or 0
     */
    public long options() {
        return options;
    }

    /**
     * Whether this is the PE's default context ({@code SHMEM_CTX_DEFAULT}), which {@link Shmem#quiet()} and the
     * operations outside any scope use.
     *
     * @return true for the default context
     */
    public boolean isDefault() {
        return domain == 0;
    }

    /**
     * Puts the context in use: until {@link #close()}, every RMA, atomic, accumulate and put with signal the calling
     * thread issues on this PE goes on this context. Use it with try-with-resources. Scopes belong to the thread that
     * opens them: at thread level MULTIPLE several threads may each have a scope of the same context open (not of a
     * {@link #SERIALIZED} one, which is used by one thread at a time), and another thread's operations are not
     * affected.
     *
     * @return this context, to close
     * @throws IllegalStateException if the context was destroyed or is already in use by this thread, if it is
     *                               {@link #PRIVATE} and this is not the thread that created it, if it is
     *                               {@link #SERIALIZED} and another thread has it in use, or if another thread calls
     *                               at thread level FUNNELED
     */
    public ShmemCtx use() {
        check();
        if ((options & PRIVATE) != 0 && Thread.currentThread() != creator) {
            throw new IllegalStateException(this + " is PRIVATE to thread " + creator.getName() + ", not "
                + Thread.currentThread().getName());
        }
        final Engine engine = shmem.engine;
        engine.enter();
        try {
            final Caller caller = engine.current;
            if (caller.inScope(domain)) {
                throw new IllegalStateException(this + " is already in use (close its scope first)");
            }
            if ((options & SERIALIZED) != 0 && scopes > 0) {
                throw new IllegalStateException(this + " was created SERIALIZED and another thread has it in use");
            }
            final NicRequests nic = engine.nic;
            caller.openScope(domain, nic);
            nic.domain = domain;
            nic.teamPes = team.id == 0 ? null : team.members;
            scopes++;
        } finally {
            engine.exit();
        }
        return this;
    }

    /**
     * Ends the scope {@link #use()} opened in this thread: the context in use before it is in use again. Operations
     * issued in the scope stay outstanding until this context's {@link #quiet()} (or {@link #destroy()}).
     *
     * @throws IllegalStateException if the context is not in use by this thread, or a scope opened after this one is
     *                               still open
     */
    @Override
    public void close() {
        final Engine engine = shmem.engine;
        engine.enter();
        try {
            final Caller caller = engine.current;
            if (!caller.inScope(domain)) {
                throw new IllegalStateException(this + " is not in use");
            }
            if (caller.innermostScope() != domain) {
                throw new IllegalStateException("the scope of " + this + " closed while a scope opened after it is "
                    + "still open");
            }
            caller.closeScope(engine.nic);
            scopes--;
        } finally {
            engine.exit();
        }
    }

    /**
     * {@code shmem_ctx_quiet}: waits until every operation issued on this context is complete and visible at its
     * target. Operations of other contexts are not waited for.
     *
     * @throws IllegalStateException if the context was destroyed, or a request of it was refused by its target
     */
    public void quiet() {
        check();
        final Engine engine = shmem.engine;
        engine.enter();
        try {
            engine.nic.awaitDomain(domain);
            engine.fenceDirectStores();
        } finally {
            engine.exit();
        }
    }

    /**
     * {@code shmem_ctx_fence}: orders this context's puts, atomics and puts with signal to each PE. They are already
     * delivered in the order posted (one queue pair per PE), so this only checks the context.
     *
     * @throws IllegalStateException if the context was destroyed
     */
    public void fence() {
        check();
        shmem.engine.enter();
        shmem.engine.exit();
    }

    /**
     * {@code shmem_ctx_destroy}: completes the context's operations (a quiet) and releases it; the handle cannot be
     * used afterwards.
     *
     * @throws IllegalArgumentException for the default context
     * @throws IllegalStateException    if the context was already destroyed or is in use
     */
    public void destroy() {
        if (domain == 0) {
            throw new IllegalArgumentException("the default context cannot be destroyed");
        }
        check();
        final Engine engine = shmem.engine;
        engine.enter();
        try {
            check(); // again: another thread may have destroyed it meanwhile
            if (scopes > 0) {
                throw new IllegalStateException(this + " is in use (close its scope first)");
            }
            quiet();
            shmem.releaseCtx(this, team);
            destroyed = true;
        } finally {
            engine.exit();
        }
    }

    /**
     * Whether {@link #destroy()} was called; every use of a destroyed context throws {@link IllegalStateException}.
     *
     * @return true once destroyed
     */
    public boolean isDestroyed() {
        return destroyed;
    }

    private void check() {
        if (destroyed) {
            throw new IllegalStateException(this + " was destroyed");
        }
    }

    @Override
    public String toString() {
        return "ShmemCtx#" + domain + " of PE " + shmem.engine.me + (destroyed ? " (destroyed)" : "");
    }
}
