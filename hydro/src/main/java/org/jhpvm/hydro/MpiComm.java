package org.jhpvm.hydro;

import mpi.CartComm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * The solver on MPI ({@code hydro --comm mpi}), as Zeus-MP runs: the ranks form a Cartesian communicator of
 * {@code CartComm.createDims}'s balanced shape (periodic where the grid is), each owns one block of every dimension's
 * zones (the first {@code n % p} blocks one zone larger), held in its own {@code double[]} with the ghost layers.
 * The ghost exchange is MPI's halo exchange: per dimension in turn, two {@code sendRecv}s with the neighbours
 * {@code shift} names, each of one subarray type that covers every field; the dimensions exchanged before are
 * included ghost-inclusive, so edges and corners arrive from their owners. The reductions are {@code allReduce}
 * (rank-order binomial trees: the same bits on every rank); rank 0 reads the grid with one receive per rank into a
 * subarray of the whole array, and writes it back the same way.
 * <p>
 * Blocks are never split along the fields, never empty, and at least {@link ZeusSolver#GHOST} zones wide: a
 * narrower one is refused on every rank before anything is sent.
 */
final class MpiComm implements SolverComm {
    private static final int TAG_DOWN = 1;
    private static final int TAG_UP = 2;
    private static final int TAG_GRID = 3;

    private final CartComm cart;
    private final int dims;
    /** Fields per zone ({@link HydroConfig#fields}). */
    private final int fields;
    private final int size;
    private final int[] procs;
    private final int[] zones;
    private final int[] local;
    private final ZeusBlock block;
    private final int[] lower;
    private final int[] upper;
    // Per dimension: my first and last GHOST interior layers, my lower and upper ghost layers.
    private final Datatype[] sendLow;
    private final Datatype[] sendHigh;
    private final Datatype[] recvLow;
    private final Datatype[] recvHigh;
    /** Every zone of my block, in my array. */
    private final Datatype interior;
    /**
     * Per dimension whose neighbour on both sides is this rank (periodic and not split), the start of each row of my
     * first ghost-many layers (rows along the last dimension, {@link #rowLength} long), else null: such a wrap is
     * copied within the array instead of sent to myself.
     */
    private final int[][] selfRows;
    private final int[] rowLength;
    private final int[] layerStride;
    private final int[] extents;

    /**
     * Sets up the decomposition and the halo types (collective over {@code MPI.COMM_WORLD}, after {@code MPI.Init}).
     *
     * @param cfg the problem's grid, gas and boundaries
     * @throws IllegalArgumentException if a block would be thinner than the ghost layers or too large for one
     *                                  array, on every rank alike
     */
    MpiComm(final HydroConfig cfg) {
        this.dims = cfg.dims();
        this.fields = cfg.fields();
        this.zones = cfg.zones().clone();
        try {
            this.size = MPI.COMM_WORLD.getSize();
            this.procs = new int[dims];
            CartComm.createDims(size, procs);
            final boolean[] periods = new boolean[dims];
            for (int d = 0; d < dims; d++) {
                periods[d] = cfg.lower()[d] == Boundary.PERIODIC;
                if (zones[d] / procs[d] < ZeusSolver.GHOST) {
                    throw new IllegalArgumentException("ghost width " + ZeusSolver.GHOST + " in dimension " + d
                        + " exceeds the " + zones[d] / procs[d] + "-zone blocks of " + zones[d] + " zones over "
                        + procs[d] + " ranks: every block must be at least as wide as its ghost layers (use fewer "
                        + "ranks)");
                }
            }
            this.cart = MPI.COMM_WORLD.createCart(procs, periods, false);
            final int[] coords = cart.getCoords(cart.getRank());
            this.local = new int[dims + 1];
            local[0] = fields;
            final int[] strides = new int[dims + 1];
            final int[] blo = new int[dims + 1];
            final int[] bhi = new int[dims + 1];
            bhi[0] = fields - 1;
            final int[] extent = new int[dims];
            long length = 1;
            for (int d = dims; d >= 0; d--) {
                if (d > 0) {
                    extent[d - 1] = extent(d - 1, coords[d - 1]);
                    blo[d] = start(d - 1, coords[d - 1]);
                    bhi[d] = blo[d] + extent[d - 1] - 1;
                    local[d] = extent[d - 1] + 2 * ZeusSolver.GHOST;
                }
                strides[d] = (int) Math.min(length, Integer.MAX_VALUE);
                length *= local[d];
            }
            if (length > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("a block of " + length + " values (ghosts included) exceeds a "
                    + "Java array: use more ranks or fewer zones");
            }
            this.block = new ZeusBlock(cfg, new double[(int) length], strides, blo, bhi, true);
            this.lower = new int[dims];
            this.upper = new int[dims];
            this.sendLow = new Datatype[dims];
            this.sendHigh = new Datatype[dims];
            this.recvLow = new Datatype[dims];
            this.recvHigh = new Datatype[dims];
            final int g = ZeusSolver.GHOST;
            for (int d = 0; d < dims; d++) {
                final ShiftParms s = cart.shift(d, 1);
                lower[d] = s.getRankSource();
                upper[d] = s.getRankDest();
                sendLow[d] = layers(d, extent, g);
                sendHigh[d] = layers(d, extent, extent[d]);
                recvLow[d] = layers(d, extent, 0);
                recvHigh[d] = layers(d, extent, g + extent[d]);
            }
            final int[] sub = new int[dims + 1];
            final int[] from = new int[dims + 1];
            sub[0] = fields;
            for (int d = 0; d < dims; d++) {
                sub[d + 1] = extent[d];
                from[d + 1] = g;
            }
            this.interior = committed(Datatype.createSubarray(local, sub, from, MPI.ORDER_C, MPI.DOUBLE));
            this.extents = extent;
            this.selfRows = new int[dims][];
            this.rowLength = new int[dims];
            this.layerStride = new int[dims];
            final int me = cart.getRank();
            for (int d = 0; d < dims; d++) {
                layerStride[d] = strides[d + 1];
                if (lower[d] == me && upper[d] == me) {
                    selfRows[d] = rows(d, extent, strides);
                    rowLength[d] = d == dims - 1 ? g : extent[dims - 1];
                }
            }
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The subarray of my array that is {@link ZeusSolver#GHOST} layers of dimension {@code d} from layer
     * {@code first} (ghosts included in the numbering): every field, the dimensions before {@code d} with their
     * ghosts (already exchanged), those after without.
     */
    private Datatype layers(final int d, final int[] extent, final int first) throws MPIException {
        final int[] sub = new int[dims + 1];
        final int[] from = new int[dims + 1];
        sub[0] = local[0];
        for (int e = 0; e < dims; e++) {
            if (e < d) {
                sub[e + 1] = local[e + 1];
            } else if (e > d) {
                sub[e + 1] = extent[e];
                from[e + 1] = ZeusSolver.GHOST;
            } else {
                sub[e + 1] = ZeusSolver.GHOST;
                from[e + 1] = first;
            }
        }
        return committed(Datatype.createSubarray(local, sub, from, MPI.ORDER_C, MPI.DOUBLE));
    }

    /**
     * The start of each row (along the last dimension) of {@link #layers}' region of dimension {@code d} from layer
     * {@code GHOST}: my first interior layers.
     */
    private int[] rows(final int d, final int[] extent, final int[] strides) {
        final int[] sub = new int[dims + 1];
        final int[] from = new int[dims + 1];
        sub[0] = local[0];
        for (int e = 0; e < dims; e++) {
            sub[e + 1] = e < d ? local[e + 1] : e > d ? extent[e] : ZeusSolver.GHOST;
            from[e + 1] = e < d ? 0 : ZeusSolver.GHOST;
        }
        int count = 1;
        for (int k = 0; k < dims; k++) {
            count *= sub[k];
        }
        final int[] starts = new int[count];
        final int[] at = new int[dims]; // index within the region, dimensions 0 .. dims-1 of the array
        for (int r = 0; r < count; r++) {
            int off = from[dims] * strides[dims];
            for (int k = 0; k < dims; k++) {
                off += (from[k] + at[k]) * strides[k];
            }
            starts[r] = off;
            for (int k = dims - 1; k >= 0 && ++at[k] == sub[k]; k--) {
                at[k] = 0;
            }
        }
        return starts;
    }

    private static Datatype committed(final Datatype t) throws MPIException {
        t.commit();
        return t;
    }

    /** The zones of dimension d in the block at coordinate c: n / p each, the first n % p one more. */
    private int extent(final int d, final int c) {
        return zones[d] / procs[d] + (c < zones[d] % procs[d] ? 1 : 0);
    }

    /** The first zone of dimension d of the block at coordinate c. */
    private int start(final int d, final int c) {
        return c * (zones[d] / procs[d]) + Math.min(c, zones[d] % procs[d]);
    }

    @Override
    public int rank() {
        try {
            return cart.getRank();
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public ZeusBlock block() {
        return block;
    }

    @Override
    public void exchangeGhosts() {
        final double[] a = block.a;
        try {
            for (int d = 0; d < dims; d++) {
                if (selfRows[d] != null) {
                    wrap(a, d);
                    continue;
                }
                // My first layers go down and my upper ghosts come from above; then the other way.
                cart.sendRecv(a, 1, sendLow[d], lower[d], TAG_DOWN, a, 1, recvHigh[d], upper[d], TAG_DOWN);
                cart.sendRecv(a, 1, sendHigh[d], upper[d], TAG_UP, a, 1, recvLow[d], lower[d], TAG_UP);
            }
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The exchange of a periodic dimension this rank holds whole: the same copies as a {@code sendRecv} to itself,
     * made within the array. Upper ghosts {@code ext + g ..} get the first layers {@code g ..}; lower ghosts
     * {@code 0 ..} get the last layers {@code ext ..}.
     */
    private void wrap(final double[] a, final int d) {
        final int[] starts = selfRows[d];
        final int len = rowLength[d];
        final int up = extents[d] * layerStride[d];
        final int down = ZeusSolver.GHOST * layerStride[d];
        for (final int o : starts) {
            for (int k = 0; k < len; k++) {
                a[o + up + k] = a[o + k];
            }
            for (int k = 0; k < len; k++) {
                a[o - down + k] = a[o + up - down + k];
            }
        }
    }

    @Override
    public void written() {
        // Each rank's block is its own memory: nothing to publish.
    }

    @Override
    public void max(final double[] v) {
        reduce(v, MPI.MAX);
    }

    @Override
    public void sum(final double[] v) {
        reduce(v, MPI.SUM);
    }

    private void reduce(final double[] v, final mpi.Op op) {
        try {
            cart.allReduce(v, v.length, MPI.DOUBLE, op);
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void barrier() {
        try {
            cart.barrier();
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public double[] gather() {
        try {
            final int me = cart.getRank();
            if (me != 0) {
                cart.send(block.a, 1, interior, 0, TAG_GRID);
                return null;
            }
            final double[] all = new double[wholeLength()];
            for (int r = 0; r < size; r++) {
                final Datatype there = place(r);
                if (r == 0) {
                    cart.sendRecv(block.a, 1, interior, 0, TAG_GRID, all, 1, there, 0, TAG_GRID);
                } else {
                    cart.recv(all, 1, there, r, TAG_GRID);
                }
                there.free();
            }
            return all;
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void scatter(final double[] fields) {
        try {
            final int me = cart.getRank();
            if (me != 0) {
                cart.recv(block.a, 1, interior, 0, TAG_GRID);
                return;
            }
            if (fields.length != wholeLength()) {
                throw new IllegalArgumentException("the grid has " + wholeLength() + " values, not "
                    + fields.length);
            }
            for (int r = 0; r < size; r++) {
                final Datatype there = place(r);
                if (r == 0) {
                    cart.sendRecv(fields, 1, there, 0, TAG_GRID, block.a, 1, interior, 0, TAG_GRID);
                } else {
                    cart.send(fields, 1, there, r, TAG_GRID);
                }
                there.free();
            }
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    private int wholeLength() {
        long n = fields;
        for (final int z : zones) {
            n *= z;
        }
        return Math.toIntExact(n);
    }

    /** Rank r's block in the whole grid's array {@code [field][zones...]}. */
    private Datatype place(final int r) throws MPIException {
        final int[] coords = cart.getCoords(r);
        final int[] whole = new int[dims + 1];
        final int[] sub = new int[dims + 1];
        final int[] from = new int[dims + 1];
        whole[0] = fields;
        sub[0] = fields;
        for (int d = 0; d < dims; d++) {
            whole[d + 1] = zones[d];
            sub[d + 1] = extent(d, coords[d]);
            from[d + 1] = start(d, coords[d]);
        }
        return committed(Datatype.createSubarray(whole, sub, from, MPI.ORDER_C, MPI.DOUBLE));
    }
}
