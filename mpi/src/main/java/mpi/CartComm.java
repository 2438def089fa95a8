package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * A communicator with a Cartesian topology ({@link Intracomm#createCart}): ranks in row-major order of their
 * coordinates (the last dimension varies fastest), as MPI numbers them; {@code reorder} is accepted and does not
 * renumber.
 */
public final class CartComm extends Intracomm {
    CartComm(final CommState state) {
        super(state);
    }

    CartComm(final int predefined) {
        super(predefined);
    }

    @Override
    public CartComm dup() throws MPIException {
        return new CartComm(dupState(st()));
    }

    @Override
    public CartComm dupWithInfo(final Info info) throws MPIException {
        return (CartComm) super.dupWithInfo(info);
    }

    @Override
    public CartComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code MPI_Cart_get}: the dimensions, periods and this rank's coordinates.
     *
     * @return the topology
     * @throws MPIException if the communicator is not usable
     */
    public CartParms getTopo() throws MPIException {
        final CommState c = st();
        return new CartParms(c.dims.clone(), c.periods.clone(), coordsOf(c, c.me));
    }

    /**
     * {@code MPI_Cart_rank}: the rank at coordinates (periodic dimensions wrap; others must be in range).
     *
     * @param coords one coordinate per dimension
     * @return the rank
     * @throws MPIException {@code ERR_ARG} for the wrong number of coordinates, {@code ERR_RANK} for a coordinate
     *                      outside a non-periodic dimension
     */
    public int getRank(final int[] coords) throws MPIException {
        final CommState c = st();
        if (coords == null || coords.length < c.dims.length) {
            throw c.error(MPI.ERR_ARG, "getRank: " + c.dims.length + " coordinates needed");
        }
        int rank = 0;
        for (int d = 0; d < c.dims.length; d++) {
            int x = coords[d];
            if (c.periods[d]) {
                x = Math.floorMod(x, c.dims[d]);
            } else if (x < 0 || x >= c.dims[d]) {
                throw c.error(MPI.ERR_RANK, "getRank: coordinate " + x + " is outside dimension " + d + " (0.."
                    + (c.dims[d] - 1) + ", not periodic)");
            }
            rank = rank * c.dims[d] + x;
        }
        return rank;
    }

    /**
     * {@code MPI_Cart_coords}: a rank's coordinates.
     *
     * @param rank a rank of this communicator
     * @return its coordinates
     * @throws MPIException {@code ERR_RANK} for a rank not in the communicator
     */
    public int[] getCoords(final int rank) throws MPIException {
        final CommState c = st();
        checkDest(c, rank, "getCoords");
        if (rank == MPI.PROC_NULL) {
            throw c.error(MPI.ERR_RANK, "getCoords: PROC_NULL has no coordinates");
        }
        return coordsOf(c, rank);
    }

    static int[] coordsOf(final CommState c, final int rank) {
        final int[] coords = new int[c.dims.length];
        int r = rank;
        for (int d = c.dims.length - 1; d >= 0; d--) {
            coords[d] = r % c.dims[d];
            r /= c.dims[d];
        }
        return coords;
    }

    /**
     * {@code MPI_Cart_shift}: the ranks {@code disp} steps back and on along {@code direction}.
     *
     * @param direction the dimension
     * @param disp      the steps (may be negative or 0)
     * @return the source and destination ({@code MPI.PROC_NULL} past a non-periodic edge)
     * @throws MPIException {@code ERR_ARG} for a dimension out of range
     */
    public ShiftParms shift(final int direction, final int disp) throws MPIException {
        final CommState c = st();
        if (direction < 0 || direction >= c.dims.length) {
            throw c.error(MPI.ERR_ARG, "shift: direction " + direction + " is not in 0.." + (c.dims.length - 1));
        }
        final int[] me = coordsOf(c, c.me);
        return new ShiftParms(neighbour(c, me, direction, -disp), neighbour(c, me, direction, disp));
    }

    /**
     * The rank {@code step} places from {@code at} along dimension {@code d} (row-major), or {@code MPI.PROC_NULL}
     * past a non-periodic edge (also for the neighbourhood collectives).
     */
    static int neighbour(final CommState c, final int[] at, final int d, final int step) {
        final long moved = (long) at[d] + step;
        if (!c.periods[d] && (moved < 0 || moved >= c.dims[d])) {
            return MPI.PROC_NULL;
        }
        int rank = 0;
        for (int k = 0; k < c.dims.length; k++) {
            rank = rank * c.dims[k] + (k == d ? (int) Math.floorMod(moved, c.dims[d]) : at[k]);
        }
        return rank;
    }

    /**
     * {@code MPI_Cart_sub} (collective): the sub-grids that keep the dimensions marked true, one communicator per
     * combination of the dropped coordinates.
     *
     * @param remainDims which dimensions stay
     * @return this rank's sub-grid
     * @throws MPIException {@code ERR_ARG} for the wrong number of flags
     */
    public CartComm sub(final boolean[] remainDims) throws MPIException {
        final CommState c = st();
        if (remainDims == null || remainDims.length < c.dims.length) {
            // As MPI reads a C array: the first ndims flags (a longer array's rest is not looked at).
            throw c.error(MPI.ERR_ARG, "sub: " + c.dims.length + " flags needed");
        }
        final int[] me = coordsOf(c, c.me);
        int colour = 0;
        int key = 0;
        final List<Integer> kept = new ArrayList<>();
        for (int d = 0; d < c.dims.length; d++) {
            if (remainDims[d]) {
                key = key * c.dims[d] + me[d];
                kept.add(d);
            } else {
                colour = colour * c.dims[d] + me[d];
            }
        }
        final Intracomm part = split(colour, key);
        final CommState s = part.state;
        s.dims = new int[kept.size()];
        s.periods = new boolean[kept.size()];
        for (int i = 0; i < kept.size(); i++) {
            s.dims[i] = c.dims[kept.get(i)];
            s.periods[i] = c.periods[kept.get(i)];
        }
        return new CartComm(s);
    }

    /**
     * {@code MPI_Dims_create}: fills the zero entries of {@code dims} so that their product with the fixed ones is
     * {@code nnodes}, as balanced as possible and in non-increasing order.
     *
     * @param nnodes the number of ranks
     * @param dims   in: fixed extents and zeros to fill; out: every extent
     * @throws MPIException {@code ERR_DIMS} if a fixed extent is negative or the fixed ones do not divide
     *                      {@code nnodes}
     */
    public static void createDims(final int nnodes, final int[] dims) throws MPIException {
        int rest = nnodes;
        int free = 0;
        for (final int d : dims) {
            if (d < 0) {
                throw new MPIException(MPI.ERR_DIMS, "createDims: negative extent " + d);
            }
            if (d > 0) {
                if (rest % d != 0) {
                    throw new MPIException(MPI.ERR_DIMS, "createDims: " + nnodes + " ranks cannot be split with "
                        + "fixed extents " + java.util.Arrays.toString(dims));
                }
                rest /= d;
            } else {
                free++;
            }
        }
        if (free == 0) {
            if (rest != 1) {
                throw new MPIException(MPI.ERR_DIMS, "createDims: fixed extents " + java.util.Arrays.toString(dims)
                    + " do not make " + nnodes);
            }
            return;
        }
        final List<Integer> primes = new ArrayList<>();
        for (int p = 2; (long) p * p <= rest; p++) {
            while (rest % p == 0) {
                primes.add(p);
                rest /= p;
            }
        }
        if (rest > 1) {
            primes.add(rest);
        }
        final int[] f = new int[free];
        java.util.Arrays.fill(f, 1);
        for (int i = primes.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int j = 1; j < free; j++) {
                if (f[j] < f[smallest]) {
                    smallest = j;
                }
            }
            f[smallest] *= primes.get(i);
        }
        java.util.Arrays.sort(f);
        int k = free - 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = f[k--];
            }
        }
    }
}
