package mpi;

import org.jhpvm.mpi.internal.Schedule;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * The collective calls of a communicator (the part of {@link Comm} every member calls together). Arguments are
 * checked on each rank before it sends anything: a bad root is {@code ERR_ROOT}, an operation the type does not take
 * {@code ERR_OP}, and the rest as for point-to-point. The overloads without a send buffer are MPI's
 * {@code MPI_IN_PLACE} forms.
 */
abstract class CollectiveCalls extends PersistentCalls {
    CollectiveCalls() {
    }

    static void checkRoot(final CommState c, final int root, final String what) throws MPIException {
        if (root < 0 || root >= c.size()) {
            throw c.error(MPI.ERR_ROOT, what + ": root " + root + " is not in " + c.name + " (size " + c.size()
                + ")");
        }
    }

    static TypeMap checked(final CommState c, final Object buf, final int count, final Datatype type,
                           final String what) throws MPIException {
        final TypeMap t = type(c, type, what);
        Buffers.check(c, buf, t, count, what);
        return t;
    }

    static void checkOp(final CommState c, final Op op, final Datatype type, final String what)
        throws MPIException {
        try {
            Reduction.check(op, type);
        } catch (MPIException e) {
            throw c.error(MPI.ERR_OP, what + ": " + e.getMessage());
        }
    }

    static void checkCounts(final CommState c, final int[] counts, final int[] displs, final String what)
        throws MPIException {
        checkCounts(c, counts, displs, c.size(), "rank", what);
    }

    /** Checks that there are {@code n} counts (one per {@code whose}) and displacements, and no negative count. */
    static void checkCounts(final CommState c, final int[] counts, final int[] displs, final int n,
                            final String whose, final String what) throws MPIException {
        if (counts == null || counts.length < n || (displs != null && displs.length < n)) {
            throw c.error(MPI.ERR_ARG, what + ": counts and displacements need one entry per " + whose + " (" + n
                + ")");
        }
        for (final int k : counts) {
            if (k < 0) {
                throw c.error(MPI.ERR_COUNT, what + ": negative count " + k);
            }
        }
    }

    /** Checks that the v-layout's blocks all lie in the buffer. */
    static void checkBlocks(final CommState c, final Object buf, final int[] counts, final int[] displs,
                            final TypeMap t, final String what) throws MPIException {
        checkBlocks(c, buf, counts, displs, t, c.size(), "rank", what);
    }

    /** Checks that the first {@code n} blocks of a v-layout lie in the buffer; {@code whose} names block i's owner. */
    static void checkBlocks(final CommState c, final Object buf, final int[] counts, final int[] displs,
                            final TypeMap t, final int n, final String whose, final String what)
        throws MPIException {
        for (int i = 0; i < n; i++) {
            if (counts[i] > 0) {
                final long lo = displs[i] * t.extent() + t.lowest(counts[i]);
                final long hi = displs[i] * t.extent() + t.highest(counts[i]);
                if (!t.kind().accepts(buf) || lo < 0 || hi > t.kind().lengthOf(buf)) {
                    throw c.error(MPI.ERR_BUFFER, what + ": " + whose + " " + i + "'s block (" + counts[i]
                        + " items at " + displs[i] + ") does not lie in the buffer");
                }
            }
        }
    }

    static int[] uniform(final int n, final int count) {
        final int[] a = new int[n];
        java.util.Arrays.fill(a, count);
        return a;
    }

