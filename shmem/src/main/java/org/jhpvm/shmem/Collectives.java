package org.jhpvm.shmem;

import static org.jhpvm.shmem.MessageDescriptor.SIG_TEAM;

import java.util.Objects;

/**
 * Team collectives built from SHMEM's own messages, with scalable algorithms: a dissemination barrier
 * (ceil(log2 n) rounds), binomial-tree broadcast (the root sends log2 n messages, never n), Bruck's allgather for
 * collect/fcollect, a pairwise-ordered alltoall, and reductions on a fixed binomial tree to rank 0 followed by a
 * binomial broadcast of the result. Data collectives write straight into the destination symmetric object and
 * count arrivals per (counter, sender) ({@link Teams}); reductions combine in a fixed order, so every PE gets the
 * same bits in every run.
 */
final class Collectives {
    private final Shmem shmem;
    private final Engine engine;
    private final Teams teams;

    Collectives(final Shmem shmem) {
        this.shmem = shmem;
        this.engine = shmem.engine;
        this.teams = engine.teams;
    }

    void checkTeam(final ShmemTeam team) {
        Objects.requireNonNull(team, "team");
        team.check();
        if (team.shmem != shmem) {
            throw new IllegalArgumentException("team " + team + " belongs to PE " + team.shmem.engine.me
                + "'s SHMEM, not PE " + engine.me + "'s");
        }
    }

    /** A data collective writes into every member's part of dest: each member must hold it (team allocation). */
    private static void checkHeldBy(final SymmetricArray dest, final ShmemTeam team) {
        if (dest.holders == null) {
            return;
        }
        for (final int pe : team.members) {
            if (!dest.holders[pe]) {
                throw new IllegalArgumentException(dest + " was allocated on " + dest.team + "; PE " + pe + " of "
                    + team + " does not hold it");
            }
        }
    }

    // ---------------------------------------------------------------- barrier

    void sync(final ShmemTeam team) {
        checkTeam(team);
        engine.enterCollective();
        try {
            syncEntered(team);
        } finally {
            engine.exitCollective();
        }
    }

    void syncEntered(final ShmemTeam team) {
        final int n = team.members.length;
        final int r = team.myRank;
        for (int d = 1; d < n; d <<= 1) {
            signal(team, (r + d) % n, Teams.BARRIER, 0);
            teams.await(team.id, Teams.BARRIER, (r - d + n) % n);
        }
    }

    private void signal(final ShmemTeam team, final int toRank, final int counter, final long carried) {
        engine.rma.putSignal(null, team.members[toRank], 0, null, 0, 0, SIG_TEAM, team.id, counter, team.myRank,
            carried);
    }

    private void checkCarried(final String what, final ShmemTeam team, final int fromRank, final long carried,
        final long mine) {
        if (carried != Teams.UNKNOWN && carried != mine) {
            throw new IllegalArgumentException(what + " on team " + team + ": team PE " + fromRank + " passed count "
                + carried + ", PE " + engine.me + " (team PE " + team.myRank + ") passed " + mine);
        }
    }

    // ---------------------------------------------------------------- broadcast

    void broadcast(final ShmemTeam team, final SymmetricArray dest, final int destIndex, final Object src,
        final int srcIndex, final int count, final int root) {
        checkTeam(team);
        team.checkRank(root, "root");
        dest.checkUsable();
        checkHeldBy(dest, team);
        dest.checkRange(destIndex, 1, count);
        if (team.myRank == root) {
            Objects.requireNonNull(src, "src");
            SymmetricArray.checkElements("the source", Kind.length(src), srcIndex, 1, count);
        }
        engine.enterCollective();
        try {
            final int n = team.members.length;
            final int v = (team.myRank - root + n) % n;
            int mask = 1;
            if (v == 0) {
                Kind.copy(src, srcIndex, 1, dest.array, destIndex, 1, count);
                while (mask < n) {
                    mask <<= 1;
                }
            } else {
                while ((v & mask) == 0) {
                    mask <<= 1;
                }
                final int parent = ((v - mask) + root) % n;
                checkCarried("broadcast", team, parent, teams.await(team.id, Teams.BCAST, parent), count);
            }
            // Forward to the children v + mask/2, v + mask/4, ... (the farthest first: they have the most to do).
            for (mask >>= 1; mask > 0; mask >>= 1) {
                if (v + mask < n) {
                    final int child = (v + mask + root) % n;
                    engine.rma.putSignal(dest, team.members[child], destIndex, dest.array, destIndex, count,
                        SIG_TEAM, team.id, Teams.BCAST, team.myRank, count);
                }
            }
        } finally {
            engine.exitCollective();
        }
    }

