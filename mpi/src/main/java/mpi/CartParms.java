package mpi;

/** A Cartesian communicator's topology and this rank's place in it ({@link CartComm#getTopo()}). */
public final class CartParms {
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    CartParms(final int[] dims, final boolean[] periods, final int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /**
     * The number of dimensions.
     *
     * @return the dimension count
     */
    public int getDimCount() {
        return dims.length;
    }

    /**
     * The extent of a dimension.
     *
     * @param i the dimension
     * @return its number of ranks
     */
    public int getDim(final int i) {
        return dims[i];
    }

    /**
     * Whether a dimension is periodic.
     *
     * @param i the dimension
     * @return true if it wraps around
     */
    public boolean getPeriod(final int i) {
        return periods[i];
    }

    /**
     * This rank's coordinate in a dimension.
     *
     * @param i the dimension
     * @return the coordinate
     */
    public int getCoord(final int i) {
        return coords[i];
    }
}
