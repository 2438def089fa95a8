package org.jhpvm.ga;

import java.util.ArrayList;
import java.util.List;

/**
 * Where an array's elements live, asked on one PE without communication: the block a rank owns
 * ({@code NGA_Distribution}), the owner of an element ({@code NGA_Locate}), the owners of a section and their
 * pieces ({@code NGA_Locate_region}), and this PE's own block as a plain array ({@code NGA_Access}). Ranks are those
 * of the array's group.
 * <p>
 * One per global array handle, used from the owning PE's thread.
 */
final class DistributionQueries {
    private final GlobalArray a;
    private final Distribution dist;
    private final ArgumentChecks checks;
    private final int ndim;

    // Scratch for the block walk (no allocation per locate).
    private final int[] b0;
    private final int[] b1;
    private final int[] cb;

    DistributionQueries(final GlobalArray a) {
        this.a = a;
        this.dist = a.dist;
        this.checks = a.checks;
        this.ndim = a.ndim;
        this.b0 = new int[ndim];
        this.b1 = new int[ndim];
        this.cb = new int[ndim];
    }

    int[][] distribution(final int rank) {
        a.checkLive();
        if (rank < 0 || rank >= a.group.nnodes()) {
            throw new IndexOutOfBoundsException("rank " + rank + " outside the group's 0.." + (a.group.nnodes() - 1));
        }
        refuseCyclic("distribution(rank)", "blockDistribution(i) for each of totalBlocks() blocks");
        final int[] lo = new int[ndim];
        final int[] hi = new int[ndim];
        dist.block(rank, lo, hi);
        return new int[][] {lo, hi};
    }

    int locate(final int[] subscript) {
        a.checkLive();
        checks.checkSubscript(subscript);
        for (int d = 0; d < ndim; d++) {
            cb[d] = dist.findBlock(d, subscript[d]);
        }
        return dist.rank(cb);
    }

    List<GlobalArray.Piece> locateRegion(final int[] lo, final int[] hi) {
        a.checkLive();
        checks.checkSection(lo, hi, a.ones);
        final List<GlobalArray.Piece> out = new ArrayList<>();
        final int[] blo = new int[ndim];
        final int[] bhi = new int[ndim];
        for (int d = 0; d < ndim; d++) {
            b0[d] = dist.findBlock(d, lo[d]);
            b1[d] = dist.findBlock(d, hi[d]);
            cb[d] = b0[d];
        }
        do {
            final int blk = dist.blockIndex(cb);
            final int r = dist.ownerOfBlock(blk);
            dist.blockBounds(blk, blo, bhi);
            final int[] plo = new int[ndim];
            final int[] phi = new int[ndim];
            boolean empty = false;
            for (int d = 0; d < ndim; d++) {
                plo[d] = Math.max(lo[d], blo[d]);
                phi[d] = Math.min(hi[d], bhi[d]);
                empty |= plo[d] > phi[d];
            }
            if (!empty) {
                out.add(new GlobalArray.Piece(r, plo, phi));
            }
        } while (Distribution.nextBlock(cb, b0, b1));
        return out;
    }

    LocalBlock access() {
        a.checkLive();
        refuseCyclic("access()", "accessBlock(i) for the blocks this PE owns");
        final int myRank = a.myRank;
        final int[] lo = new int[ndim];
        final int[] hi = new int[ndim];
        dist.block(myRank, lo, hi);
        final int[] strides = new int[ndim];
        dist.localStrides(dist.owns(myRank) ? myRank : dist.firstOwner(), strides);
        return new LocalBlock(a.storage.local(), a.type, lo, hi, dist.width.clone(), strides, dist.owns(myRank));
    }

    private void refuseCyclic(final String what, final String instead) {
        if (dist.cyclic()) {
            throw new IllegalStateException(what + " of " + a + ": a block-cyclic array gives a rank several blocks; "
                + "use " + instead);
        }
    }

    /** {@code NGA_Distribution_block}-like: block {@code i}'s bounds. */
    int[][] blockDistribution(final int i) {
        a.checkLive();
        java.util.Objects.checkIndex(i, dist.owners);
        final int[] lo = new int[ndim];
        final int[] hi = new int[ndim];
        dist.blockBounds(i, lo, hi);
        return new int[][] {lo, hi};
    }

    /** {@code NGA_Access_block}: block {@code i} in this PE's storage; this PE must own it. */
    LocalBlock accessBlock(final int i) {
        a.checkLive();
        java.util.Objects.checkIndex(i, dist.owners);
        if (dist.ownerOfBlock(i) != a.myRank) {
            throw new IllegalArgumentException("block " + i + " of " + a + " belongs to rank " + dist.ownerOfBlock(i)
                + ", not this PE's rank " + a.myRank);
        }
        final int[] lo = new int[ndim];
        final int[] hi = new int[ndim];
        dist.blockBounds(i, lo, hi);
        return new LocalBlock(a.storage.local(), a.type, lo, hi, dist.width.clone(), dist.strides[i].clone(), true,
            dist.offsetOf(i));
    }
}
