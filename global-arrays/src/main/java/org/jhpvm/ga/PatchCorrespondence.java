package org.jhpvm.ga;

import java.util.Arrays;

/**
 * How two patches correspond element by element, GA's rules for its patch operations ({@code copyPatch},
 * {@code addPatch}, {@code dotPatch}, ...): after dropping unit dimensions the extents match in order, or in reverse
 * order for a transpose (every subscript reversed, in any number of dimensions); or, when the shapes differ but the
 * element counts do not, element k of one patch in storage order is element k of the other (a reshaping copy). And
 * fetching the operand elements that match a box of the destination, packed in the destination's order.
 */
final class PatchCorrespondence {
    private PatchCorrespondence() {
    }

    /**
     * Checks that x's patch matches c's patch after dropping unit dimensions (reversed for a transpose) and returns,
     * for each non-unit dimension of c, the dimension of x it corresponds to (-1 for unit dimensions of c).
     */
    static int[] mapping(final GlobalArray c, final int[] clo, final int[] chi, final GlobalArray x,
        final int[] xlo, final int[] xhi, final boolean trans) {
        c.checks.checkSameGroup(x);
        return correspondence(c, clo, chi, x, xlo, xhi, trans);
    }

    /** As {@link #mapping}, without requiring the two arrays to be on one group. */
    static int[] correspondence(final GlobalArray c, final int[] clo, final int[] chi, final GlobalArray x,
        final int[] xlo, final int[] xhi, final boolean trans) {
        if (x.type != c.type) {
            throw new IllegalArgumentException("type mismatch: " + x + " and " + c);
        }
        x.checks.checkSection(xlo, xhi, Algebra.ones(x.ndim));
        final int[] cd = nonUnit(clo, chi);
        final int[] xd = nonUnit(xlo, xhi);
        boolean ok = cd.length == xd.length;
        final int[] map = new int[c.ndim];
        Arrays.fill(map, -1);
        for (int j = 0; ok && j < cd.length; j++) {
            final int k = trans ? xd[xd.length - 1 - j] : xd[j];
            map[cd[j]] = k;
            ok = chi[cd[j]] - clo[cd[j]] == xhi[k] - xlo[k];
        }
        if (!ok) {
            if (!trans && Algebra.volume(clo, chi) == Algebra.volume(xlo, xhi)) {
                return null; // a reshaping correspondence: element k of one patch in storage order is element k of x's
            }
            throw new IllegalArgumentException("patch shapes differ: " + Arrays.toString(xlo) + ".."
                + Arrays.toString(xhi) + " of " + x + " and " + Arrays.toString(clo) + ".." + Arrays.toString(chi)
                + " of " + c + (trans ? " (transposed: the extents must match in reverse order)"
                : " (and so do their element counts)"));
        }
        return map;
    }

    private static int[] nonUnit(final int[] lo, final int[] hi) {
        return java.util.stream.IntStream.range(0, lo.length).filter(d -> hi[d] > lo[d]).toArray();
    }

    /**
     * Gets x's values matching c's sub-box plo..phi of patch clo..chi, packed in c's element order. With a mapping of
     * dimensions (from {@link #mapping}) that is one box of x, permuted into c's order when the mapping reverses the
     * dimensions (a transpose, in any number of dimensions); without one ({@code map == null}: patches of different
     * shapes with the same element count) element k of c's patch in storage order is element k of x's.
     */
    static Object fetch(final GlobalArray c, final int[] clo, final int[] chi, final int[] plo, final int[] phi,
        final GlobalArray x, final int[] xlo, final int[] xhi, final int[] map, final boolean trans) {
        if (map == null) {
            return fetchReshaped(c, clo, chi, plo, phi, x, xlo, xhi);
        }
        final int[] lo = xlo.clone();
        final int[] hi = xlo.clone();
        for (int d = 0; d < c.ndim; d++) {
            if (map[d] >= 0) {
                lo[map[d]] = xlo[map[d]] + plo[d] - clo[d];
                hi[map[d]] = xlo[map[d]] + phi[d] - clo[d];
            }
        }
        final int n = Algebra.volume(plo, phi);
        final Object buf = x.type.newArray(n);
        x.sections.packed(Mover.GET, lo, hi, buf);
        if (!trans) {
            return buf;
        }
        // x's box is packed row-major over x's dimensions; walk c's box row-major and pick each element.
        final int[] xStride = new int[x.ndim];
        int st = 1;
        for (int k = x.ndim - 1; k >= 0; k--) {
            xStride[k] = st;
            st *= hi[k] - lo[k] + 1;
        }
        final Object t = x.type.newArray(n);
        final int w = x.type.width();
        final int[] j = plo.clone();
        for (int out = 0; out < n; out++) {
            int from = 0;
            for (int d = 0; d < c.ndim; d++) {
                if (map[d] >= 0) {
                    from += (j[d] - plo[d]) * xStride[map[d]];
                }
            }
            System.arraycopy(buf, from * w, t, out * w, w);
            for (int d = c.ndim - 1; d >= 0 && ++j[d] > phi[d]; d--) {
                j[d] = plo[d];
            }
        }
        return t;
    }

    /**
     * The reshaping correspondence: each row of c's sub-box (a run along c's last dimension) is a run of consecutive
     * elements of x's patch in storage order, which may cross x's rows: one get per piece of an x row.
     */
    private static Object fetchReshaped(final GlobalArray c, final int[] clo, final int[] chi, final int[] plo,
        final int[] phi, final GlobalArray x, final int[] xlo, final int[] xhi) {
        final int n = Algebra.volume(plo, phi);
        final Object buf = x.type.newArray(n);
        final int last = c.ndim - 1;
        final int xLast = x.ndim - 1;
        final int run = phi[last] - plo[last] + 1;
        final int xRow = xhi[xLast] - xlo[xLast] + 1;
        final int[] j = plo.clone();
        final int[] xs = new int[x.ndim];
        final int[] xe = new int[x.ndim];
        Object piece = x.type.newArray(Math.min(run, xRow));
        int out = 0;
        while (out < n) {
            long linear = 0;
            for (int d = 0; d <= last; d++) {
                linear = linear * (chi[d] - clo[d] + 1) + (j[d] - clo[d]);
            }
            int remaining = run;
            while (remaining > 0) {
                long rest = linear;
                for (int k = xLast; k >= 0; k--) {
                    final int ext = xhi[k] - xlo[k] + 1;
                    xs[k] = xlo[k] + (int) (rest % ext);
                    xe[k] = xs[k];
                    rest /= ext;
                }
                final int len = Math.min(remaining, xhi[xLast] - xs[xLast] + 1);
                xe[xLast] = xs[xLast] + len - 1;
                if (x.type.elements(piece) < len) {
                    piece = x.type.newArray(len);
                }
                x.sections.packed(Mover.GET, xs, xe, piece);
                System.arraycopy(piece, 0, buf, out * x.type.width(), len * x.type.width());
                out += len;
                linear += len;
                remaining -= len;
            }
            for (int d = last - 1; d >= 0 && ++j[d] > phi[d]; d--) {
                j[d] = plo[d];
            }
        }
        return buf;
    }
}
