package org.jhpvm.ga;

/**
 * The fast path of a put, get or accumulate (blocking or not) of a 1-D or 2-D section that lies inside the block the
 * last section went to (the common small transfer: a row, a tile, a piece of one owner's block). The block's bounds,
 * owner and place in the owner's storage are kept from that last section, so a call costs its argument checks and one
 * {@link Storage} call: no search over the distribution, no scratch strides, no {@link Mover} dispatch.
 * <p>
 * Anything else (another block, several blocks, sub-sampled or periodic sections, complex or mismatched buffers,
 * 3-D and up, a handle with a property, a caller on a team's context) and every bad argument falls through to
 * {@link SectionTransfer}, which checks the call in full and throws GA's errors: this path only ever accepts a call
 * it can prove well-formed, so bad input gets the same message and nothing moves. {@link SectionTransfer} calls
 * {@link #remember} when it finds a section inside one block, which makes that block the hot one.
 * <p>
 * One per global array handle, used from the owning PE's thread.
 */
final class HotBlock {
    private final GlobalArray a;
    private final Distribution dist;
    private final Storage storage;
    private final GaStatistics.Counters stats;
    private final int[] members;
    /** The handle's dimensions, or 0 where this path never applies (3-D and up, complex elements). */
    private final int ndim;
    private final int elementBytes;

    // The hot block: inclusive bounds of its interior per dimension (a 1-D block has lo1 = hi1 = 0); empty (lo0 > hi0)
    // until the first section inside one block.
    private int lo0 = 1;
    private int hi0;
    private int lo1;
    private int hi1;
    /** The owner's world PE. */
    private int pe;
    /** Where element (lo0, lo1) lies in the owner's storage. */
    private int origin;
    /** The block's row stride in the owner's storage (ghosts included); 1 for a 1-D block. */
    private int rowStride;

    // The section found by locate: its first element in the owner's storage, rows and elements per row, the buffer's
    // row stride; runs == 1 for one contiguous run of run elements.
    private int at;
    private int runs;
    private int run;
    private int bufStride;

    HotBlock(final GlobalArray a) {
        this.a = a;
        this.dist = a.dist;
        this.storage = a.storage;
        this.stats = a.ga.stats;
        this.members = a.group.members;
        this.ndim = a.type.isComplex() || a.ndim > 2 ? 0 : a.ndim;
        this.elementBytes = a.type.bytes();
    }

    /**
     * Makes block {@code (c0, c1)} of the block grid the hot one ({@code c1} is 0 for a 1-D array). Called by the
     * section engine for a section it found inside that block.
     */
    void remember(final int c0, final int c1) {
        if (ndim == 0) {
            return;
        }
        final int blk = ndim == 1 ? c0 : c0 * dist.grid[1] + c1;
        final int[] ls = dist.strides[blk];
        final int lo = dist.starts[0][c0];
        final int hi = dist.starts[0][c0 + 1] - 1;
        if (lo > hi) {
            lo0 = 1;
            hi0 = 0;
            return;
        }
        lo0 = lo;
        hi0 = hi;
        rowStride = ls[0];
        pe = members[dist.ownerOfBlock(blk)];
        if (ndim == 1) {
            lo1 = 0;
            hi1 = 0;
            origin = dist.offsetOf(blk) + dist.width[0] * rowStride;
        } else {
            lo1 = dist.starts[1][c1];
            hi1 = dist.starts[1][c1 + 1] - 1;
            origin = dist.offsetOf(blk) + dist.width[0] * rowStride + dist.width[1];
        }
    }

    /**
     * A put, get or accumulate of a section in the hot block ({@code op}: {@link Mover#PUT}, {@link Mover#GET},
     * {@link Mover#GET_NBI} or {@link Mover#ACC}; alpha as the storage takes it), with a buffer of type {@code t}
     * and {@code length} elements.
     *
     * @return false (nothing done) for the section engine to take the call
     */
    boolean move(final int op, final GaType t, final int[] lo, final int[] hi, final Object buf, final int length,
        final int[] ld, final long ia, final double da) {
        if (!locate(t, lo, hi, length, ld)) {
            return false;
        }
        issue(op, buf, ia, da);
        return true;
    }

    /**
     * {@link #move} for the forms that take any buffer ({@code NGA_NbPut}, {@code NGA_NbGet}, {@code NGA_NbAcc}):
     * one of the array's type, as {@link GaType#matches} reads it.
     */
    boolean moveAny(final int op, final int[] lo, final int[] hi, final Object buf, final int[] ld, final long ia,
        final double da) {
        return buf != null && a.type.matches(buf)
            && move(op, a.type, lo, hi, buf, GaType.length(buf), ld, ia, da);
    }

    /**
     * Counts and moves the section {@link #locate} found: one contiguous run, or rows of the block and the buffer,
     * as one SHMEM call ({@code op}: {@link Mover#PUT}, {@link Mover#GET}, {@link Mover#GET_NBI} or {@link Mover#ACC}).
     */
    private void issue(final int op, final Object buf, final long ia, final double da) {
        final boolean single = runs == 1;
        final int stride = single ? 1 : rowStride;
        final int uStride = single ? 1 : bufStride;
        final int block = single ? 1 : run;
        final int blocks = single ? run : runs;
        final long bytes = (long) runs * run * elementBytes;
        switch (op) {
            case Mover.PUT -> {
                stats.record(GaStatistics.Counters.PUT, bytes);
                storage.put(pe, at, stride, buf, 0, uStride, block, blocks);
            }
            case Mover.GET, Mover.GET_NBI -> {
                stats.record(GaStatistics.Counters.GET, bytes);
                storage.get(pe, at, stride, buf, 0, uStride, block, blocks, op == Mover.GET_NBI);
            }
            default -> {
                stats.record(GaStatistics.Counters.ACC, bytes);
                storage.acc(pe, at, stride, buf, 0, uStride, block, blocks, ia, da);
            }
        }
    }

    /**
     * Whether the call is a well-formed section inside the hot block with a buffer of the array's type that holds it,
     * on a live handle without properties and on SHMEM's default context; if so, sets {@link #at}, {@link #runs},
     * {@link #run} and {@link #bufStride}.
     */
    private boolean locate(final GaType t, final int[] lo, final int[] hi, final int length, final int[] ld) {
        if (t != a.type || ndim == 0 || lo == null || hi == null || lo.length != ndim || hi.length != ndim
            || a.readOnlyCopy != null || a.readCache != null || a.isDestroyed()
            || !a.shmem.defaultContextInUse()) {
            return false;
        }
        final int l0 = lo[0];
        final int h0 = hi[0];
        if (l0 < lo0 || h0 > hi0 || l0 > h0) {
            return false;
        }
        if (ndim == 1) {
            final int n = h0 - l0 + 1;
            if (n > length) {
                return false;
            }
            at = origin + (l0 - lo0) * rowStride;
            runs = 1;
            run = n;
            return true;
        }
        final int l1 = lo[1];
        final int h1 = hi[1];
        if (l1 < lo1 || h1 > hi1 || l1 > h1 || ld == null || ld.length < 1) {
            return false;
        }
        final int rows = h0 - l0 + 1;
        final int cols = h1 - l1 + 1;
        final int stride = ld[0];
        if (stride < cols || (long) (rows - 1) * stride + cols > length) {
            return false;
        }
        at = origin + (l0 - lo0) * rowStride + l1 - lo1;
        if (rows == 1 || cols == rowStride && cols == stride) {
            runs = 1;
            run = rows * cols;
        } else {
            runs = rows;
            run = cols;
            bufStride = stride;
        }
        return true;
    }
}