    // ---------------------------------------------------------------- collect, fcollect (Bruck)

    void collect(final ShmemTeam team, final SymmetricArray dest, final int destIndex, final Object src,
        final int srcIndex, final int count, final boolean fixed) {
        checkTeam(team);
        dest.checkUsable();
        checkHeldBy(dest, team);
        Objects.requireNonNull(src, "src");
        SymmetricArray.checkElements("the source", Kind.length(src), srcIndex, 1, count);
        final int n = team.members.length;
        engine.enterCollective();
        try {
            final int[] offsets = new int[n + 1];
            if (fixed) {
                dest.checkRange(destIndex, 1, (int) Math.min(Integer.MAX_VALUE, (long) count * n));
                for (int i = 0; i <= n; i++) {
                    offsets[i] = i * count;
                }
            } else {
                // Everyone's count first (a sum over one-hot vectors), then the offsets.
                final long[] counts = new long[n];
                counts[team.myRank] = count;
                allreduceEntered(team, ReduceOp.SUM, Kind.LONG, counts, counts, n);
                long total = 0;
                for (int i = 0; i < n; i++) {
                    offsets[i] = (int) total;
                    total += counts[i];
                }
                if (total > dest.length) {
                    throw new IndexOutOfBoundsException("collect of " + total + " elements from " + destIndex
                        + " outside symmetric object " + dest + " of length " + dest.length);
                }
                offsets[n] = (int) total;
                dest.checkRange(destIndex, 1, (int) total);
            }
            final int r = team.myRank;
            Kind.copy(src, srcIndex, 1, dest.array, destIndex + offsets[r], 1, count);
            // Round k: this PE holds blocks r .. r+d-1 (mod n); it sends the first min(d, n-d) of them to r-d,
            // which lacks exactly those, and receives blocks r+d .. from r+d.
            for (int d = 1; d < n; d <<= 1) {
                final int m = Math.min(d, n - d);
                final int to = (r - d + n) % n;
                final int firstEnd = Math.min(r + m, n);
                final long blocks = (long) offsets[firstEnd] - offsets[r] + (r + m > n ? offsets[r + m - n] : 0);
                if (r + m > n) {
                    engine.rma.put(dest, team.members[to], destIndex, 1, dest.array, destIndex, 1, offsets[r + m - n]);
                }
                engine.rma.putSignal(dest, team.members[to], destIndex + offsets[r], dest.array, destIndex + offsets[r],
                    offsets[firstEnd] - offsets[r], SIG_TEAM, team.id, Teams.COLLECT, r,
                    fixed ? count : blocks);
                final int from = (r + d) % n;
                final long got = teams.await(team.id, Teams.COLLECT, from);
                if (fixed) {
                    checkCarried("fcollect", team, from, got, count);
                }
            }
        } finally {
            engine.exitCollective();
        }
    }

    // ---------------------------------------------------------------- alltoall(s)

