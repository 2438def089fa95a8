package org.jhpvm.ga;

/**
 * The element-wise arithmetic of {@link Algebra} on complex elements (SCPL and DCPL): packed buffers of interleaved
 * (real, imaginary) pairs, computed in double precision and, for SCPL, rounded once to float. Multiplication and
 * division are the textbook formulas (no scaling against overflow); the maximum and minimum of two elements are the
 * one of larger and smaller modulus, as GA's {@code GA_Elem_maximum}/{@code _minimum} choose for complex types
 * (on a tie, the second operand); the absolute value is the modulus, with
 * imaginary part 0.
 */
final class ComplexAlgebra {
    private ComplexAlgebra() {
    }

    /**
     * The new values of a part of n elements, packed, in the array's type: {@code op} of {@link Algebra} with the
     * complex scalars {@code (s1r, s1i)} and {@code (s2r, s2i)}.
     */
    static Object compute(final int op, final GaType type, final int n, final Object cBuf, final Object aBuf,
        final Object bBuf, final double s1r, final double s1i, final double s2r, final double s2i) {
        final double[] c = Algebra.doubles(cBuf);
        final double[] a = aBuf == null ? null : Algebra.doubles(aBuf);
        final double[] b = bBuf == null ? null : Algebra.doubles(bBuf);
        for (int k = 0; k < 2 * n; k += 2) {
            final double cr = c[k];
            final double ci = c[k + 1];
            final double ar = a == null ? 0 : a[k];
            final double ai = a == null ? 0 : a[k + 1];
            final double br = b == null ? 0 : b[k];
            final double bi = b == null ? 0 : b[k + 1];
            double re;
            double im;
            switch (op) {
                case Algebra.COPY -> {
                    re = ar;
                    im = ai;
                }
                case Algebra.ADD -> {
                    re = s1r * ar - s1i * ai + s2r * br - s2i * bi;
                    im = s1r * ai + s1i * ar + s2r * bi + s2i * br;
                }
                case Algebra.MUL -> {
                    re = ar * br - ai * bi;
                    im = ar * bi + ai * br;
                }
                case Algebra.DIV -> {
                    final double d = br * br + bi * bi;
                    re = (ar * br + ai * bi) / d;
                    im = (ai * br - ar * bi) / d;
                }
                case Algebra.MAX -> {
                    final boolean first = Math.hypot(ar, ai) > Math.hypot(br, bi);
                    re = first ? ar : br;
                    im = first ? ai : bi;
                }
                case Algebra.MIN -> {
                    final boolean first = Math.hypot(ar, ai) < Math.hypot(br, bi);
                    re = first ? ar : br;
                    im = first ? ai : bi;
                }
                case Algebra.FILL -> {
                    re = s1r;
                    im = s1i;
                }
                case Algebra.SCALE -> {
                    re = s1r * cr - s1i * ci;
                    im = s1r * ci + s1i * cr;
                }
                case Algebra.ABS -> {
                    re = Math.hypot(cr, ci);
                    im = 0;
                }
                case Algebra.RECIP -> {
                    final double d = cr * cr + ci * ci;
                    re = cr / d;
                    im = -ci / d;
                }
                default -> {
                    re = cr + s1r;
                    im = ci + s1i;
                }
            }
            c[k] = re;
            c[k + 1] = im;
        }
        return Algebra.fromDoubles(c, type);
    }

    /** Adds {@code sum a[k] * b[k]} (complex, unconjugated, as GA's zdot) over n elements to {@code sum[0..1]}. */
    static void dot(final Object aBuf, final Object bBuf, final int n, final double[] sum) {
        final double[] a = Algebra.doubles(aBuf);
        final double[] b = Algebra.doubles(bBuf);
        double re = 0;
        double im = 0;
        for (int k = 0; k < 2 * n; k += 2) {
            re += a[k] * b[k] - a[k + 1] * b[k + 1];
            im += a[k] * b[k + 1] + a[k + 1] * b[k];
        }
        sum[0] += re;
        sum[1] += im;
    }

    /**
     * {@code alpha * src} for a complex {@code alpha}, element by element, into a new buffer of the same type and
     * length (acc with a complex alpha: the accumulate below it scales by a real number only).
     */
    static Object scaled(final Object src, final double alphaRe, final double alphaIm) {
        if (src instanceof double[] d) {
            final double[] out = new double[d.length];
            for (int k = 0; k + 1 < d.length; k += 2) {
                out[k] = alphaRe * d[k] - alphaIm * d[k + 1];
                out[k + 1] = alphaRe * d[k + 1] + alphaIm * d[k];
            }
            return out;
        }
        final float[] f = (float[]) src;
        final float[] out = new float[f.length];
        for (int k = 0; k + 1 < f.length; k += 2) {
            out[k] = (float) (alphaRe * f[k] - alphaIm * f[k + 1]);
            out[k + 1] = (float) (alphaRe * f[k + 1] + alphaIm * f[k]);
        }
        return out;
    }
}
