package org.jhpvm.shmem;

/** Element-wise {@code acc[i] = acc[i] OP in[i]} for each reduction operator and type. */
final class Reduce {
    private Reduce() {
    }

    static void combine(final Kind kind, final ReduceOp op, final Object acc, final Object in, final int n) {
        switch (kind) {
            case BYTE -> {
                final byte[] a = (byte[]) acc;
                final byte[] b = (byte[]) in;
                for (int i = 0; i < n; i++) {
                    a[i] = (byte) longOp(op, a[i], b[i]);
                }
            }
            case INT -> {
                final int[] a = (int[]) acc;
                final int[] b = (int[]) in;
                for (int i = 0; i < n; i++) {
                    a[i] = (int) longOp(op, a[i], b[i]);
                }
            }
            case LONG -> {
                final long[] a = (long[]) acc;
                final long[] b = (long[]) in;
                for (int i = 0; i < n; i++) {
                    a[i] = longOp(op, a[i], b[i]);
                }
            }
            case FLOAT -> {
                final float[] a = (float[]) acc;
                final float[] b = (float[]) in;
                for (int i = 0; i < n; i++) {
                    a[i] = (float) doubleOp(op, a[i], b[i]);
                }
            }
            case DOUBLE -> {
                final double[] a = (double[]) acc;
                final double[] b = (double[]) in;
                for (int i = 0; i < n; i++) {
                    a[i] = doubleOp(op, a[i], b[i]);
                }
            }
        }
    }

    static long longOp(final ReduceOp op, final long a, final long b) {
        return switch (op) {
            case AND -> a & b;
            case OR -> a | b;
            case XOR -> a ^ b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case SUM -> a + b;
            case PROD -> a * b;
        };
    }

    /** Float operands are widened exactly; their sum and product are rounded back to float by the caller. */
    static double doubleOp(final ReduceOp op, final double a, final double b) {
        return switch (op) {
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case SUM -> a + b;
            case PROD -> a * b;
            default -> throw new IllegalArgumentException(op + " is not defined on floating point");
        };
    }
}
