package mpi;

import java.util.Arrays;

/**
 * The distributed graph topologies' construction ({@link Intracomm#createDistGraph},
 * {@link Intracomm#createDistGraphAdjacent}): a communicator of the same members with a new context, each rank
 * holding its own in- and out-edges (weights 1 for an unweighted graph).
 */
final class Topologies {
    private Topologies() {
    }

    static GraphComm adjacent(final Intracomm comm, final CommState c, final int[] sources, final int[] sw,
                              final int[] destinations, final int[] dw, final Info info) throws MPIException {
        if (sources == null || destinations == null || sw != null && sw.length != sources.length
            || dw != null && dw.length != destinations.length) {
            throw c.error(MPI.ERR_ARG, "createDistGraphAdjacent: sources, destinations and their weights must match");
        }
        checkRanks(c, sources, "createDistGraphAdjacent");
        checkRanks(c, destinations, "createDistGraphAdjacent");
        return make(c, new DistGraphNeighbors(sources.clone(), sw == null ? ones(sources.length) : sw.clone(),
            destinations.clone(), dw == null ? ones(destinations.length) : dw.clone(), sw != null), info);
    }

    static GraphComm distGraph(final Intracomm comm, final CommState c, final int[] sources, final int[] degrees,
                               final int[] destinations, final int[] weights, final Info info) throws MPIException {
        if (sources == null || degrees == null || destinations == null || sources.length != degrees.length) {
            throw c.error(MPI.ERR_ARG, "createDistGraph: sources and degrees must match");
        }
        final int edges = Arrays.stream(degrees).sum();
        if (Arrays.stream(degrees).anyMatch(d -> d < 0) || destinations.length < edges
            || weights != null && weights.length < edges) {
            throw c.error(MPI.ERR_ARG, "createDistGraph: " + edges + " edges need as many destinations and weights");
        }
        checkRanks(c, sources, "createDistGraph");
        checkRanks(c, Arrays.copyOf(destinations, edges), "createDistGraph");
        // Every rank's edges, as (source, destination, weight) triples, to every rank.
        final int n = c.size();
        final int[] mine = new int[3 * edges];
        for (int i = 0, e = 0; i < sources.length; i++) {
            for (int k = 0; k < degrees[i]; k++, e++) {
                mine[3 * e] = sources[i];
                mine[3 * e + 1] = destinations[e];
                mine[3 * e + 2] = weights == null ? 1 : weights[e];
            }
        }
        final int[] counts = new int[n];
        counts[c.me] = mine.length;
        comm.allReduce(counts, n, MPI.INT, MPI.SUM);
        final int[] displs = new int[n];
        for (int r = 1; r < n; r++) {
            displs[r] = displs[r - 1] + counts[r - 1];
        }
        final int[] all = new int[displs[n - 1] + counts[n - 1]];
        comm.allGatherv(mine, mine.length, MPI.INT, all, counts, displs, MPI.INT);
        int in = 0;
        int out = 0;
        for (int t = 0; t < all.length; t += 3) {
            in += all[t + 1] == c.me ? 1 : 0;
            out += all[t] == c.me ? 1 : 0;
        }
        final int[] src = new int[in];
        final int[] srcW = new int[in];
        final int[] dst = new int[out];
        final int[] dstW = new int[out];
        for (int t = 0, i = 0, o = 0; t < all.length; t += 3) {
            if (all[t + 1] == c.me) {
                src[i] = all[t];
                srcW[i++] = all[t + 2];
            }
            if (all[t] == c.me) {
                dst[o] = all[t + 1];
                dstW[o++] = all[t + 2];
            }
        }
        final boolean[] weighted = {weights != null};
        comm.allReduce(weighted, 1, MPI.BOOLEAN, MPI.LOR);
        return make(c, new DistGraphNeighbors(src, srcW, dst, dstW, weighted[0]), info);
    }

    private static GraphComm make(final CommState c, final DistGraphNeighbors n, final Info info)
        throws MPIException {
        final CommState s = new CommState(c.rank, Comm.newContext(c), c.members.clone(), "distributed graph");
        s.errhandler = c.errhandler;
        s.distGraph = n;
        s.info = info == null || info.isNull() ? null : info.dup();
        return new GraphComm(s);
    }

    private static void checkRanks(final CommState c, final int[] ranks, final String what) throws MPIException {
        for (final int r : ranks) {
            if (r < 0 || r >= c.size()) {
                throw c.error(MPI.ERR_ARG, what + ": rank " + r + " is not a member");
            }
        }
    }

    private static int[] ones(final int n) {
        final int[] a = new int[n];
        Arrays.fill(a, 1);
        return a;
    }
}
