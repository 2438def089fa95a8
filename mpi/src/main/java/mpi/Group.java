package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * An ordered set of ranks ({@code MPI_Group}), held as world ranks. Made from a communicator
 * ({@link Comm#getGroup()}) and from other groups; local, no communication.
 */
public final class Group implements Freeable {
    private final int[] members;
    private final int myWorld;
    private boolean freed;

    Group(final int[] members, final int myWorld) {
        this.members = members;
        this.myWorld = myWorld;
    }

    int[] members() {
        return members;
    }

    private void check() throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_GROUP, "group has been freed");
        }
    }

    /**
     * {@code MPI_Group_size}.
     *
     * @return the number of members
     * @throws MPIException if freed
     */
    public int getSize() throws MPIException {
        check();
        return members.length;
    }

    /**
     * {@code MPI_Group_rank}.
     *
     * @return the calling rank's place in the group, or {@code MPI.UNDEFINED} if it is not a member
     * @throws MPIException if freed
     */
    public int getRank() throws MPIException {
        check();
        for (int i = 0; i < members.length; i++) {
            if (members[i] == myWorld) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /**
     * {@code MPI_Group_free}.
     *
     * @throws MPIException if already freed
     */
    @Override
    public void free() throws MPIException {
        check();
        freed = true;
    }

    /**
     * Whether this is {@code MPI_GROUP_NULL}: a group becomes it once freed, as in Open MPI's bindings.
     *
     * @return true once freed
     */
    public boolean isNull() {
        return freed;
    }

    private void checkRanks(final int[] ranks, final boolean distinct) throws MPIException {
        check();
        final boolean[] seen = new boolean[members.length];
        for (final int r : ranks) {
            if (r < 0 || r >= members.length) {
                throw new MPIException(MPI.ERR_RANK, "rank " + r + " is not in the group (size " + members.length
                    + ")");
            }
            if (distinct && seen[r]) {
                throw new MPIException(MPI.ERR_RANK, "rank " + r + " is named twice");
            }
            seen[r] = true;
        }
    }

    /**
     * {@code MPI_Group_incl}: the named members, in the order named.
     *
     * @param ranks distinct ranks of this group
     * @return the new group
     * @throws MPIException {@code ERR_RANK} for a rank out of range or named twice
     */
    public Group incl(final int[] ranks) throws MPIException {
        checkRanks(ranks, true);
        final int[] m = new int[ranks.length];
        for (int i = 0; i < m.length; i++) {
            m[i] = members[ranks[i]];
        }
        return new Group(m, myWorld);
    }

    /**
     * {@code MPI_Group_excl}: the members not named, in this group's order.
     *
     * @param ranks distinct ranks of this group
     * @return the new group
     * @throws MPIException {@code ERR_RANK} for a rank out of range or named twice
     */
    public Group excl(final int[] ranks) throws MPIException {
        checkRanks(ranks, true);
        final boolean[] out = new boolean[members.length];
        for (final int r : ranks) {
            out[r] = true;
        }
        final List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < members.length; i++) {
            if (!out[i]) {
                keep.add(members[i]);
            }
        }
        return new Group(keep.stream().mapToInt(Integer::intValue).toArray(), myWorld);
    }

    private int[] expand(final int[][] ranges) throws MPIException {
        final List<Integer> ranks = new ArrayList<>();
        for (final int[] r : ranges) {
            if (r.length != 3 || r[2] == 0) {
                throw new MPIException(MPI.ERR_ARG, "a range is (first, last, stride) with a non-zero stride");
            }
            for (int i = r[0]; r[2] > 0 ? i <= r[1] : i >= r[1]; i += r[2]) {
                ranks.add(i);
            }
        }
        return ranks.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * {@code MPI_Group_range_incl}.
     *
     * @param ranges triplets (first, last, stride)
     * @return the new group
     * @throws MPIException as {@link #incl}
     */
    public Group rangeIncl(final int[][] ranges) throws MPIException {
        return incl(expand(ranges));
    }

    /**
     * {@code MPI_Group_range_excl}.
     *
     * @param ranges triplets (first, last, stride)
     * @return the new group
     * @throws MPIException as {@link #excl}
     */
    public Group rangeExcl(final int[][] ranges) throws MPIException {
        return excl(expand(ranges));
    }

    /**
     * {@code MPI_Group_translate_ranks}.
     *
     * @param group1 a group
     * @param ranks1 ranks of {@code group1}
     * @param group2 another group
     * @return the same processes' ranks in {@code group2} ({@code MPI.UNDEFINED} where not a member)
     * @throws MPIException {@code ERR_RANK} for a rank out of range
     */
    public static int[] translateRanks(final Group group1, final int[] ranks1, final Group group2)
        throws MPIException {
        group1.checkRanks(ranks1, false);
        group2.check();
        final int[] out = new int[ranks1.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = MPI.UNDEFINED;
            for (int j = 0; j < group2.members.length; j++) {
                if (group2.members[j] == group1.members[ranks1[i]]) {
                    out[i] = j;
                }
            }
        }
        return out;
    }

    /**
     * {@code MPI_Group_compare}.
     *
     * @param group1 a group
     * @param group2 another
     * @return {@code MPI.IDENT} (same members, same order), {@code MPI.SIMILAR} (same members) or
     *         {@code MPI.UNEQUAL}
     * @throws MPIException if either is freed
     */
    public static int compare(final Group group1, final Group group2) throws MPIException {
        group1.check();
        group2.check();
        return compareMembers(group1.members, group2.members);
    }

    static int compareMembers(final int[] a, final int[] b) {
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        final int[] x = a.clone();
        final int[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /**
     * {@code MPI_Group_union}: the first group's members, then the second's that are not in the first.
     *
     * @param group1 a group
     * @param group2 another
     * @return the union
     * @throws MPIException if either is freed
     */
    public static Group union(final Group group1, final Group group2) throws MPIException {
        group1.check();
        group2.check();
        final Set<Integer> s = new LinkedHashSet<>();
        Arrays.stream(group1.members).forEach(s::add);
        Arrays.stream(group2.members).forEach(s::add);
        return new Group(s.stream().mapToInt(Integer::intValue).toArray(), group1.myWorld);
    }

    /**
     * {@code MPI_Group_intersection}: the first group's members that are in the second, in the first's order.
     *
     * @param group1 a group
     * @param group2 another
     * @return the intersection
     * @throws MPIException if either is freed
     */
    public static Group intersection(final Group group1, final Group group2) throws MPIException {
        return filter(group1, group2, true);
    }

    /**
     * {@code MPI_Group_difference}: the first group's members that are not in the second.
     *
     * @param group1 a group
     * @param group2 another
     * @return the difference
     * @throws MPIException if either is freed
     */
    public static Group difference(final Group group1, final Group group2) throws MPIException {
        return filter(group1, group2, false);
    }

    private static Group filter(final Group group1, final Group group2, final boolean in) throws MPIException {
        group1.check();
        group2.check();
        return new Group(Arrays.stream(group1.members).filter(w -> Arrays.stream(group2.members).anyMatch(x -> x == w)
            == in).toArray(), group1.myWorld);
    }
}
