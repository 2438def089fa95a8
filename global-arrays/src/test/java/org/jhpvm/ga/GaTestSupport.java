package org.jhpvm.ga;

import java.time.Duration;
import java.util.function.Consumer;

import org.jhpvm.shmem.ShmemJob;

/** Jobs for the tests, the PE counts, and values that depend on the position. */
final class GaTestSupport {
    static final int[] PES = {1, 2, 3, 4, 8, 16};

    private GaTestSupport() {
    }

    static ShmemJob.Report run(final int pes, final Consumer<GlobalArrays> body) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90)).build()
            .run(sh -> body.accept(new GlobalArrays(sh)));
    }

    static ShmemJob.Report runLossy(final int pes, final long seed, final Consumer<GlobalArrays> body) {
        return ShmemJob.builder().pes(pes).timeout(Duration.ofSeconds(90)).option("fabric.faults.seed", "" + seed)
            .option("fabric.faults.drop", "0.02").option("fabric.faults.corrupt", "0.005")
            .option("fabric.faults.duplicate", "0.005").build().run(sh -> body.accept(new GlobalArrays(sh)));
    }

    /** An exactly representable value for element {@code lin} in every type. */
    static double f(final GaType t, final long lin) {
        return switch (t) {
            case INT -> lin * 7 + 3;
            case LONG -> lin * 1_000_003L + 11;
            case FLOAT, SCPL -> lin * 0.5 + 0.25;
            case DOUBLE, DCPL -> lin * 0.125 + 1.0 / 1024;
        };
    }

    /** A typed buffer of {@code n} elements, all zero. */
    static Object buffer(final GaType t, final int n) {
        return t.newArray(n);
    }

    static void set(final Object buf, final int i, final double v) {
        switch (buf) {
            case int[] a -> a[i] = (int) v;
            case long[] a -> a[i] = (long) v;
            case float[] a -> a[i] = (float) v;
            case double[] a -> a[i] = v;
            default -> throw new IllegalArgumentException();
        }
    }

    static double at(final Object buf, final int i) {
        return switch (buf) {
            case int[] a -> a[i];
            case long[] a -> a[i];
            case float[] a -> a[i];
            case double[] a -> a[i];
            default -> throw new IllegalArgumentException();
        };
    }

    static long linear(final int[] dims, final int[] sub) {
        long lin = 0;
        for (int d = 0; d < dims.length; d++) {
            lin = lin * dims[d] + sub[d];
        }
        return lin;
    }

    static long volume(final int[] dims) {
        long v = 1;
        for (final int d : dims) {
            v *= d;
        }
        return v;
    }

    /** Row-major subscript of linear index {@code lin}. */
    static int[] subscript(final int[] dims, final long lin) {
        final int[] s = new int[dims.length];
        long r = lin;
        for (int d = dims.length - 1; d >= 0; d--) {
            s[d] = (int) (r % dims[d]);
            r /= dims[d];
        }
        return s;
    }

    /** Writes {@code buf} (packed row-major, the array's type) over the whole array from group rank 0, then syncs. */
    static void putWhole(final GlobalArray a, final Object buf) {
        final int[] dims = a.dims();
        final int[] lo = new int[dims.length];
        final int[] hi = new int[dims.length];
        final int[] ld = new int[Math.max(0, dims.length - 1)];
        for (int d = 0; d < dims.length; d++) {
            hi[d] = dims[d] - 1;
            if (d > 0) {
                ld[d - 1] = dims[d];
            }
        }
        if (a.group().nodeid() == 0) {
            a.ga.nbWait(a.nbPut(lo, hi, buf, ld));
        }
        a.group().sync();
    }

    /** The whole array, packed row-major, as doubles. */
    static double[] whole(final GlobalArray a) {
        final int[] dims = a.dims();
        final int n = (int) volume(dims);
        final Object buf = buffer(a.type(), n);
        final int[] lo = new int[dims.length];
        final int[] hi = new int[dims.length];
        final int[] ld = new int[Math.max(0, dims.length - 1)];
        for (int d = 0; d < dims.length; d++) {
            hi[d] = dims[d] - 1;
            if (d > 0) {
                ld[d - 1] = dims[d];
            }
        }
        a.ga.nbWait(a.nbGet(lo, hi, buf, ld));
        final double[] out = new double[n * a.type().width()]; // a complex array's pairs, interleaved
        for (int i = 0; i < out.length; i++) {
            out[i] = at(buf, i);
        }
        return out;
    }
}
