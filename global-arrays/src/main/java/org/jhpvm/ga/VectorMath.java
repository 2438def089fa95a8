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

    /** This PE's parts of {@code lo..hi} by the mask's distribution, each {@code {block, plo, phi}}, in block order. */
    private static int[][] parts(final GlobalArray mask, final int lo, final int hi) {
        final java.util.List<int[][]> boxes = Algebra.parts(mask, new int[] {lo}, new int[] {hi});
        final int[][] out = new int[boxes.size()][];
        for (int k = 0; k < out.length; k++) {
            final int plo = boxes.get(k)[0][0];
            out[k] = new int[] {mask.dist.findBlock(0, plo), plo, boxes.get(k)[1][0]};
        }
        return out;
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
        final int nb = mask.dist.owners;
        // Complex elements are pairs of doubles, each component scanned as a real one.
        final boolean floating = src.type.isFloating() || src.type.isComplex();
        final int w = src.type.width();
        final int[][] parts = parts(mask, lo, hi);
        final long[][] m = new long[parts.length][];
        final double[][] xd = new double[parts.length][];
        final long[][] xl = new long[parts.length][];
        // Summary of each block's part: whether a segment starts in it, and the carry it passes on: the value at its
        // last start (copy) or the sum from its last start, or of the whole part when none starts in it (add).
        final long[] starts = new long[nb];
        final double[] carryD = new double[nb * w];
        final long[] carryL = new long[nb];
        for (int k = 0; k < parts.length; k++) {
            final int b = parts[k][0];
            final int[] p = {parts[k][1], parts[k][2]};
            m[k] = maskValues(mask, p);
            final Object s = src.type.newArray(m[k].length);
            src.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, s);
            if (floating) {
                xd[k] = Algebra.doubles(s);
            } else {
                xl[k] = Algebra.longs(s);
            }
            for (int i = 0; i < m[k].length; i++) {
                if (m[k][i] != 0) {
                    starts[b] = 1;
                    for (int c = 0; c < w; c++) {
                        carryD[b * w + c] = floating && mode == COPY ? xd[k][i * w + c] : 0;
                    }
                    carryL[b] = !floating && mode == COPY ? xl[k][i] : 0;
                }
                if (mode != COPY) {
                    if (floating) {
                        for (int c = 0; c < w; c++) {
                            carryD[b * w + c] += xd[k][i * w + c];
                        }
                    } else {
                        carryL[b] += xl[k][i];
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
        final Object[] results = new Object[parts.length];
        for (int k = 0; k < parts.length; k++) {
            final int b = parts[k][0];
            final int[] p = {parts[k][1], parts[k][2]};
            boolean active = false;
            final double[] cd = new double[w];
            long cl = 0;
            for (int r = 0; r < b; r++) {
                if (starts[r] != 0) {
                    active = true;
                    System.arraycopy(carryD, r * w, cd, 0, w);
                    cl = carryL[r];
                } else if (active && mode != COPY) {
                    for (int c = 0; c < w; c++) {
                        cd[c] += carryD[r * w + c];
                    }
                    cl += carryL[r];
                }
            }
            final Object old = dst.type.newArray(m[k].length);
            dst.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, old);
            if (floating) {
                final double[] out = Algebra.doubles(old);
                for (int i = 0; i < m[k].length; i++) {
                    final boolean start = m[k][i] != 0;
                    active |= start;
                    for (int c = 0; c < w && active; c++) {
                        final int at = i * w + c;
                        final double x = xd[k][at];
                        if (start) {
                            out[at] = mode == ADD_EXCLUSIVE ? 0 : x;
                            cd[c] = x;
                        } else if (mode == ADD_INCLUSIVE) {
                            cd[c] += x;
                            out[at] = cd[c];
                        } else if (mode == ADD_EXCLUSIVE) {
                            out[at] = cd[c];
                            cd[c] += x;
                        } else {
                            out[at] = cd[c];
                        }
                    }
                }
                results[k] = Algebra.fromDoubles(out, dst.type);
            } else {
                final long[] out = Algebra.longs(old);
                for (int i = 0; i < m[k].length; i++) {
                    final long x = xl[k][i];
                    if (m[k][i] != 0) {
                        active = true;
                        out[i] = mode == ADD_EXCLUSIVE ? 0 : x;
                        cl = x;
                    } else if (active) {
                        if (mode == ADD_INCLUSIVE) {
                            cl += x;
                            out[i] = cl;
                        } else if (mode == ADD_EXCLUSIVE) {
                            out[i] = cl;
                            cl += x;
                        } else {
                            out[i] = cl;
                        }
                    }
                }
                results[k] = Algebra.fromLongs(out, dst.type);
            }
        }
        g.sync(); // every PE has read src (which may be dst itself) before anyone writes
        for (int k = 0; k < parts.length; k++) {
            dst.sections.packed(Mover.PUT, new int[] {parts[k][1]}, new int[] {parts[k][2]}, results[k]);
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
        final int nb = mask.dist.owners;
        final int[][] parts = parts(mask, lo, hi);
        final long[] counts = new long[nb];
        final long[][] m = new long[parts.length][];
        for (int k = 0; k < parts.length; k++) {
            m[k] = maskValues(mask, new int[] {parts[k][1], parts[k][2]});
            for (final long x : m[k]) {
                counts[parts[k][0]] += x != 0 ? 1 : 0;
            }
        }
        src.ga.gop(g, counts, GopOp.SUM);
        long total = 0;
        for (final long c : counts) {
            total += c;
        }
        final int other = pack ? dst.dims()[0] : src.dims()[0];
        if (total > other) {
            throw new IllegalArgumentException(what + ": " + total + " elements are selected, but " + (pack ? dst : src)
                + " holds " + other + "; nothing moved");
        }
        final Object[] moved = new Object[parts.length];
        final int[] at = new int[parts.length];
        final int w = src.type.width(); // a complex element is a pair of slots
        for (int k = 0; k < parts.length; k++) {
            final int b = parts[k][0];
            long before = 0;
            for (int r = 0; r < b; r++) {
                before += counts[r];
            }
            at[k] = (int) before;
            final int mine = (int) counts[b];
            if (mine == 0) {
                continue;
            }
            final int[] p = {parts[k][1], parts[k][2]};
            final Object packed = src.type.newArray(mine);
            if (pack) {
                final Object s = src.type.newArray(m[k].length);
                src.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, s);
                int j = 0;
                for (int i = 0; i < m[k].length; i++) {
                    if (m[k][i] != 0) {
                        System.arraycopy(s, i * w, packed, j++ * w, w);
                    }
                }
                moved[k] = packed;
            } else {
                src.sections.packed(Mover.GET, new int[] {at[k]}, new int[] {at[k] + mine - 1}, packed);
                final Object result = dst.type.newArray(m[k].length);
                dst.sections.packed(Mover.GET, new int[] {p[0]}, new int[] {p[1]}, result);
                int j = 0;
                for (int i = 0; i < m[k].length; i++) {
                    if (m[k][i] != 0) {
                        System.arraycopy(packed, j++ * w, result, i * w, w);
                    }
                }
                moved[k] = result;
            }
        }
        g.sync(); // every PE has read before anyone writes (src and dst may be one array)
        for (int k = 0; k < parts.length; k++) {
            if (moved[k] == null) {
                continue;
            }
            if (pack) {
                final int mine = (int) counts[parts[k][0]];
                dst.sections.packed(Mover.PUT, new int[] {at[k]}, new int[] {at[k] + mine - 1}, moved[k]);
            } else {
                dst.sections.packed(Mover.PUT, new int[] {parts[k][1]}, new int[] {parts[k][2]}, moved[k]);
            }
        }
        g.sync();
        return total;
    }

    /** {@code GA_Patch_enum}: {@code a[i] = start + (i - lo) * inc} for {@code lo <= i <= hi}. */
    static void patchEnum(final GlobalArray a, final int lo, final int hi, final double start, final double inc) {
        patchEnum(a, lo, hi, start, 0, inc, 0);
    }

    /** As above with complex {@code start} and {@code inc} (imaginary parts 0 for real arrays). */
    static void patchEnum(final GlobalArray a, final int lo, final int hi, final double start, final double startIm,
        final double inc, final double incIm) {
        check1d(a, "patchEnum");
        if ((startIm != 0 || incIm != 0) && !a.type.isComplex()) {
            throw new IllegalArgumentException("patchEnum: a complex start or step for " + a + ", which holds "
                + a.type);
        }
        checkRange(a, lo, hi, "patchEnum");
        if (!a.type.isFloating() && !a.type.isComplex() && (start != Math.rint(start) || inc != Math.rint(inc))) {
            throw new IllegalArgumentException("patchEnum(" + start + ", " + inc + ") on " + a
                + ": integers are needed");
        }
        a.group.sync();
        for (final int[] part : parts(a, lo, hi)) {
            final int[] p = {part[1], part[2]};
            final int len = p[1] - p[0] + 1;
            if (a.type.isComplex()) {
                final double[] v = new double[2 * len];
                for (int i = 0; i < len; i++) {
                    final double step = p[0] + i - lo;
                    v[2 * i] = start + step * inc;
                    v[2 * i + 1] = startIm + step * incIm;
                }
                a.sections.packed(Mover.PUT, new int[] {p[0]}, new int[] {p[1]}, Algebra.fromDoubles(v, a.type));
            } else if (a.type.isFloating()) {
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
