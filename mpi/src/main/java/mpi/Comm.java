package mpi;

import org.jhpvm.fm.FmJobExit;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * A communicator: a group of ranks and a context of their own, so that its messages never match another
 * communicator's. Point-to-point and most collective calls are here, as in the Open MPI Java bindings; scans,
 * splitting and creation are in {@link Intracomm}. {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} are the same
 * objects on every rank of a job in one JVM and stand for the calling rank's own.
 */
public class Comm extends CollectiveCalls implements Freeable, Cloneable {
    static final int USER = 0;
    static final int SELF = 1;
    static final int WORLD = 2;

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
     * Whether this is {@code MPI_COMM_NULL}.
     *
     * @return false: split and create return null for a rank left out
     */
    public final boolean isNull() {
        return false;
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

    // ------------------------------------------------------------------------------------------------ collectives

    /**
     * {@code MPI_Allgather}: every member's items to every member, in rank order.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   every member's items
     * @param recvcount items from each member
     * @param recvtype  their datatype
     * @throws MPIException a bad argument
     */
    public final void allGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        final int n = c.size();
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        for (int i = 0; i < n; i++) {
            counts[i] = recvcount;
            displs[i] = i * recvcount;
        }
        allGatherv(c, sendbuf, sendcount, sendtype, recvbuf, counts, displs, recvtype, "allGather");
    }

    /**
     * {@code MPI_Allgather} in place: each member's own items are already in place.
     *
     * @param buf   every member's items
     * @param count items per member
     * @param type  their datatype
     * @throws MPIException a bad argument
     */
    public final void allGather(final Object buf, final int count, final Datatype type) throws MPIException {
        final CommState c = st();
        final int n = c.size();
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        for (int i = 0; i < n; i++) {
            counts[i] = count;
            displs[i] = i * count;
        }
        allGatherv(c, null, 0, type, buf, counts, displs, type, "allGather");
    }

