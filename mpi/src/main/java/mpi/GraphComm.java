package mpi;

/**
 * A communicator with a graph topology ({@link Intracomm#createGraph}) or a distributed graph topology
 * ({@link Intracomm#createDistGraph}, {@link Intracomm#createDistGraphAdjacent}). Ranks keep their order
 * ({@code reorder} is accepted and does not renumber).
 */
public final class GraphComm extends Intracomm {
    GraphComm(final CommState state) {
        super(state);
    }

    GraphComm(final int predefined) {
        super(predefined);
    }

    @Override
    public GraphComm dup() throws MPIException {
        final CommState c = st();
        final CommState d = dupState(c);
        d.graphIndex = c.graphIndex;
        d.graphEdges = c.graphEdges;
        d.distGraph = c.distGraph;
        return new GraphComm(d);
    }

    @Override
    public GraphComm dupWithInfo(final Info info) throws MPIException {
        return (GraphComm) super.dupWithInfo(info);
    }

    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    /**
     * {@code MPI_Graph_get}.
     *
     * @return the graph's index and edges
     * @throws MPIException {@code ERR_TOPOLOGY} on a distributed graph
     */
    public GraphParms getDims() throws MPIException {
        final CommState c = st();
        if (c.graphIndex == null) {
            throw c.error(MPI.ERR_TOPOLOGY, "getDims: " + c.name + " has no graph topology");
        }
        return new GraphParms(c.graphIndex, c.graphEdges);
    }

    /**
     * {@code MPI_Graph_neighbors}.
     *
     * @param rank a node
     * @return its neighbours, in the order of its edges
     * @throws MPIException {@code ERR_RANK} outside the graph, {@code ERR_TOPOLOGY} on a distributed graph
     */
    public int[] getNeighbors(final int rank) throws MPIException {
        final CommState c = st();
        if (c.graphIndex == null) {
            throw c.error(MPI.ERR_TOPOLOGY, "getNeighbors: " + c.name + " has no graph topology");
        }
        if (rank < 0 || rank >= c.graphIndex.length) {
            throw c.error(MPI.ERR_RANK, "getNeighbors: rank " + rank + " is not a node of the graph");
        }
        final int from = rank == 0 ? 0 : c.graphIndex[rank - 1];
        return java.util.Arrays.copyOfRange(c.graphEdges, from, c.graphIndex[rank]);
    }

    /**
     * {@code MPI_Dist_graph_neighbors}: this rank's in- and out-edges.
     *
     * @return the neighbours
     * @throws MPIException {@code ERR_TOPOLOGY} if this is not a distributed graph
     */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        final CommState c = st();
        if (c.distGraph == null) {
            throw c.error(MPI.ERR_TOPOLOGY, "getDistGraphNeighbors: " + c.name + " has no distributed graph");
        }
        return c.distGraph;
    }
}
