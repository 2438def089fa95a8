package mpi;

/**
 * A rank's neighbours in a distributed graph topology ({@code MPI_Dist_graph_neighbors}), from
 * {@link GraphComm#getDistGraphNeighbors()}.
 */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    DistGraphNeighbors(final int[] sources, final int[] sourceWeights, final int[] destinations,
                       final int[] destWeights, final boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /**
     * Edges into this rank.
     *
     * @return the in-degree
     */
    public int getInDegree() {
        return sources.length;
    }

    /**
     * Edges out of this rank.
     *
     * @return the out-degree
     */
    public int getOutDegree() {
        return destinations.length;
    }

    /**
     * Whether the graph was made with weights.
     *
     * @return true if weighted
     */
    public boolean isWeighted() {
        return weighted;
    }

    /**
     * The source of in-edge {@code i}.
     *
     * @param i an in-edge
     * @return its source's rank
     */
    public int getSource(final int i) {
        return sources[i];
    }

    /**
     * The weight of in-edge {@code i}.
     *
     * @param i an in-edge
     * @return its weight (1 for an unweighted graph)
     */
    public int getSourceWeight(final int i) {
        return sourceWeights[i];
    }

    /**
     * The destination of out-edge {@code i}.
     *
     * @param i an out-edge
     * @return its destination's rank
     */
    public int getDestination(final int i) {
        return destinations[i];
    }

    /**
     * The weight of out-edge {@code i}.
     *
     * @param i an out-edge
     * @return its weight (1 for an unweighted graph)
     */
    public int getDestinationWeight(final int i) {
        return destWeights[i];
    }
}
