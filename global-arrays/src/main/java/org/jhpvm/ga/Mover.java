package org.jhpvm.ga;

import java.util.Arrays;

/**
 * Moves one n-dimensional box between an owner's local block and a buffer with as few SHMEM calls as the layouts
 * allow: dimensions contiguous in both layouts merge into one block, the next dimension (and any outer ones with
 * consistent strides) becomes the block count of one block-strided call ({@code ibput}/{@code ibget}/{@code ibacc}),
 * and only the dimensions left over are looped. A contiguous section is one call; a 2-D patch is one call; a 3-D
 * patch is one call per plane unless its planes line up. Allocation-free: the caller fills {@link #ext},
 * {@link #rs} (strides on the array side) and {@link #us} (strides on the buffer side).
 * <p>
 * One per global array handle, used from the owning PE's thread.
 */
final class Mover {
    static final int PUT = 0;
    static final int GET = 1;
    static final int GET_NBI = 2;
    static final int ACC = 3;
    /** A load straight from the owner's storage in this JVM ({@link Storage#direct}), complete when it returns. */
    static final int DIRECT_GET = 4;

    final int[] ext;
    final int[] rs;
    final int[] us;
    private final int[] odo;

    private final int n;
    private final Storage storage;

    Mover(final Storage storage, final int ndim) {
        this.storage = storage;
        this.n = ndim;
        this.ext = new int[ndim];
        this.rs = new int[ndim];
        this.us = new int[ndim];
        this.odo = new int[ndim];

    }

    /**
     * @param op    PUT, GET, GET_NBI, ACC or DIRECT_GET
     * @param pe    world PE owning the array side
     * @param buf   the buffer
     * @param rBase first element on the array side
     * @param uBase first element in the buffer
     * @param ia    alpha for int/long accumulates
     * @param da    alpha for float/double accumulates
     */
    void move(final int op, final int pe, final Object buf, final int rBase, final int uBase, final long ia,
        final double da) {
        move(op, pe, buf, rBase, uBase, ia, da, ext, rs, us);
    }

    /** As {@link #move(int, int, Object, int, int, long, double)} with a box laid out once (a ghost face). */
    void move(final int op, final int pe, final Object buf, final int rBase, final int uBase, final long ia,
        final double da, final int[] ext, final int[] rs, final int[] us) {
        // Dimensions of extent 1 never break a merge: they add no element, whatever their strides.
        int k = n - 1;
        int block = 1;
        while (k >= 0 && (ext[k] == 1 || rs[k] == block && us[k] == block)) {
            block *= ext[k];
            k--;
        }
        int nb = 1;
        int rStride = block;
        int uStride = block;
        if (k >= 0) {
            nb = ext[k];
            rStride = rs[k];
            uStride = us[k];
            k--;
            while (k >= 0 && (ext[k] == 1 || rs[k] == nb * rStride && us[k] == nb * uStride)) {
                nb *= ext[k];
                k--;
            }
        }
        if (k < 0) {
            // One call. A single contiguous run goes as SHMEM's plain contiguous transfer (count elements, stride 1).
            final boolean run = nb == 1;
            final int rs1 = run ? 1 : rStride;
            final int us1 = run ? 1 : uStride;
            final int bl = run ? 1 : block;
            final int n1 = run ? block : nb;
            // Inlined here rather than through issue(): the call chain down to FM's copy loops is deep, and every
            // level it loses keeps the JIT inlining the copies.
            switch (op) {
                case PUT -> storage.put(pe, rBase, rs1, buf, uBase, us1, bl, n1);
                case GET -> storage.get(pe, rBase, rs1, buf, uBase, us1, bl, n1, false);
                case GET_NBI -> storage.get(pe, rBase, rs1, buf, uBase, us1, bl, n1, true);
                case DIRECT_GET -> storage.direct(pe, rBase, rs1, buf, uBase, us1, bl, n1);
                default -> storage.acc(pe, rBase, rs1, buf, uBase, us1, bl, n1, ia, da);
            }
            return;
        }
        Arrays.fill(odo, 0, k + 1, 0);
        while (true) {
            int r = rBase;
            int u = uBase;
            for (int d = 0; d <= k; d++) {
                r += odo[d] * rs[d];
                u += odo[d] * us[d];
            }
            issue(op, pe, buf, r, rStride, u, uStride, block, nb, ia, da);
            int d = k;
            while (d >= 0 && ++odo[d] == ext[d]) {
                odo[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /**
     * One contiguous run of {@code n} elements on both sides (a 1-D section in one block): SHMEM's plain contiguous
     * transfer, as {@link #move} issues it for such a box, without the merge of dimensions.
     */
    void run(final int op, final int pe, final Object buf, final int rBase, final int uBase, final int n,
        final long ia, final double da) {
        switch (op) {
            case PUT -> storage.put(pe, rBase, 1, buf, uBase, 1, 1, n);
            case GET -> storage.get(pe, rBase, 1, buf, uBase, 1, 1, n, false);
            case GET_NBI -> storage.get(pe, rBase, 1, buf, uBase, 1, 1, n, true);
            case DIRECT_GET -> storage.direct(pe, rBase, 1, buf, uBase, 1, 1, n);
            default -> storage.acc(pe, rBase, 1, buf, uBase, 1, 1, n, ia, da);
        }
    }

    /**
     * {@code nb} runs of {@code block} elements, {@code rStride} apart on the array side and {@code uStride} in the
     * buffer (a 2-D patch's rows): one block-strided call, as {@link #move} issues it for such a box.
     */
    void rows(final int op, final int pe, final Object buf, final int r, final int rStride, final int u,
        final int uStride, final int block, final int nb, final long ia, final double da) {
        issue(op, pe, buf, r, rStride, u, uStride, block, nb, ia, da);
    }

    private void issue(final int op, final int pe, final Object buf, final int r, final int rStride, final int u,
        final int uStride, final int block, final int nb, final long ia, final double da) {
        switch (op) {
            case PUT -> storage.put(pe, r, rStride, buf, u, uStride, block, nb);
            case GET -> storage.get(pe, r, rStride, buf, u, uStride, block, nb, false);
            case GET_NBI -> storage.get(pe, r, rStride, buf, u, uStride, block, nb, true);
            case DIRECT_GET -> storage.direct(pe, r, rStride, buf, u, uStride, block, nb);
            default -> storage.acc(pe, r, rStride, buf, u, uStride, block, nb, ia, da);
        }
    }
}
