package mpi;

import org.jhpvm.mpi.internal.Schedule;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * The collective calls in which every member both gives and gets (the part of {@link Comm} after the rooted ones):
 * allGather(v), allToAll(v), reduceScatter(Block), and reduceLocal. Each builds its {@link Schedule} once, for the
 * blocking call here and the non-blocking one in {@link NonBlockingCollectives}.
 */
abstract class ExchangeCalls extends CollectiveCalls {
    ExchangeCalls() {
    }

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
        Collectives.run(c, allGathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, uniform(n, recvcount),
            blocks(n, recvcount), recvtype, "allGather"));
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
        Collectives.run(c, allGathervSchedule(c, null, 0, type, buf, uniform(n, count), blocks(n, count), type,
            "allGather"));
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
        final CommState c = st();
        Collectives.run(c, allGathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype,
            "allGatherv"));
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
        final CommState c = st();
        Collectives.run(c, allGathervSchedule(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype,
            "allGatherv"));
    }

    static Schedule allGathervSchedule(final CommState c, final Object sendbuf, final int sendcount,
                                       final Datatype sendtype, final Object recvbuf, final int[] counts,
                                       final int[] displs, final Datatype recvtype, final String what)
        throws MPIException {
        final TypeMap rt = type(c, recvtype, what);
        checkCounts(c, counts, displs, what);
        checkBlocks(c, recvbuf, counts, displs, rt, what);
        final TypeMap st = sendbuf == null ? null : checked(c, sendbuf, sendcount, sendtype, what);
        final Datatype whole = Datatype.createIndexed(counts.clone(), displs.clone(), recvtype);
        whole.commit();
        final Schedule s = new Schedule();
        final int tag = Collectives.nextTag(c);
        // Gather to rank 0, then bcast the whole layout from it. In place: rank 0 keeps its part; the others send
        // theirs from where it lies.
        if (sendbuf != null) {
            Collectives.gatherv(c, s, tag, sendbuf, 0, sendcount, st, recvbuf, counts, displs, rt, 0);
        } else if (c.me == 0) {
            Collectives.gatherv(c, s, tag, null, 0, 0, null, recvbuf, counts, displs, rt, 0);
        } else {
            Collectives.gatherv(c, s, tag, recvbuf, displs[c.me] * rt.extent(), counts[c.me], rt, recvbuf, counts,
                displs, rt, 0);
        }
        Collectives.bcast(c, s, tag, Buffers.data(recvbuf, rt.kind()), Buffers.base(recvbuf, rt.kind()), whole.map,
            1, 0);
        return s;
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
        Collectives.run(c, allToAllvSchedule(c, sendbuf, uniform(n, sendcount), blocks(n, sendcount), sendtype,
            recvbuf, uniform(n, recvcount), blocks(n, recvcount), recvtype, "allToAll"));
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
        final CommState c = st();
        Collectives.run(c, allToAllvSchedule(c, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
            recvtype, "allToAllv"));
    }

    static Schedule allToAllvSchedule(final CommState c, final Object sendbuf, final int[] sc, final int[] sd,
                                      final Datatype sendtype, final Object recvbuf, final int[] rc, final int[] rd,
                                      final Datatype recvtype, final String what) throws MPIException {
        final TypeMap st = type(c, sendtype, what);
        final TypeMap rt = type(c, recvtype, what);
        checkCounts(c, sc, sd, what);
        checkCounts(c, rc, rd, what);
        checkBlocks(c, sendbuf, sc, sd, st, what);
        checkBlocks(c, recvbuf, rc, rd, rt, what);
        final Schedule s = new Schedule();
        Collectives.allToAllv(c, s, Collectives.nextTag(c), sendbuf, sc, sd, st, recvbuf, rc, rd, rt);
        return s;
    }

    /**
     * {@code MPI_Alltoallw}: {@link #allToAllv} with a datatype per member and displacements in bytes, as MPI and
     * Open MPI's bindings define them (each a whole number of its type's base elements).
     *
     * @param sendBuf    the items for every member
     * @param sendCount  items for each member
     * @param sDispls    where each member's items start, in bytes
     * @param sendTypes  their datatype, per member
     * @param recvBuf    receives every member's items
     * @param recvCount  items from each member
     * @param rDispls    where each member's items go, in bytes
     * @param recvTypes  their datatype, per member
     * @throws MPIException a bad argument
     */
    public final void allToAllw(final java.nio.Buffer sendBuf, final int[] sendCount, final int[] sDispls,
                                final Datatype[] sendTypes, final java.nio.Buffer recvBuf, final int[] recvCount,
                                final int[] rDispls, final Datatype[] recvTypes) throws MPIException {
        final CommState c = st();
        Collectives.run(c, allToAllwSchedule(c, sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
            recvTypes, "allToAllw"));
    }

    static Schedule allToAllwSchedule(final CommState c, final Object sendbuf, final int[] sc, final int[] sd,
                                      final Datatype[] stypes, final Object recvbuf, final int[] rc, final int[] rd,
                                      final Datatype[] rtypes, final String what) throws MPIException {
        checkCounts(c, sc, sd, what);
        checkCounts(c, rc, rd, what);
        if (stypes == null || rtypes == null || stypes.length < c.size() || rtypes.length < c.size()) {
            throw c.error(MPI.ERR_ARG, what + ": a datatype per member is needed");
        }
        final int n = c.size();
        final TypeMap[] st = new TypeMap[n];
        final TypeMap[] rt = new TypeMap[n];
        final long[] so = new long[n];
        final long[] ro = new long[n];
        for (int i = 0; i < n; i++) {
            st[i] = type(c, stypes[i], what);
            rt[i] = type(c, rtypes[i], what);
            so[i] = elementOffset(c, sendbuf, sd[i], sc[i], st[i], what + " send block " + i);
            ro[i] = elementOffset(c, recvbuf, rd[i], rc[i], rt[i], what + " receive block " + i);
        }
        final Schedule s = new Schedule();
        Collectives.allToAllw(c, s, Collectives.nextTag(c), sendbuf, sc, so, st, recvbuf, rc, ro, rt);
        return s;
    }

    /** A byte displacement as elements of {@code t}'s kind, its block checked to lie in {@code buf}. */
    private static long elementOffset(final CommState c, final Object buf, final int bytes, final int count,
                                      final TypeMap t, final String what) throws MPIException {
        if (bytes % t.kind().bytes != 0) {
            throw c.error(MPI.ERR_ARG, what + ": displacement " + bytes + " bytes is not a whole number of "
                + t.kind() + " elements");
        }
        final long off = bytes / t.kind().bytes;
        if (count > 0 && (!t.kind().accepts(buf) || off + t.lowest(count) < 0
            || off + t.highest(count) > t.kind().lengthOf(buf))) {
            throw c.error(MPI.ERR_BUFFER, what + ": " + count + " items at byte " + bytes + " do not lie in the "
                + "buffer");
        }
        return off;
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
        final CommState c = st();
        Collectives.run(c, reduceScatterSchedule(c, sendbuf, recvbuf, recvcounts, type, op, "reduceScatter"));
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
        final CommState c = st();
        Collectives.run(c, reduceScatterSchedule(c, buf, buf, counts, type, op, "reduceScatter"));
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
        Collectives.run(c, reduceScatterSchedule(c, sendbuf, recvbuf, uniform(c.size(), recvcount), type, op,
            "reduceScatterBlock"));
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

    static Schedule reduceScatterSchedule(final CommState c, final Object sendbuf, final Object recvbuf,
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
        final Schedule s = new Schedule();
        final Collectives.Result all = new Collectives.Result();
        Collectives.allReduce(c, s, Collectives.nextTag(c), Buffers.pack(sendbuf, t, total), total, type, op, all);
        final int size = (int) t.size();
        int before = 0;
        for (int i = 0; i < c.me; i++) {
            before += counts[i];
        }
        final int from = before * size;
        final int mine = counts[c.me];
        s.then(() -> {
            final Object part = Buffers.newArray(t.kind(), mine * size);
            System.arraycopy(all.value, from, part, 0, mine * size);
            Buffers.unpack(part, recvbuf, t, mine);
        });
        return s;
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
