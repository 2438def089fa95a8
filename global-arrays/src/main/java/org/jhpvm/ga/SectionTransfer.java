package org.jhpvm.ga;

/**
 * The section engine behind put, get and acc (blocking, non-blocking and strided), periodic sections and the packed
 * transfers of the algebra: a section is cut at the block boundaries and each owner's piece goes as one
 * {@link Mover} call, straight between the user's buffer and the owner's block. {@link #prepare} checks a call,
 * {@link #transfer} moves it; {@code GlobalArray} calls both itself, one call level less between the user and FM's
 * copy loops, which keeps the JIT inlining them. Allocation-free: the block coordinates and sub-sections are
 * scratch, the buffer strides are those {@link ArgumentChecks#checkBuffer} left.
 * <p>
 * One per global array handle, used from the owning PE's thread.
 */
final class SectionTransfer {
    private final GlobalArray a;
    private final Distribution dist;
    private final Mover mover;
    private final ArgumentChecks checks;
    private final int[] members;
    private final int ndim;

    // Scratch (no allocation per call); bs and count are the same arrays as the checks'.
    private final int[] ones;
    private final int[] bs;
    private final int[] count;
    private final int[] b0;
    private final int[] b1;
    private final int[] cb;
    private final int[] subLo;
    /**
     * A get served by the read-only replica (every element of the array, packed row-major, on this PE): the section,
     * sub-sampled by {@code skip}, into {@code buf} at {@code bufBase} with the buffer strides the checks left.
     */
    private void fromReplica(final int[] lo, final int[] hi, final int[] skip, final Object buf, final int bufBase) {
        fromPacked(a.readOnlyCopy, null, dist.dims, lo, hi, skip, buf, bufBase);
    }