    void alltoall(final ShmemTeam team, final SymmetricArray dest, final int destIndex, final int dst,
        final Object src, final int srcIndex, final int sst, final int count) {
        checkTeam(team);
        dest.checkUsable();
        checkHeldBy(dest, team);
        Objects.requireNonNull(src, "src");
        final int n = team.members.length;
        final long perPe = count;
        if (perPe * n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("alltoall of " + n + " x " + count + " elements is too large");
        }
        dest.checkRange(destIndex, dst, count * n);
        SymmetricArray.checkElements("the source", Kind.length(src), srcIndex, sst, count * n);
        engine.enterCollective();
        try {
            final int r = team.myRank;
            for (int i = 0; i < n; i++) {
                final int j = (r + i) % n;
                final int di = destIndex + r * count * dst;
                final int si = srcIndex + j * count * sst;
                if (j == r) {
                    Kind.copy(src, si, sst, dest.array, di, dst, count);
                    continue;
                }
                if (dst == 1 && sst == 1) {
                    engine.rma.putSignal(dest, team.members[j], di, src, si, count, SIG_TEAM, team.id,
                        Teams.ALLTOALL, r, count);
                } else {
                    engine.rma.put(dest, team.members[j], di, dst, src, si, sst, count);
                    signal(team, j, Teams.ALLTOALL, count);
                }
            }
            for (int i = 1; i < n; i++) {
                final int j = (r - i + n) % n;
                checkCarried("alltoall", team, j, teams.await(team.id, Teams.ALLTOALL, j), count);
            }
        } finally {
            engine.exitCollective();
        }
    }

    // ---------------------------------------------------------------- reductions

    void reduce(final ShmemTeam team, final ReduceOp op, final Kind kind, final Object dest, final Object src,
        final int count) {
        checkTeam(team);
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(dest, "dest");
        Objects.requireNonNull(src, "src");
        if (op.bitwise() && (kind == Kind.FLOAT || kind == Kind.DOUBLE)) {
            throw new IllegalArgumentException(op + " reduction is not defined on " + kind.javaName);
        }
        SymmetricArray.checkElements("the source", Kind.length(src), 0, 1, count);
        SymmetricArray.checkElements("the destination", Kind.length(dest), 0, 1, count);
        engine.enterCollective();
        try {
            allreduceEntered(team, op, kind, dest, src, count);
        } finally {
            engine.exitCollective();
        }
    }

    /**
     * Binomial-tree reduction to rank 0, children combined in rank order into the running value (so the order of
     * operations, and the bits, never depend on timing), then a binomial broadcast of the result from rank 0.
     */
    void allreduceEntered(final ShmemTeam team, final ReduceOp op, final Kind kind, final Object dest,
        final Object src, final int count) {
        final int n = team.members.length;
        final int r = team.myRank;
        final Object acc = scratch(kind, count);
        Kind.copy(src, 0, 1, acc, 0, 1, count);
        int mask = 1;
        for (; mask < n; mask <<= 1) {
            if ((r & mask) != 0) {
                engine.rma.teamData(team.members[r - mask], team.id, Teams.REDUCE, r, kind, acc, count);
                break;
            }
            if (r + mask < n) {
                final int child = r + mask;
                checkCarried("reduction", team, child, teams.await(team.id, Teams.REDUCE, child), count);
                Reduce.combine(kind, op, acc, teams.inboxOf(team.id, child), count);
            }
        }
        // Result: rank 0 has it; the others get it from their parent in the same tree (r - lowest set bit).
        if (r != 0) {
            final int parent = r - Integer.lowestOneBit(r);
            checkCarried("reduction", team, parent, teams.await(team.id, Teams.RESULT, parent), count);
            Kind.copy(teams.inboxOf(team.id, parent), 0, 1, acc, 0, 1, count);
        }
        final int below = r == 0 ? Integer.highestOneBit(Math.max(1, n - 1)) << 1 : Integer.lowestOneBit(r);
        for (int m = below >> 1; m > 0; m >>= 1) {
            if (r + m < n) {
                engine.rma.teamData(team.members[r + m], team.id, Teams.RESULT, r, kind, acc, count);
            }
        }
        Kind.copy(acc, 0, 1, dest, 0, 1, count);
    }

