package org.jhpvm.ga;

/**
 * The 1-D routines of {@link MatrixOps}: GA's segmented scans ({@code GA_Scan_add}, {@code GA_Scan_copy}),
 * {@code GA_Pack}/{@code GA_Unpack} and {@code GA_Patch_enum}. The work is cut by the mask's distribution: each PE
 * takes the part of {@code lo..hi} whose mask it owns, the PEs exchange one summary each (a group reduction of one
 * slot per rank, so every PE sees all, in rank order, which is element order for a 1-D array), and each combines the
 * summaries of the ranks before it with its own part. Collective over the arrays' group, between syncs.
 */
final class VectorMath {
    static final int ADD_INCLUSIVE = 0;
    static final int ADD_EXCLUSIVE = 1;
    static final int COPY = 2;

    private VectorMath() {
    }

    private static void check1d(final GlobalArray a, final String what) {
        a.checkLive();
        if (a.ndim != 1) {
            throw new IllegalArgumentException(what + " needs 1-D arrays; " + a + " has " + a.ndim + " dimensions");
        }
    }

    private static void checkRange(final GlobalArray a, final int lo, final int hi, final String what) {
        if (lo < 0 || hi >= a.dims()[0] || lo > hi) {
            throw new IndexOutOfBoundsException(what + ": range " + lo + ".." + hi + " outside " + a + " or empty");
        }
    }

    /** Checks the arrays of a scan or pack: 1-D, one group, src and dst of one type, the range inside src and mask. */
    static void check(final GlobalArray src, final GlobalArray dst, final GlobalArray mask, final int lo,
        final int hi, final String what) {
        check1d(src, what);
        check1d(dst, what);
        check1d(mask, what);
        src.checks.checkSameGroup(dst);
        src.checks.checkSameGroup(mask);
        if (src.type != dst.type) {
            throw new IllegalArgumentException(what + ": " + src + " and " + dst + " hold different types");
        }
        checkRange(src, lo, hi, what);
        checkRange(mask, lo, hi, what);
    }

    /** This PE's part of {@code lo..hi} by the mask's distribution, as {@code {plo, phi}}, or null. */
    private static int[] part(final GlobalArray mask, final int lo, final int hi) {
        final int[] plo = new int[1];
        final int[] phi = new int[1];
        return Algebra.myPart(mask, new int[] {lo}, new int[] {hi}, plo, phi) ? new int[] {plo[0], phi[0]} : null;
    }

