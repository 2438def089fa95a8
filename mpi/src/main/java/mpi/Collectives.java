package mpi;

import org.jhpvm.mpi.internal.Pending;
import org.jhpvm.mpi.internal.Schedule;
import org.jhpvm.mpi.internal.TypeMap;

/**
 * The collective algorithms, each written once as steps of a {@link Schedule}: a blocking collective runs its
 * schedule to the end ({@link #run}), a non-blocking one hands it to the engine, which advances it whenever the rank
 * makes progress. They use the engine's point-to-point messages in the communicator's collective context (so they
 * never match a user's receive), always with a named source, and a tag made of the collective's sequence number on
 * the communicator and the algorithm's part: every member calls the collectives of a communicator in the same order,
 * so messages of different collectives, blocking or not, never match each other however their steps interleave.
 * Receives are posted in the same step as, or before, the sends that could wait for them. Which algorithm and why:
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

    /** Where a reduction leaves its dense result (null on ranks that get none). */
    static final class Result {
        Object value;
    }

    private Collectives() {
    }

    // ------------------------------------------------------------------------------------------------ running

    /**
     * Runs a schedule to its end on the calling rank (a blocking collective).
     *
     * @throws MPIException the schedule's error, as the communicator's handler says
     */
    static void run(final CommState c, final Schedule s) throws MPIException {
        s.advance();
        while (!s.done) {
            c.engine.idle();
            s.advance();
        }
        if (s.error != MPI.SUCCESS) {
            throw failure(c, s);
        }
    }

    /** The exception a failed schedule reports: what a step threw, or the error of an operation it posted. */
    static MPIException failure(final CommState c, final Schedule s) {
        if (s.thrown instanceof MPIException e) {
            return e;
        }
        if (s.thrown instanceof RuntimeException e) {
            throw e;
        }
        if (s.thrown instanceof Error e) {
            throw e;
        }
        return c.error(s.error, "collective: " + s.failure);
    }

    /** The tag base of the next collective on the communicator (its sequence number, parts in the low 3 bits). */
    static int nextTag(final CommState c) {
        return (c.collectives++ & 0x0FFF_FFFF) << 3;
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

    // ------------------------------------------------------------------------------------------------ barrier

    static void barrier(final CommState c, final Schedule s, final int tag) {
        final int n = c.size();
        for (int k = 1; k < n; k <<= 1) {
            final int from = (c.me - k + n) % n;
            final int to = (c.me + k) % n;
            s.then(() -> {
                s.post(irecv(c, from, tag | BARRIER, NOTHING, 0, BYTES, 0));
                s.post(isend(c, to, tag | BARRIER, NOTHING, 0, BYTES, 0));
            });
        }
    }

    static void barrier(final CommState c) throws MPIException {
        final Schedule s = new Schedule();
        barrier(c, s, nextTag(c));
        run(c, s);
    }

    // ------------------------------------------------------------------------------------------------ bcast

    static void bcast(final CommState c, final Schedule s, final int tag, final Object buf, final long base,
                      final TypeMap t, final int count, final int root) {
        final Result r = new Result();
        r.value = buf;
        bcast(c, s, tag, r, base, t, count, root);
    }

    /** A bcast of the buffer {@code buf} holds when the steps run (a reduction's result, made by earlier steps). */
    private static void bcast(final CommState c, final Schedule s, final int tag, final Result buf, final long base,
                              final TypeMap t, final int count, final int root) {
        final int n = c.size();
        final int vr = (c.me - root + n) % n;
        int mask = 1;
        while (mask < n && (vr & mask) == 0) {
            mask <<= 1;
        }
        if (mask < n) {
            final int parent = (vr - mask + root) % n;
            s.then(() -> s.post(irecv(c, parent, tag | BCAST, buf.value, base, t, count)));
        }
        final int first = mask >> 1;
        s.then(() -> {
            for (int m = first; m > 0; m >>= 1) {
                if (vr + m < n) {
                    s.post(isend(c, (vr + m + root) % n, tag | BCAST, buf.value, base, t, count));
                }
            }
        });
    }

    // ------------------------------------------------------------------------------------------------ reduce

    /**
     * Reduces every rank's dense vector {@code mine} (count items of {@code type}; the schedule may overwrite it) to
     * rank {@code root}, where {@code out} gets the dense result.
     */
    static void reduce(final CommState c, final Schedule s, final int tag, final Object mine, final int count,
                       final Datatype type, final Op op, final int root, final Result out) {
        final TypeMap dense = TypeMap.basic(type.kind());
        final int elements = Math.toIntExact(count * type.map.size());
        // [0] the running result, [1] the incoming vector; swapped after each combination.
        final Object[] acc = {mine, Buffers.newArray(type.kind(), elements)};
        final int n = c.size();
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((c.me & mask) != 0) {
                final int to = c.me - mask;
                s.then(() -> s.post(isend(c, to, tag | REDUCE, acc[0], 0, dense, elements)));
                break;
            }
            if (c.me + mask < n) {
                final int from = c.me + mask;
                s.then(() -> s.post(irecv(c, from, tag | REDUCE, acc[1], 0, dense, elements)));
                s.then(() -> {
                    Reduction.apply(op, acc[0], acc[1], elements, count, type);
                    final Object x = acc[0];
                    acc[0] = acc[1];
                    acc[1] = x;
                });
            }
        }
        if (root == 0) {
            s.then(() -> out.value = c.me == 0 ? acc[0] : null);
        } else if (c.me == 0) {
            s.then(() -> s.post(isend(c, root, tag | REDUCE, acc[0], 0, dense, elements)));
        } else if (c.me == root) {
            s.then(() -> s.post(irecv(c, 0, tag | REDUCE, acc[1], 0, dense, elements)));
            s.then(() -> out.value = acc[1]);
        }
    }

    /** Reduces to every rank (the same bits everywhere): {@code out} gets the dense result on every rank. */
    static void allReduce(final CommState c, final Schedule s, final int tag, final Object mine, final int count,
                          final Datatype type, final Op op, final Result out) {
        final int elements = Math.toIntExact(count * type.map.size());
        reduce(c, s, tag, mine, count, type, op, 0, out);
        if (c.me != 0) {
            s.then(() -> out.value = Buffers.newArray(type.kind(), elements));
        }
        // The buffer exists only once the reduce has run: the bcast's steps read it through the result.
        bcast(c, s, tag, out, 0, TypeMap.basic(type.kind()), elements, 0);
    }

    static Object allReduce(final CommState c, final Object mine, final int count, final Datatype type, final Op op)
        throws MPIException {
        final Schedule s = new Schedule();
        final Result out = new Result();
        allReduce(c, s, nextTag(c), mine, count, type, op, out);
        run(c, s);
        return out.value;
    }

    // ------------------------------------------------------------------------------------------------ gather

    /**
     * Gathers each rank's items into the root's buffer: rank i's go to item {@code displs[i]} (in items of the
     * receive type), {@code counts[i]} of them.
     */
    static void gatherv(final CommState c, final Schedule s, final int tag, final Object sendbuf,
                        final long sendOffset, final int sendcount, final TypeMap st, final Object recvbuf,
                        final int[] counts, final int[] displs, final TypeMap rt, final int root) {
        final int n = c.size();
        if (c.me != root) {
            s.then(() -> s.post(isend(c, root, tag | GATHER, Buffers.data(sendbuf, st.kind()),
                Buffers.base(sendbuf, st.kind()) + sendOffset, st, sendcount)));
            return;
        }
        s.then(() -> {
            final Object data = Buffers.data(recvbuf, rt.kind());
            final long base = Buffers.base(recvbuf, rt.kind());
            for (int i = 0; i < n; i++) {
                if (i != root || sendbuf != null) {
                    s.post(irecv(c, i, tag | GATHER, data, base + displs[i] * rt.extent(), rt, counts[i]));
                }
            }
            if (sendbuf != null) {
                s.post(isend(c, root, tag | GATHER, Buffers.data(sendbuf, st.kind()), Buffers.base(sendbuf,
                    st.kind()) + sendOffset, st, sendcount));
            }
        });
    }

    /** Scatters the root's items: rank i gets {@code counts[i]} items from item {@code displs[i]}. */
    static void scatterv(final CommState c, final Schedule s, final int tag, final Object sendbuf,
                         final int[] counts, final int[] displs, final TypeMap st, final Object recvbuf,
                         final int recvcount, final TypeMap rt, final int root) {
        final int n = c.size();
        s.then(() -> {
            if (recvbuf != null) {
                s.post(irecv(c, root, tag | SCATTER, Buffers.data(recvbuf, rt.kind()), Buffers.base(recvbuf,
                    rt.kind()), rt, recvcount));
            }
            if (c.me == root) {
                final Object data = Buffers.data(sendbuf, st.kind());
                final long base = Buffers.base(sendbuf, st.kind());
                for (int i = 0; i < n; i++) {
                    if (i != root || recvbuf != null) {
                        s.post(isend(c, i, tag | SCATTER, data, base + displs[i] * st.extent(), st, counts[i]));
                    }
                }
            }
        });
    }

    /** Every rank sends {@code scounts[i]} items from {@code sdispls[i]} to rank i and receives likewise. */
    static void allToAllv(final CommState c, final Schedule s, final int tag, final Object sendbuf,
                          final int[] scounts, final int[] sdispls, final TypeMap st, final Object recvbuf,
                          final int[] rcounts, final int[] rdispls, final TypeMap rt) {
        final int n = c.size();
        s.then(() -> {
            final Object rdata = Buffers.data(recvbuf, rt.kind());
            final long rbase = Buffers.base(recvbuf, rt.kind());
            final Object sdata = Buffers.data(sendbuf, st.kind());
            final long sbase = Buffers.base(sendbuf, st.kind());
            for (int k = 0; k < n; k++) {
                final int i = (c.me - k + n) % n;
                s.post(irecv(c, i, tag | ALLTOALL, rdata, rbase + rdispls[i] * rt.extent(), rt, rcounts[i]));
            }
            for (int k = 0; k < n; k++) {
                final int i = (c.me + k) % n;
                s.post(isend(c, i, tag | ALLTOALL, sdata, sbase + sdispls[i] * st.extent(), st, scounts[i]));
            }
        });
    }

    /**
     * A neighbourhood exchange ({@code MPI_Neighbor_allgather(v)}, {@code MPI_Neighbor_alltoall(v)}): block i is
     * received from {@code sources[i]} and block j sent to {@code destinations[j]} ({@code MPI.PROC_NULL}: nothing,
     * the block left alone), every receive posted before any send. With one tag per block ({@code tags[j]}, a
     * Cartesian topology) block j goes out under {@code tags[j]} and block i comes in under {@code tags[i ^ 1]}: what
     * is sent in one direction of a dimension arrives as from the other direction, even where both neighbours are the
     * same process (a periodic dimension of 1 or 2), as MPI-4.1 (section 8.6, Example 8.10) has it. With one tag for
     * all (a graph) the k-th edge to a process matches the k-th edge from it, by the order the engine keeps. A
     * {@code null} {@code sdispls} sends the same block to every destination (allgather).
     */
    static void neighborExchange(final CommState c, final Schedule s, final int[] tags, final int[] sources,
                                 final int[] destinations, final Object sendbuf, final int[] scounts,
                                 final int[] sdispls, final TypeMap st, final Object recvbuf, final int[] rcounts,
                                 final int[] rdispls, final TypeMap rt) {
        s.then(() -> {
            final Object rdata = Buffers.data(recvbuf, rt.kind());
            final long rbase = Buffers.base(recvbuf, rt.kind());
            final Object sdata = Buffers.data(sendbuf, st.kind());
            final long sbase = Buffers.base(sendbuf, st.kind());
            for (int i = 0; i < sources.length; i++) {
                if (sources[i] != MPI.PROC_NULL) {
                    final int tag = tags.length == 1 ? tags[0] : tags[i ^ 1];
                    s.post(irecv(c, sources[i], tag, rdata, rbase + rdispls[i] * rt.extent(), rt, rcounts[i]));
                }
            }
            for (int j = 0; j < destinations.length; j++) {
                if (destinations[j] != MPI.PROC_NULL) {
                    final long at = sdispls == null ? 0 : sdispls[j] * st.extent();
                    final int count = sdispls == null ? scounts[0] : scounts[j];
                    s.post(isend(c, destinations[j], tags.length == 1 ? tags[0] : tags[j], sdata, sbase + at, st,
                        count));
                }
            }
        });
    }

    /**
     * {@code MPI_Alltoallw}: as {@link #allToAllv}, a datatype per peer and displacements in elements of that
     * type's base kind (the caller converted MPI's byte displacements).
     */
    static void allToAllw(final CommState c, final Schedule s, final int tag, final Object sendbuf,
                          final int[] scounts, final long[] soffsets, final TypeMap[] st, final Object recvbuf,
                          final int[] rcounts, final long[] roffsets, final TypeMap[] rt) {
        final int n = c.size();
        s.then(() -> {
            for (int k = 0; k < n; k++) {
                final int i = (c.me - k + n) % n;
                s.post(irecv(c, i, tag | ALLTOALL, Buffers.data(recvbuf, rt[i].kind()),
                    Buffers.base(recvbuf, rt[i].kind()) + roffsets[i], rt[i], rcounts[i]));
            }
            for (int k = 0; k < n; k++) {
                final int i = (c.me + k) % n;
                s.post(isend(c, i, tag | ALLTOALL, Buffers.data(sendbuf, st[i].kind()),
                    Buffers.base(sendbuf, st[i].kind()) + soffsets[i], st[i], scounts[i]));
            }
        });
    }

    // ------------------------------------------------------------------------------------------------ scan

    /**
     * The prefix reduction over ranks 0..me (inclusive) or 0..me-1 (exclusive): {@code out} gets the dense result,
     * null for rank 0 of an exclusive scan.
     */
    static void scan(final CommState c, final Schedule s, final int tag, final Object mine, final int count,
                     final Datatype type, final Op op, final boolean inclusive, final Result out) {
        final TypeMap dense = TypeMap.basic(type.kind());
        final int elements = Math.toIntExact(count * type.map.size());
        final Object before = c.me > 0 ? Buffers.newArray(type.kind(), elements) : null;
        if (before != null) {
            s.then(() -> s.post(irecv(c, c.me - 1, tag | SCAN, before, 0, dense, elements)));
        }
        final Object through;
        if (before == null) {
            through = mine;
        } else {
            through = Buffers.newArray(type.kind(), elements);
            s.then(() -> {
                System.arraycopy(mine, 0, through, 0, elements);
                Reduction.apply(op, before, through, elements, count, type);
            });
        }
        if (c.me + 1 < c.size()) {
            s.then(() -> s.post(isend(c, c.me + 1, tag | SCAN, through, 0, dense, elements)));
        }
        s.then(() -> out.value = inclusive ? through : before);
    }

}
