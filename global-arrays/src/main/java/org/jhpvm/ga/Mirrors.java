package org.jhpvm.ga;

import java.util.Arrays;

/**
 * Mirrored arrays' merges. A mirrored array is one array per node on the node's PEs (the mirror group), laid out
 * alike on every node because every node has the same number of PEs; so the PEs with one node rank hold the same
 * block of every copy, and a merge is an element-wise sum of that block over them (a group reduction, the same bits
 * on every node), written back into each copy.
 */
final class Mirrors {
    private Mirrors() {
    }

    private static void checkMirrored(final GlobalArray a, final String what) {
        a.checkLive();
        if (!a.group.mirror) {
            throw new IllegalStateException(what + ": " + a + " is not a mirrored array");
        }
    }

    /** {@code GA_Merge_mirrored}. */
    static void merge(final GlobalArray a) {
        checkMirrored(a, "mergeMirrored");
        final GaGroup across = a.ga.sameNodeRank();
        a.ga.sync(); // every node's copy final (world: the copies' own syncs do not reach other nodes)
        final int[] lo = new int[a.ndim];
        final int[] hi = a.dims();
        for (int d = 0; d < a.ndim; d++) {
            hi[d]--;
        }
        // The PEs of one node rank own the same blocks on every node: one reduction per block, in the same order.
        for (final int[][] part : Algebra.parts(a, lo, hi)) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final Object block = a.type.newArray(Algebra.volume(plo, phi));
            a.sections.packed(Mover.GET, plo, phi, block);
            if (a.type.isFloating()) {
                final double[] x = Algebra.doubles(block);
                a.ga.gop(across, x, GopOp.SUM);
                a.sections.packed(Mover.PUT, plo, phi, Algebra.fromDoubles(x, a.type));
            } else {
                final long[] x = Algebra.longs(block);
                a.ga.gop(across, x, GopOp.SUM);
                a.sections.packed(Mover.PUT, plo, phi, Algebra.fromLongs(x, a.type));
            }
        }
        a.ga.sync();
    }

    /** {@code NGA_Merge_distr_patch}. */
    static void mergeDistrPatch(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi) {
        checkMirrored(a, "mergeDistrPatch");
        b.checkLive();
        if (b.group.mirror) {
            throw new IllegalStateException("mergeDistrPatch: " + b + " is mirrored; the destination must be "
                + "distributed");
        }
        if (a.type != b.type) {
            throw new IllegalArgumentException("mergeDistrPatch: " + a + " and " + b + " hold different types");
        }
        a.checks.checkSection(alo, ahi, Algebra.ones(a.ndim));
        b.checks.checkSection(blo, bhi, Algebra.ones(b.ndim));
        if (a.ndim != b.ndim) {
            throw new IllegalArgumentException("mergeDistrPatch: patches of " + a.ndim + " and " + b.ndim
                + " dimensions");
        }
        for (int d = 0; d < a.ndim; d++) {
            if (ahi[d] - alo[d] != bhi[d] - blo[d]) {
                throw new IllegalArgumentException("mergeDistrPatch: patches " + Arrays.toString(alo) + ".."
                    + Arrays.toString(ahi) + " and " + Arrays.toString(blo) + ".." + Arrays.toString(bhi)
                    + " differ in shape");
            }
        }
        b.zeroPatch(blo, bhi);
        a.ga.sync();
        for (final int[][] box : Algebra.parts(a, alo, ahi)) {
            final int[] plo = box[0];
            final int[] phi = box[1];
            final Object part = a.type.newArray(Algebra.volume(plo, phi));
            a.sections.packed(Mover.GET, plo, phi, part);
            final int[] lo = new int[a.ndim];
            final int[] hi = new int[a.ndim];
            final int[] ld = new int[Math.max(0, a.ndim - 1)];
            for (int d = 0; d < a.ndim; d++) {
                lo[d] = blo[d] + plo[d] - alo[d];
                hi[d] = blo[d] + phi[d] - alo[d];
                if (d > 0) {
                    ld[d - 1] = phi[d] - plo[d] + 1;
                }
            }
            a.ga.nbWait(b.nbAcc(lo, hi, part, ld, 1.0));
        }
        a.ga.sync();
    }
}
