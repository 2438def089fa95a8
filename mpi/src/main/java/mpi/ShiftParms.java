package mpi;

/** The two neighbours of a shift along one dimension ({@link CartComm#shift}). */
public final class ShiftParms {
    private final int source;
    private final int dest;

    ShiftParms(final int source, final int dest) {
        this.source = source;
        this.dest = dest;
    }

    /**
     * The rank to receive from: {@code disp} steps back, or {@code MPI.PROC_NULL} past a non-periodic edge.
     *
     * @return the source rank
     */
    public int getRankSource() {
        return source;
    }

    /**
     * The rank to send to: {@code disp} steps on, or {@code MPI.PROC_NULL} past a non-periodic edge.
     *
     * @return the destination rank
     */
    public int getRankDest() {
        return dest;
    }
}