    /**
     * {@code MPI_Allgatherv}.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   every member's items
     * @param recvcount items from each member
     * @param displs    where each member's items go, in items
     * @param recvtype  their datatype
     * @throws MPIException a bad argument
     */
    public final void allGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                 final Object recvbuf, final int[] recvcount, final int[] displs,
                                 final Datatype recvtype) throws MPIException {
        allGatherv(st(), sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, "allGatherv");
    }

    /**
     * {@code MPI_Allgatherv} in place.
     *
     * @param recvbuf   every member's items (its own in place)
     * @param recvcount items from each member
     * @param displs    where each member's items go
     * @param recvtype  their datatype
     * @throws MPIException a bad argument
     */
    public final void allGatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
                                 final Datatype recvtype) throws MPIException {
        allGatherv(st(), null, 0, recvtype, recvbuf, recvcount, displs, recvtype, "allGatherv");
    }

    private static void allGatherv(final CommState c, final Object sendbuf, final int sendcount,
                                   final Datatype sendtype, final Object recvbuf, final int[] counts,
                                   final int[] displs, final Datatype recvtype, final String what)
        throws MPIException {
        final TypeMap rt = type(c, recvtype, what);
        checkCounts(c, counts, displs, what);
        checkBlocks(c, recvbuf, counts, displs, rt, what);
        if (sendbuf != null) {
            checked(c, sendbuf, sendcount, sendtype, what);
        }
        // In place: rank 0 (the gathering rank) keeps its part; the others send theirs from where it lies.
        if (sendbuf != null) {
            Collectives.gatherv(c, sendbuf, 0, sendcount, type(c, sendtype, what), recvbuf, counts, displs, rt, 0);
        } else if (c.me == 0) {
            Collectives.gatherv(c, null, 0, 0, null, recvbuf, counts, displs, rt, 0);
        } else {
            Collectives.gatherv(c, recvbuf, displs[c.me] * rt.extent(), counts[c.me], rt, recvbuf, counts, displs,
                rt, 0);
        }
        final Datatype whole = Datatype.createIndexed(counts.clone(), displs.clone(), recvtype);
        whole.commit();
        Collectives.bcast(c, Buffers.data(recvbuf, rt.kind()), Buffers.base(recvbuf, rt.kind()), whole.map, 1, 0);
    }

    /**
     * {@code MPI_Alltoall}: member i's j-th block of {@code sendcount} items goes to member j's i-th block.
     *
     * @param sendbuf   this member's blocks, one per member
     * @param sendcount items per block sent
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received, one per member
     * @param recvcount items per block received
     * @param recvtype  their datatype
     * @throws MPIException a bad argument
     */
    public final void allToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
                               final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        final int n = c.size();
        final int[] sc = new int[n];
        final int[] sd = new int[n];
        final int[] rc = new int[n];
        final int[] rd = new int[n];
        for (int i = 0; i < n; i++) {
            sc[i] = sendcount;
            sd[i] = i * sendcount;
            rc[i] = recvcount;
            rd[i] = i * recvcount;
        }
        allToAllv(c, sendbuf, sc, sd, sendtype, recvbuf, rc, rd, recvtype, "allToAll");
    }

    /**
     * {@code MPI_Alltoallv}: as {@link #allToAll} with a count and displacement per block.
     *
     * @param sendbuf   this member's blocks
     * @param sendcount items sent to each member
     * @param sdispls   where each block sent starts, in items
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received
     * @param recvcount items received from each member
     * @param rdispls   where each block received goes, in items
     * @param recvtype  their datatype
     * @throws MPIException a bad argument
     */
    public final void allToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
                                final Datatype sendtype, final Object recvbuf, final int[] recvcount,
                                final int[] rdispls, final Datatype recvtype) throws MPIException {
        allToAllv(st(), sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype, "allToAllv");
    }

    private static void allToAllv(final CommState c, final Object sendbuf, final int[] sc, final int[] sd,
                                  final Datatype sendtype, final Object recvbuf, final int[] rc, final int[] rd,
                                  final Datatype recvtype, final String what) throws MPIException {
        final TypeMap st = type(c, sendtype, what);
        final TypeMap rt = type(c, recvtype, what);
        checkCounts(c, sc, sd, what);
        checkCounts(c, rc, rd, what);
        checkBlocks(c, sendbuf, sc, sd, st, what);
        checkBlocks(c, recvbuf, rc, rd, rt, what);
        Collectives.allToAllv(c, sendbuf, sc, sd, st, recvbuf, rc, rd, rt);
    }

    /**
     * {@code MPI_Reduce_scatter}: reduces {@code sum(recvcounts)} items element-wise over the members, then gives
     * member i the {@code recvcounts[i]} items after those of the members before it.
     *
     * @param sendbuf    this member's items
     * @param recvbuf    this member's part of the result
     * @param recvcounts items of the result per member
     * @param type       their datatype
     * @param op         the operation
     * @throws MPIException a bad argument
     */
    public final void reduceScatter(final Object sendbuf, final Object recvbuf, final int[] recvcounts,
                                    final Datatype type, final Op op) throws MPIException {
        reduceScatter(st(), sendbuf, recvbuf, recvcounts, type, op, "reduceScatter");
    }

    /**
     * {@code MPI_Reduce_scatter} in place.
     *
     * @param buf    this member's items; its part of the result, at its start
     * @param counts items of the result per member
     * @param type   their datatype
     * @param op     the operation
     * @throws MPIException a bad argument
     */
    public final void reduceScatter(final Object buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException {
        reduceScatter(st(), buf, buf, counts, type, op, "reduceScatter");
    }

    /**
     * {@code MPI_Reduce_scatter_block}: {@link #reduceScatter} with {@code recvcount} items per member.
     *
     * @param sendbuf   this member's items ({@code recvcount} times the size of the communicator)
     * @param recvbuf   this member's part of the result
     * @param recvcount items per member
     * @param type      their datatype
     * @param op        the operation
     * @throws MPIException a bad argument
     */
    public final void reduceScatterBlock(final Object sendbuf, final Object recvbuf, final int recvcount,
                                         final Datatype type, final Op op) throws MPIException {
        final CommState c = st();
        final int[] counts = new int[c.size()];
        java.util.Arrays.fill(counts, recvcount);
        reduceScatter(c, sendbuf, recvbuf, counts, type, op, "reduceScatterBlock");
    }

    /**
     * {@code MPI_Reduce_scatter_block} in place.
     *
     * @param buf   this member's items; its part of the result, at its start
     * @param count items per member
     * @param type  their datatype
     * @param op    the operation
     * @throws MPIException a bad argument
     */
    public final void reduceScatterBlock(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        reduceScatterBlock(buf, buf, count, type, op);
    }

    private static void reduceScatter(final CommState c, final Object sendbuf, final Object recvbuf,
                                      final int[] counts, final Datatype type, final Op op, final String what)
        throws MPIException {
        checkCounts(c, counts, null, what);
        int total = 0;
        for (int i = 0; i < c.size(); i++) {
            total = Math.addExact(total, counts[i]);
        }
        final TypeMap t = checked(c, sendbuf, total, type, what);
        Buffers.check(c, recvbuf, t, counts[c.me], what);
        checkOp(c, op, type, what);
        final Object all = Collectives.allReduce(c, Buffers.pack(sendbuf, t, total), total, type, op);
        final int size = (int) t.size();
        int before = 0;
        for (int i = 0; i < c.me; i++) {
            before += counts[i];
        }
        final Object part = Buffers.newArray(t.kind(), counts[c.me] * size);
        System.arraycopy(all, before * size, part, 0, counts[c.me] * size);
        Buffers.unpack(part, recvbuf, t, counts[c.me]);
    }

    /**
     * {@code MPI_Reduce_local}: {@code inOutBuf = inBuf op inOutBuf}, element-wise, on this rank only.
     *
     * @param inBuf    the left operand
     * @param inOutBuf the right operand and the result
     * @param count    items
     * @param type     their datatype
     * @param op       the operation
     * @throws MPIException a bad argument
     */
    public static void reduceLocal(final Object inBuf, final Object inOutBuf, final int count, final Datatype type,
                                   final Op op) throws MPIException {
        final CommState c = Rank.active().self;
        final TypeMap t = checked(c, inBuf, count, type, "reduceLocal");
        Buffers.check(c, inOutBuf, t, count, "reduceLocal");
        checkOp(c, op, type, "reduceLocal");
        final Object result = Buffers.pack(inOutBuf, t, count);
        Reduction.apply(op, Buffers.pack(inBuf, t, count), result, (int) (count * t.size()), count, type);
        Buffers.unpack(result, inOutBuf, t, count);
    }
}
