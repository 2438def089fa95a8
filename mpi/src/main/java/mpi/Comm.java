package mpi;

import org.jhpvm.fm.FmJobExit;

/**
 * A communicator: a group of ranks and a context of their own, so that its messages never match another
 * communicator's. Point-to-point and most collective calls are here, as in the Open MPI Java bindings (written in
 * package-private parts it extends: point-to-point, the rooted collectives, the exchanges, the non-blocking
 * collectives); scans, splitting and creation are in {@link Intracomm}. {@code MPI.COMM_WORLD} and
 * {@code MPI.COMM_SELF} are the same objects on every rank of a job in one JVM and stand for the calling rank's own.
 */
public class Comm extends NeighborCalls implements Freeable, Cloneable {
    static final int USER = 0;
    static final int SELF = 1;
    static final int WORLD = 2;
    /** {@code MPI_COMM_NULL}: what split, create and createCart give a rank left out. */
    static final int NULL = 3;

    private final int predefined;
    final CommState state;

    Comm(final int predefined) {
        this.predefined = predefined;
        this.state = null;
    }

    Comm(final CommState state) {
        this.predefined = USER;
        this.state = state;
    }

    @Override
    final CommState st() throws MPIException {
        if (predefined == NULL) {
            throw new MPIException(MPI.ERR_COMM, "the communicator is MPI_COMM_NULL");
        }
        final CommState s;
        if (state != null) {
            s = state;
            s.rank.check();
        } else {
            final Rank r = Rank.active();
            s = predefined == WORLD ? r.world : r.self;
        }
        if (s.freed) {
            throw s.error(MPI.ERR_COMM, "communicator " + s.name + " has been freed");
        }
        return s;
    }

    /**
     * {@code MPI_Comm_rank}.
     *
     * @return this rank in the communicator
     * @throws MPIException if MPI is not active or the communicator is freed
     */
    public final int getRank() throws MPIException {
        return st().me;
    }

    /**
     * {@code MPI_Comm_size}.
     *
     * @return the number of members
     * @throws MPIException if MPI is not active or the communicator is freed
     */
    public final int getSize() throws MPIException {
        return st().size();
    }

    /**
     * {@code MPI_Comm_dup}: a communicator of the same members in the same order with a new context (collective).
     *
     * @return the copy
     * @throws MPIException if the communicator is not usable
     */
    public Comm dup() throws MPIException {
        return new Comm(dupState(st()));
    }

    static CommState dupState(final CommState c) throws MPIException {
        final CommState d = new CommState(c.rank, newContext(c), c.members.clone(), c.name + "'s dup");
        d.errhandler = c.errhandler;
        d.dims = c.dims == null ? null : c.dims.clone();
        d.periods = c.periods == null ? null : c.periods.clone();
        d.attributes.putAll(c.attributes); // as Open MPI's keyvals copy them
        d.info = c.info;
        return d;
    }

