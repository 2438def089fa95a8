package mpi;

import org.jhpvm.mpi.internal.Schedule;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * The neighbourhood collectives (MPI-3's {@code MPI_Neighbor_allgather(v)} and {@code MPI_Neighbor_alltoall(v)},
 * blocking and non-blocking: the part of {@link Comm} the Open MPI Java bindings name {@code neighborAllGather} ..
 * {@code iNeighborAllToAllv}), on a communicator with a topology. The neighbours and their order are MPI's:
 * <ul>
 * <li>Cartesian: for each dimension, the rank one step back ({@code shift(d, 1)}'s source) and then the rank one step
 * on (its destination), {@code MPI.PROC_NULL} past a non-periodic edge (nothing is sent there, and that block of the
 * receive buffer is left alone). What a rank sends in one direction arrives as from the other direction, also where a
 * periodic dimension of 1 or 2 makes both neighbours the same process (MPI-4.1, section 8.6, Example 8.10);</li>
 * <li>graph: the rank's neighbours ({@code getNeighbors}), as sources and as destinations;</li>
 * <li>distributed graph: its sources (in-edges) and destinations (out-edges) as given at its creation. A process
 * named twice gets and sends a block per edge, the k-th edge to it matching the k-th edge from it.</li>
 * </ul>
 * Receive block i (of {@code recvcount} items, or {@code recvcount[i]} at {@code displs[i]}, in extents of the
 * receive type) comes from source i; allgather sends the whole send buffer to every destination, alltoall block j to
 * destination j. A communicator without a topology is {@code ERR_TOPOLOGY}. The non-blocking forms take arrays and
 * buffers as the other non-blocking collectives do ({@link NonBlockingCollectives}).
 */
abstract class NeighborCalls extends NonBlockingCollectives {
    NeighborCalls() {
    }

    /** A rank's neighbours, and how many tags its exchange takes (one per block on a Cartesian grid, else one). */
    private record Neighbours(int[] sources, int[] destinations, int tagCount) {
        /** Draws the tags from the communicator's sequence: after the checks, so that a refused call draws none. */
        int[] tags(final CommState c) {
            final int[] tags = new int[tagCount];
            for (int k = 0; k < tagCount; k++) {
                tags[k] = Collectives.nextTag(c);
            }
            return tags;
        }
    }

    /**
     * {@code MPI_Neighbor_allgather}: the send buffer to every destination; block i of the receive buffer from source
     * i.
     *
     * @param sendbuf   the items sent
     * @param sendcount how many
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received, one per source
     * @param recvcount items per block
     * @param recvtype  their datatype
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final void neighborAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                        final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        Collectives.run(c, gather(c, sendbuf, sendcount, sendtype, recvbuf, null, null, recvcount, recvtype,
            "neighborAllGather"));
    }

    /**
     * {@code MPI_Ineighbor_allgather}: {@link #neighborAllGather} as a request.
     *
     * @param sendbuf   the items sent
     * @param sendcount how many
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received, one per source
     * @param recvcount items per block
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final Request iNeighborAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                            final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        return new Request(c, c.engine.start(gather(c, sendbuf, sendcount, sendtype, recvbuf, null, null, recvcount,
            recvtype, "iNeighborAllGather")));
    }

    /**
     * {@code MPI_Neighbor_allgatherv}: as {@link #neighborAllGather}, {@code recvcount[i]} items from source i placed
     * at {@code displs[i]}.
     *
     * @param sendbuf   the items sent
     * @param sendcount how many
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received
     * @param recvcount items from each source
     * @param displs    where each source's block goes, in extents of {@code recvtype}
     * @param recvtype  their datatype
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final void neighborAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                         final Object recvbuf, final int[] recvcount, final int[] displs,
                                         final Datatype recvtype) throws MPIException {
        final CommState c = st();
        Collectives.run(c, gather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, 0, recvtype,
            "neighborAllGatherv"));
    }

    /**
     * {@code MPI_Ineighbor_allgatherv}: {@link #neighborAllGatherv} as a request.
     *
     * @param sendbuf   the items sent
     * @param sendcount how many
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received
     * @param recvcount items from each source
     * @param displs    where each source's block goes, in extents of {@code recvtype}
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final Request iNeighborAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                             final Object recvbuf, final int[] recvcount, final int[] displs,
                                             final Datatype recvtype) throws MPIException {
        final CommState c = st();
        return new Request(c, c.engine.start(gather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, 0,
            recvtype, "iNeighborAllGatherv")));
    }

    /**
     * {@code MPI_Neighbor_alltoall}: block j of the send buffer to destination j; block i of the receive buffer from
     * source i.
     *
     * @param sendbuf   the blocks sent, one per destination
     * @param sendcount items per block sent
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received, one per source
     * @param recvcount items per block received
     * @param recvtype  their datatype
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final void neighborAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                       final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        Collectives.run(c, allToAll(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
            "neighborAllToAll"));
    }

    /**
     * {@code MPI_Ineighbor_alltoall}: {@link #neighborAllToAll} as a request.
     *
     * @param sendbuf   the blocks sent, one per destination
     * @param sendcount items per block sent
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received, one per source
     * @param recvcount items per block received
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final Request iNeighborAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
                                           final Object recvbuf, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final CommState c = st();
        return new Request(c, c.engine.start(allToAll(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
            "iNeighborAllToAll")));
    }

    /**
     * {@code MPI_Neighbor_alltoallv}: as {@link #neighborAllToAll} with a count and displacement per block.
     *
     * @param sendbuf   the blocks sent
     * @param sendcount items sent to each destination
     * @param sdispls   where each block sent starts, in extents of {@code sendtype}
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received
     * @param recvcount items received from each source
     * @param rdispls   where each block received goes, in extents of {@code recvtype}
     * @param recvtype  their datatype
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final void neighborAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
                                        final Datatype sendtype, final Object recvbuf, final int[] recvcount,
                                        final int[] rdispls, final Datatype recvtype) throws MPIException {
        final CommState c = st();
        Collectives.run(c, allToAllv(c, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
            recvtype, "neighborAllToAllv"));
    }

    /**
     * {@code MPI_Ineighbor_alltoallv}: {@link #neighborAllToAllv} as a request.
     *
     * @param sendbuf   the blocks sent
     * @param sendcount items sent to each destination
     * @param sdispls   where each block sent starts, in extents of {@code sendtype}
     * @param sendtype  their datatype
     * @param recvbuf   the blocks received
     * @param recvcount items received from each source
     * @param rdispls   where each block received goes, in extents of {@code recvtype}
     * @param recvtype  their datatype
     * @return the request
     * @throws MPIException {@code ERR_TOPOLOGY} without a topology, or a bad argument
     */
    public final Request iNeighborAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
                                            final Datatype sendtype, final Object recvbuf, final int[] recvcount,
                                            final int[] rdispls, final Datatype recvtype) throws MPIException {
        final CommState c = st();
        return new Request(c, c.engine.start(allToAllv(c, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount,
            rdispls, recvtype, "iNeighborAllToAllv")));
    }

    // ------------------------------------------------------------------------------------------------ schedules

    /** Allgather(v): {@code rcounts == null} is the uniform form with {@code recvcount} items per block. */
    private static Schedule gather(final CommState c, final Object sendbuf, final int sendcount,
                                   final Datatype sendtype, final Object recvbuf, final int[] rcounts,
                                   final int[] rdispls, final int recvcount, final Datatype recvtype,
                                   final String what) throws MPIException {
        final Neighbours n = neighbours(c, what);
        final TypeMap st = type(c, sendtype, what);
        final TypeMap rt = type(c, recvtype, what);
        if (sendcount < 0 || recvcount < 0) {
            throw c.error(MPI.ERR_COUNT, what + ": negative count " + Math.min(sendcount, recvcount));
        }
        final int in = n.sources().length;
        final int[] rc = rcounts == null ? uniform(in, recvcount) : rcounts;
        final int[] rd = rcounts == null ? blocks(in, recvcount) : rdispls;
        checkLayout(c, recvbuf, rc, rd, rt, in, "receive", what);
        checkLayout(c, sendbuf, new int[] {sendcount}, new int[1], st, n.destinations().length > 0 ? 1 : 0, "send",
            what);
        final Schedule s = new Schedule();
        Collectives.neighborExchange(c, s, n.tags(c), n.sources(), n.destinations(), sendbuf, new int[] {sendcount},
            null, st, recvbuf, rc, rd, rt);
        return s;
    }

    private static Schedule allToAll(final CommState c, final Object sendbuf, final int sendcount,
                                     final Datatype sendtype, final Object recvbuf, final int recvcount,
                                     final Datatype recvtype, final String what) throws MPIException {
        if (sendcount < 0 || recvcount < 0) {
            throw c.error(MPI.ERR_COUNT, what + ": negative count " + Math.min(sendcount, recvcount));
        }
        final Neighbours n = neighbours(c, what);
        final int in = n.sources().length;
        final int out = n.destinations().length;
        return allToAllv(c, n, sendbuf, uniform(out, sendcount), blocks(out, sendcount), sendtype, recvbuf,
            uniform(in, recvcount), blocks(in, recvcount), recvtype, what);
    }

    private static Schedule allToAllv(final CommState c, final Object sendbuf, final int[] sc, final int[] sd,
                                      final Datatype sendtype, final Object recvbuf, final int[] rc, final int[] rd,
                                      final Datatype recvtype, final String what) throws MPIException {
        return allToAllv(c, neighbours(c, what), sendbuf, sc, sd, sendtype, recvbuf, rc, rd, recvtype, what);
    }

    private static Schedule allToAllv(final CommState c, final Neighbours n, final Object sendbuf, final int[] sc,
                                      final int[] sd, final Datatype sendtype, final Object recvbuf, final int[] rc,
                                      final int[] rd, final Datatype recvtype, final String what)
        throws MPIException {
        final TypeMap st = type(c, sendtype, what);
        final TypeMap rt = type(c, recvtype, what);
        checkLayout(c, sendbuf, sc, sd, st, n.destinations().length, "send", what);
        checkLayout(c, recvbuf, rc, rd, rt, n.sources().length, "receive", what);
        final Schedule s = new Schedule();
        Collectives.neighborExchange(c, s, n.tags(c), n.sources(), n.destinations(), sendbuf, sc, sd, st, recvbuf,
            rc, rd, rt);
        return s;
    }

    /**
     * The calling rank's neighbours, and how many tags the collective draws from the communicator's sequence (the
     * same number on every member, since they share the topology).
     */
    private static Neighbours neighbours(final CommState c, final String what) throws MPIException {
        if (c.dims != null) {
            final int nd = c.dims.length;
            final int[] coords = CartComm.coordsOf(c, c.me);
            final int[] list = new int[2 * nd];
            for (int d = 0; d < nd; d++) {
                list[2 * d] = CartComm.neighbour(c, coords, d, -1);
                list[2 * d + 1] = CartComm.neighbour(c, coords, d, 1);
            }
            return new Neighbours(list, list, 2 * nd);
        }
        if (c.graphIndex != null) {
            final int from = c.me == 0 ? 0 : c.graphIndex[c.me - 1];
            final int[] list = java.util.Arrays.copyOfRange(c.graphEdges, from, c.graphIndex[c.me]);
            return new Neighbours(list, list, 1);
        }
        if (c.distGraph != null) {
            final int[] in = new int[c.distGraph.getInDegree()];
            for (int i = 0; i < in.length; i++) {
                in[i] = c.distGraph.getSource(i);
            }
            final int[] out = new int[c.distGraph.getOutDegree()];
            for (int j = 0; j < out.length; j++) {
                out[j] = c.distGraph.getDestination(j);
            }
            return new Neighbours(in, out, 1);
        }
        throw c.error(MPI.ERR_TOPOLOGY, what + ": " + c.name + " has no topology (a Cartesian, graph or distributed "
            + "graph communicator is needed)");
    }

    /** Checks a layout of {@code blocks} blocks (counts, displacements) against its buffer. */
    private static void checkLayout(final CommState c, final Object buf, final int[] counts, final int[] displs,
                                    final TypeMap t, final int blocks, final String side, final String what)
        throws MPIException {
        if (displs == null) {
            throw c.error(MPI.ERR_ARG, what + ": " + side + " displacements are null");
        }
        checkCounts(c, counts, displs, blocks, side + " neighbour", what);
        checkBlocks(c, buf, counts, displs, t, blocks, side + " neighbour", what);
    }
}
