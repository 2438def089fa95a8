package org.jhpvm.shmem;

import java.util.Arrays;

/**
 * An OpenSHMEM team: an ordered subset of the job's PEs with team-relative numbers (ranks) {@code 0 .. nPes()-1}.
 * The world team holds every PE; {@link #splitStrided} and {@link #split2d} make new ones, collectively over the
 * parent (every parent member calls, in the same order). Collectives take the team they run on.
 * <p>
 * Thread-safety: use from the owning PE's thread. A team object belongs to one PE.
 */
public final class ShmemTeam {
    /**
     * The two teams {@link #split2d} makes: the calling PE's row ({@code x}) and column ({@code y}).
     *
     * @param x the calling PE's row: the parent's ranks that share its row of the grid, in rank order
     *          ({@code xaxis_team})
     * @param y the calling PE's column: the parent's ranks that share its column of the grid, in rank order
     *          ({@code yaxis_team})
     */
    public record Split2d(ShmemTeam x, ShmemTeam y) {
    }

    final Shmem shmem;
    final int id;
    final int[] members;
    final int myRank;
    private boolean destroyed;

    ShmemTeam(final Shmem shmem, final int id, final int[] members) {
        this.shmem = shmem;
        this.id = id;
        this.members = members;
        int r = -1;
        for (int i = 0; i < members.length; i++) {
            if (members[i] == shmem.engine.me) {
                r = i;
            }
        }
        this.myRank = r;
    }

    /**
     * {@code shmem_team_my_pe}: the calling PE's rank in this team, from 0 in the order the team lists its PEs.
     *
     * @return this PE's number in the team
     * @throws IllegalStateException if the team was destroyed
     */
    public int myPe() {
        check();
        return myRank;
    }

    /**
     * {@code shmem_team_n_pes}: the team's size.
     *
     * @return number of PEs in the team
     * @throws IllegalStateException if the team was destroyed
     */
    public int nPes() {
        check();
        return members.length;
    }

