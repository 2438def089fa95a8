package mpi;

/** A graph topology as {@link GraphComm#getDims()} gives it ({@code MPI_Graph_get}): the index and edge arrays. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(final int[] index, final int[] edges) {
        this.index = index.clone();
        this.edges = edges.clone();
    }

    /**
     * The number of nodes.
     *
     * @return nodes
     */
    public int getIndexCount() {
        return index.length;
    }

    /**
     * Entry {@code i} of the index array: the number of edges of nodes 0..i together.
     *
     * @param i a node
     * @return the cumulative degree
     */
    public int getIndex(final int i) {
        return index[i];
    }

    /**
     * The number of edges.
     *
     * @return edges
     */
    public int getEdgeCount() {
        return edges.length;
    }

    /**
     * Edge {@code i}: a neighbour (edges of node 0 first, then node 1's, ...).
     *
     * @param i an edge
     * @return the neighbour's rank
     */
    public int getEdge(final int i) {
        return edges[i];
    }
}