    /** A context no communicator of the members uses yet: the largest next-free context among them. */
    static int newContext(final CommState c) throws MPIException {
        final int[] mine = {c.rank.nextContext};
        final int[] max = (int[]) Collectives.allReduce(c, mine, 1, MPI.INT, MPI.MAX);
        c.rank.nextContext = max[0] + 2;
        return max[0];
    }

    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code MPI_Comm_free}; the predefined communicators cannot be freed.
     *
     * @throws MPIException {@code ERR_COMM} for {@code COMM_WORLD}, {@code COMM_SELF} or one already freed
     */
    @Override
    public final void free() throws MPIException {
        final CommState c = st();
        if (state == null) {
            throw c.error(MPI.ERR_COMM, c.name + " cannot be freed");
        }
        c.freed = true;
    }

    /**
     * Whether this is {@code MPI_COMM_NULL}: what {@code split}, {@code create} and {@code createCart} give a rank
     * they leave out, and what a communicator becomes once freed (as Open MPI's bindings set the freed handle to
     * the null one).
     *
     * @return true for the null communicator
     */
    public final boolean isNull() {
        return predefined == NULL || state != null && state.freed;
    }

    /**
     * Whether this is an inter-communicator.
     *
     * @return false (only intra-communicators exist here)
     */
    public final boolean isInter() {
        return false;
    }

    /**
     * {@code MPI_Topo_test}.
     *
     * @return {@code MPI.CART}, {@code MPI.GRAPH} or {@code MPI.DIST_GRAPH} for a communicator with that topology,
     *         else {@code MPI.UNDEFINED}
     * @throws MPIException if the communicator is not usable
     */
    public final int getTopology() throws MPIException {
        final CommState c = st();
        return c.dims != null ? MPI.CART : c.graphIndex != null ? MPI.GRAPH : c.distGraph != null ? MPI.DIST_GRAPH
            : MPI.UNDEFINED;
    }

    /**
     * {@code MPI_Comm_group}: the members as a group.
     *
     * @return the group
     * @throws MPIException if the communicator is not usable
     */
    public final Group getGroup() throws MPIException {
        final CommState c = st();
        return new Group(c.members.clone(), c.engine.me);
    }

    /**
     * {@code MPI_Comm_compare}.
     *
     * @param comm1 one communicator
     * @param comm2 another
     * @return {@code MPI.IDENT} (the same), {@code MPI.CONGRUENT} (same members, same order),
     *         {@code MPI.SIMILAR} (same members) or {@code MPI.UNEQUAL}
     * @throws MPIException if either is not usable
     */
    public static int compare(final Comm comm1, final Comm comm2) throws MPIException {
        final CommState a = comm1.st();
        final CommState b = comm2.st();
        if (a == b) {
            return MPI.IDENT;
        }
        return java.util.Arrays.equals(a.members, b.members) ? MPI.CONGRUENT : Group.compareMembers(a.members,
            b.members) == MPI.SIMILAR ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /**
     * {@code MPI_Abort}: ends the whole job; {@code MpiJob} and {@code bin/jhpvm run} report {@code errorcode} as
     * its exit status.
     *
     * @param errorcode the job's exit status
     * @throws MPIException never (the call does not return)
     */
    public final void abort(final int errorcode) throws MPIException {
        final Rank r = Rank.ofThread();
        throw new FmJobExit(r == null ? -1 : r.engine.me, errorcode);
    }

    /**
     * Sets the error handler: {@code MPI.ERRORS_ARE_FATAL} (the default) or {@code MPI.ERRORS_RETURN}.
     *
     * @param errhandler the handler
     * @throws MPIException if the communicator is not usable
     */
    public final void setErrhandler(final Errhandler errhandler) throws MPIException {
        st().errhandler = java.util.Objects.requireNonNull(errhandler, "errhandler");
    }

    /**
     * The error handler.
     *
     * @return the handler
     * @throws MPIException if the communicator is not usable
     */
    public final Errhandler getErrhandler() throws MPIException {
        return st().errhandler;
    }

    /**
     * Names the communicator.
     *
     * @param name the name
     * @throws MPIException if the communicator is not usable
     */
    public final void setName(final String name) throws MPIException {
        st().name = name;
    }

    /**
     * The communicator's name ({@code MPI_COMM_WORLD}, ...).
     *
     * @return the name
     * @throws MPIException if the communicator is not usable
     */
    public final String getName() throws MPIException {
        return st().name;
    }

    /**
     * {@code MPI_Comm_get_attr}. The predefined keys: {@code MPI.TAG_UB} (the largest tag), {@code MPI.HOST}
     * ({@code MPI.PROC_NULL}: no host rank), {@code MPI.IO} (this rank: every rank may do I/O),
     * {@code MPI.WTIME_IS_GLOBAL} (false), {@code MPI.UNIVERSE_SIZE} (the job's size), {@code MPI.APPNUM} (0) and
     * {@code MPI.LASTUSEDCODE} ({@code MPI.ERR_LASTCODE}); a key of {@link #createKeyval()} gives what
     * {@link #setAttr} set on this communicator, or null.
     *
     * @param keyval the key
     * @return the value, or null for a key not set
     * @throws MPIException if the communicator is not usable
     */
    public final Object getAttr(final int keyval) throws MPIException {
        final CommState c = st();
        return switch (keyval) {
            case MPI.TAG_UB -> MPI.TAG_UB_VALUE;
            case MPI.HOST -> MPI.PROC_NULL;
            case MPI.IO -> c.me;
            case MPI.WTIME_IS_GLOBAL -> Boolean.FALSE;
            case MPI.UNIVERSE_SIZE -> c.rank.world.size();
            case MPI.APPNUM -> 0;
            case MPI.LASTUSEDCODE -> MPI.ERR_LASTCODE;
            default -> c.attributes.get(keyval);
        };
    }

    /** Keys of {@link #createKeyval()} start above the predefined ones. */
    private static final java.util.concurrent.atomic.AtomicInteger NEXT_KEYVAL = new java.util.concurrent.atomic
        .AtomicInteger(100);
    private static final java.util.Set<Integer> LIVE_KEYVALS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * {@code MPI_Comm_create_keyval}: a new attribute key. Its attributes are copied by {@code dup} and dropped when
     * deleted or with their communicator, as with the keyvals of Open MPI's bindings.
     *
     * @return the key
     */
    public static int createKeyval() {
        final int k = NEXT_KEYVAL.getAndIncrement();
        LIVE_KEYVALS.add(k);
        return k;
    }

    /**
     * {@code MPI_Comm_free_keyval}: no new attribute may be set with the key; those set already stay until deleted
     * (MPI frees a keyval once no attribute uses it).
     *
     * @param keyval a key of {@link #createKeyval()}
     * @throws MPIException {@code ERR_KEYVAL} for another key
     */
    public static void freeKeyval(final int keyval) throws MPIException {
        if (!LIVE_KEYVALS.remove(keyval)) {
            throw new MPIException(MPI.ERR_KEYVAL, "freeKeyval: " + keyval + " is not a live key of createKeyval");
        }
    }

    /**
     * {@code MPI_Comm_set_attr}: sets this communicator's attribute (the object itself is kept).
     *
     * @param keyval a live key of {@link #createKeyval()}
     * @param value  the value
     * @throws MPIException {@code ERR_KEYVAL} for a predefined, unknown or freed key
     */
    public final void setAttr(final int keyval, final Object value) throws MPIException {
        final CommState c = st();
        if (!LIVE_KEYVALS.contains(keyval)) {
            throw c.error(MPI.ERR_KEYVAL, "setAttr: " + keyval + (keyval < 100 ? " is a predefined key"
                : " is not a live key of createKeyval"));
        }
        c.attributes.put(keyval, value);
    }

    /**
     * {@code MPI_Comm_delete_attr}.
     *
     * @param keyval the key
     * @throws MPIException {@code ERR_KEYVAL} for a predefined key (they cannot be deleted) or one not set here
     */
    public final void deleteAttr(final int keyval) throws MPIException {
        final CommState c = st();
        if (keyval < 100 || !c.attributes.containsKey(keyval)) {
            throw c.error(MPI.ERR_KEYVAL, "deleteAttr: " + keyval + (keyval < 100 ? " is a predefined key"
                : " has no attribute on " + c.name));
        }
        c.attributes.remove(keyval);
    }

    /**
     * {@code MPI_Comm_call_errhandler}: invokes this communicator's handler on {@code errorCode}. Under
     * {@code MPI.ERRORS_ARE_FATAL} the job ends with it (the call throws {@link MpiFatalError}); under
     * {@code MPI.ERRORS_RETURN} the handler does nothing and the call returns, as MPI says.
     *
     * @param errorCode an error class or code
     * @throws MPIException if the communicator is not usable
     */
    public void callErrhandler(final int errorCode) throws MPIException {
        final CommState c = st();
        if (c.errhandler.isFatal()) {
            throw c.error(errorCode, "callErrhandler(" + errorCode + ") on " + c.name);
        }
    }

    /**
     * {@code MPI_Comm_dup_with_info}: {@link #dup()}, with hints (kept, not used: MPI lets an implementation
     * ignore them).
     *
     * @param info the hints, or {@code MPI.INFO_NULL}
     * @return the copy
     * @throws MPIException if the communicator is not usable
     */
    public Comm dupWithInfo(final Info info) throws MPIException {
        final Comm d = dup();
        d.state.info = info == null || info.isNull() ? null : info.dup();
        return d;
    }

    /**
     * {@code MPI_Comm_set_info}: keeps the hints.
     *
     * @param info the hints
     * @throws MPIException if the communicator is not usable
     */
    public final void setInfo(final Info info) throws MPIException {
        st().info = info == null || info.isNull() ? null : info.dup();
    }

    /**
     * {@code MPI_Comm_get_info}: the hints kept (a copy; empty if none).
     *
     * @return the hints
     * @throws MPIException if the communicator is not usable
     */
    public final Info getInfo() throws MPIException {
        final Info i = st().info;
        return i == null ? new Info() : i.dup();
    }

    /**
     * {@code MPI_Pack}: {@code incount} items of {@code type} from {@code inbuf} into {@code outbuf} from
     * {@code position} (their base elements one after another, in the platform's byte order).
     *
     * @param inbuf    the items (an array or buffer, as a send takes)
     * @param incount  items
     * @param type     their datatype
     * @param outbuf   the packed bytes
     * @param position where they start in {@code outbuf}
     * @return the position after them
     * @throws MPIException {@code ERR_TRUNCATE} if they do not fit {@code outbuf}, or a bad argument (nothing written)
     */
    public final int pack(final Object inbuf, final int incount, final Datatype type, final byte[] outbuf,
                          final int position) throws MPIException {
        final CommState c = st();
        return Packing.pack(c, inbuf, incount, PointToPoint.type(c, type, "pack"), outbuf, position);
    }

    /**
     * {@code MPI_Unpack}: {@code outcount} items of {@code type} from {@code inbuf} at {@code position} (as
     * {@link #pack} wrote them) into {@code outbuf}.
     *
     * @param inbuf    the packed bytes
     * @param position where the items start
     * @param outbuf   receives the items
     * @param outcount items
     * @param type     their datatype
     * @return the position after them
     * @throws MPIException {@code ERR_TRUNCATE} if {@code inbuf} holds fewer bytes, or a bad argument
     */
    public final int unpack(final byte[] inbuf, final int position, final Object outbuf, final int outcount,
                            final Datatype type) throws MPIException {
        final CommState c = st();
        return Packing.unpack(c, inbuf, position, outbuf, outcount, PointToPoint.type(c, type, "unpack"));
    }

    /**
     * {@code MPI_Pack_size}: the bytes {@link #pack} writes for {@code incount} items of {@code type}.
     *
     * @param incount items
     * @param type    their datatype
     * @return bytes
     * @throws MPIException for a bad type or a negative count
     */
    public final int packSize(final int incount, final Datatype type) throws MPIException {
        final CommState c = st();
        if (incount < 0) {
            throw c.error(MPI.ERR_COUNT, "packSize: negative count " + incount);
        }
        return Packing.size(PointToPoint.type(c, type, "packSize"), incount);
    }
}