    private static long[] maskValues(final GlobalArray mask, final int[] p) {
        final Object m = mask.type.newArray(p[1] - p[0] + 1);
        mask.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, m);
        if (mask.type.isFloating()) {
            final double[] d = Algebra.doubles(m);
            final long[] l = new long[d.length];
            for (int i = 0; i < d.length; i++) {
                l[i] = d[i] != 0 ? 1 : 0;
            }
            return l;
        }
        return Algebra.longs(m);
    }

    /**
     * {@code GA_Scan_add} ({@code ADD_INCLUSIVE}/{@code ADD_EXCLUSIVE}) and {@code GA_Scan_copy} ({@code COPY}) over
     * {@code lo..hi}: a segment starts wherever the mask is not 0. Elements before the first start keep their value.
     */
    static void scan(final GlobalArray src, final GlobalArray dst, final GlobalArray mask, final int lo,
        final int hi, final int mode) {
        check(src, dst, mask, lo, hi, mode == COPY ? "scanCopy" : "scanAdd");
        final GaGroup g = mask.group;
        g.sync();
        final int n = g.nnodes();
        final int me = mask.myRank;
        final boolean floating = src.type.isFloating();
        final int[] p = part(mask, lo, hi);
        long[] m = null;
        double[] xd = null;
        long[] xl = null;
        // Summary of this part: whether a segment starts in it, and the carry it passes on: the value at its last
        // start (copy) or the sum from its last start, or of the whole part when none starts in it (add).
        final long[] starts = new long[n];
        final double[] carryD = new double[n];
        final long[] carryL = new long[n];
        if (p != null) {
            m = maskValues(mask, p);
            final Object s = src.type.newArray(m.length);
            src.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, s);
            if (floating) {
                xd = Algebra.doubles(s);
            } else {
                xl = Algebra.longs(s);
            }
            for (int i = 0; i < m.length; i++) {
                if (m[i] != 0) {
                    starts[me] = 1;
                    carryD[me] = floating ? (mode == COPY ? xd[i] : 0) : 0;
                    carryL[me] = floating ? 0 : (mode == COPY ? xl[i] : 0);
                }
                if (mode != COPY) {
                    if (floating) {
                        carryD[me] += xd[i];
                    } else {
                        carryL[me] += xl[i];
                    }
                }
            }
        }
        src.ga.gop(g, starts, GopOp.SUM);
        if (floating) {
            src.ga.gop(g, carryD, GopOp.SUM);
        } else {
            src.ga.gop(g, carryL, GopOp.SUM);
        }
        Object result = null;
        Object old = null;
        if (p != null) {
            boolean active = false;
            double cd = 0;
            long cl = 0;
            for (int r = 0; r < me; r++) {
                if (starts[r] != 0) {
                    active = true;
                    cd = carryD[r];
                    cl = carryL[r];
                } else if (active && mode != COPY) {
                    cd += carryD[r];
                    cl += carryL[r];
                }
            }
            old = dst.type.newArray(m.length);
            dst.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, old);
            if (floating) {
                final double[] out = Algebra.doubles(old);
                for (int i = 0; i < m.length; i++) {
                    if (m[i] != 0) {
                        active = true;
                        cd = mode == COPY ? xd[i] : mode == ADD_INCLUSIVE ? xd[i] : 0;
                        out[i] = cd;
                        if (mode == ADD_EXCLUSIVE) {
                            cd = xd[i];
                        }
                    } else if (active) {
                        if (mode == ADD_INCLUSIVE) {
                            cd += xd[i];
                            out[i] = cd;
                        } else if (mode == ADD_EXCLUSIVE) {
                            out[i] = cd;
                            cd += xd[i];
                        } else {
                            out[i] = cd;
                        }
                    }
                }
                result = Algebra.fromDoubles(out, dst.type);
            } else {
                final long[] out = Algebra.longs(old);
                for (int i = 0; i < m.length; i++) {
                    if (m[i] != 0) {
                        active = true;
                        cl = mode == COPY ? xl[i] : mode == ADD_INCLUSIVE ? xl[i] : 0;
                        out[i] = cl;
                        if (mode == ADD_EXCLUSIVE) {
                            cl = xl[i];
                        }
                    } else if (active) {
                        if (mode == ADD_INCLUSIVE) {
                            cl += xl[i];
                            out[i] = cl;
                        } else if (mode == ADD_EXCLUSIVE) {
                            out[i] = cl;
                            cl += xl[i];
                        } else {
                            out[i] = cl;
                        }
                    }
                }
                result = Algebra.fromLongs(out, dst.type);
            }
        }
        g.sync(); // every PE has read src (which may be dst itself) before anyone writes
        if (p != null) {
            dst.sections.packed(Mover.PUT, new int[] {p[0]}, new int[] {p[1]}, result);
        }
        g.sync();
    }

    /**
     * {@code GA_Pack} ({@code pack == true}: the elements of {@code lo..hi} whose mask is not 0, in order, to
     * {@code dst} from index 0) or {@code GA_Unpack} (the first elements of {@code src}, in order, to the positions of
     * {@code lo..hi} whose mask is not 0; {@code dst}'s other elements keep their value).
     *
     * @return the number of mask elements not 0 in {@code lo..hi}, the same on every PE
     */
    static long pack(final GlobalArray src, final GlobalArray dst, final GlobalArray mask, final int lo, final int hi,
        final boolean pack) {
        final String what = pack ? "pack" : "unpack";
        check1d(src, what);
        check1d(dst, what);
        check1d(mask, what);
        src.checks.checkSameGroup(dst);
        src.checks.checkSameGroup(mask);
        if (src.type != dst.type) {
            throw new IllegalArgumentException(what + ": " + src + " and " + dst + " hold different types");
        }
        checkRange(pack ? src : dst, lo, hi, what);
        checkRange(mask, lo, hi, what);
        final GaGroup g = mask.group;
        g.sync();
        final int n = g.nnodes();
        final int me = mask.myRank;
        final int[] p = part(mask, lo, hi);
        final long[] counts = new long[n];
        long[] m = null;
        if (p != null) {
            m = maskValues(mask, p);
            for (final long x : m) {
                counts[me] += x != 0 ? 1 : 0;
            }
        }
        src.ga.gop(g, counts, GopOp.SUM);
        long before = 0;
        long total = 0;
        for (int r = 0; r < n; r++) {
            before += r < me ? counts[r] : 0;
            total += counts[r];
        }
        final int other = pack ? dst.dims()[0] : src.dims()[0];
        final long[] fits = {total > other ? 1 : 0};
        if (fits[0] != 0) {
            throw new IllegalArgumentException(what + ": " + total + " elements are selected, but " + (pack ? dst : src)
                + " holds " + other + "; nothing moved");
        }
        final int mine = (int) counts[me];
        Object packed = null;
        Object result = null;
        if (p != null && mine > 0) {
            packed = src.type.newArray(mine);
            if (pack) {
                final Object s = src.type.newArray(m.length);
                src.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, s);
                int k = 0;
                for (int i = 0; i < m.length; i++) {
                    if (m[i] != 0) {
                        System.arraycopy(s, i, packed, k++, 1);
                    }
                }
            } else {
                src.sections.packed(Mover.GET, new int[] {(int) before}, new int[] {(int) before + mine - 1}, packed);
                result = dst.type.newArray(m.length);
                dst.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, result);
                int k = 0;
                for (int i = 0; i < m.length; i++) {
                    if (m[i] != 0) {
                        System.arraycopy(packed, k++, result, i, 1);
                    }
                }
            }
        }
        g.sync(); // every PE has read before anyone writes (src and dst may be one array)
        if (p != null && mine > 0) {
            if (pack) {
                dst.sections.packed(Mover.PUT, new int[] {(int) before}, new int[] {(int) before + mine - 1}, packed);
            } else {
                dst.sections.packed(Mover.PUT, new int[] {p[0]}, new int[] {p[1]}, result);
            }
        }
        g.sync();
        return total;
    }

    /** {@code GA_Patch_enum}: {@code a[i] = start + (i - lo) * inc} for {@code lo <= i <= hi}. */
    static void patchEnum(final GlobalArray a, final int lo, final int hi, final double start, final double inc) {
        check1d(a, "patchEnum");
        checkRange(a, lo, hi, "patchEnum");
        if (!a.type.isFloating() && (start != Math.rint(start) || inc != Math.rint(inc))) {
            throw new IllegalArgumentException("patchEnum(" + start + ", " + inc + ") on " + a
                + ": integers are needed");
        }
        a.group.sync();
        final int[] p = part(a, lo, hi);
        if (p != null) {
            final int len = p[1] - p[0] + 1;
            if (a.type.isFloating()) {
                final double[] v = new double[len];
                for (int i = 0; i < len; i++) {
                    v[i] = start + (double) (p[0] + i - lo) * inc;
                }
                a.sections.packed(Mover.PUT, new int[] {p[0]}, new int[] {p[1]}, Algebra.fromDoubles(v, a.type));
            } else {
                final long[] v = new long[len];
                for (int i = 0; i < len; i++) {
                    v[i] = (long) start + (long) (p[0] + i - lo) * (long) inc;
                }
                a.sections.packed(Mover.PUT, new int[] {p[0]}, new int[] {p[1]}, Algebra.fromLongs(v, a.type));
            }
        }
        a.group.sync();
    }
}
