package org.jhpvm.ga;

/**
 * Ghost-cell updates by push: each block puts its boundary layers straight from its own storage into its
 * neighbours' ghost layers (one block-strided SHMEM put per face), one dimension after another with a group
 * barrier between dimensions. A face sent in dimension d spans the ghost layers of the dimensions already updated,
 * so corners arrive with the last dimension (GA's algorithm). A barrier at the start keeps a neighbour's ghosts
 * unchanged while it may still be reading them.
 */
final class Ghosts {
    private Ghosts() {
    }

    static void update(final GlobalArray a, final boolean[] periodic) {
        a.checkLive();
        if (periodic != null && periodic.length != a.ndim) {
            throw new IllegalArgumentException("periodic has " + periodic.length + " flags for " + a.ndim
                + " dimensions");
        }
        if (!a.hasGhosts()) {
            return;
        }
        a.group.sync();
        for (int d = 0; d < a.ndim; d++) {
            if (a.dist.width[d] == 0) {
                continue;
            }
            final boolean p = periodic == null || periodic[d];
            if (a.myRank < a.dist.owners) {
                // Lower layers to the lower neighbour's upper ghosts, upper layers to the upper neighbour's lower.
                push(a, d, -1, p, true, true);
                push(a, d, +1, p, true, true);
            }
            a.group.sync();
        }
    }

    static void updateDir(final GlobalArray a, final int dim, final int dir, final boolean corners,
        final boolean periodic) {
        a.checkLive();
        if (dim < 0 || dim >= a.ndim) {
            throw new IndexOutOfBoundsException("dimension " + dim + " outside 0.." + (a.ndim - 1));
        }
        if (dir != 1 && dir != -1) {
            throw new IllegalArgumentException("dir=" + dir + " must be +1 or -1");
        }
        if (a.dist.width[dim] == 0) {
            return;
        }
        a.group.sync();
        if (a.myRank < a.dist.owners) {
            // My upper ghosts (dir +1) come from the upper neighbour's lower layers: every block pushes downwards.
            push(a, dim, -dir, periodic, corners, false);
        }
        a.group.sync();
    }

    /**
     * Puts this PE's {@code width[d]} boundary layers on side {@code side} (-1 lower, +1 upper) of dimension d into
     * the neighbour on that side. In the other dimensions the face spans ghost layers when {@code corners}: those of
     * the dimensions before d only when {@code inOrder} (a full update, where they are already final), else all.
     */
    private static void push(final GlobalArray a, final int d, final int side, final boolean periodic,
        final boolean corners, final boolean inOrder) {
        final Distribution dist = a.dist;
        final int n = a.ndim;
        final Mover m = a.mover;
        final int[] c = m.scratchA;
        dist.coords(a.myRank, c);
        int nc = c[d] + side;
        if (nc < 0 || nc >= dist.grid[d]) {
            if (!periodic) {
                return;
            }
            nc = Math.floorMod(nc, dist.grid[d]);
        }
        final int[] myStrides = m.scratchB;
        dist.localStrides(a.myRank, myStrides);
        final int myExtD = dist.starts[d][c[d] + 1] - dist.starts[d][c[d]];
        c[d] = nc;
        final int neighbour = dist.rank(c);
        final int[] theirStrides = m.scratchC;
        dist.localStrides(neighbour, theirStrides);
        final int theirExtD = dist.starts[d][nc + 1] - dist.starts[d][nc];
        final int w = dist.width[d];
        int mine = 0;
        int theirs = 0;
        for (int e = 0; e < n; e++) {
            final int blockExt = dist.starts[e][c[e] + 1] - dist.starts[e][c[e]];
            final int start;
            if (e == d) {
                m.ext[e] = w;
                // Lower side: my layers w..2w-1 go to their upper ghosts ext+w..; upper: my ext..ext+w-1 to 0..w-1.
                mine += (side < 0 ? w : myExtD) * myStrides[e];
                theirs += (side < 0 ? theirExtD + w : 0) * theirStrides[e];
            } else {
                final boolean withGhosts = corners && (!inOrder || e < d);
                start = withGhosts ? 0 : dist.width[e];
                m.ext[e] = withGhosts ? blockExt + 2 * dist.width[e] : blockExt;
                mine += start * myStrides[e];
                theirs += start * theirStrides[e];
            }
            m.rs[e] = theirStrides[e];
            m.us[e] = myStrides[e];
        }
        m.move(Mover.PUT, a.group.members[neighbour], a.storage.local(), theirs, mine, 0, 0);
    }
}
