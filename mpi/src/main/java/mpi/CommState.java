package mpi;

import org.jhpvm.mpi.internal.Engine;

/**
 * One rank's view of a communicator: its context (point-to-point messages use {@code context}, collectives
 * {@code context + 1}, so the two never match each other), its members' world ranks in rank order, this rank's
 * place, its error handler and, for a Cartesian communicator, its topology.
 */
final class CommState {
    final Rank rank;
    final Engine engine;
    final int context;
    final int[] members;
    final int me;
    Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    boolean freed;
    String name;
    /** Collectives this rank has called on the communicator: the next one's sequence number. */
    int collectives;
    /** Cartesian dimensions, periods (null if none). */
    int[] dims;
    boolean[] periods;
    /** A graph topology's index and edges (null if none). */
    int[] graphIndex;
    int[] graphEdges;
    /** A distributed graph topology: this rank's neighbours (null if none). */
    DistGraphNeighbors distGraph;
    /** The attributes set with {@code setAttr}, by key; copied by {@code dup}. */
    final java.util.Map<Integer, Object> attributes = new java.util.HashMap<>();
    /** The hints of {@code dupWithInfo}/{@code setInfo} (kept, not used). */
    Info info;

    CommState(final Rank rank, final int context, final int[] members, final String name) {
        this.rank = rank;
        this.engine = rank.engine;
        this.context = context;
        this.members = members;
        int at = -1;
        for (int i = 0; i < members.length; i++) {
            if (members[i] == engine.me) {
                at = i;
            }
        }
        this.me = at;
        this.name = name;
    }

    int size() {
        return members.length;
    }

    /**
     * Reports an error as this communicator's handler says: fatal (the default) ends the job with it, return throws
     * it to the caller.
     */
    MPIException error(final int errorClass, final String message) {
        final MPIException e = new MPIException(errorClass, message);
        if (errhandler.isFatal()) {
            throw new MpiFatalError(name, e);
        }
        return e;
    }
}