    /**
     * Prefix sums over the team in rank order ({@code sum_inscan}, {@code sum_exscan}): every member's contribution
     * reaches every member (an allgather made of a bitwise-or reduction of raw bits, each member's bits in its own
     * slot and zeros elsewhere, which is exact for every type, -0.0 and NaN payloads included), then each member adds
     * the contributions of the ranks before it left to right: the bits of the sequential sum, on every run. The
     * data moved is {@code n * count} elements per member, which suits the small counts scans are used with.
     */
    void scan(final ShmemTeam team, final Kind kind, final Object dest, final Object src, final int count,
        final boolean inclusive) {
        checkTeam(team);
        Objects.requireNonNull(dest, "dest");
        Objects.requireNonNull(src, "src");
        SymmetricArray.checkElements("the source", Kind.length(src), 0, 1, count);
        SymmetricArray.checkElements("the destination", Kind.length(dest), 0, 1, count);
        final int n = team.members.length;
        final int r = team.myRank;
        final Kind bits = kind.bytes == 8 ? Kind.LONG : Kind.INT;
        // One extra slot per member carries its count, checked against this PE's own.
        final int slot = count + 1;
        final Object all = bits.newArray(Math.multiplyExact(n, slot));
        for (int k = 0; k < count; k++) {
            bits.setBits(all, r * slot + k, kind.getBits(src, k));
        }
        bits.setBits(all, r * slot + count, count + 1L);
        engine.enterCollective();
        try {
            allreduceEntered(team, ReduceOp.OR, bits, all, all, n * slot);
        } finally {
            engine.exitCollective();
        }
        for (int j = 0; j < n; j++) {
            final long theirs = bits.getBits(all, j * slot + count) - 1;
            if (theirs != count) {
                throw new IllegalArgumentException("scan on team " + team + ": team PE " + j + " passed count "
                    + theirs + ", PE " + engine.me + " (team PE " + r + ") passed " + count);
            }
        }
        final int upTo = inclusive ? r : r - 1;
        for (int k = 0; k < count; k++) {
            switch (kind) {
                case LONG, INT -> {
                    long sum = 0;
                    for (int j = 0; j <= upTo; j++) {
                        sum += bits.getBits(all, j * slot + k);
                    }
                    kind.setBits(dest, k, sum);
                }
                case DOUBLE -> {
                    double sum = 0.0;
                    for (int j = 0; j <= upTo; j++) {
                        sum = j == 0 ? Double.longBitsToDouble(bits.getBits(all, k))
                            : sum + Double.longBitsToDouble(bits.getBits(all, j * slot + k));
                    }
                    ((double[]) dest)[k] = sum;
                }
                case FLOAT -> {
                    float sum = 0.0f;
                    for (int j = 0; j <= upTo; j++) {
                        sum = j == 0 ? Float.intBitsToFloat((int) bits.getBits(all, k))
                            : sum + Float.intBitsToFloat((int) bits.getBits(all, j * slot + k));
                    }
                    ((float[]) dest)[k] = sum;
                }
                default -> throw new IllegalArgumentException("scans are not defined on " + kind.javaName);
            }
        }
    }

    /** Max over the team of each element (setup paths: allocation checks, team ids). */
    void allreduceMax(final ShmemTeam team, final long[] values) {
        allreduceEntered(team, ReduceOp.MAX, Kind.LONG, values, values, values.length);
    }

    /** Agrees on {@code how} fresh team ids over {@code parent}; returns the first. */
    int agreeTeamIds(final ShmemTeam parent, final int how) {
        return agreeTeamIds(parent, how, 0);
    }

    /**
     * As {@link #agreeTeamIds(ShmemTeam, int)}, also checking that every member passed the same {@code check}.
     *
     * @throws IllegalArgumentException on every member if they did not
     */
    int agreeTeamIds(final ShmemTeam parent, final int how, final long check) {
        engine.enterCollective();
        try {
            final long[] v = {teams.proposeId(), check, -check};
            allreduceMax(parent, v);
            final int base = (int) v[0];
            teams.idAgreed(base + how - 1);
            if (v[1] != -v[2]) {
                throw new IllegalArgumentException("collective team split mismatch: the members of " + parent
                    + " passed different member lists");
            }
            return base;
        } finally {
            engine.exitCollective();
        }
    }

    /** The calling thread's scratch (threads of one PE may run collectives on different teams at once). */
    private Object scratch(final Kind kind, final int count) {
        final Object[] scratch = engine.current.scratch;
        Object a = scratch[kind.ordinal()];
        if (a == null || Kind.length(a) < count) {
            a = kind.newArray(Math.max(count, 64));
            scratch[kind.ordinal()] = a;
        }
        return a;
    }
}
