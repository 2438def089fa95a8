package org.jhpvm.ga;

import java.util.ArrayList;
import java.util.List;

/**
 * Ghost-cell updates. When every PE of the array's group lies in this JVM (the embedded default: they share memory,
 * as the processes of one SMP node do under GA), a full update pulls: after a group barrier, each PE copies every
 * ghost region, faces, edges and corners, straight out of the owners' interiors ({@code shmem_ptr}), then a second
 * barrier keeps the owners from changing their interiors while others still read them. Two barriers per update, and
 * no message. Otherwise it pushes: each block puts its boundary layers straight from its own storage into its
 * neighbours' ghost layers (one block-strided SHMEM put per face), one dimension after another with a group barrier
 * between dimensions. A face sent in dimension d spans the ghost layers of the dimensions already updated, so corners
 * arrive with the last dimension (GA's algorithm). A barrier at the start keeps a neighbour's ghosts unchanged while
 * it may still be reading them. Both lay their regions out once per array, so an update is its barriers and its
 * copies. Both leave the ghosts beyond a non-periodic edge alone. A one-sided update ({@code updateGhostDir}) cannot
 * rely on the other dimensions' ghosts, so it pulls: each PE gets its ghost slab, corners from the diagonal owners'
 * interiors (GA's {@code NGA_Update_ghost_dir}).
 */
final class Ghosts {
    /**
     * One face to push: the neighbour, whether it lies across the array's edge, the box on both sides, and what the
     * box covers of the receiver's block in each dimension ({@link #LOW}, {@link #HIGH}, {@link #INTERIOR},
     * {@link #SPAN}), for updates of fewer layers.
     */
    private record Face(int pe, boolean wraps, int theirs, int mine, int[] ext, int[] rs, int[] us, int[] kind) {
    }

    /**
     * One ghost region to pull: its owner, the dimensions in which the owner lies across the array's edge (bit d),
     * the box on both sides, and what it covers in each dimension (as {@link Face#kind}).
     */
    private record Pull(int pe, int wrapDims, int theirs, int mine, int[] ext, int[] rs, int[] us, int[] kind) {
    }

    /** A box's extent in a dimension: the lower ghost layers (an update of fewer keeps those next to the block). */
    private static final int LOW = -1;
    /** The upper ghost layers (an update of fewer keeps those next to the block). */
    private static final int HIGH = 1;
    /** The block's own extent. */
    private static final int INTERIOR = 0;
    /** The block's extent and both its ghost layers. */
    private static final int SPAN = 2;

    private final GlobalArray a;
    /** faces[d][0] lower side, faces[d][1] upper side; null where dimension d has no ghosts (push updates). */
    private final Face[][] faces;
    /** Every ghost region of this PE (pull updates), or null when some PE of the group is in another JVM. */
    private final Pull[] pulls;
    // A box cut down to the layers an update asks for (allocation-free): its extents and first elements.
    private final int[] clipExt;
    private int clipTheirs;
    private int clipMine;

    /**
     * Lays out this PE's part of a full update.
     *
     * @param a       the array
     * @param corners whether corners are updated too
     * @param direct  whether to pull directly where every PE of the group is in this JVM (false: always push)
     */
    Ghosts(final GlobalArray a, final boolean corners, final boolean direct) {
        this.a = a;
        this.clipExt = new int[a.ndim];
        this.faces = new Face[a.ndim][];
        final boolean owns = a.dist.owns(a.myRank);
        // Every PE decides alike: if one member is in another JVM, every member has one in another JVM.
        this.pulls = !direct || !shared(a) ? null : owns ? pulls(a, corners) : new Pull[0];
        if (owns && pulls == null) {
            for (int d = 0; d < a.ndim; d++) {
                if (a.dist.width[d] > 0) {
                    faces[d] = new Face[] {face(a, d, -1, corners, true), face(a, d, +1, corners, true)};
                }
            }
        }
    }

