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
    final TeamConfig config;
    /** Contexts of this team that are live on this PE (for {@link TeamConfig#numContexts}). */
    int liveContexts;
    private boolean destroyed;

    ShmemTeam(final Shmem shmem, final int id, final int[] members, final TeamConfig config) {
        this.shmem = shmem;
        this.id = id;
        this.members = members;
        this.config = config;
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
     * of them, in that order), with the default config. Collective over this team; non-members get null
     * ({@code SHMEM_TEAM_INVALID}).
     * <p>
     * Strides as OpenSHMEM 1.6 defines them: a negative stride lists ranks downwards, so the new team's rank 0 is
     * parent rank {@code start} and {@code (n-1, -1, n)} is the parent in reverse order; stride 0 is valid with size
     * 1 only. Every listed rank must lie in the parent team: a triplet that would leave it (or wrap around) is
     * refused.
     *
     * @param start  first rank, a rank of this team
     * @param stride distance between consecutive ranks: positive, negative, or 0 when {@code size == 1}
     * @param size   number of PEs, at least 1
     * @return the new team, or null if this PE is not in it
     * @throws IllegalArgumentException if the triplet leaves this team, or stride is 0 with size above 1 (checked
     *                                  before anything is sent, on every member alike)
     * @throws IllegalStateException    if this team was destroyed
     */
    public ShmemTeam splitStrided(final int start, final int stride, final int size) {
        return splitStrided(start, stride, size, TeamConfig.DEFAULT);
    }

    /**
     * {@code shmem_team_split_strided} with a config ({@code config} and {@code config_mask} in C: pass
     * {@link TeamConfig#DEFAULT} for a mask of 0). As {@link #splitStrided(int, int, int)}.
     *
     * @param start  first rank, a rank of this team
     * @param stride distance between consecutive ranks: positive, negative, or 0 when {@code size == 1}
     * @param size   number of PEs, at least 1
     * @param config the new team's config
     * @return the new team, or null if this PE is not in it
     * @throws IllegalArgumentException if the triplet leaves this team, or stride is 0 with size above 1
     * @throws NullPointerException     if {@code config} is null
     * @throws IllegalStateException    if this team was destroyed
     */
    public ShmemTeam splitStrided(final int start, final int stride, final int size, final TeamConfig config) {
        check();
        java.util.Objects.requireNonNull(config, "config");
        final long last = start + (long) (size - 1) * stride;
        if (size < 1 || start < 0 || start >= members.length || last < 0 || last >= members.length
            || (stride == 0 && size > 1)) {
            throw new IllegalArgumentException("splitStrided(start=" + start + ", stride=" + stride + ", size=" + size
                + ") leaves the parent team of " + members.length + " PEs" + (stride == 0 && size > 1
                ? " (stride 0 needs size 1)" : ""));
        }
        final int[] sub = new int[size];
        for (int i = 0; i < size; i++) {
            sub[i] = members[start + i * stride];
        }
        final int newId = shmem.collectives.agreeTeamIds(this, 1);
        return contains(sub, shmem.engine.me) ? shmem.newTeam(newId, sub, config) : null;
    }

    /**
     * {@code shmem_team_get_config} (mask {@code SHMEM_TEAM_NUM_CONTEXTS}): the config this team was created with
     * ({@link TeamConfig#DEFAULT} for the world and shared teams and teams split without one).
     *
     * @return the team's config
     * @throws IllegalStateException if the team was destroyed
     */
    public TeamConfig getConfig() {
        check();
        return config;
    }

    /**
     * {@code shmem_team_create_ctx}: a context whose team ({@link ShmemCtx#team()}) is this one. Inside its scope
     * ({@link ShmemCtx#use()}) the operations name their target PEs by <b>rank in this team</b> (0 to
     * {@code nPes() - 1}), as OpenSHMEM specifies for team contexts, not by world number; collectives, allocation and
     * locks keep world numbers. See {@link Shmem#ctxCreate(long)} for the options and what a context gives.
     *
     * @param options a bitwise or of {@link ShmemCtx#SERIALIZED}, {@link ShmemCtx#PRIVATE},
     *                {@link ShmemCtx#NOSTORE}, or 0
     * @return the context, or null ({@code SHMEM_CTX_INVALID}) if this PE already has {@link ShmemCtx#MAX_CONTEXTS}
     *         live contexts or this team its config's {@code numContexts}
     * @throws IllegalArgumentException if {@code options} has other bits
     * @throws IllegalStateException    if the team was destroyed
     */
    public ShmemCtx createCtx(final long options) {
        check();
        return shmem.createCtx(this, options);
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
        return seen[myRank] ? shmem.newTeam(newId, sub, TeamConfig.DEFAULT) : null;
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
        return split2d(xrange, TeamConfig.DEFAULT, TeamConfig.DEFAULT);
    }

    /**
     * {@code shmem_team_split_2d} with the row and column teams' configs ({@code xaxis_config}, {@code yaxis_config}
     * in C). As {@link #split2d(int)}.
     *
     * @param xrange  PEs per row, at least 1 (more than the team's size means one row)
     * @param xConfig the row team's config
     * @param yConfig the column team's config
     * @return this PE's row and column teams
     * @throws IllegalArgumentException if {@code xrange} is below 1
     * @throws NullPointerException     if a config is null
     */
    public Split2d split2d(final int xrange, final TeamConfig xConfig, final TeamConfig yConfig) {
        check();
        java.util.Objects.requireNonNull(xConfig, "xConfig");
        java.util.Objects.requireNonNull(yConfig, "yConfig");
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
        return new Split2d(shmem.newTeam(base, xs, xConfig), shmem.newTeam(base + 1, ys, yConfig));
    }

    /**
     * {@code shmem_team_destroy}: the team can no longer be used on this PE. Destroying the world or shared team is
     * an error, and so is destroying a team whose contexts ({@link #createCtx}) are still live.
     *
     * @throws IllegalArgumentException for the world and shared teams
     * @throws IllegalStateException    if the team was destroyed, or has live contexts (nothing changes)
     */
    public void destroy() {
        check();
        if (id == 0 || this == shmem.teamShared()) {
            throw new IllegalArgumentException("the " + (id == 0 ? "world" : "shared") + " team cannot be destroyed");
        }
        if (liveContexts > 0) {
            throw new IllegalStateException("team " + this + " has " + liveContexts + " live contexts: destroy them "
                + "before the team");
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
