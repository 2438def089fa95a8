package org.jhpvm.ga;

/**
 * The matrix and vector routines of {@link MatrixOps}: the diagonal family, row and column scaling, norms, the
 * element-wise median, symmetrization and the step length of optimisation codes. Each is collective over the
 * array's group and owner-computes like {@link Algebra#zip}: a PE reads the operands matching its block, every PE
 * has read before any PE writes, and the group syncs before and after. They allocate scratch the size of the
 * caller's block (collective calls, not data-path ones).
 */
final class MatrixMath {
    static final int SET_DIAGONAL = 0;
    static final int ADD_DIAGONAL = 1;
    static final int SHIFT_DIAGONAL = 2;
    static final int SCALE_ROWS = 3;
    static final int SCALE_COLS = 4;
    static final int ZERO_DIAGONAL = 5;
    /** {@code GA_INFINITY_D}: what {@code GA_Step_max} returns when no element limits the step. */
    static final double GA_INFINITY = 1.0e307;

    private MatrixMath() {
    }

    static void check2d(final GlobalArray a, final String what) {
        a.checkLive();
        if (a.ndim != 2) {
            throw new IllegalArgumentException(what + " needs a 2-D array; " + a + " has " + a.ndim + " dimensions");
        }
    }

    /** Checks that {@code v} is a 1-D array of {@code a}'s type and group, {@code length} long. */
    static void checkVector(final GlobalArray a, final GlobalArray v, final int length, final String what) {
        a.checks.checkSameGroup(v);
        if (v.type != a.type) {
            throw new IllegalArgumentException(what + ": type mismatch, " + v + " and " + a);
        }
        if (v.ndim != 1 || v.dims()[0] != length) {
            throw new IllegalArgumentException(what + ": " + v + " must be a vector of " + length + " elements");
        }
    }

    /**
     * Updates this PE's block of the 2-D array {@code a}: the diagonal set to, or increased by, the vector's elements,
     * increased by {@code s}, or zeroed; or every row (column) scaled by the vector's element of that row (column).
     */
    static void update(final GlobalArray a, final int op, final GlobalArray v, final double s) {
        final int[] d = a.dims();
        a.group.sync();
        final java.util.List<int[][]> parts = Algebra.parts(a, new int[2], new int[] {d[0] - 1, d[1] - 1});
        final Object[] results = new Object[parts.size()];
        for (int k = 0; k < results.length; k++) {
            results[k] = updatePart(a, op, v, s, parts.get(k)[0], parts.get(k)[1]);
        }
        // Everyone has read the vector before anyone writes (the vector may share memory with nothing here, but a
        // caller's later writes to it must not race this call's reads).
        a.group.sync();
        for (int k = 0; k < results.length; k++) {
            a.sections.packed(Mover.PUT, parts.get(k)[0], parts.get(k)[1], results[k]);
        }
        a.group.sync();
    }