    /** Whether this PE can load every member's part of the array directly (they are all in this JVM). */
    private static boolean shared(final GlobalArray a) {
        for (final int pe : a.group.members) {
            if (a.storage.peer(pe) == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * A full update, or with {@code low} and {@code high} (checked by the caller) one of only the {@code low[d]}
     * ghost layers below the block and {@code high[d]} above it in each dimension d, next to the block, and the
     * edges and corners among them: each box is cut down to those layers, and a dimension with none to push costs
     * no barrier.
     */
    void update(final boolean[] periodic, final int[] low, final int[] high) {
        if (!a.shmem.defaultContextInUse()) {
            a.shmem.onDefaultContext(() -> update(periodic, low, high)); // see SectionTransfer.transfer
            return;
        }
        a.checkLive();
        if (periodic != null && periodic.length != a.ndim) {
            throw new IllegalArgumentException("periodic has " + periodic.length + " flags for " + a.ndim
                + " dimensions");
        }
        if (!a.hasGhosts()) {
            return;
        }
        final Object local = a.storage.local();
        a.group.sync();
        if (pulls != null) {
            int fixed = 0; // the dimensions whose edges do not wrap
            for (int d = 0; d < a.ndim; d++) {
                fixed |= periodic == null || periodic[d] ? 0 : 1 << d;
            }
            for (final Pull p : pulls) {
                if ((p.wrapDims & fixed) == 0 && clip(p.kind, p.ext, p.theirs, p.mine, p.rs, p.us, low, high)) {
                    a.mover.move(Mover.DIRECT_GET, p.pe, local, clipTheirs, clipMine, 0, 0, clipExt, p.rs, p.us);
                }
            }
            a.group.sync();
            return;
        }
        for (int d = 0; d < a.ndim; d++) {
            if (a.dist.width[d] == 0 || low != null && low[d] == 0 && high[d] == 0) {
                continue;
            }
            final Face[] f = faces[d];
            if (f != null) {
                final boolean p = periodic == null || periodic[d];
                // Lower layers to the lower neighbour's upper ghosts, upper layers to the upper neighbour's lower.
                push(f[0], p, local, low, high);
                push(f[1], p, local, low, high);
            }
            a.group.sync();
        }
    }

    private void push(final Face f, final boolean periodic, final Object local, final int[] low, final int[] high) {
        if ((periodic || !f.wraps) && clip(f.kind, f.ext, f.theirs, f.mine, f.rs, f.us, low, high)) {
            a.mover.move(Mover.PUT, f.pe, local, clipTheirs, clipMine, 0, 0, clipExt, f.rs, f.us);
        }
    }

    /**
     * Cuts a box down to the ghost layers asked for ({@code low == null}: all of them) into {@link #clipExt},
     * {@link #clipTheirs} and {@link #clipMine}: the lower ghost layers to the {@code low[d]} next to the block, the
     * upper to the {@code high[d]}, a span of both to the block and those.
     *
     * @return false if nothing of the box is left
     */
    private boolean clip(final int[] kind, final int[] ext, final int theirs, final int mine, final int[] rs,
        final int[] us, final int[] low, final int[] high) {
        int t = theirs;
        int m = mine;
        for (int d = 0; d < ext.length; d++) {
            int e = ext[d];
            if (low != null) {
                final int w = a.dist.width[d];
                final int skip = w - low[d]; // lower layers left out, the farthest from the block
                switch (kind[d]) {
                    case LOW -> {
                        e = low[d];
                        t += skip * rs[d];
                        m += skip * us[d];
                    }
                    case HIGH -> e = high[d];
                    case SPAN -> {
                        e = ext[d] - skip - (w - high[d]);
                        t += skip * rs[d];
                        m += skip * us[d];
                    }
                    default -> {
                        // INTERIOR: the block's extent, whatever the widths
                    }
                }
                if (e == 0) {
                    return false;
                }
            }
            clipExt[d] = e;
        }
        clipTheirs = t;
        clipMine = m;
        return true;
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
        if (a.dist.owns(a.myRank)) {
            pull(a, dim, dir, corners, periodic);
        }
        a.group.sync();
    }

    /**
     * Gets this PE's ghost slab on side {@code dir} of dimension {@code dim} (and the corners of the other
     * dimensions' ghost layers if asked) from the owners' interiors, wrapping around the array's edges where
     * periodic; cells beyond a non-periodic edge are left alone. Non-blocking gets straight into the local block,
     * completed before it returns.
     */
    private static void pull(final GlobalArray a, final int dim, final int dir, final boolean corners,
        final boolean periodic) {
        final Distribution dist = a.dist;
        final int ndim = a.ndim;
        final int[] lo = new int[ndim];
        final int[] hi = new int[ndim];
        dist.block(a.myRank, lo, hi);
        // The slab in global (unwrapped) coordinates, dimension by dimension, cut into ranges that do not wrap.
        final int[][][] ranges = new int[ndim][][];
        for (int d = 0; d < ndim; d++) {
            final int w = dist.width[d];
            final int from;
            final int to;
            if (d == dim) {
                from = dir > 0 ? hi[d] + 1 : lo[d] - w;
                to = dir > 0 ? hi[d] + w : lo[d] - 1;
            } else {
                from = corners ? lo[d] - w : lo[d];
                to = corners ? hi[d] + w : hi[d];
            }
            ranges[d] = pieces(from, to, dist.dims[d], periodic);
            if (ranges[d].length == 0) {
                return; // the whole slab lies beyond a non-periodic edge
            }
        }
        getRanges(a, lo, ranges);
        a.shmem.quiet();
    }

    /**
     * Starts the non-blocking gets of every combination of one range per dimension ({@code {unwrappedFrom,
     * wrappedFrom, unwrappedTo}}, see {@link #pieces}) straight into this PE's local block, whose interior starts at
     * {@code lo}. Complete at the next quiet.
     */
    private static void getRanges(final GlobalArray a, final int[] lo, final int[][][] ranges) {
        final Distribution dist = a.dist;
        final int ndim = a.ndim;
        final int[] myStrides = dist.stridesOf(a.myRank);
        final int[] pick = new int[ndim];
        final int[] subLo = new int[ndim];
        final int[] subHi = new int[ndim];
        // The transfer reads the buffer's strides where the checks leave them: here the local block is the buffer.
        System.arraycopy(myStrides, 0, a.checks.bs, 0, ndim);
        final Object local = a.storage.local();
        while (true) {
            int base = 0;
            for (int d = 0; d < ndim; d++) {
                final int[] r = ranges[d][pick[d]];
                subLo[d] = r[1];
                subHi[d] = r[1] + r[2] - r[0];
                base += (r[0] - lo[d] + dist.width[d]) * myStrides[d];
            }
            a.sections.transfer(Mover.GET_NBI, subLo, subHi, a.ones, local, base, 0, 0);
            int d = ndim - 1;
            while (d >= 0 && ++pick[d] == ranges[d].length) {
                pick[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /**
     * {@code NGA_NbGet_ghost_dir}: starts non-blocking gets of this PE's ghost region in direction {@code mask} (one
     * entry per dimension: -1 the lower ghost layers, +1 the upper, 0 the block's own extent; {@code (+1, +1)} is a
     * corner) from the owners' interiors, wrapping around periodic edges; cells beyond a non-periodic edge are left
     * alone. One-sided: complete at the next quiet ({@code nbWait}).
     */
    static void pullRegion(final GlobalArray a, final int[] mask, final boolean periodic) {
        final Distribution dist = a.dist;
        final int ndim = a.ndim;
        if (!dist.owns(a.myRank)) {
            return;
        }
        final int[] lo = new int[ndim];
        final int[] hi = new int[ndim];
        dist.block(a.myRank, lo, hi);
        final int[][][] ranges = new int[ndim][][];
        for (int d = 0; d < ndim; d++) {
            final int w = dist.width[d];
            if (mask[d] != 0 && w == 0) {
                return; // no ghost layers in that direction
            }
            final int from = mask[d] == 0 ? lo[d] : mask[d] > 0 ? hi[d] + 1 : lo[d] - w;
            final int to = mask[d] == 0 ? hi[d] : mask[d] > 0 ? hi[d] + w : lo[d] - 1;
            ranges[d] = pieces(from, to, dist.dims[d], periodic);
            if (ranges[d].length == 0) {
                return;
            }
        }
        getRanges(a, lo, ranges);
    }

    /**
     * {@code NGA_Update_ghosts_nb}: starts the gets of every ghost region of this PE (all {@code 3^n - 1} directions,
     * corners only when {@code corners}), every dimension periodic; complete at the next quiet.
     */
    static void updateNb(final GlobalArray a, final boolean corners) {
        a.checkLive();
        for (final int[] mask : directions(a.ndim, corners)) {
            pullRegion(a, mask, true);
        }
    }

    /**
     * The directions of a full update: every mask of -1, 0 or +1 per dimension (the lower ghost layers, the block's
     * own extent, the upper ghost layers) but the all-0 one, and only those with one non-0 entry (the faces) without
     * {@code corners}.
     */
    private static List<int[]> directions(final int n, final boolean corners) {
        final List<int[]> out = new ArrayList<>();
        final int total = (int) Math.pow(3, n);
        for (int code = 0; code < total; code++) {
            final int[] mask = new int[n];
            int rest = code;
            int nonZero = 0;
            for (int d = 0; d < n; d++) {
                mask[d] = rest % 3 - 1;
                rest /= 3;
                nonZero += mask[d] != 0 ? 1 : 0;
            }
            if (nonZero > 0 && (corners || nonZero == 1)) {
                out.add(mask);
            }
        }
        return out;
    }

    /**
     * Cuts {@code from..to} into ranges that stay inside one period: each {@code {unwrappedFrom, wrappedFrom,
     * unwrappedTo}}; without periodicity only the part inside {@code 0..dim-1}.
     */
    private static int[][] pieces(final int from, final int to, final int dim, final boolean periodic) {
        final List<int[]> out = new ArrayList<>();
        int u = from;
        while (u <= to) {
            final int wrapped = Math.floorMod(u, dim);
            final int end = Math.min(to, u + (dim - 1 - wrapped));
            if (periodic || (u >= 0 && u < dim)) {
                out.add(new int[] {u, wrapped, end});
            }
            u = end + 1;
        }
        return out.toArray(new int[0][]);
    }

    /**
     * This PE's ghost regions, one per {@link #directions direction} with ghost layers in every non-0 entry. Each lies
     * in one neighbour's interior, as GA's blocks are at least as wide as their ghost layers.
     */
    private static Pull[] pulls(final GlobalArray a, final boolean corners) {
        final Distribution dist = a.dist;
        final int n = a.ndim;
        final int[] c = new int[n];
        dist.coords(a.myRank, c);
        final int[] myStrides = new int[n];
        dist.localStrides(a.myRank, myStrides);
        final List<Pull> out = new ArrayList<>();
        final int[] nc = new int[n];
        for (final int[] mask : directions(n, corners)) {
            boolean flat = false;
            for (int d = 0; d < n; d++) {
                flat |= mask[d] != 0 && dist.width[d] == 0;
            }
            if (flat) {
                continue; // no ghost layers in that direction
            }
            int wrapDims = 0;
            for (int d = 0; d < n; d++) {
                nc[d] = c[d] + mask[d];
                if (nc[d] < 0 || nc[d] >= dist.grid[d]) {
                    wrapDims |= 1 << d;
                    nc[d] = Math.floorMod(nc[d], dist.grid[d]);
                }
            }
            final int owner = dist.rank(nc);
            final int[] theirStrides = new int[n];
            dist.localStrides(owner, theirStrides);
            final int[] ext = new int[n];
            int mine = 0;
            int theirs = 0;
            for (int d = 0; d < n; d++) {
                final int w = dist.width[d];
                final int myExt = dist.starts[d][c[d] + 1] - dist.starts[d][c[d]];
                final int theirExt = dist.starts[d][nc[d] + 1] - dist.starts[d][nc[d]];
                // Indices include the ghost layers: the interior starts at w.
                ext[d] = mask[d] == 0 ? myExt : w;
                mine += (mask[d] < 0 ? 0 : mask[d] > 0 ? w + myExt : w) * myStrides[d];
                theirs += (mask[d] < 0 ? theirExt : w) * theirStrides[d];
            }
            out.add(new Pull(a.group.members[owner], wrapDims, theirs, mine, ext, theirStrides, myStrides,
                mask.clone()));
        }
        return out.toArray(new Pull[0]);
    }

    /**
     * The face this PE pushes for its {@code width[d]} boundary layers on side {@code side} (-1 lower, +1 upper) of
     * dimension d into the neighbour on that side (wrapping around the array's edge). In the other dimensions the
     * face spans ghost layers when {@code corners}: those of the dimensions before d only when {@code inOrder} (a
     * full update, where they are already final), else all.
     */
    private static Face face(final GlobalArray a, final int d, final int side, final boolean corners,
        final boolean inOrder) {
        final Distribution dist = a.dist;
        final int n = a.ndim;
        final int[] c = new int[n];
        dist.coords(a.myRank, c);
        int nc = c[d] + side;
        final boolean wraps = nc < 0 || nc >= dist.grid[d];
        nc = Math.floorMod(nc, dist.grid[d]);
        final int[] myStrides = new int[n];
        dist.localStrides(a.myRank, myStrides);
        final int myExtD = dist.starts[d][c[d] + 1] - dist.starts[d][c[d]];
        c[d] = nc;
        final int neighbour = dist.rank(c);
        final int[] theirStrides = new int[n];
        dist.localStrides(neighbour, theirStrides);
        final int theirExtD = dist.starts[d][nc + 1] - dist.starts[d][nc];
        final int w = dist.width[d];
        final int[] ext = new int[n];
        final int[] kind = new int[n];
        int mine = 0;
        int theirs = 0;
        for (int e = 0; e < n; e++) {
            final int blockExt = dist.starts[e][c[e] + 1] - dist.starts[e][c[e]];
            if (e == d) {
                ext[e] = w;
                kind[e] = side < 0 ? HIGH : LOW; // the receiver's ghost layers it fills
                // Lower side: my layers w..2w-1 go to their upper ghosts ext+w..; upper: my ext..ext+w-1 to 0..w-1.
                mine += (side < 0 ? w : myExtD) * myStrides[e];
                theirs += (side < 0 ? theirExtD + w : 0) * theirStrides[e];
            } else {
                final boolean withGhosts = corners && (!inOrder || e < d);
                final int start = withGhosts ? 0 : dist.width[e];
                ext[e] = withGhosts ? blockExt + 2 * dist.width[e] : blockExt;
                kind[e] = withGhosts ? SPAN : INTERIOR;
                mine += start * myStrides[e];
                theirs += start * theirStrides[e];
            }
        }
        return new Face(a.group.members[neighbour], wraps, theirs, mine, ext, theirStrides, myStrides, kind);
    }
}
