package mpi;

import org.jhpvm.mpi.internal.Schedule;

/**
 * The non-blocking collectives (MPI-3's {@code MPI_Ibarrier} .. {@code MPI_Ireduce_scatter_block}, the part of
 * {@link Comm} the Open MPI Java bindings name {@code iBarrier} .. {@code iReduceScatterBlock}). Each checks its
 * arguments as the blocking call does, builds the same schedule (the same algorithm, so the same bits), runs its
 * first steps and returns a request; every later progress of the rank (any wait, test or blocking call) advances it,
 * and waiting for the request completes it. Buffers are arrays or {@code java.nio} buffers (the bindings take direct
 * buffers; heap buffers and arrays are accepted too); the caller must not touch them until the request completes.
 * A request of a collective cannot be cancelled ({@code cancel} does nothing, as MPI calls cancelling one
 * erroneous); its status is empty.
 */
abstract class NonBlockingCollectives extends ExchangeCalls {
    NonBlockingCollectives() {
    }

    private static Request started(final CommState c, final Schedule s) {
        return new Request(c, c.engine.start(s));
    }

    /**
     * {@code MPI_Ibarrier}: completes once every member has called it.
     *
     * @return the request
     * @throws MPIException if the communicator is not usable
     */
    public final Request iBarrier() throws MPIException {
        final CommState c = st();
        return started(c, barrierSchedule(c));
    }