    /**
     * A get served from a packed row-major copy of the section {@code srcLo} (null: the origin) with extents
     * {@code srcDims}: the whole array's replica, or a read-cache entry.
     */
    private void fromPacked(final Object rep, final int[] srcLo, final int[] srcDims, final int[] lo, final int[] hi,
        final int[] skip, final Object buf, final int bufBase) {
        final int[] j = replicaAt;
        System.arraycopy(lo, 0, j, 0, ndim);
        final int last = ndim - 1;
        final int run = skip[last] == 1 ? hi[last] - lo[last] + 1 : 1;
        while (true) {
            long r = 0;
            int u = bufBase;
            for (int d = 0; d < ndim; d++) {
                r = r * srcDims[d] + j[d] - (srcLo == null ? 0 : srcLo[d]);
                u += (j[d] - lo[d]) / skip[d] * bs[d];
            }
            final int w = a.type.width();
            System.arraycopy(rep, (int) r * w, buf, u * w, run * w);
            int d = last;
            if (run > 1) {
                j[d] = hi[d];
            }
            while (d >= 0) {
                j[d] += skip[d];
                if (j[d] <= hi[d]) {
                    break;
                }
                j[d] = lo[d];
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /**
     * A get under the read_cache property: from the newest cached section that holds it, else read (the whole
     * section, every element) into a new entry first.
     */
    private void fromCache(final int[] lo, final int[] hi, final int[] skip, final Object buf, final int bufBase) {
        final ReadCache cache = a.readCache;
        ReadCache.Entry e = cache.find(lo, hi);
        if (e == null) {
            long n = 1;
            for (int d = 0; d < ndim; d++) {
                n *= hi[d] - lo[d] + 1;
            }
            final Object data = a.type.newArray(Math.toIntExact(n));
            final int[] userStrides = bs.clone(); // packed() sets its own
            final int[] l = lo.clone();
            final int[] h = hi.clone();
            a.readCache = null;
            try {
                packed(Mover.GET, l, h, data);
            } finally {
                a.readCache = cache;
                System.arraycopy(userStrides, 0, bs, 0, ndim);
            }
            e = cache.add(l, h, data);
        }
        fromPacked(e.data(), e.lo(), e.dims(), lo, hi, skip, buf, bufBase);
    }

    /** A periodic section's ranges per dimension (at most three each), and the combination being moved. */
    private final int[][] pieceLo;
    private final int[][] pieceHi;
    private final int[][] pieceOff;
    private final int[] pieces;
    private final int[] pick;
    /** The element a replica read is at (its own scratch: periodic sections read through it while walking pick). */
    private final int[] replicaAt;
    private final int[] subHi;

    SectionTransfer(final GlobalArray a) {
        this.a = a;
        this.dist = a.dist;
        this.mover = a.mover;
        this.checks = a.checks;
        this.members = a.group.members;
        this.ndim = a.ndim;
        this.ones = a.ones;
        this.bs = checks.bs;
        this.count = checks.count;
        this.b0 = new int[ndim];
        this.b1 = new int[ndim];
        this.cb = new int[ndim];
        this.subLo = new int[ndim];
        this.pieceLo = new int[ndim][3];
        this.pieceHi = new int[ndim][3];
        this.pieceOff = new int[ndim][3];
        this.pieces = new int[ndim];
        this.pick = new int[ndim];
        this.replicaAt = new int[ndim];
        this.subHi = new int[ndim];
    }

    /**
     * Checks a section call (then the caller calls {@link #transfer} itself: one call level less between the user
     * and FM's copy loops, which keeps the JIT inlining them).
     */
    void prepare(final int op, final int[] lo, final int[] hi, final int[] skip, final Object buf, final int[] ld) {
        a.checkLive();
        checks.checkSection(lo, hi, skip);
        checks.checkBuffer(buf, ld);
        long n = a.type.bytes();
        for (int d = 0; d < ndim; d++) {
            n *= count[d];
        }
        a.ga.stats.record(GaStatistics.Counters.ofSection(op), n);
    }

    /**
     * One block-strided SHMEM call per owner piece (see {@link Mover}); arguments already checked. Always on SHMEM's
     * default context: a caller with a team's context in use ({@code ShmemCtx.use()}) would have GA's world PE
     * numbers read as team ranks, and its puts left out of GA's sync.
     */
    void transfer(final int op, final int[] lo, final int[] hi, final int[] skip, final Object buf,
        final int bufBase, final long ia, final double da) {
        if (!a.shmem.defaultContextInUse()) {
            a.shmem.onDefaultContext(() -> transfer(op, lo, hi, skip, buf, bufBase, ia, da));
            return;
        }
        if (a.readOnlyCopy != null) {
            if (op == Mover.PUT || op == Mover.ACC) {
                throw new IllegalStateException(a + " has the read_only property: unset it before writing");
            }
            fromReplica(lo, hi, skip, buf, bufBase);
            return;
        }
        if (a.readCache != null) {
            if (op == Mover.PUT || op == Mover.ACC) {
                throw new IllegalStateException(a + " has the read_cache property: unset it before writing");
            }
            fromCache(lo, hi, skip, buf, bufBase);
            return;
        }
        if (ndim == 1 && skip[0] == 1) {
            // A 1-D section inside one block (the common small put or get): one run, no walk over blocks. Apart from
            // oneBlock below, which would do the same: its loops cost 8-byte puts a fifth (0.46-0.53 of SHMEM, against
            // 0.61-0.65 this way, bench ga alternated).
            final int blk = dist.findBlock(0, lo[0]);
            final int blo = dist.starts[0][blk];
            if (hi[0] < dist.starts[0][blk + 1]) {
                a.hot.remember(blk, 0);
                mover.run(op, members[dist.ownerOfBlock(blk)], buf,
                    dist.offsetOf(blk) + (lo[0] - blo + dist.width[0]) * dist.strides[blk][0], bufBase,
                    hi[0] - lo[0] + 1, ia, da);
                return;
            }
        } else if (ndim == 2 && skip[0] == 1 && skip[1] == 1) {
            if (oneBlock2d(op, lo, hi, buf, bufBase, ia, da)) {
                return;
            }
        } else if (oneBlock(op, lo, hi, skip, buf, bufBase, ia, da)) {
            return;
        }
        for (int d = 0; d < ndim; d++) {
            b0[d] = dist.findBlock(d, lo[d]);
            b1[d] = dist.findBlock(d, hi[d]);
            cb[d] = b0[d];
        }
        final int[] ext = mover.ext;
        final int[] rs = mover.rs;
        final int[] us = mover.us;
        do {
            final int blk = dist.blockIndex(cb);
            final int rank = dist.ownerOfBlock(blk);
            final int[] ls = dist.strides[blk];
            int rBase = dist.offsetOf(blk);
            int uBase = bufBase;
            boolean empty = false;
            for (int d = 0; d < ndim; d++) {
                final int blo = dist.starts[d][cb[d]];
                final int bhi = dist.starts[d][cb[d] + 1] - 1;
                final int sk = skip[d];
                final int last = Math.min(hi[d], bhi);
                int first = Math.max(lo[d], blo);
                if (sk > 1) {
                    // The first sampled element in this block, in long: a huge skip must not wrap around.
                    final long f = lo[d] + ((long) first - lo[d] + sk - 1) / sk * sk;
                    first = f > last ? last + 1 : (int) f;
                }
                if (first > last) {
                    empty = true;
                    break;
                }
                // Divisions only for sub-sampled sections: the common case stays cheap.
                ext[d] = sk == 1 ? last - first + 1 : (last - first) / sk + 1;
                rBase += (first - blo + dist.width[d]) * ls[d];
                rs[d] = ls[d] * sk;
                uBase += (sk == 1 ? first - lo[d] : (first - lo[d]) / sk) * bs[d];
                us[d] = bs[d];
            }
            if (!empty) {
                mover.move(op, members[rank], buf, rBase, uBase, ia, da, ext, rs, us);
            }
        } while (Distribution.nextBlock(cb, b0, b1));
    }

    /**
     * A 2-D section of unit skips inside one block (the common patch): one contiguous run when it is a single row or
     * whole rows on both sides, else one block-strided call of its rows; no loops over the dimensions.
     *
     * @return false (nothing moved) if the section spans blocks
     */
    private boolean oneBlock2d(final int op, final int[] lo, final int[] hi, final Object buf, final int bufBase,
        final long ia, final double da) {
        final int c0 = dist.findBlock(0, lo[0]);
        final int c1 = dist.findBlock(1, lo[1]);
        final int[] s0 = dist.starts[0];
        final int[] s1 = dist.starts[1];
        if (hi[0] >= s0[c0 + 1] || hi[1] >= s1[c1 + 1]) {
            return false;
        }
        a.hot.remember(c0, c1);
        final int blk = c0 * dist.grid[1] + c1;
        // Both layouts are row-major: the innermost stride is 1 in a local block and in the buffer.
        final int rowStride = dist.strides[blk][0];
        final int rBase = dist.offsetOf(blk) + (lo[0] - s0[c0] + dist.width[0]) * rowStride
            + lo[1] - s1[c1] + dist.width[1];
        final int rows = hi[0] - lo[0] + 1;
        final int cols = hi[1] - lo[1] + 1;
        final int pe = members[dist.ownerOfBlock(blk)];
        if (rows == 1 || cols == rowStride && cols == bs[0]) {
            mover.run(op, pe, buf, rBase, bufBase, rows * cols, ia, da);
        } else {
            mover.rows(op, pe, buf, rBase, rowStride, bufBase, bs[0], cols, rows, ia, da);
        }
        return true;
    }

    /**
     * A section of unit skips that lies inside one block goes as one {@link Mover} call, without the walk over blocks.
     *
     * @return false (nothing moved) if the section is sub-sampled or spans blocks
     */
    private boolean oneBlock(final int op, final int[] lo, final int[] hi, final int[] skip, final Object buf,
        final int bufBase, final long ia, final double da) {
        for (int d = 0; d < ndim; d++) {
            final int c = dist.findBlock(d, lo[d]);
            if (skip[d] != 1 || hi[d] >= dist.starts[d][c + 1]) {
                return false;
            }
            cb[d] = c;
        }
        final int blk = dist.blockIndex(cb);
        final int[] ls = dist.strides[blk];
        final int[] ext = mover.ext;
        final int[] rs = mover.rs;
        final int[] us = mover.us;
        int rBase = dist.offsetOf(blk);
        for (int d = 0; d < ndim; d++) {
            ext[d] = hi[d] - lo[d] + 1;
            rBase += (lo[d] - dist.starts[d][cb[d]] + dist.width[d]) * ls[d];
            rs[d] = ls[d];
            us[d] = bs[d];
        }
        mover.move(op, members[dist.ownerOfBlock(blk)], buf, rBase, bufBase, ia, da, ext, rs, us);
        return true;
    }

    /**
     * A periodic section ({@code NGA_Periodic_put/get/acc}): checked, then cut where it wraps around. A section may be
     * up to twice an extent long in each dimension (as GA allows, and ghost-cell codes use), so a dimension is cut into
     * at most three ranges: from {@code lo mod dims} to the end, the whole extent, and from 0 on; every combination of
     * one range per dimension is one transfer. Where a section longer than an extent names an element twice, a put
     * writes it from the later buffer position and an accumulate adds both.
     */
    void periodic(final int op, final int[] lo, final int[] hi, final Object buf, final int[] ld, final long ia,
        final double da) {
        a.checkLive();
        checks.checkDims(lo, "lo");
        checks.checkDims(hi, "hi");
        for (int d = 0; d < ndim; d++) {
            if (lo[d] > hi[d]) {
                throw new IllegalArgumentException("lo[" + d + "]=" + lo[d] + " > hi[" + d + "]=" + hi[d]);
            }
            if ((long) hi[d] - lo[d] >= 2L * dist.dims[d]) {
                throw new IndexOutOfBoundsException("periodic section " + lo[d] + ".." + hi[d] + " in dimension " + d
                    + " is longer than twice its extent " + dist.dims[d]);
            }
            count[d] = hi[d] - lo[d] + 1;
        }
        checks.checkBuffer(buf, ld);
        long moved = a.type.bytes();
        for (int d = 0; d < ndim; d++) {
            moved *= count[d];
        }
        a.ga.stats.record(GaStatistics.Counters.ofSection(op), moved);
        // Per dimension up to three ranges: [pieceLo, pieceHi] of the array at buffer offset pieceOff (the tables
        // are this object's: nothing is allocated per call).
        for (int d = 0; d < ndim; d++) {
            pieces[d] = 0;
            pick[d] = 0;
            int pos = Math.floorMod(lo[d], dist.dims[d]);
            int off = 0;
            int remaining = count[d];
            while (remaining > 0) {
                final int len = Math.min(dist.dims[d] - pos, remaining);
                pieceLo[d][pieces[d]] = pos;
                pieceHi[d][pieces[d]] = pos + len - 1;
                pieceOff[d][pieces[d]] = off;
                pieces[d]++;
                off += len;
                remaining -= len;
                pos = 0;
            }
        }
        while (true) {
            int base = 0;
            for (int d = 0; d < ndim; d++) {
                subLo[d] = pieceLo[d][pick[d]];
                subHi[d] = pieceHi[d][pick[d]];
                base += pieceOff[d][pick[d]] * bs[d];
            }
            transfer(op, subLo, subHi, ones, buf, base, ia, da);
            int d = ndim - 1;
            while (d >= 0 && ++pick[d] == pieces[d]) {
                pick[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /** Moves a section to or from a packed buffer (row-major, no padding) of the array's type. */
    void packed(final int op, final int[] lo, final int[] hi, final Object buf) {
        a.checkLive();
        checks.checkSection(lo, hi, ones);
        checks.checkType(buf);
        int stride = 1;
        for (int d = ndim - 1; d >= 0; d--) {
            bs[d] = stride;
            stride *= count[d];
        }
        if (stride > a.type.elements(buf)) {
            throw new IllegalArgumentException("buffer too small: " + stride + " elements needed, "
                + a.type.elements(buf) + " given");
        }
        transfer(op, lo, hi, ones, buf, 0, 0, 0);
    }
}
