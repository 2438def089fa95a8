package mpi;

import org.jhpvm.fm.FmJobExit;

/**
 * A communicator: a group of ranks and a context of their own, so that its messages never match another
 * communicator's. Point-to-point and most collective calls are here, as in the Open MPI Java bindings (written in
 * package-private parts it extends: point-to-point, the rooted collectives, the exchanges, the non-blocking
 * collectives); scans, splitting and creation are in {@link Intracomm}. {@code MPI.COMM_WORLD} and
 * {@code MPI.COMM_SELF} are the same objects on every rank of a job in one JVM and stand for the calling rank's own.
 */
public class Comm extends NonBlockingCollectives implements Freeable, Cloneable {
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
     * @return {@code MPI.CART} for a Cartesian communicator, else {@code MPI.UNDEFINED}
     * @throws MPIException if the communicator is not usable
     */
    public final int getTopology() throws MPIException {
        return st().dims != null ? MPI.CART : MPI.UNDEFINED;
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
     * {@code MPI_Comm_get_attr} of the predefined keys: {@code MPI.TAG_UB} (the largest tag) and
     * {@code MPI.WTIME_IS_GLOBAL} (true: every rank of a job in one JVM shares one clock; false across processes).
     *
     * @param keyval the key
     * @return the value, or null for a key not set
     * @throws MPIException if the communicator is not usable
     */
    public final Object getAttr(final int keyval) throws MPIException {
        st();
        if (keyval == MPI.TAG_UB) {
            return MPI.TAG_UB_VALUE;
        }
        if (keyval == MPI.WTIME_IS_GLOBAL) {
            return Boolean.FALSE;
        }
        return null;
    }
}
