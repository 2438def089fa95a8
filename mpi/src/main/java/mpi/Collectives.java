package mpi;

import org.jhpvm.mpi.internal.Pending;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * The collective algorithms, built on the engine's point-to-point messages in the communicator's collective
 * context (so they never match a user's receive), always with a named source, so two collectives in a row cannot
 * take each other's messages. Receives are posted before the sends that could wait for them, so rendezvous sends
 * cannot deadlock. Which algorithm and why:
 * <ul>
 * <li>barrier: dissemination (log2 n rounds, any n);</li>
 * <li>bcast: binomial tree from the root;</li>
 * <li>reduce: binomial tree towards rank 0 combining in rank order (lower ranks on the left), then rank 0 to the
 * root: the same order whatever the root, so results are the same bits on every run and correct for
 * non-commutative operations; allReduce is that reduce and a bcast from rank 0, so every rank has the same bits;</li>
 * <li>gather(v), scatter(v): linear at the root (each message goes straight to or from its place in the root's
 * buffer, no staging); allGather(v): gather then bcast; allToAll(v): every receive posted, then every send;</li>
 * <li>scan, exScan: a chain in rank order (n-1 steps; each rank's result is combined in rank order).</li>
 * </ul>
 */
final class Collectives {
    static final int BARRIER = 1;
    static final int BCAST = 2;
    static final int REDUCE = 3;
    static final int GATHER = 4;
    static final int SCATTER = 5;
    static final int ALLTOALL = 6;
    static final int SCAN = 7;

    private static final byte[] NOTHING = new byte[0];
    private static final TypeMap BYTES = TypeMap.basic(org.jhpvm.mpi.internal.Kind.BYTE);

    private Collectives() {
    }

    // ------------------------------------------------------------------------------------------------ messages

    private static Pending isend(final CommState c, final int dest, final int tag, final Object buf, final long base,
                                 final TypeMap t, final int count) {
        return c.engine.startSend(c.context + 1, c.me, c.members[dest], tag, buf, base, t, count, false);
    }

    private static Pending irecv(final CommState c, final int source, final int tag, final Object buf,
                                 final long base, final TypeMap t, final int count) {
        return c.engine.startReceive(c.context + 1, source, tag, buf, base, t, count);
    }

    private static void await(final CommState c, final Pending p) throws MPIException {
        c.engine.await(p);
        if (p.error != MPI.SUCCESS) {
            throw c.error(p.error, "collective: " + Request.describe(p)
                + " (the ranks called the collective with different counts or types)");
        }
    }

    // ------------------------------------------------------------------------------------------------ barrier

    static void barrier(final CommState c) throws MPIException {
        final int n = c.size();
        for (int k = 1; k < n; k <<= 1) {
            final Pending r = irecv(c, (c.me - k + n) % n, BARRIER, NOTHING, 0, BYTES, 0);
            final Pending s = isend(c, (c.me + k) % n, BARRIER, NOTHING, 0, BYTES, 0);
            await(c, s);
            await(c, r);
        }
    }

    // ------------------------------------------------------------------------------------------------ bcast

    static void bcast(final CommState c, final Object buf, final long base, final TypeMap t, final int count,
                      final int root) throws MPIException {
        final int n = c.size();
        final int vr = (c.me - root + n) % n;
        int mask = 1;
        while (mask < n) {
            if ((vr & mask) != 0) {
                await(c, irecv(c, (vr - mask + root) % n, BCAST, buf, base, t, count));
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (vr + mask < n) {
                await(c, isend(c, (vr + mask + root) % n, BCAST, buf, base, t, count));
            }
            mask >>= 1;
        }
    }

    // ------------------------------------------------------------------------------------------------ reduce

    /**
     * Reduces every rank's dense vector {@code mine} (count items of {@code type}) to rank {@code root}.
     *
     * @return the result at the root (a dense array), null elsewhere
     */
    static Object reduce(final CommState c, final Object mine, final int count, final Datatype type, final Op op,
                         final int root) throws MPIException {
        final TypeMap dense = TypeMap.basic(type.kind());
        final int elements = Math.toIntExact(count * type.map.size());
        Object acc = mine;
        Object tmp = Buffers.newArray(type.kind(), elements);
        final int n = c.size();
        boolean sent = false;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((c.me & mask) != 0) {
                await(c, isend(c, c.me - mask, REDUCE, acc, 0, dense, elements));
                sent = true;
                break;
            }
            if (c.me + mask < n) {
                await(c, irecv(c, c.me + mask, REDUCE, tmp, 0, dense, elements));
                Reduction.apply(op, acc, tmp, elements, count, type);
                final Object x = acc;
                acc = tmp;
                tmp = x;
            }
        }
        if (root == 0) {
            return c.me == 0 ? acc : null;
        }
        if (c.me == 0) {
            await(c, isend(c, root, REDUCE, acc, 0, dense, elements));
            return null;
        }
        if (c.me == root) {
            await(c, irecv(c, 0, REDUCE, tmp, 0, dense, elements));
            return tmp;
        }
        assert sent || n == 1;
        return null;
    }

    /** Reduces to every rank: the same bits everywhere. */
    static Object allReduce(final CommState c, final Object mine, final int count, final Datatype type, final Op op)
        throws MPIException {
        final int elements = Math.toIntExact(count * type.map.size());
        Object result = reduce(c, mine, count, type, op, 0);
        if (result == null) {
            result = Buffers.newArray(type.kind(), elements);
        }
        bcast(c, result, 0, TypeMap.basic(type.kind()), elements, 0);
        return result;
    }

    // ------------------------------------------------------------------------------------------------ gather

    /**
     * Gathers each rank's items into the root's buffer: rank i's go to item {@code displs[i]} (in items of the
     * receive type), {@code counts[i]} of them.
     */
    static void gatherv(final CommState c, final Object sendbuf, final long sendOffset, final int sendcount,
                        final TypeMap st, final Object recvbuf, final int[] counts, final int[] displs,
                        final TypeMap rt, final int root) throws MPIException {
        final int n = c.size();
        if (c.me != root) {
            await(c, isend(c, root, GATHER, Buffers.data(sendbuf, st.kind()), Buffers.base(sendbuf, st.kind())
                + sendOffset, st, sendcount));
            return;
        }
        final Pending[] rs = new Pending[n];
        final Object data = Buffers.data(recvbuf, rt.kind());
        final long base = Buffers.base(recvbuf, rt.kind());
        for (int i = 0; i < n; i++) {
            if (i != root || sendbuf != null) {
                rs[i] = irecv(c, i, GATHER, data, base + displs[i] * rt.extent(), rt, counts[i]);
            }
        }
        if (sendbuf != null) {
            await(c, isend(c, root, GATHER, Buffers.data(sendbuf, st.kind()), Buffers.base(sendbuf, st.kind())
                + sendOffset, st, sendcount));
        }
        for (final Pending r : rs) {
            if (r != null) {
                await(c, r);
            }
        }
    }

    /** Scatters the root's items: rank i gets {@code counts[i]} items from item {@code displs[i]}. */
    static void scatterv(final CommState c, final Object sendbuf, final int[] counts, final int[] displs,
                         final TypeMap st, final Object recvbuf, final int recvcount, final TypeMap rt,
                         final int root) throws MPIException {
        final int n = c.size();
        Pending mine = null;
        if (recvbuf != null) {
            mine = irecv(c, root, SCATTER, Buffers.data(recvbuf, rt.kind()), Buffers.base(recvbuf, rt.kind()), rt,
                recvcount);
        }
        if (c.me == root) {
            final Object data = Buffers.data(sendbuf, st.kind());
            final long base = Buffers.base(sendbuf, st.kind());
            final Pending[] ss = new Pending[n];
            for (int i = 0; i < n; i++) {
                if (i != root || recvbuf != null) {
                    ss[i] = isend(c, i, SCATTER, data, base + displs[i] * st.extent(), st, counts[i]);
                }
            }
            for (final Pending s : ss) {
                if (s != null) {
                    await(c, s);
                }
            }
        }
        if (mine != null) {
            await(c, mine);
        }
    }

    /** Every rank sends {@code scounts[i]} items from {@code sdispls[i]} to rank i and receives likewise. */
    static void allToAllv(final CommState c, final Object sendbuf, final int[] scounts, final int[] sdispls,
                          final TypeMap st, final Object recvbuf, final int[] rcounts, final int[] rdispls,
                          final TypeMap rt) throws MPIException {
        final int n = c.size();
        final Pending[] rs = new Pending[n];
        final Pending[] ss = new Pending[n];
        final Object rdata = Buffers.data(recvbuf, rt.kind());
        final long rbase = Buffers.base(recvbuf, rt.kind());
        final Object sdata = Buffers.data(sendbuf, st.kind());
        final long sbase = Buffers.base(sendbuf, st.kind());
        for (int k = 0; k < n; k++) {
            final int i = (c.me - k + n) % n;
            rs[i] = irecv(c, i, ALLTOALL, rdata, rbase + rdispls[i] * rt.extent(), rt, rcounts[i]);
        }
        for (int k = 0; k < n; k++) {
            final int i = (c.me + k) % n;
            ss[i] = isend(c, i, ALLTOALL, sdata, sbase + sdispls[i] * st.extent(), st, scounts[i]);
        }
        for (int i = 0; i < n; i++) {
            await(c, ss[i]);
            await(c, rs[i]);
        }
    }

    // ------------------------------------------------------------------------------------------------ scan

    /**
     * The prefix reduction over ranks 0..me (inclusive) or 0..me-1 (exclusive; rank 0 gets null).
     *
     * @return the dense result, or null for rank 0 of an exclusive scan
     */
    static Object scan(final CommState c, final Object mine, final int count, final Datatype type, final Op op,
                       final boolean inclusive) throws MPIException {
        final TypeMap dense = TypeMap.basic(type.kind());
        final int elements = Math.toIntExact(count * type.map.size());
        Object before = null;
        if (c.me > 0) {
            before = Buffers.newArray(type.kind(), elements);
            await(c, irecv(c, c.me - 1, SCAN, before, 0, dense, elements));
        }
        final Object through;
        if (before == null) {
            through = mine;
        } else {
            final Object x = Buffers.newArray(type.kind(), elements);
            System.arraycopy(mine, 0, x, 0, elements);
            Reduction.apply(op, before, x, elements, count, type);
            through = x;
        }
        if (c.me + 1 < c.size()) {
            await(c, isend(c, c.me + 1, SCAN, through, 0, dense, elements));
        }
        return inclusive ? through : before;
    }
}
