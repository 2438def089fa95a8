package mpi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jhpvm.mpi.internal.Schedule;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * An intra-communicator: {@code MPI.COMM_WORLD}, {@code MPI.COMM_SELF} and those made from them. Adds what makes
 * communicators ({@link #split}, {@link #create}) and the prefix reductions ({@link #scan}, {@link #exScan}).
 */
public class Intracomm extends Comm {
    Intracomm(final int predefined) {
        super(predefined);
    }

    Intracomm(final CommState state) {
        super(state);
    }

    @Override
    public Intracomm dup() throws MPIException {
        return new Intracomm(dupState(st()));
    }

    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code MPI_Comm_split} (collective): one new communicator per colour, its members ordered by key and then by
     * their rank here.
     *
     * @param colour this rank's colour (at least 0), or {@code MPI.UNDEFINED} to be in none
     * @param key    this rank's ordering key
     * @return this rank's new communicator, or the null communicator ({@link Comm#isNull()}) for {@code MPI.UNDEFINED}
     * @throws MPIException {@code ERR_ARG} for a negative colour other than UNDEFINED
     */
    public final Intracomm split(final int colour, final int key) throws MPIException {
        final CommState c = st();
        if (colour < 0 && colour != MPI.UNDEFINED) {
            throw c.error(MPI.ERR_ARG, "split: colour " + colour + " must be at least 0 or MPI.UNDEFINED");
        }
        final int n = c.size();
        final int[] all = new int[2 * n];
        all[2 * c.me] = colour;
        all[2 * c.me + 1] = key;
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        for (int i = 0; i < n; i++) {
            counts[i] = 2;
            displs[i] = 2 * i;
        }
        allGatherv(all, counts, displs, MPI.INT);
        final int context = newContext(c);
        if (colour == MPI.UNDEFINED) {
            return new Intracomm(NULL);
        }
        final List<int[]> mine = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (all[2 * i] == colour) {
                mine.add(new int[] {all[2 * i + 1], i});
            }
        }
        mine.sort(Comparator.<int[]>comparingInt(a -> a[0]).thenComparingInt(a -> a[1]));
        final int[] members = new int[mine.size()];
        for (int i = 0; i < members.length; i++) {
            members[i] = c.members[mine.get(i)[1]];
        }
        final CommState s = new CommState(c.rank, context, members, c.name + " split " + colour);
        s.errhandler = c.errhandler;
        return new Intracomm(s);
    }

    /**
     * {@code MPI_Comm_create} (collective over this communicator): a communicator of the group's members in the
     * group's order.
     *
     * @param group a subset of this communicator's members (the same on every rank)
     * @return the new communicator, or the null communicator on a rank not in the group
     * @throws MPIException {@code ERR_GROUP} if the group has a rank that is not a member here
     */
    public final Intracomm create(final Group group) throws MPIException {
        final CommState c = st();
        if (group == null) {
            throw c.error(MPI.ERR_GROUP, "create: group is null");
        }
        for (final int w : group.members()) {
            boolean found = false;
            for (final int m : c.members) {
                found |= m == w;
            }
            if (!found) {
                throw c.error(MPI.ERR_GROUP, "create: world rank " + w + " of the group is not in " + c.name);
            }
        }
        final int context = newContext(c);
        if (group.getRank() == MPI.UNDEFINED) {
            return new Intracomm(NULL);
        }
        final CommState s = new CommState(c.rank, context, group.members().clone(), c.name + " subgroup");
        s.errhandler = c.errhandler;
        return new Intracomm(s);
    }

    /**
     * {@code MPI_Cart_create} (collective): a communicator whose first {@code prod(dims)} members, in rank order, are
     * laid out on a grid; the others get the null communicator ({@link Comm#isNull()}); 0 dimensions make a grid of one rank.
     *
     * @param dims    the grid's extents (each at least 1)
     * @param periods which dimensions wrap around
     * @param reorder whether ranks may be renumbered (accepted; they are not)
     * @return the Cartesian communicator, or the null communicator on a rank left out
     * @throws MPIException {@code ERR_DIMS} for an extent below 1 or a grid larger than the communicator,
     *                      {@code ERR_ARG} if dims and periods differ in length
     */
    public final CartComm createCart(final int[] dims, final boolean[] periods, final boolean reorder)
        throws MPIException {
        final CommState c = st();
        if (dims == null || periods == null || dims.length != periods.length) {
            throw c.error(MPI.ERR_ARG, "createCart: dims and periods need the same length");
        }
        long cells = 1;
        for (final int d : dims) {
            if (d < 1) {
                throw c.error(MPI.ERR_DIMS, "createCart: extent " + d + " is below 1");
            }
            cells *= d;
        }
        if (cells > c.size()) {
            throw c.error(MPI.ERR_DIMS, "createCart: a grid of " + cells + " ranks does not fit " + c.name
                + " (size " + c.size() + ")");
        }
        final int context = newContext(c);
        if (c.me >= cells) {
            return new CartComm(NULL);
        }
        final CommState s = new CommState(c.rank, context, java.util.Arrays.copyOf(c.members, (int) cells),
            "Cartesian " + java.util.Arrays.toString(dims));
        s.errhandler = c.errhandler;
        s.dims = dims.clone();
        s.periods = periods.clone();
        return new CartComm(s);
    }

    /**
     * {@code MPI_Scan}: member i gets the reduction of members 0..i's items, combined in rank order.
     *
     * @param sendbuf this member's items
     * @param recvbuf the result
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @throws MPIException a bad argument
     */
    public final void scan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                           final Op op) throws MPIException {
        scan(sendbuf, recvbuf, count, type, op, true, "scan");
    }

    /**
     * {@code MPI_Scan} in place.
     *
     * @param buf   this member's items, replaced by the result
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @throws MPIException a bad argument
     */
    public final void scan(final Object buf, final int count, final Datatype type, final Op op) throws MPIException {
        scan(buf, buf, count, type, op, true, "scan");
    }

    /**
     * {@code MPI_Exscan}: member i gets the reduction of members 0..i-1's items; member 0's {@code recvbuf} is left
     * as it was (MPI leaves it undefined).
     *
     * @param sendbuf this member's items
     * @param recvbuf the result
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @throws MPIException a bad argument
     */
    public final void exScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                             final Op op) throws MPIException {
        scan(sendbuf, recvbuf, count, type, op, false, "exScan");
    }

    /**
     * {@code MPI_Exscan} in place.
     *
     * @param buf   this member's items, replaced by the result (unchanged on member 0)
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @throws MPIException a bad argument
     */
    public final void exScan(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        scan(buf, buf, count, type, op, false, "exScan");
    }

    /**
     * {@code MPI_Iscan}: the non-blocking {@link #scan(Object, Object, int, Datatype, Op)}.
     *
     * @param sendbuf this member's items
     * @param recvbuf the result
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                               final Op op) throws MPIException {
        final CommState c = st();
        return new Request(c, c.engine.start(scanSchedule(c, sendbuf, recvbuf, count, type, op, true, "iScan")));
    }

    /**
     * {@code MPI_Iscan} in place.
     *
     * @param buf   this member's items, replaced by the result
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iScan(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        return iScan(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_Iexscan}: the non-blocking {@link #exScan(Object, Object, int, Datatype, Op)}.
     *
     * @param sendbuf this member's items
     * @param recvbuf the result (unchanged on member 0)
     * @param count   items
     * @param type    their datatype
     * @param op      the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iExScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
                                 final Op op) throws MPIException {
        final CommState c = st();
        return new Request(c, c.engine.start(scanSchedule(c, sendbuf, recvbuf, count, type, op, false,
            "iExScan")));
    }

    /**
     * {@code MPI_Iexscan} in place.
     *
     * @param buf   this member's items, replaced by the result (unchanged on member 0)
     * @param count items
     * @param type  their datatype
     * @param op    the operation
     * @return the request
     * @throws MPIException a bad argument
     */
    public final Request iExScan(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        return iExScan(buf, buf, count, type, op);
    }

    private void scan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op,
                      final boolean inclusive, final String what) throws MPIException {
        final CommState c = st();
        Collectives.run(c, scanSchedule(c, sendbuf, recvbuf, count, type, op, inclusive, what));
    }

    private static Schedule scanSchedule(final CommState c, final Object sendbuf, final Object recvbuf,
                                         final int count, final Datatype type, final Op op, final boolean inclusive,
                                         final String what) throws MPIException {
        final TypeMap t = checked(c, sendbuf, count, type, what);
        Buffers.check(c, recvbuf, t, count, what);
        checkOp(c, op, type, what);
        final Schedule s = new Schedule();
        final Collectives.Result out = new Collectives.Result();
        Collectives.scan(c, s, Collectives.nextTag(c), Buffers.pack(sendbuf, t, count), count, type, op, inclusive,
            out);
        s.then(() -> {
            if (out.value != null) {
                Buffers.unpack(out.value, recvbuf, t, count);
            }
        });
        return s;
    }
}
