package org.jhpvm.ga;

import java.util.Arrays;
import java.util.Objects;

/**
 * The one-element operations: scatter, gather and scatter-accumulate ({@code NGA_Scatter}, {@code NGA_Gather},
 * {@code NGA_Scatter_acc}), one SHMEM message per element to its owner, and {@code NGA_Read_inc}, SHMEM's
 * {@code atomicFetchAdd} on the owner's element. Every subscript is checked before the first element moves.
 * Allocation-free: the owner lookup leaves the element's index in its owner's block in scratch.
 * <p>
 * One per global array handle, used from the owning PE's thread.
 */
final class ElementOps {
    private final GlobalArray a;
    private final Distribution dist;
    private final Mover mover;
    private final ArgumentChecks checks;
    private final int[] members;
    private final int ndim;

    // Scratch (no allocation per call).
    private final int[] cb;
    private int localIndex;

    ElementOps(final GlobalArray a) {
        this.a = a;
        this.dist = a.dist;
        this.mover = a.mover;
        this.checks = a.checks;
        this.members = a.group.members;
        this.ndim = a.ndim;
        this.cb = new int[ndim];
    }

    /** Scatter (PUT), gather (GET_NBI: the caller completes it with a quiet) or scatter-accumulate (ACC). */
    void move(final int op, final Object values, final int[][] subs, final int n, final long ia, final double da) {
        a.checkLive();
        if ((a.readOnlyCopy != null || a.readCache != null) && op != Mover.GET_NBI) {
            throw new IllegalStateException(a + " has the " + (a.readCache != null ? "read_cache" : "read_only")
                + " property: unset it before writing");
        }
        checks.checkType(values);
        Objects.requireNonNull(subs, "subscripts");
        if (n < 0 || n > subs.length || n > a.type.elements(values)) {
            throw new IllegalArgumentException("n=" + n + " exceeds the " + subs.length + " subscripts or the "
                + a.type.elements(values) + " values");
        }
        for (int i = 0; i < n; i++) {
            checks.checkSubscript(subs[i]);
        }
        a.ga.stats.record(op == Mover.GET_NBI ? GaStatistics.Counters.GATHER : GaStatistics.Counters.SCATTER,
            (long) n * a.type.bytes());
        if (a.shmem.defaultContextInUse()) {
            moveEach(op, values, subs, n, ia, da);
        } else {
            a.shmem.onDefaultContext(() -> moveEach(op, values, subs, n, ia, da)); // see SectionTransfer.transfer
        }
    }

    private void moveEach(final int op, final Object values, final int[][] subs, final int n, final long ia,
        final double da) {
        Arrays.fill(mover.ext, 1);
        Arrays.fill(mover.rs, 1);
        Arrays.fill(mover.us, 1);
        for (int i = 0; i < n; i++) {
            final int[] s = subs[i];
            final int rank = ownerAndLocal(s);
            mover.move(op, members[rank], values, localIndex, i, ia, da);
        }
    }

    /** {@code NGA_Read_inc}: see {@link GlobalArray#readInc(int[], long)}. */
    long readInc(final int[] subscript, final long inc) {
        a.checkLive();
        if (a.type != GaType.INT && a.type != GaType.LONG) {
            throw new IllegalArgumentException("readInc needs an int or long array; " + a + " holds " + a.type);
        }
        checks.checkSubscript(subscript);
        if (a.readOnlyCopy != null || a.readCache != null) {
            throw new IllegalStateException(a + " has the " + (a.readCache != null ? "read_cache" : "read_only")
                + " property: unset it before writing");
        }
        a.ga.stats.record(GaStatistics.Counters.READ_INC, a.type.bytes());
        final int rank = ownerAndLocal(subscript);
        if (a.shmem.defaultContextInUse()) {
            return a.storage.fetchAdd(members[rank], localIndex, inc);
        }
        final long[] old = new long[1];
        a.shmem.onDefaultContext(() -> old[0] = a.storage.fetchAdd(members[rank], localIndex, inc));
        return old[0];
    }

    /** Finds the owner of subscript s; leaves its index in the owner's storage in {@link #localIndex}. */
    private int ownerAndLocal(final int[] s) {
        for (int d = 0; d < ndim; d++) {
            cb[d] = dist.findBlock(d, s[d]);
        }
        final int blk = dist.blockIndex(cb);
        final int rank = dist.ownerOfBlock(blk);
        final int[] ls = dist.strides[blk];
        int idx = dist.offsetOf(blk);
        for (int d = 0; d < ndim; d++) {
            idx += (s[d] - dist.starts[d][cb[d]] + dist.width[d]) * ls[d];
        }
        localIndex = idx;
        return rank;
    }
}