    /**
     * {@code shmem_team_translate_pe}: the number in {@code dest} of this team's PE {@code pe}.
     *
     * @param pe   a rank in this team
     * @param dest another team of this PE
     * @return its rank in {@code dest}, or -1 if it is not a member there
     * @throws IndexOutOfBoundsException if {@code pe} is not a rank of this team
     */
    public int translatePe(final int pe, final ShmemTeam dest) {
        check();
        dest.check();
        checkRank(pe, "pe");
        final int world = members[pe];
        for (int i = 0; i < dest.members.length; i++) {
            if (dest.members[i] == world) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The world PE number of a rank of this team: the number that remote operations on symmetric objects take
     * ({@code shmem_team_translate_pe} to the world team, without the -1 case, since every PE is in the world).
     *
     * @param rank a rank in this team
     * @return its PE number in the world team
     * @throws IndexOutOfBoundsException if {@code rank} is not a rank of this team
     * @throws IllegalStateException     if the team was destroyed
     */
    public int worldPe(final int rank) {
        check();
        checkRank(rank, "rank");
        return members[rank];
    }

    /**
     * {@code shmem_team_split_strided}: the team of this team's ranks {@code start, start+stride, ...} ({@code size}
     * of them). Collective over this team; non-members get null ({@code SHMEM_TEAM_INVALID}).
     *
     * @param start  first rank
     * @param stride distance between ranks, at least 1 (any value if {@code size == 1})
     * @param size   number of PEs, at least 1
     * @return the new team, or null if this PE is not in it
     * @throws IllegalArgumentException if the triplet leaves this team (checked before anything is sent)
     */
    public ShmemTeam splitStrided(final int start, final int stride, final int size) {
        check();
        if (size < 1 || start < 0 || start >= members.length || (size > 1 && stride < 1)
            || start + (long) (size - 1) * (size > 1 ? stride : 0) >= members.length) {
            throw new IllegalArgumentException("splitStrided(start=" + start + ", stride=" + stride + ", size=" + size
                + ") leaves the parent team of " + members.length + " PEs");
        }
        final int[] sub = new int[size];
        for (int i = 0; i < size; i++) {
            sub[i] = members[start + i * (size > 1 ? stride : 0)];
        }
        final int newId = shmem.collectives.agreeTeamIds(this, 1);
        return contains(sub, shmem.engine.me) ? shmem.newTeam(newId, sub) : null;
    }

    /**
     * The team of the listed ranks of this team, in that order (a jhpvm extension, like {@code GA_Pgroup_create}
     * and {@code MPI_Group_incl}; OpenSHMEM only splits by stride). Collective over this team; every member passes
     * the same list, and non-members get null.
     *
     * @param ranks distinct ranks of this team, at least one
     * @return the new team, or null if this PE is not in it
     * @throws IllegalArgumentException if the list is empty, repeats a rank or names one outside this team (before
     *                                  anything is sent), or if the members passed different lists (on every member)
     */
    public ShmemTeam split(final int[] ranks) {
        check();
        if (ranks == null || ranks.length == 0) {
            throw new IllegalArgumentException("split needs at least one rank");
        }
        final boolean[] seen = new boolean[members.length];
        final int[] sub = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            final int r = ranks[i];
            if (r < 0 || r >= members.length || seen[r]) {
                throw new IllegalArgumentException("split: rank " + r + " at position " + i + (r < 0
                    || r >= members.length ? " is outside the parent team of " + members.length + " PEs"
                    : " is listed twice"));
            }
            seen[r] = true;
            sub[i] = members[r];
        }
        final int newId = shmem.collectives.agreeTeamIds(this, 1, Arrays.hashCode(ranks) * 31L + ranks.length);
        return seen[myRank] ? shmem.newTeam(newId, sub) : null;
    }

    /**
     * {@code shmem_team_split_2d}: this team as a grid of rows of {@code xrange} ranks; returns the calling PE's row
     * team (x, ranks {@code r - r % xrange ..}) and column team (y, ranks {@code r % xrange, + xrange, ...}).
     * Collective over this team.
     *
     * @param xrange PEs per row, at least 1 (more than the team's size means one row)
     * @return this PE's row and column teams
     */
    public Split2d split2d(final int xrange) {
        check();
        if (xrange < 1) {
            throw new IllegalArgumentException("xrange=" + xrange + " must be at least 1");
        }
        final int n = members.length;
        final int x = Math.min(xrange, n);
        final int row = myRank / x;
        final int col = myRank % x;
        final int rowSize = Math.min(x, n - row * x);
        final int[] xs = new int[rowSize];
        for (int i = 0; i < rowSize; i++) {
            xs[i] = members[row * x + i];
        }
        final int colSize = (n - col + x - 1) / x;
        final int[] ys = new int[colSize];
        for (int i = 0; i < colSize; i++) {
            ys[i] = members[col + i * x];
        }
        final int base = shmem.collectives.agreeTeamIds(this, 2);
        return new Split2d(shmem.newTeam(base, xs), shmem.newTeam(base + 1, ys));
    }

    /**
     * {@code shmem_team_destroy}: the team can no longer be used on this PE. Destroying the world team is an error.
     *
     * @throws IllegalArgumentException for the world team
     */
    public void destroy() {
        check();
        if (id == 0) {
            throw new IllegalArgumentException("the world team cannot be destroyed");
        }
        shmem.engine.enter();
        try {
            shmem.engine.teams.destroy(id);
        } finally {
            shmem.engine.exit();
        }
        destroyed = true;
    }

    /**
     * Whether {@link #destroy()} was called on this PE's team object; once it was, the team's queries and splits,
     * and every collective or allocation given it, throw {@link IllegalStateException}.
     *
     * @return true once destroyed
     */
    public boolean isDestroyed() {
        return destroyed;
    }

    void check() {
        if (destroyed) {
            throw new IllegalStateException("team " + this + " was destroyed");
        }
    }

    void checkRank(final int rank, final String what) {
        if (rank < 0 || rank >= members.length) {
            throw new IndexOutOfBoundsException(what + "=" + rank + " outside the team's 0.." + (members.length - 1));
        }
    }

    private static boolean contains(final int[] a, final int v) {
        for (final int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "ShmemTeam#" + id + Arrays.toString(members);
    }
}