    static int[] blocks(final int n, final int count) {
        final int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * count;
        }
        return a;
    }

    /**
     * {@code MPI_Barrier}: returns once every member has called it.
     *
     * @throws MPIException if the communicator is not usable
     */
    public final void barrier() throws MPIException {
        final CommState c = st();
        Collectives.run(c, barrierSchedule(c));
    }

    static Schedule barrierSchedule(final CommState c) {
        final Schedule s = new Schedule();
        Collectives.barrier(c, s, Collectives.nextTag(c));
        return s;
    }

    /**
     * {@code MPI_Bcast}: the root's items to every member.
     *
     * @param buf   the data (the root's is sent, the others' replaced)
     * @param count items
     * @param type  their datatype
     * @param root  the sender's rank
     * @throws MPIException a bad argument
     */
    public final void bcast(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        final CommState c = st();
        Collectives.run(c, bcastSchedule(c, buf, count, type, root, "bcast"));
    }

    static Schedule bcastSchedule(final CommState c, final Object buf, final int count, final Datatype type,
                                  final int root, final String what) throws MPIException {
        final TypeMap t = checked(c, buf, count, type, what);
        checkRoot(c, root, what);
        final Schedule s = new Schedule();
        Collectives.bcast(c, s, Collectives.nextTag(c), Buffers.data(buf, t.kind()), Buffers.base(buf, t.kind()), t,
            count, root);
        return s;
    }

    /**
     * {@code MPI_Reduce}: combines every member's items with {@code op} into the root's {@code recvbuf}.
     *
     * @param sendbuf this member's items
     * @param recvbuf the result (significant at the root only)
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @param root    the rank that gets the result
     * @throws MPIException a bad argument
     */
    public final void reduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                             final Op op, final int root) throws MPIException {
        final CommState c = st();
        Collectives.run(c, reduceSchedule(c, sendbuf, recvbuf, count, type, op, root, "reduce"));
    }

    static Schedule reduceSchedule(final CommState c, final Object sendbuf, final Object recvbuf, final int count,
                                   final Datatype type, final Op op, final int root, final String what)
        throws MPIException {
        final TypeMap t = checked(c, sendbuf, count, type, what);
        checkRoot(c, root, what);
        checkOp(c, op, type, what);
        if (c.me == root) {
            Buffers.check(c, recvbuf, t, count, what);
        }
        final Schedule s = new Schedule();
        final Collectives.Result out = new Collectives.Result();
        Collectives.reduce(c, s, Collectives.nextTag(c), Buffers.pack(sendbuf, t, count), count, type, op, root, out);
        s.then(() -> {
            if (out.value != null) {
                Buffers.unpack(out.value, recvbuf, t, count);
            }
        });
        return s;
    }

    /**
     * {@code MPI_Reduce} in place: the root's {@code buf} is its input and gets the result.
     *
     * @param buf   this member's items (the result at the root)
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @param root  the rank that gets the result
     * @throws MPIException a bad argument
     */
    public final void reduce(final Object buf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException {
        reduce(buf, buf, count, type, op, root);
    }

    /**
     * {@code MPI_Allreduce}: {@link #reduce} with the result on every member, the same bits everywhere.
     *
     * @param sendbuf this member's items
     * @param recvbuf the result
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @throws MPIException a bad argument
     */
    public final void allReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                                final Op op) throws MPIException {
        final CommState c = st();
        Collectives.run(c, allReduceSchedule(c, sendbuf, recvbuf, count, type, op, "allReduce"));
    }

    static Schedule allReduceSchedule(final CommState c, final Object sendbuf, final Object recvbuf, final int count,
                                      final Datatype type, final Op op, final String what) throws MPIException {
        final TypeMap t = checked(c, sendbuf, count, type, what);
        Buffers.check(c, recvbuf, t, count, what);
        checkOp(c, op, type, what);
        final Schedule s = new Schedule();
        final Collectives.Result out = new Collectives.Result();
        Collectives.allReduce(c, s, Collectives.nextTag(c), Buffers.pack(sendbuf, t, count), count, type, op, out);
        s.then(() -> Buffers.unpack(out.value, recvbuf, t, count));
        return s;
    }

    /**
     * {@code MPI_Allreduce} in place.
     *
     * @param buf   this member's items, replaced by the result
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @throws MPIException a bad argument
     */
    public final void allReduce(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        allReduce(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_Gather}: every member's items into the root's buffer, in rank order.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   the root's buffer, {@code recvcount} items per member
     * @param recvcount items received from each member
     * @param recvtype  their datatype
     * @param root      the gathering rank
     * @throws MPIException a bad argument
     */
    public final void gather(final Object sendbuf, final int sendcount, final Datatype sendtype, final Object recvbuf,
                             final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        final CommState c = st();
        final int n = c.size();
        Collectives.run(c, gathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, uniform(n, recvcount),
            blocks(n, recvcount), recvtype, root, "gather"));
    }

    /**
     * {@code MPI_Gather} in place: the root's own items are already in place in {@code buf}.
     *
     * @param buf   the root's buffer; the other members' items
     * @param count items per member
     * @param type  their datatype
     * @param root  the gathering rank
     * @throws MPIException a bad argument
     */
    public final void gather(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        final CommState c = st();
        Collectives.run(c, gatherInPlaceSchedule(c, buf, count, type, root, "gather"));
    }

    static Schedule gatherInPlaceSchedule(final CommState c, final Object buf, final int count, final Datatype type,
                                          final int root, final String what) throws MPIException {
        final int n = c.size();
        checkRoot(c, root, what);
        return gathervSchedule(c, c.me == root ? null : buf, count, type, c.me == root ? buf : null,
            uniform(n, count), blocks(n, count), type, root, what);
    }

    /**
     * {@code MPI_Gatherv}: as {@link #gather} with a count and a displacement (in items) per member.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   the root's buffer
     * @param recvcount items from each member
     * @param displs    where each member's items go, in items of {@code recvtype}
     * @param recvtype  their datatype
     * @param root      the gathering rank
     * @throws MPIException a bad argument
     */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
                              final Object recvbuf, final int[] recvcount, final int[] displs,
                              final Datatype recvtype, final int root) throws MPIException {
        final CommState c = st();
        Collectives.run(c, gathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype,
            root, "gatherv"));
    }

    /**
     * {@code MPI_Gatherv} in place at the root.
     *
     * @param recvbuf   the root's buffer (its own items already in place)
     * @param recvcount items from each member
     * @param displs    where each member's items go
     * @param recvtype  their datatype
     * @param root      the gathering rank (the caller)
     * @throws MPIException a bad argument
     */
    public final void gatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
                              final Datatype recvtype, final int root) throws MPIException {
        final CommState c = st();
        Collectives.run(c, gathervSchedule(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root,
            "gatherv"));
    }

    /**
     * {@code MPI_Gatherv} at a member that is not the root.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param root      the gathering rank
     * @throws MPIException a bad argument
     */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int root)
        throws MPIException {
        final CommState c = st();
        Collectives.run(c, gathervSchedule(c, sendbuf, sendcount, sendtype, null, null, null, sendtype, root,
            "gatherv"));
    }

    static Schedule gathervSchedule(final CommState c, final Object sendbuf, final int sendcount,
                                    final Datatype sendtype, final Object recvbuf, final int[] counts,
                                    final int[] displs, final Datatype recvtype, final int root, final String what)
        throws MPIException {
        checkRoot(c, root, what);
        final TypeMap st = sendbuf == null ? null : checked(c, sendbuf, sendcount, sendtype, what);
        TypeMap rt = null;
        if (c.me == root) {
            rt = type(c, recvtype, what);
            checkCounts(c, counts, displs, what);
            checkBlocks(c, recvbuf, counts, displs, rt, what);
        } else if (sendbuf == null) {
            throw c.error(MPI.ERR_BUFFER, what + ": only the root may gather in place");
        }
        final Schedule s = new Schedule();
        Collectives.gatherv(c, s, Collectives.nextTag(c), sendbuf, 0, sendcount, st, recvbuf, counts, displs, rt,
            root);
        return s;
    }

    /**
     * {@code MPI_Scatter}: the root's buffer, {@code sendcount} items per member in rank order, to the members.
     *
     * @param sendbuf   the root's items
     * @param sendcount items to each member
     * @param sendtype  their datatype
     * @param recvbuf   this member's items
     * @param recvcount items received
     * @param recvtype  their datatype
     * @param root      the scattering rank
     * @throws MPIException a bad argument
     */
    public final void scatter(final Object sendbuf, final int sendcount, final Datatype sendtype,
                              final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        final CommState c = st();
        final int n = c.size();
        Collectives.run(c, scattervSchedule(c, sendbuf, uniform(n, sendcount), blocks(n, sendcount), sendtype,
            recvbuf, recvcount, recvtype, root, "scatter"));
    }

    /**
     * {@code MPI_Scatter} in place: the root keeps its own part where it is.
     *
     * @param buf   the root's items; the members' received items
     * @param count items per member
     * @param type  their datatype
     * @param root  the scattering rank
     * @throws MPIException a bad argument
     */
    public final void scatter(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        final CommState c = st();
        Collectives.run(c, scatterInPlaceSchedule(c, buf, count, type, root, "scatter"));
    }

    static Schedule scatterInPlaceSchedule(final CommState c, final Object buf, final int count,
                                           final Datatype type, final int root, final String what)
        throws MPIException {
        final int n = c.size();
        checkRoot(c, root, what);
        return scattervSchedule(c, c.me == root ? buf : null, uniform(n, count), blocks(n, count), type,
            c.me == root ? null : buf, count, type, root, what);
    }

    /**
     * {@code MPI_Scatterv}: as {@link #scatter} with a count and displacement per member.
     *
     * @param sendbuf   the root's items
     * @param sendcount items to each member
     * @param displs    where each member's items start, in items of {@code sendtype}
     * @param sendtype  their datatype
     * @param recvbuf   this member's items
     * @param recvcount items received
     * @param recvtype  their datatype
     * @param root      the scattering rank
     * @throws MPIException a bad argument
     */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
                               final Datatype sendtype, final Object recvbuf, final int recvcount,
                               final Datatype recvtype, final int root) throws MPIException {
        final CommState c = st();
        Collectives.run(c, scattervSchedule(c, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype,
            root, "scatterv"));
    }

    /**
     * {@code MPI_Scatterv} in place at the root.
     *
     * @param sendbuf   the root's items (its own part stays)
     * @param sendcount items to each member
     * @param displs    where each member's items start
     * @param sendtype  their datatype
     * @param root      the scattering rank (the caller)
     * @throws MPIException a bad argument
     */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
                               final Datatype sendtype, final int root) throws MPIException {
        final CommState c = st();
        Collectives.run(c, scattervSchedule(c, sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root,
            "scatterv"));
    }

    /**
     * {@code MPI_Scatterv} at a member that is not the root.
     *
     * @param recvbuf   this member's items
     * @param recvcount items received
     * @param recvtype  their datatype
     * @param root      the scattering rank
     * @throws MPIException a bad argument
     */
    public final void scatterv(final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        final CommState c = st();
        Collectives.run(c, scattervSchedule(c, null, null, null, recvtype, recvbuf, recvcount, recvtype, root,
            "scatterv"));
    }

    static Schedule scattervSchedule(final CommState c, final Object sendbuf, final int[] counts,
                                     final int[] displs, final Datatype sendtype, final Object recvbuf,
                                     final int recvcount, final Datatype recvtype, final int root,
                                     final String what) throws MPIException {
        checkRoot(c, root, what);
        final TypeMap rt = recvbuf == null ? null : checked(c, recvbuf, recvcount, recvtype, what);
        TypeMap st = null;
        if (c.me == root) {
            st = type(c, sendtype, what);
            checkCounts(c, counts, displs, what);
            checkBlocks(c, sendbuf, counts, displs, st, what);
        } else if (recvbuf == null) {
            throw c.error(MPI.ERR_BUFFER, what + ": only the root may scatter in place");
        }
        final Schedule s = new Schedule();
        Collectives.scatterv(c, s, Collectives.nextTag(c), sendbuf, counts, displs, st, recvbuf, recvcount, rt,
            root);
        return s;
    }
}