    /**
     * {@code MPI_Ibcast}.
     *
     * @param buf   the data (the root's is sent, the others' replaced)
     * @param count items
     * @param type  their datatype
     * @param root  the sender's rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iBcast(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        final CommState c = st();
        return started(c, bcastSchedule(c, buf, count, type, root, "iBcast"));
    }

    /**
     * {@code MPI_Ireduce}.
     *
     * @param sendbuf this member's items
     * @param recvbuf the result (significant at the root only)
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @param root    the rank that gets the result
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                                 final Op op, final int root) throws MPIException {
        final CommState c = st();
        return started(c, reduceSchedule(c, sendbuf, recvbuf, count, type, op, root, "iReduce"));
    }

    /**
     * {@code MPI_Ireduce} in place.
     *
     * @param buf   this member's items (the result at the root)
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @param root  the rank that gets the result
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iReduce(final Object buf, final int count, final Datatype type, final Op op,
                                 final int root) throws MPIException {
        return iReduce(buf, buf, count, type, op, root);
    }

    /**
     * {@code MPI_Iallreduce}.
     *
     * @param sendbuf this member's items
     * @param recvbuf the result
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                                    final Op op) throws MPIException {
        final CommState c = st();
        return started(c, allReduceSchedule(c, sendbuf, recvbuf, count, type, op, "iAllReduce"));
    }

    /**
     * {@code MPI_Iallreduce} in place.
     *
     * @param buf   this member's items, replaced by the result
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllReduce(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        return iAllReduce(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_Igather}.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   the root's buffer, {@code recvcount} items per member
     * @param recvcount items received from each member
     * @param recvtype  their datatype
     * @param root      the gathering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                 final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        final CommState c = st();
        final int n = c.size();
        return started(c, gathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, uniform(n, recvcount),
            blocks(n, recvcount), recvtype, root, "iGather"));
    }

    /**
     * {@code MPI_Igather} in place.
     *
     * @param buf   the root's buffer; the other members' items
     * @param count items per member
     * @param type  their datatype
     * @param root  the gathering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iGather(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        final CommState c = st();
        return started(c, gatherInPlaceSchedule(c, buf, count, type, root, "iGather"));
    }

    /**
     * {@code MPI_Igatherv}.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   the root's buffer
     * @param recvcount items from each member
     * @param displs    where each member's items go, in items of {@code recvtype}
     * @param recvtype  their datatype
     * @param root      the gathering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                  final Object recvbuf, final int[] recvcount, final int[] displs,
                                  final Datatype recvtype, final int root) throws MPIException {
        final CommState c = st();
        return started(c, gathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype,
            root, "iGatherv"));
    }

    /**
     * {@code MPI_Igatherv} in place at the root.
     *
     * @param recvbuf   the root's buffer (its own items already in place)
     * @param recvcount items from each member
     * @param displs    where each member's items go
     * @param recvtype  their datatype
     * @param root      the gathering rank (the caller)
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iGatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
                                  final Datatype recvtype, final int root) throws MPIException {
        final CommState c = st();
        return started(c, gathervSchedule(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root,
            "iGatherv"));
    }

    /**
     * {@code MPI_Igatherv} at a member that is not the root.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param root      the gathering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int root)
        throws MPIException {
        final CommState c = st();
        return started(c, gathervSchedule(c, sendbuf, sendcount, sendtype, null, null, null, sendtype, root,
            "iGatherv"));
    }

    /**
     * {@code MPI_Iscatter}.
     *
     * @param sendbuf   the root's items
     * @param sendcount items to each member
     * @param sendtype  their datatype
     * @param recvbuf   this member's items
     * @param recvcount items received
     * @param recvtype  their datatype
     * @param root      the scattering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iScatter(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                  final Object recvbuf, final int recvcount, final Datatype recvtype,
                                  final int root) throws MPIException {
        final CommState c = st();
        final int n = c.size();
        return started(c, scattervSchedule(c, sendbuf, uniform(n, sendcount), blocks(n, sendcount), sendtype,
            recvbuf, recvcount, recvtype, root, "iScatter"));
    }

    /**
     * {@code MPI_Iscatter} in place.
     *
     * @param buf   the root's items; the members' received items
     * @param count items per member
     * @param type  their datatype
     * @param root  the scattering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iScatter(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        final CommState c = st();
        return started(c, scatterInPlaceSchedule(c, buf, count, type, root, "iScatter"));
    }

    /**
     * {@code MPI_Iscatterv}.
     *
     * @param sendbuf   the root's items
     * @param sendcount items to each member
     * @param displs    where each member's items start, in items of {@code sendtype}
     * @param sendtype  their datatype
     * @param recvbuf   this member's items
     * @param recvcount items received
     * @param recvtype  their datatype
     * @param root      the scattering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iScatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
                                   final Datatype sendtype, final Object recvbuf, final int recvcount,
                                   final Datatype recvtype, final int root) throws MPIException {
        final CommState c = st();
        return started(c, scattervSchedule(c, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype,
            root, "iScatterv"));
    }

    /**
     * {@code MPI_Iscatterv} in place at the root.
     *
     * @param sendbuf   the root's items (its own part stays)
     * @param sendcount items to each member
     * @param displs    where each member's items start
     * @param sendtype  their datatype
     * @param root      the scattering rank (the caller)
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iScatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
                                   final Datatype sendtype, final int root) throws MPIException {
        final CommState c = st();
        return started(c, scattervSchedule(c, sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root,
            "iScatterv"));
    }

    /**
     * {@code MPI_Iscatterv} at a member that is not the root.
     *
     * @param recvbuf   this member's items
     * @param recvcount items received
     * @param recvtype  their datatype
     * @param root      the scattering rank
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iScatterv(final Object recvbuf, final int recvcount, final Datatype recvtype,
                                   final int root) throws MPIException {
        final CommState c = st();
        return started(c, scattervSchedule(c, null, null, null, recvtype, recvbuf, recvcount, recvtype, root,
            "iScatterv"));
    }

    /**
     * {@code MPI_Iallgather}.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   every member's items
     * @param recvcount items from each member
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                    final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        final int n = c.size();
        return started(c, allGathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, uniform(n, recvcount),
            blocks(n, recvcount), recvtype, "iAllGather"));
    }

    /**
     * {@code MPI_Iallgather} in place.
     *
     * @param buf   every member's items (its own already in place)
     * @param count items per member
     * @param type  their datatype
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllGather(final Object buf, final int count, final Datatype type) throws MPIException {
        final CommState c = st();
        final int n = c.size();
        return started(c, allGathervSchedule(c, null, 0, type, buf, uniform(n, count), blocks(n, count), type,
            "iAllGather"));
    }

    /**
     * {@code MPI_Iallgatherv}.
     *
     * @param sendbuf   this member's items
     * @param sendcount items sent
     * @param sendtype  their datatype
     * @param recvbuf   every member's items
     * @param recvcount items from each member
     * @param displs    where each member's items go, in items
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                     final Object recvbuf, final int[] recvcount, final int[] displs,
                                     final Datatype recvtype) throws MPIException {
        final CommState c = st();
        return started(c, allGathervSchedule(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype,
            "iAllGatherv"));
    }

    /**
     * {@code MPI_Iallgatherv} in place.
     *
     * @param buf    every member's items (its own in place)
     * @param count  items from each member
     * @param displs where each member's items go
     * @param type   their datatype
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllGatherv(final Object buf, final int[] count, final int[] displs, final Datatype type)
        throws MPIException {
        final CommState c = st();
        return started(c, allGathervSchedule(c, null, 0, type, buf, count, displs, type, "iAllGatherv"));
    }

    /**
     * {@code MPI_Ialltoall}.
     *
     * @param sendbuf   this member's blocks, one per member
     * @param sendcount items per block sent
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received, one per member
     * @param recvcount items per block received
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                   final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        final int n = c.size();
        return started(c, allToAllvSchedule(c, sendbuf, uniform(n, sendcount), blocks(n, sendcount), sendtype,
            recvbuf, uniform(n, recvcount), blocks(n, recvcount), recvtype, "iAllToAll"));
    }

    /**
     * {@code MPI_Ialltoallv}.
     *
     * @param sendbuf   this member's blocks
     * @param sendcount items sent to each member
     * @param sdispls   where each block sent starts, in items
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received
     * @param recvcount items received from each member
     * @param rdispls   where each block received goes, in items
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
                                    final Datatype sendtype, final Object recvbuf, final int[] recvcount,
                                    final int[] rdispls, final Datatype recvtype) throws MPIException {
        final CommState c = st();
        return started(c, allToAllvSchedule(c, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
            recvtype, "iAllToAllv"));
    }

    /**
     * {@code MPI_Ialltoallw}: {@code allToAllw} as a request.
     *
     * @param sendBuf   the items for every member (direct)
     * @param sendCount items for each member
     * @param sDispls   where each member's items start, in bytes
     * @param sendTypes their datatype, per member
     * @param recvBuf   receives every member's items (direct)
     * @param recvCount items from each member
     * @param rDispls   where each member's items go, in bytes
     * @param recvTypes their datatype, per member
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iAllToAllw(final java.nio.Buffer sendBuf, final int[] sendCount, final int[] sDispls,
                                    final Datatype[] sendTypes, final java.nio.Buffer recvBuf, final int[] recvCount,
                                    final int[] rDispls, final Datatype[] recvTypes) throws MPIException {
        final CommState c = st();
        return started(c, allToAllwSchedule(c, sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
            recvTypes, "iAllToAllw"));
    }

    /**
     * {@code MPI_Ireduce_scatter}.
     *
     * @param sendbuf    this member's items
     * @param recvbuf    this member's part of the result
     * @param recvcounts items of the result per member
     * @param type       their datatype
     * @param op         the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iReduceScatter(final Object sendbuf, final Object recvbuf, final int[] recvcounts,
                                        final Datatype type, final Op op) throws MPIException {
        final CommState c = st();
        return started(c, reduceScatterSchedule(c, sendbuf, recvbuf, recvcounts, type, op, "iReduceScatter"));
    }

    /**
     * {@code MPI_Ireduce_scatter} in place.
     *
     * @param buf    this member's items; its part of the result, at its start
     * @param counts items of the result per member
     * @param type   their datatype
     * @param op     the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iReduceScatter(final Object buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException {
        return iReduceScatter(buf, buf, counts, type, op);
    }

    /**
     * {@code MPI_Ireduce_scatter_block}.
     *
     * @param sendbuf   this member's items ({@code recvcount} times the size of the communicator)
     * @param recvbuf   this member's part of the result
     * @param recvcount items per member
     * @param type      their datatype
     * @param op        the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iReduceScatterBlock(final Object sendbuf, final Object recvbuf, final int recvcount,
                                             final Datatype type, final Op op) throws MPIException {
        final CommState c = st();
        return started(c, reduceScatterSchedule(c, sendbuf, recvbuf, uniform(c.size(), recvcount), type, op,
            "iReduceScatterBlock"));
    }

    /**
     * {@code MPI_Ireduce_scatter_block} in place.
     *
     * @param buf   this member's items; its part of the result, at its start
     * @param count items per member
     * @param type  their datatype
     * @param op    the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iReduceScatterBlock(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        return iReduceScatterBlock(buf, buf, count, type, op);
    }
}
