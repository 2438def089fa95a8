package org.jhpvm.ga;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * Whole-array and patch operations. Each is collective over the arrays' group and owner-computes: every PE updates
 * the part of the destination patch it owns, fetching the matching pieces of the operands with one-sided gets
 * (so the operands may have any distribution), between a group sync at the start and one at the end. Patches
 * correspond element by element after dropping unit dimensions (GA's rule), with every subscript reversed for a
 * transpose ({@code copyPatch} with {@code trans}, {@code dotPatch} with one 'T'), or, when their shapes differ but
 * their element counts do not, element by element in storage order (a reshaping copy): see
 * {@link PatchCorrespondence}. Integer arrays compute in long arithmetic (scalars must be integers), float and double
 * arrays in double precision rounded once to the array's type.
 * <p>
 * These are collective, not data-path calls: they allocate scratch the size of the caller's part.
 */
final class Algebra {
    static final int COPY = 0;
    static final int ADD = 1;
    static final int MUL = 2;
    static final int DIV = 3;
    static final int MAX = 4;
    static final int MIN = 5;
    static final int FILL = 6;
    static final int SCALE = 7;
    static final int ABS = 8;
    static final int ADD_CONSTANT = 9;
    static final int RECIP = 10;

    private Algebra() {
    }

    /**
     * {@code c[clo..chi] = f(c, a[alo..ahi], b[blo..bhi])}; a and b may be null when {@code op} does not use them.
     */
    static void zip(final int op, final GlobalArray c, final int[] clo, final int[] chi, final GlobalArray a,
        final int[] alo, final int[] ahi, final GlobalArray b, final int[] blo, final int[] bhi, final double s1,
        final double s2, final boolean trans) {
        zip(op, c, clo, chi, a, alo, ahi, b, blo, bhi, s1, 0, s2, 0, trans);
    }

    /** As above with complex scalars {@code (s1, s1i)} and {@code (s2, s2i)} (imaginary parts 0 for real arrays). */
    static void zip(final int op, final GlobalArray c, final int[] clo, final int[] chi, final GlobalArray a,
        final int[] alo, final int[] ahi, final GlobalArray b, final int[] blo, final int[] bhi, final double s1,
        final double s1i, final double s2, final double s2i, final boolean trans) {
        c.checkLive();
        if ((s1i != 0 || s2i != 0) && !c.type.isComplex()) {
            throw new IllegalArgumentException("a complex scalar (imaginary part " + (s1i != 0 ? s1i : s2i)
                + ") for " + c + ", which holds " + c.type);
        }
        c.checks.checkSection(clo, chi, ones(c.ndim));
        checkScalar(c, s1);
        checkScalar(c, s2);
        final int[] aMap = a == null ? null : PatchCorrespondence.mapping(c, clo, chi, a, alo, ahi, trans);
        final int[] bMap = b == null ? null : PatchCorrespondence.mapping(c, clo, chi, b, blo, bhi, false);
        final boolean syncAtEnd = c.group.syncBegin();
        final java.util.List<int[][]> parts = parts(c, clo, chi);
        final Object[] results = new Object[parts.size()];
        long failed = 0;
        for (int k = 0; k < results.length && failed == 0; k++) {
            final int[] plo = parts.get(k)[0];
            final int[] phi = parts.get(k)[1];
            final int n = volume(plo, phi);
            final Object cBuf = c.type.newArray(n);
            c.sections.packed(Mover.GET, plo, phi, cBuf);
            final Object aBuf = a == null ? null
                : PatchCorrespondence.fetch(c, clo, chi, plo, phi, a, alo, ahi, aMap, trans);
            final Object bBuf = b == null ? null
                : PatchCorrespondence.fetch(c, clo, chi, plo, phi, b, blo, bhi, bMap, false);
            try {
                results[k] = c.type.isComplex() ? ComplexAlgebra.compute(op, c.type, n, cBuf, aBuf, bBuf, s1, s1i, s2,
                    s2i) : compute(op, c.type, n, cBuf, aBuf, bBuf, s1, s2);
            } catch (final ArithmeticException divideByZero) {
                failed = 1;
            }
        }
        // Every PE has read its operands (blocking gets) before it contributes, so this reduction is also the
        // barrier after which writing is safe: in-place forms (c.elemMaximum(a, c), a copyPatch between
        // overlapping patches of one array) see the values from before the call. A failure anywhere throws on
        // every PE before anything is written.
        final long[] flag = {failed};
        c.ga.gop(c.group, flag, GopOp.MAX);
        if (flag[0] != 0) {
            throw new ArithmeticException((op == RECIP ? "recip: integer division by zero in " + c
                : "elemDivide: integer division by zero in " + b) + "; nothing was written");
        }
        for (int k = 0; k < results.length; k++) {
            c.sections.packed(Mover.PUT, parts.get(k)[0], parts.get(k)[1], results[k]);
        }
        c.group.syncEnd(syncAtEnd);
    }

    /** The new values of the caller's part, packed, in the array's type. */
    private static Object compute(final int op, final GaType type, final int n, final Object cBuf, final Object aBuf,
        final Object bBuf, final double s1, final double s2) {
        if (type.isFloating()) {
            final double[] x = doubles(cBuf);
            final double[] y = aBuf == null ? null : doubles(aBuf);
            final double[] z = bBuf == null ? null : doubles(bBuf);
            for (int i = 0; i < n; i++) {
                x[i] = apply(op, x[i], y == null ? 0 : y[i], z == null ? 0 : z[i], s1, s2);
            }
            return fromDoubles(x, type);
        }
        final long[] x = longs(cBuf);
        final long[] y = aBuf == null ? null : longs(aBuf);
        final long[] z = bBuf == null ? null : longs(bBuf);
        for (int i = 0; i < n; i++) {
            x[i] = apply(op, x[i], y == null ? 0 : y[i], z == null ? 0 : z[i], (long) s1, (long) s2);
        }
        return fromLongs(x, type);
    }

    private static double apply(final int op, final double c, final double a, final double b, final double s1,
        final double s2) {
        return switch (op) {
            case COPY -> a;
            case ADD -> s1 * a + s2 * b;
            case MUL -> a * b;
            case DIV -> a / b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case FILL -> s1;
            case SCALE -> s1 * c;
            case ABS -> Math.abs(c);
            case RECIP -> 1.0 / c;
            default -> c + s1;
        };
    }

    private static long apply(final int op, final long c, final long a, final long b, final long s1, final long s2) {
        return switch (op) {
            case COPY -> a;
            case ADD -> s1 * a + s2 * b;
            case MUL -> a * b;
            case DIV -> {
                if (b == 0) {
                    throw new ArithmeticException("elemDivide: integer division by zero");
                }
                yield a / b;
            }
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case FILL -> s1;
            case SCALE -> s1 * c;
            case ABS -> Math.abs(c);
            case RECIP -> {
                if (c == 0) {
                    throw new ArithmeticException("recip: integer division by zero");
                }
                yield 1 / c;
            }
            default -> c + s1;
        };
    }

    /**
     * {@code sum a[alo..ahi] * b[blo..bhi]} over the group (every PE gets the same bits); {@code trans}: b's patch
     * is matched transposed (its subscripts reversed). Integer arrays: the exact long sum (wrapping on overflow), as
     * a double.
     */
    static double dot(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b, final int[] blo,
        final int[] bhi, final boolean trans) {
        a.checkLive();
        if (a.type.isComplex()) {
            throw new IllegalArgumentException("dot of complex arrays has a complex value: use "
                + (a.type == GaType.DCPL ? "zdot" : "cdot") + " (" + a + ")");
        }
        final double[] sum = {0};
        final long[] lsum = {0};
        dotInto(a, alo, ahi, b, blo, bhi, trans, sum, lsum);
        return a.type.isFloating() ? sum[0] : lsum[0];
    }

    /**
     * {@code GA_Zdot}/{@code GA_Cdot}: the complex {@code sum a*b} (not conjugated, as GA) of complex arrays of type
     * {@code type}, summed in double precision (rounded once to float for SCPL).
     *
     * @return {@code {re, im}}
     */
    static double[] zdot(final GaType type, final GlobalArray a, final int[] alo, final int[] ahi,
        final GlobalArray b, final int[] blo, final int[] bhi, final boolean trans) {
        a.checkLive();
        if (a.type != type) {
            throw new IllegalArgumentException((type == GaType.DCPL ? "zdot" : "cdot") + " needs " + type
                + " arrays; " + a + " holds " + a.type);
        }
        final double[] sum = {0, 0};
        dotInto(a, alo, ahi, b, blo, bhi, trans, sum, null);
        if (type == GaType.SCPL) {
            sum[0] = (float) sum[0];
            sum[1] = (float) sum[1];
        }
        return sum;
    }

    /** {@code GA_Ldot}: the exact dot product of int or long arrays, in long arithmetic (wrapping on overflow). */
    static long ldot(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b, final int[] blo,
        final int[] bhi, final boolean trans) {
        a.checkLive();
        if (a.type.isFloating() || a.type.isComplex()) {
            throw new IllegalArgumentException("ldot needs int or long arrays; " + a + " holds " + a.type
                + " (use dot)");
        }
        final double[] sum = {0};
        final long[] lsum = {0};
        dotInto(a, alo, ahi, b, blo, bhi, trans, sum, lsum);
        return lsum[0];
    }

    private static void dotInto(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi, final boolean trans, final double[] sum, final long[] lsum) {
        a.checkLive();
        a.checks.checkSection(alo, ahi, ones(a.ndim));
        if (a.type != b.type) {
            throw new IllegalArgumentException("type mismatch: dot of " + a + " and " + b);
        }
        final int[] bMap = PatchCorrespondence.mapping(a, alo, ahi, b, blo, bhi, trans);
        a.group.sync();
        for (final int[][] part : parts(a, alo, ahi)) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final int n = volume(plo, phi);
            final Object aBuf = a.type.newArray(n);
            a.sections.packed(Mover.GET, plo, phi, aBuf);
            final Object bBuf = PatchCorrespondence.fetch(a, alo, ahi, plo, phi, b, blo, bhi, bMap, trans);
            if (a.type.isComplex()) {
                ComplexAlgebra.dot(aBuf, bBuf, n, sum);
            } else if (a.type.isFloating()) {
                final double[] x = doubles(aBuf);
                final double[] y = doubles(bBuf);
                for (int i = 0; i < n; i++) {
                    sum[0] += x[i] * y[i];
                }
            } else {
                final long[] x = longs(aBuf);
                final long[] y = longs(bBuf);
                for (int i = 0; i < n; i++) {
                    lsum[0] += x[i] * y[i];
                }
            }
        }
        if (a.type.isFloating() || a.type.isComplex()) {
            a.ga.gop(a.group, sum, GopOp.SUM);
        } else {
            a.ga.gop(a.group, lsum, GopOp.SUM);
        }
    }

    /**
     * {@code GA_Copy}/{@code NGA_Copy_patch}: {@code c[clo..chi] = x[xlo..xhi]}. On one group, owner-computes as
     * {@link #zip}. Between an array on a processor group and one on the world group (GA allows that, either way),
     * the members of the smaller group do it: each takes an equal share of c's patch (cut along its first dimension
     * that is longer than one), gets the matching elements of x and puts them into c, between two syncs of that
     * group; PEs outside it do not call.
     */
    static void copy(final GlobalArray c, final int[] clo, final int[] chi, final GlobalArray x, final int[] xlo,
        final int[] xhi, final boolean trans) {
        c.checkLive();
        java.util.Objects.requireNonNull(x, "source").checkLive();
        if (x.ga != c.ga || x.group.team == c.group.team) {
            zip(COPY, c, clo, chi, x, xlo, xhi, null, null, null, 0, 0, trans);
            return;
        }
        final GaGroup world = c.ga.worldGroup();
        final boolean cWorld = c.group.team == world.team;
        if (!cWorld && x.group.team != world.team) {
            throw new IllegalArgumentException(x + " and " + c + " are on different processor groups, neither of "
                + "them the world group: GA copies across groups only between a group and the world");
        }
        final GlobalArray small = cWorld ? x : c;
        c.checks.checkSection(clo, chi, ones(c.ndim));
        final int[] map = PatchCorrespondence.correspondence(c, clo, chi, x, xlo, xhi, trans);
        final boolean syncAtEnd = small.group.syncBegin();
        int d0 = 0;
        while (d0 < c.ndim - 1 && chi[d0] == clo[d0]) {
            d0++;
        }
        final int n = small.group.nnodes();
        final int r = small.myRank;
        final int ext = chi[d0] - clo[d0] + 1;
        final int start = r * (ext / n) + Math.min(r, ext % n);
        final int len = ext / n + (r < ext % n ? 1 : 0);
        if (len > 0) {
            final int[] plo = clo.clone();
            final int[] phi = chi.clone();
            plo[d0] = clo[d0] + start;
            phi[d0] = plo[d0] + len - 1;
            final Object data = PatchCorrespondence.fetch(c, clo, chi, plo, phi, x, xlo, xhi, map, trans);
            c.sections.packed(Mover.PUT, plo, phi, data);
        }
        small.group.syncEnd(syncAtEnd);
    }

    /** {@code NGA_Select_elem}: the largest ("max") or smallest ("min") element and its first subscript. */
    static GlobalArray.Selected select(final GlobalArray a, final String which) {
        a.checkLive();
        final boolean max;
        if ("max".equals(which)) {
            max = true;
        } else if ("min".equals(which)) {
            max = false;
        } else {
            throw new IllegalArgumentException("selectElem(\"" + which + "\"): \"max\" or \"min\"");
        }
        a.group.sync();
        final int n = a.ndim;
        final int[] lo = new int[n];
        final int[] hi = a.dims();
        for (int d = 0; d < n; d++) {
            hi[d]--;
        }
        double best = max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        long lbest = max ? Long.MIN_VALUE : Long.MAX_VALUE;
        long bestAt = Long.MAX_VALUE;
        for (final int[][] part : parts(a, lo, hi)) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final Object buf = a.type.newArray(volume(plo, phi));
            a.sections.packed(Mover.GET, plo, phi, buf);
            final int count = volume(plo, phi);
            for (int i = 0; i < count; i++) {
                final long at = linear(a, plo, phi, i);
                final boolean better;
                if (a.type.isFloating()) {
                    final double v = a.type == GaType.DOUBLE ? ((double[]) buf)[i] : ((float[]) buf)[i];
                    // Ties go to the first subscript in row-major order, whatever order the blocks come in.
                    better = !Double.isNaN(v) && (bestAt == Long.MAX_VALUE || (max ? v > best : v < best)
                        || v == best && at < bestAt);
                    if (better) {
                        best = v;
                    }
                } else {
                    final long v = a.type == GaType.LONG ? ((long[]) buf)[i] : ((int[]) buf)[i];
                    better = bestAt == Long.MAX_VALUE || (max ? v > lbest : v < lbest) || v == lbest && at < bestAt;
                    if (better) {
                        lbest = v;
                    }
                }
                if (better) {
                    bestAt = at;
                }
            }
        }
        final GopOp op = max ? GopOp.MAX : GopOp.MIN;
        final long at;
        if (a.type.isFloating()) {
            final double[] v = {best};
            a.ga.gop(a.group, v, op);
            final long[] where = {bestAt != Long.MAX_VALUE && best == v[0] ? bestAt : Long.MAX_VALUE};
            a.ga.gop(a.group, where, GopOp.MIN);
            at = where[0];
            best = v[0];
            lbest = (long) best;
        } else {
            final long[] v = {lbest};
            a.ga.gop(a.group, v, op);
            final long[] where = {bestAt != Long.MAX_VALUE && lbest == v[0] ? bestAt : Long.MAX_VALUE};
            a.ga.gop(a.group, where, GopOp.MIN);
            at = where[0];
            lbest = v[0];
            best = lbest;
        }
        a.group.sync();
        final int[] sub = new int[n];
        if (at == Long.MAX_VALUE) {
            Arrays.fill(sub, -1); // every element is NaN
            return new GlobalArray.Selected(sub, Double.NaN, 0);
        }
        long r = at;
        for (int d = n - 1; d >= 0; d--) {
            sub[d] = (int) (r % a.dist.dims[d]);
            r /= a.dist.dims[d];
        }
        return new GlobalArray.Selected(sub, best, lbest);
    }

    private static long linear(final GlobalArray a, final int[] plo, final int[] phi, final int packedIndex) {
        long r = packedIndex;
        long lin = 0;
        long mul = 1;
        for (int d = a.ndim - 1; d >= 0; d--) {
            final int ext = phi[d] - plo[d] + 1;
            lin += (plo[d] + r % ext) * mul;
            r /= ext;
            mul *= a.dist.dims[d];
        }
        return lin;
    }

    /** The section as text. One-sided. */
    static String format(final GlobalArray a, final int[] lo, final int[] hi) {
        a.checkLive();
        a.checks.checkSection(lo, hi, ones(a.ndim));
        final int n = volume(lo, hi);
        final Object buf = a.type.newArray(n);
        a.sections.packed(Mover.GET, lo, hi, buf);
        final StringBuilder b = new StringBuilder();
        b.append(a).append(" patch ").append(Arrays.toString(lo)).append("..").append(Arrays.toString(hi))
            .append('\n');
        final int last = hi[a.ndim - 1] - lo[a.ndim - 1] + 1;
        final int[] sub = lo.clone();
        for (int i = 0; i < n; i++) {
            if (i % last == 0) {
                b.append("  ");
                for (int d = 0; d < a.ndim - 1; d++) {
                    b.append('[').append(sub[d]).append(']');
                }
                b.append('[').append(lo[a.ndim - 1]).append("..]:");
            }
            if (a.type.isComplex()) {
                b.append(" (").append(java.lang.reflect.Array.get(buf, 2 * i)).append(',')
                    .append(java.lang.reflect.Array.get(buf, 2 * i + 1)).append(')');
            } else {
                b.append(' ').append(java.lang.reflect.Array.get(buf, i));
            }
            if (i % last == last - 1) {
                b.append('\n');
                for (int d = a.ndim - 2; d >= 0; d--) {
                    if (++sub[d] <= hi[d]) {
                        break;
                    }
                    sub[d] = lo[d];
                }
            }
        }
        return b.toString();
    }

    /** {@code NGA_Print_patch}: rank 0 of the group prints the section's {@link #format}. Collective. */
    static void printPatch(final GlobalArray a, final PrintStream out, final int[] lo, final int[] hi) {
        a.checkLive();
        a.checks.checkSection(lo, hi, a.ones);
        a.group.sync();
        if (a.myRank == 0) {
            out.print(format(a, lo, hi));
            out.flush();
        }
        a.group.sync();
    }

    /**
     * This PE's parts of a patch: the patch's intersection with each block this PE owns that it meets, as
     * {@code {lo, hi}} pairs in block order (one at most, except for a block-cyclic distribution).
     */
    static java.util.List<int[][]> parts(final GlobalArray a, final int[] lo, final int[] hi) {
        final int[] blocks = a.dist.blocksOf(a.myRank);
        final java.util.List<int[][]> out = new java.util.ArrayList<>(blocks.length);
        for (final int b : blocks) {
            final int[] plo = new int[a.ndim];
            final int[] phi = new int[a.ndim];
            a.dist.blockBounds(b, plo, phi);
            boolean meets = true;
            for (int d = 0; d < a.ndim && meets; d++) {
                plo[d] = Math.max(plo[d], lo[d]);
                phi[d] = Math.min(phi[d], hi[d]);
                meets = plo[d] <= phi[d];
            }
            if (meets) {
                out.add(new int[][] {plo, phi});
            }
        }
        return out;
    }

    static int volume(final int[] lo, final int[] hi) {
        long v = 1;
        for (int d = 0; d < lo.length; d++) {
            v *= hi[d] - lo[d] + 1;
        }
        if (v > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a patch of " + v + " elements exceeds a Java array");
        }
        return (int) v;
    }

    static int[] ones(final int n) {
        final int[] o = new int[n];
        Arrays.fill(o, 1);
        return o;
    }

    private static void checkScalar(final GlobalArray c, final double s) {
        if (c.type.isFloating() || c.type.isComplex()) {
            return;
        }
        if (s != Math.rint(s)) {
            throw new IllegalArgumentException("scalar " + s + " is not an integer; " + c + " holds " + c.type);
        }
        final boolean fits = c.type == GaType.INT ? s >= Integer.MIN_VALUE && s <= Integer.MAX_VALUE
            : s >= -0x1p63 && s < 0x1p63;
        if (!fits) {
            throw new IllegalArgumentException("scalar " + s + " is outside the range of " + c.type + " (" + c + ")");
        }
    }

    // ---------------------------------------------------------------- conversions

    static double[] doubles(final Object buf) {
        if (buf instanceof double[] d) {
            return d;
        }
        final float[] f = (float[]) buf;
        final double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            d[i] = f[i];
        }
        return d;
    }

    static long[] longs(final Object buf) {
        if (buf instanceof long[] l) {
            return l;
        }
        final int[] v = (int[]) buf;
        final long[] l = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            l[i] = v[i];
        }
        return l;
    }

    static Object fromDoubles(final double[] d, final GaType type) {
        if (type == GaType.DOUBLE || type == GaType.DCPL) {
            return d;
        }
        final float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) {
            f[i] = (float) d[i];
        }
        return f;
    }

    static Object fromLongs(final long[] l, final GaType type) {
        if (type == GaType.LONG) {
            return l;
        }
        final int[] v = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            v[i] = (int) l[i];
        }
        return v;
    }
}
