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
