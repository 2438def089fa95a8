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
    public Intracomm dupWithInfo(final Info info) throws MPIException {
        return (Intracomm) super.dupWithInfo(info);
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
     * {@code MPI_Comm_create_group}: a communicator of {@code group}'s members, collective over those members only
     * (the others do not call). They agree on a context by messages of tag {@code tag} on this communicator (group
     * rank 0 collects every member's next free context and sends back the largest), as MPI lets the tag be used.
     *
     * @param group a subset of this communicator's members, the same on each of them
     * @param tag   a tag no other message of this communicator uses meanwhile
     * @return the new communicator; the null communicator on a rank outside the group
     * @throws MPIException {@code ERR_GROUP} if the group has a rank that is not a member here
     */
    public final Intracomm createGroup(final Group group, final int tag) throws MPIException {
        final CommState c = st();
        if (group == null) {
            throw c.error(MPI.ERR_GROUP, "createGroup: group is null");
        }
        final int[] world = group.members();
        final int[] ranks = new int[world.length];
        for (int i = 0; i < world.length; i++) {
            ranks[i] = -1;
            for (int r = 0; r < c.members.length; r++) {
                if (c.members[r] == world[i]) {
                    ranks[i] = r;
                }
            }
            if (ranks[i] < 0) {
                throw c.error(MPI.ERR_GROUP, "createGroup: world rank " + world[i] + " of the group is not in "
                    + c.name);
            }
        }
        final int mine = group.getRank();
        if (mine == MPI.UNDEFINED) {
            return new Intracomm(NULL);
        }
        final int[] context = {c.rank.nextContext};
        if (mine == 0) {
            final int[] theirs = new int[1];
            for (int i = 1; i < ranks.length; i++) {
                recv(theirs, 1, MPI.INT, ranks[i], tag);
                context[0] = Math.max(context[0], theirs[0]);
            }
            for (int i = 1; i < ranks.length; i++) {
                send(context, 1, MPI.INT, ranks[i], tag);
            }
        } else {
            send(context, 1, MPI.INT, ranks[0], tag);
            recv(context, 1, MPI.INT, ranks[0], tag);
        }
        c.rank.nextContext = Math.max(c.rank.nextContext, context[0] + 2);
        final CommState s = new CommState(c.rank, context[0], world.clone(), c.name + " group");
        s.errhandler = c.errhandler;
        return new Intracomm(s);
    }

    /**
     * {@code MPI_Graph_create} (collective): the first {@code index.length} members, in rank order, make the nodes
     * of the graph; the others get the null communicator, and so does every rank for a graph of no nodes.
     *
     * @param index   {@code index[i]}: the edges of nodes 0..i together (non-decreasing)
     * @param edges   the neighbours of node 0, then of node 1, ...
     * @param reorder whether ranks may be renumbered (accepted; they are not)
     * @return the graph communicator
     * @throws MPIException {@code ERR_ARG} for an index that decreases or does not match the edges, an edge to no
     *                      node, or more nodes than members
     */
    public final GraphComm createGraph(final int[] index, final int[] edges, final boolean reorder)
        throws MPIException {
        final CommState c = st();
        if (index == null || edges == null) {
            throw c.error(MPI.ERR_ARG, "createGraph: index and edges are needed");
        }
        final int nodes = index.length;
        if (nodes > c.size()) {
            throw c.error(MPI.ERR_ARG, "createGraph: " + nodes + " nodes for " + c.size() + " members");
        }
        for (int i = 0; i < nodes; i++) {
            if (index[i] < (i == 0 ? 0 : index[i - 1])) {
                throw c.error(MPI.ERR_ARG, "createGraph: index decreases at node " + i);
            }
        }
        if (nodes > 0 && index[nodes - 1] != edges.length) {
            throw c.error(MPI.ERR_ARG, "createGraph: the index counts " + index[nodes - 1] + " edges; "
                + edges.length + " given");
        }
        for (final int e : edges) {
            if (e < 0 || e >= nodes) {
                throw c.error(MPI.ERR_ARG, "createGraph: edge to " + e + ", not a node of " + nodes);
            }
        }
        final int context = newContext(c);
        if (c.me >= nodes) {
            return new GraphComm(NULL);
        }
        final CommState s = new CommState(c.rank, context, java.util.Arrays.copyOf(c.members, nodes), "graph");
        s.errhandler = c.errhandler;
        s.graphIndex = index.clone();
        s.graphEdges = edges.clone();
        return new GraphComm(s);
    }

    /**
     * {@code MPI_Dist_graph_create} (collective), weighted: each rank gives edges {@code sources[i] ->
     * destinations[...]} ({@code degrees[i]} of them per source, in order); every rank learns its own in- and
     * out-edges.
     *
     * @param sources      source ranks this rank describes
     * @param degrees      edges per source
     * @param destinations the edges' destinations
     * @param weights      the edges' weights
     * @param info         hints (kept, not used)
     * @param reorder      accepted; ranks are not renumbered
     * @return the communicator
     * @throws MPIException {@code ERR_ARG} for arrays that do not match or ranks outside the communicator
     */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations,
                                           final int[] weights, final Info info, final boolean reorder)
        throws MPIException {
        return Topologies.distGraph(this, st(), sources, degrees, destinations, weights, info);
    }

    /**
     * {@code MPI_Dist_graph_create} without weights.
     *
     * @param sources      source ranks this rank describes
     * @param degrees      edges per source
     * @param destinations the edges' destinations
     * @param info         hints (kept, not used)
     * @param reorder      accepted; ranks are not renumbered
     * @return the communicator
     * @throws MPIException as the weighted form
     */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations,
                                           final Info info, final boolean reorder) throws MPIException {
        return Topologies.distGraph(this, st(), sources, degrees, destinations, null, info);
    }

    /**
     * {@code MPI_Dist_graph_create_adjacent} (collective): each rank gives its own in- and out-neighbours.
     *
     * @param sources       ranks with an edge to this one
     * @param sourceWeights their weights
     * @param destinations  ranks this one has an edge to
     * @param destWeights   their weights
     * @param info          hints (kept, not used)
     * @param reorder       accepted; ranks are not renumbered
     * @return the communicator
     * @throws MPIException {@code ERR_ARG} for arrays that do not match or ranks outside the communicator
     */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] sourceWeights,
                                                   final int[] destinations, final int[] destWeights,
                                                   final Info info, final boolean reorder) throws MPIException {
        return Topologies.adjacent(this, st(), sources, sourceWeights, destinations, destWeights, info);
    }

    /**
     * {@code MPI_Dist_graph_create_adjacent} without weights.
     *
     * @param sources      ranks with an edge to this one
     * @param destinations ranks this one has an edge to
     * @param info         hints (kept, not used)
     * @param reorder      accepted; ranks are not renumbered
     * @return the communicator
     * @throws MPIException as the weighted form
     */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] destinations, final Info info,
                                                   final boolean reorder) throws MPIException {
        return Topologies.adjacent(this, st(), sources, null, destinations, null, info);
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