    /** One part {@code plo..phi} of {@link #update}: its new values, packed. */
    private static Object updatePart(final GlobalArray a, final int op, final GlobalArray v, final double s,
        final int[] plo, final int[] phi) {
        final int n = Algebra.volume(plo, phi);
        final int cols = phi[1] - plo[1] + 1;
        final Object block = a.type.newArray(n);
        a.sections.packed(Mover.GET, plo, phi, block);
        // The vector elements this block needs: rows plo[0]..phi[0], columns plo[1]..phi[1], or the diagonal.
        int vlo = 0;
        int vhi = -1;
        switch (op) {
            case SCALE_ROWS -> {
                vlo = plo[0];
                vhi = phi[0];
            }
            case SCALE_COLS -> {
                vlo = plo[1];
                vhi = phi[1];
            }
            default -> {
                vlo = Math.max(plo[0], plo[1]);
                vhi = Math.min(phi[0], phi[1]);
            }
        }
        double[] vd = null;
        long[] vl = null;
        if (v != null && vlo <= vhi) {
            final Object vb = a.type.newArray(vhi - vlo + 1);
            v.sections.packed(Mover.GET, new int[] {vlo}, new int[] {vhi}, vb);
            if (a.type.isFloating()) {
                vd = Algebra.doubles(vb);
            } else {
                vl = Algebra.longs(vb);
            }
        }
        if (a.type.isFloating()) {
            final double[] x = Algebra.doubles(block);
            for (int i = plo[0]; i <= phi[0]; i++) {
                for (int j = plo[1]; j <= phi[1]; j++) {
                    final int k = (i - plo[0]) * cols + j - plo[1];
                    x[k] = switch (op) {
                        case SCALE_ROWS -> x[k] * vd[i - vlo];
                        case SCALE_COLS -> x[k] * vd[j - vlo];
                        case SET_DIAGONAL -> i == j ? vd[i - vlo] : x[k];
                        case ADD_DIAGONAL -> i == j ? x[k] + vd[i - vlo] : x[k];
                        case ZERO_DIAGONAL -> i == j ? 0 : x[k];
                        default -> i == j ? x[k] + s : x[k];
                    };
                }
            }
            return Algebra.fromDoubles(x, a.type);
        } else {
            final long[] x = Algebra.longs(block);
            final long sl = (long) s;
            for (int i = plo[0]; i <= phi[0]; i++) {
                for (int j = plo[1]; j <= phi[1]; j++) {
                    final int k = (i - plo[0]) * cols + j - plo[1];
                    x[k] = switch (op) {
                        case SCALE_ROWS -> x[k] * vl[i - vlo];
                        case SCALE_COLS -> x[k] * vl[j - vlo];
                        case SET_DIAGONAL -> i == j ? vl[i - vlo] : x[k];
                        case ADD_DIAGONAL -> i == j ? x[k] + vl[i - vlo] : x[k];
                        case ZERO_DIAGONAL -> i == j ? 0 : x[k];
                        default -> i == j ? x[k] + sl : x[k];
                    };
                }
            }
            return Algebra.fromLongs(x, a.type);
        }
    }

