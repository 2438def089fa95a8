package org.jhpvm.ga;

import static org.jhpvm.ga.GaTestSupport.whole;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Segmented scans, pack/unpack and patchEnum against a sequential model on 1..16 PEs. */
@Timeout(120)
class VectorOpsTest {
    static final int[] PES = GaTestSupport.PES;
    private static final int N = 23;
    private static final int LO = 1;
    private static final int HI = 20;

    private static boolean start(final int i) {
        return i % 5 == 2 || i == 11;
    }

    private static GlobalArray filled(final GlobalArrays ga, final GaType t, final String name, final boolean mask) {
        final GlobalArray a = ga.create(t, new int[] {N}, name);
        final Object buf = GaTestSupport.buffer(t, N);
        for (int i = 0; i < N; i++) {
            GaTestSupport.set(buf, i, mask ? (start(i) ? 1 : 0) : i + 1);
        }
        GaTestSupport.putWhole(a, buf);
        return a;
    }

    @ParameterizedTest
    @FieldSource("PES")
    void shouldScanPackAndEnumerateAsTheSequentialModel(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : new GaType[] {GaType.DOUBLE, GaType.LONG}) {
                final GlobalArray src = filled(ga, t, "src", false);
                final GlobalArray mask = filled(ga, GaType.INT, "mask", true);
                final GlobalArray dst = ga.create(t, new int[] {N}, "dst");
                dst.fill(-1);
                // Model: segments start at 2, 7, 11, 12, 17 within 1..20; element 1 precedes every start.
                final double[] incl = new double[N];
                final double[] excl = new double[N];
                final double[] copy = new double[N];
                java.util.Arrays.fill(incl, -1);
                java.util.Arrays.fill(excl, -1);
                java.util.Arrays.fill(copy, -1);
                double sum = 0;
                double first = 0;
                boolean active = false;
                for (int i = LO; i <= HI; i++) {
                    if (start(i)) {
                        active = true;
                        sum = 0;
                        first = i + 1;
                    }
                    if (active) {
                        excl[i] = sum;
                        sum += i + 1;
                        incl[i] = sum;
                        copy[i] = first;
                    }
                }
                src.scanAdd(dst, mask, LO, HI, false);
                assertArrayEquals(incl, whole(dst), 0.0, t + " inclusive");
                dst.fill(-1);
                src.scanAdd(dst, mask, LO, HI, true);
                assertArrayEquals(excl, whole(dst), 0.0, t + " exclusive");
                dst.fill(-1);
                src.scanCopy(dst, mask, LO, HI);
                assertArrayEquals(copy, whole(dst), 0.0, t + " copy");
                // pack the selected elements of 1..20 (values 3, 8, 12, 13, 18) to dst[0..4]
                dst.fill(-1);
                assertEquals(5, src.pack(dst, mask, LO, HI));
                final double[] packed = whole(dst);
                assertArrayEquals(new double[] {3, 8, 12, 13, 18, -1}, java.util.Arrays.copyOf(packed, 6), 0.0);
                // unpack them back into positions 2, 7, 11, 12, 17 of a fresh array
                final GlobalArray back = ga.create(t, new int[] {N}, "back");
                back.fill(-5);
                assertEquals(5, dst.unpack(back, mask, LO, HI));
                final double[] bv = whole(back);
                for (int i = 0; i < N; i++) {
                    assertEquals(i >= LO && i <= HI && start(i) ? i + 1 : -5, bv[i], 0.0, "position " + i);
                }
                // patchEnum
                back.patchEnum(3, 9, 100, -7);
                final double[] ev = whole(back);
                for (int i = 3; i <= 9; i++) {
                    assertEquals(100 - 7 * (i - 3), ev[i], 0.0);
                }
                assertEquals(3, ev[2], 0.0, "left as unpack wrote it");
                assertEquals(-5, ev[10], 0.0);
                // refusals before anything moves
                final GlobalArray tiny = ga.create(t, new int[] {4}, "tiny");
                assertThrows(IllegalArgumentException.class, () -> src.pack(tiny, mask, LO, HI), "4 < 5");
                assertThrows(IndexOutOfBoundsException.class, () -> src.scanAdd(dst, mask, 5, N, false));
                if (t == GaType.LONG) {
                    assertThrows(IllegalArgumentException.class, () -> back.patchEnum(0, 1, 0.5, 1), "a fraction");
                }
                ga.sync();
                tiny.destroy();
                back.destroy();
                dst.destroy();
                mask.destroy();
                src.destroy();
            }
        });
    }

    /** The complex forms: each component scanned as a real one, pairs packed and unpacked whole, complex enumeration. */
    @ParameterizedTest
    @FieldSource("PES")
    void shouldScanPackAndEnumerateComplexElements(final int pes) {
        GaTestSupport.run(pes, ga -> {
            for (final GaType t : new GaType[] {GaType.DCPL, GaType.SCPL}) {
                final GlobalArray src = ga.create(t, new int[] {N}, "src");
                final double[] sv = new double[2 * N];
                for (int i = 0; i < N; i++) {
                    sv[2 * i] = i + 1;
                    sv[2 * i + 1] = -2.0 * (i + 1);
                }
                GaTestSupport.putWhole(src, t == GaType.DCPL ? sv : toFloats(sv));
                final GlobalArray mask = filled(ga, GaType.INT, "mask", true);
                final GlobalArray dst = ga.create(t, new int[] {N}, "dst");
                dst.fill(-1, 0);
                final double[] incl = new double[2 * N];
                final double[] copy = new double[2 * N];
                for (int i = 0; i < N; i++) {
                    incl[2 * i] = -1;
                    copy[2 * i] = -1;
                }
                double re = 0;
                double im = 0;
                double firstRe = 0;
                double firstIm = 0;
                boolean active = false;
                for (int i = LO; i <= HI; i++) {
                    if (start(i)) {
                        active = true;
                        re = 0;
                        im = 0;
                        firstRe = sv[2 * i];
                        firstIm = sv[2 * i + 1];
                    }
                    if (active) {
                        re += sv[2 * i];
                        im += sv[2 * i + 1];
                        incl[2 * i] = re;
                        incl[2 * i + 1] = im;
                        copy[2 * i] = firstRe;
                        copy[2 * i + 1] = firstIm;
                    }
                }
                src.scanAdd(dst, mask, LO, HI, false);
                assertArrayEquals(incl, whole(dst), 0.0, t + " inclusive");
                dst.fill(-1, 0);
                src.scanCopy(dst, mask, LO, HI);
                assertArrayEquals(copy, whole(dst), 0.0, t + " copy");
                dst.fill(-1, 0);
                assertEquals(5, src.pack(dst, mask, LO, HI));
                assertArrayEquals(new double[] {3, -6, 8, -16, 12, -24, 13, -26, 18, -36, -1, 0},
                    java.util.Arrays.copyOf(whole(dst), 12), 0.0, t + " pack");
                final GlobalArray back = ga.create(t, new int[] {N}, "back");
                back.fill(0, 5);
                assertEquals(5, dst.unpack(back, mask, LO, HI));
                final double[] bv = whole(back);
                for (int i = 0; i < N; i++) {
                    final boolean picked = i >= LO && i <= HI && start(i);
                    assertEquals(picked ? i + 1 : 0, bv[2 * i], 0.0, t + " unpack re " + i);
                    assertEquals(picked ? -2.0 * (i + 1) : 5, bv[2 * i + 1], 0.0, t + " unpack im " + i);
                }
                back.patchEnum(3, 9, 100, 1, -7, 0.5);
                final double[] ev = whole(back);
                for (int i = 3; i <= 9; i++) {
                    assertEquals(100 - 7 * (i - 3), ev[2 * i], 0.0);
                    assertEquals(1 + 0.5 * (i - 3), ev[2 * i + 1], 0.0);
                }
                assertThrows(IllegalArgumentException.class, () -> mask.patchEnum(0, 1, 0, 1, 1, 0),
                    "a complex start on an int array");
                ga.sync();
                back.destroy();
                dst.destroy();
                mask.destroy();
                src.destroy();
            }
        });
    }

    private static float[] toFloats(final double[] d) {
        final float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) {
            f[i] = (float) d[i];
        }
        return f;
    }
}