    /** {@code GA_Get_diag}: {@code v = diag(a)}; each owner of part of the diagonal puts that part. */
    static void getDiag(final GlobalArray a, final GlobalArray v) {
        final int[] d = a.dims();
        a.group.sync();
        for (final int[][] part : Algebra.parts(a, new int[2], new int[] {d[0] - 1, d[1] - 1})) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final int lo = Math.max(plo[0], plo[1]);
            final int hi = Math.min(phi[0], phi[1]);
            if (lo <= hi) {
                final int cols = phi[1] - plo[1] + 1;
                final Object block = a.type.newArray(Algebra.volume(plo, phi));
                a.sections.packed(Mover.GET, plo, phi, block);
                final Object diag = a.type.newArray(hi - lo + 1);
                for (int i = lo; i <= hi; i++) {
                    System.arraycopy(block, (i - plo[0]) * cols + i - plo[1], diag, i - lo, 1);
                }
                v.sections.packed(Mover.PUT, new int[] {lo}, new int[] {hi}, diag);
            }
        }
        a.group.sync();
    }

    /**
     * {@code GA_Norm1} ({@code infinity == false}) or {@code GA_Norm_infinity}: the sum of the absolute values of
     * every element, or the largest, for a vector or a matrix.
     */
    static double norm(final GlobalArray a, final boolean infinity) {
        a.checkLive();
        if (a.ndim > 2) {
            throw new IllegalArgumentException("norms are defined on vectors and matrices; " + a + " has " + a.ndim
                + " dimensions");
        }
        final int[] lo = new int[a.ndim];
        final int[] hi = a.dims();
        for (int k = 0; k < a.ndim; k++) {
            hi[k]--;
        }
        a.group.sync();
        final java.util.List<int[][]> parts = Algebra.parts(a, lo, hi);
        final double[][] xs = new double[parts.size()][];
        for (int k = 0; k < xs.length; k++) {
            final int[] plo = parts.get(k)[0];
            final int[] phi = parts.get(k)[1];
            final Object block = a.type.newArray(Algebra.volume(plo, phi));
            a.sections.packed(Mover.GET, plo, phi, block);
            xs[k] = a.type.isComplex() ? moduli(Algebra.doubles(block))
                : a.type.isFloating() ? Algebra.doubles(block) : toDoubles(Algebra.longs(block));
        }
        // Element-wise for matrices as for vectors, as GA 5.9 computes them (global/src/matrix.c): the sum of
        // all absolute values, or the largest one; not the column-sum or row-sum operator norms.
        final double[] r = {0};
        for (final double[] x : xs) {
            for (final double v : x) {
                r[0] = infinity ? Math.max(r[0], Math.abs(v)) : r[0] + Math.abs(v);
            }
        }
        a.ga.gop(a.group, r, infinity ? GopOp.MAX : GopOp.SUM);
        return r[0];
    }

    /** The modulus of each complex element of interleaved pairs (the absolute value GA's complex norms take). */
    private static double[] moduli(final double[] pairs) {
        final double[] m = new double[pairs.length / 2];
        for (int k = 0; k < m.length; k++) {
            m[k] = Math.hypot(pairs[2 * k], pairs[2 * k + 1]);
        }
        return m;
    }

    private static double[] toDoubles(final long[] l) {
        final double[] d = new double[l.length];
        for (int i = 0; i < l.length; i++) {
            d[i] = l[i];
        }
        return d;
    }

    /** {@code GA_Median_patch}: {@code m[mlo..mhi] = median(a, b, c)} element by element. */
    static void median(final GlobalArray m, final int[] mlo, final int[] mhi, final GlobalArray a, final int[] alo,
        final int[] ahi, final GlobalArray b, final int[] blo, final int[] bhi, final GlobalArray c, final int[] clo,
        final int[] chi) {
        m.checkLive();
        m.checks.checkSection(mlo, mhi, Algebra.ones(m.ndim));
        final int[] aMap = PatchCorrespondence.mapping(m, mlo, mhi, a, alo, ahi, false);
        final int[] bMap = PatchCorrespondence.mapping(m, mlo, mhi, b, blo, bhi, false);
        final int[] cMap = PatchCorrespondence.mapping(m, mlo, mhi, c, clo, chi, false);
        m.group.sync();
        final java.util.List<int[][]> parts = Algebra.parts(m, mlo, mhi);
        final Object[] results = new Object[parts.size()];
        for (int part = 0; part < results.length; part++) {
            final int[] plo = parts.get(part)[0];
            final int[] phi = parts.get(part)[1];
            Object result = null;
            final Object x = PatchCorrespondence.fetch(m, mlo, mhi, plo, phi, a, alo, ahi, aMap, false);
            final Object y = PatchCorrespondence.fetch(m, mlo, mhi, plo, phi, b, blo, bhi, bMap, false);
            final Object z = PatchCorrespondence.fetch(m, mlo, mhi, plo, phi, c, clo, chi, cMap, false);
            if (m.type.isFloating()) {
                final double[] p = Algebra.doubles(x);
                final double[] q = Algebra.doubles(y);
                final double[] r = Algebra.doubles(z);
                for (int i = 0; i < p.length; i++) {
                    p[i] = Math.max(Math.min(p[i], q[i]), Math.min(Math.max(p[i], q[i]), r[i]));
                }
                result = Algebra.fromDoubles(p, m.type);
            } else {
                final long[] p = Algebra.longs(x);
                final long[] q = Algebra.longs(y);
                final long[] r = Algebra.longs(z);
                for (int i = 0; i < p.length; i++) {
                    p[i] = Math.max(Math.min(p[i], q[i]), Math.min(Math.max(p[i], q[i]), r[i]));
                }
                result = Algebra.fromLongs(p, m.type);
            }
            results[part] = result;
        }
        m.group.sync();
        for (int part = 0; part < results.length; part++) {
            m.sections.packed(Mover.PUT, parts.get(part)[0], parts.get(part)[1], results[part]);
        }
        m.group.sync();
    }

    /** {@code GA_Symmetrize}: {@code a = (a + a^T) / 2} for a square float or double matrix. */
    static void symmetrize(final GlobalArray a) {
        check2d(a, "symmetrize");
        final int[] d = a.dims();
        if (d[0] != d[1]) {
            throw new IllegalArgumentException("symmetrize needs a square matrix; " + a + " is " + d[0] + " x "
                + d[1]);
        }
        if (!a.type.isFloating()) {
            throw new IllegalArgumentException("symmetrize halves sums: it needs a float or double matrix, not "
                + a.type);
        }
        final int[] lo = {0, 0};
        final int[] hi = {d[0] - 1, d[1] - 1};
        final int[] map = PatchCorrespondence.mapping(a, lo, hi, a, lo, hi, true);
        a.group.sync();
        final java.util.List<int[][]> parts = Algebra.parts(a, lo, hi);
        final Object[] results = new Object[parts.size()];
        for (int part = 0; part < results.length; part++) {
            final int[] plo = parts.get(part)[0];
            final int[] phi = parts.get(part)[1];
            Object result = null;
            final Object block = a.type.newArray(Algebra.volume(plo, phi));
            a.sections.packed(Mover.GET, plo, phi, block);
            final double[] x = Algebra.doubles(block);
            final double[] t = Algebra.doubles(PatchCorrespondence.fetch(a, lo, hi, plo, phi, a, lo, hi, map, true));
            for (int i = 0; i < x.length; i++) {
                x[i] = 0.5 * (x[i] + t[i]);
            }
            result = Algebra.fromDoubles(x, a.type);
            results[part] = result;
        }
        a.group.sync(); // every PE has read a^T before anyone writes
        for (int part = 0; part < results.length; part++) {
            a.sections.packed(Mover.PUT, parts.get(part)[0], parts.get(part)[1], results[part]);
        }
        a.group.sync();
    }

    /**
     * {@code GA_Step_max_patch}: the largest {@code t >= 0} with {@code a + t*b >= 0} element by element: the least
     * {@code -a[i]/b[i]} over the elements where {@code b[i] < 0}, or {@link #GA_INFINITY} when there are none.
     */
    static double stepMax(final GlobalArray a, final int[] alo, final int[] ahi, final GlobalArray b,
        final int[] blo, final int[] bhi) {
        a.checkLive();
        a.checks.checkSection(alo, ahi, Algebra.ones(a.ndim));
        final int[] map = PatchCorrespondence.mapping(a, alo, ahi, b, blo, bhi, false);
        a.group.sync();
        final double[] step = {GA_INFINITY};
        final long[] negative = {0};
        for (final int[][] part : Algebra.parts(a, alo, ahi)) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final Object block = a.type.newArray(Algebra.volume(plo, phi));
            a.sections.packed(Mover.GET, plo, phi, block);
            final Object other = PatchCorrespondence.fetch(a, alo, ahi, plo, phi, b, blo, bhi, map, false);
            final double[] x = a.type.isFloating() ? Algebra.doubles(block) : toDoubles(Algebra.longs(block));
            final double[] y = a.type.isFloating() ? Algebra.doubles(other) : toDoubles(Algebra.longs(other));
            for (int i = 0; i < x.length; i++) {
                if (x[i] < 0) {
                    negative[0] = 1;
                } else if (y[i] < 0) {
                    step[0] = Math.min(step[0], -x[i] / y[i]);
                }
            }
        }
        a.ga.gop(a.group, negative, GopOp.MAX);
        if (negative[0] != 0) {
            throw new IllegalArgumentException("stepMax: " + a + " has a negative element in the patch (GA requires "
                + "a >= 0)");
        }
        a.ga.gop(a.group, step, GopOp.MIN);
        return step[0];
    }

    /**
     * {@code GA_Step_bound_info}: for {@code x + t*v} within {@code lower <= . <= upper}, with
     * {@code t_i = (upper_i - x_i) / v_i} where {@code v_i > 0} and {@code (lower_i - x_i) / v_i} where
     * {@code v_i < 0} (elements with {@code v_i == 0} do not count): {@code {min t_i, min positive t_i, max t_i}}
     * ({@code boundmin}, {@code wolfemin}, {@code boundmax}), the minima {@link #GA_INFINITY} and the maximum 0 when
     * no element counts (the TAO convention GA's routine follows).
     */
    static double[] stepBoundInfo(final GlobalArray x, final GlobalArray v, final GlobalArray lower,
        final GlobalArray upper) {
        x.checkLive();
        final int[] lo = new int[x.ndim];
        final int[] hi = x.dims();
        for (int d = 0; d < x.ndim; d++) {
            hi[d]--;
        }
        final GlobalArray[] others = {v, lower, upper};
        final int[][] maps = new int[3][];
        for (int k = 0; k < 3; k++) {
            maps[k] = PatchCorrespondence.mapping(x, lo, hi, others[k], others[k].wholeLo(), others[k].wholeHi(),
                false);
        }
        x.group.sync();
        final double[] min = {GA_INFINITY};
        final double[] wolfe = {GA_INFINITY};
        final double[] max = {0};
        for (final int[][] part : Algebra.parts(x, lo, hi)) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final Object xb = x.type.newArray(Algebra.volume(plo, phi));
            x.sections.packed(Mover.GET, plo, phi, xb);
            final double[] xs = asDoubles(x, xb);
            final double[][] o = new double[3][];
            for (int k = 0; k < 3; k++) {
                o[k] = asDoubles(x, PatchCorrespondence.fetch(x, lo, hi, plo, phi, others[k], others[k].wholeLo(),
                    others[k].wholeHi(), maps[k], false));
            }
            for (int i = 0; i < xs.length; i++) {
                final double dv = o[0][i];
                if (dv == 0) {
                    continue;
                }
                final double t = ((dv > 0 ? o[2][i] : o[1][i]) - xs[i]) / dv;
                min[0] = Math.min(min[0], t);
                if (t > 0) {
                    wolfe[0] = Math.min(wolfe[0], t);
                }
                max[0] = Math.max(max[0], t);
            }
        }
        x.ga.gop(x.group, min, GopOp.MIN);
        x.ga.gop(x.group, wolfe, GopOp.MIN);
        x.ga.gop(x.group, max, GopOp.MAX);
        return new double[] {min[0], wolfe[0], max[0]};
    }

    private static double[] asDoubles(final GlobalArray a, final Object buf) {
        return a.type.isFloating() ? Algebra.doubles(buf) : toDoubles(Algebra.longs(buf));
    }

    /** {@code GA_Randomize}: each owner fills its block from a hash of (array id, call, linear index). */
    static void randomize(final GlobalArray a, final double max, final long call) {
        a.checkLive();
        final int[] lo = new int[a.ndim];
        final int[] hi = a.dims();
        final int[] dims = a.dims();
        for (int k = 0; k < a.ndim; k++) {
            hi[k]--;
        }
        a.group.sync();
        for (final int[][] part : Algebra.parts(a, lo, hi)) {
            final int[] plo = part[0];
            final int[] phi = part[1];
            final int n = Algebra.volume(plo, phi);
            final Object block = a.type.newArray(n);
            final int[] j = plo.clone();
            final long seed = mix(a.id * 0x9E3779B97F4A7C15L + call);
            final double imax = Math.ceil(max);
            for (int k = 0; k < n; k++) {
                long lin = 0;
                for (int d = 0; d < a.ndim; d++) {
                    lin = lin * dims[d] + j[d];
                }
                final double u = (mix(seed ^ lin * 0xBF58476D1CE4E5B9L) >>> 11) * 0x1.0p-53;
                switch (a.type) {
                    case DOUBLE -> ((double[]) block)[k] = u * max;
                    case FLOAT -> ((float[]) block)[k] = (float) Math.min(u * max, Math.nextDown((float) max));
                    case LONG -> ((long[]) block)[k] = (long) (u * imax);
                    case INT -> ((int[]) block)[k] = (int) (u * imax);
                }
                for (int d = a.ndim - 1; d >= 0 && ++j[d] > phi[d]; d--) {
                    j[d] = plo[d];
                }
            }
            a.sections.packed(Mover.PUT, plo, phi, block);
        }
        a.group.sync();
    }

    private static long mix(final long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
