package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Typed gather/scatter: sendLongs/receiveLongs and friends, strided, across frame boundaries, against bytes. */
@Timeout(60)
class TypedPiecesTest {
    private static final int H = 3;

    @Test
    void shouldMoveEveryTypeStridedAndAcrossFramesByteIdentical() {
        // 3 odd bytes first, so that elements straddle the 16 KiB frame boundaries; 5000 longs span 3 frames.
        final int n = 5000;
        final long[] longs = new long[2 * n];
        final double[] doubles = new double[n];
        final int[] ints = new int[n];
        final float[] floats = new float[n];
        final byte[] bytes = new byte[n];
        for (int i = 0; i < 2 * n; i++) {
            longs[i] = i * 0x9E3779B97F4A7C15L;
        }
        for (int i = 0; i < n; i++) {
            doubles[i] = i * 1.25 - 7;
            ints[i] = i * 31 - 99;
            floats[i] = i * -0.5f;
            bytes[i] = (byte) (i * 7);
        }
        final long[] gotLongs = new long[3 * n];
        final double[] gotDoubles = new double[n];
        final int[] gotInts = new int[n];
        final float[] gotFloats = new float[n];
        final byte[] gotBytes = new byte[2 * n];
        final AtomicReference<int[]> tail = new AtomicReference<>();
        FmTestSupport.job(2).run(fm -> {
            fm.register(H, (FmHandler) (in, sender) -> {
                in.receive(new byte[3], 0, 3);
                in.receiveLongs(gotLongs, 1, 3, n);          // strided scatter of a contiguous gather
                in.receiveDoubles(gotDoubles, 0, 1, n);
                in.receiveInts(gotInts, 0, 1, n);
                in.receiveFloats(gotFloats, 0, 1, n);
                in.receiveBytes(gotBytes, 0, 2, n);
                tail.set(new int[] {in.receiveInt(), in.receivedBytes()});
            });
            if (fm.pe() == 0) {
                final int length = 3 + n * (8 + 8 + 4 + 4 + 1) + 4;
                final FmOutputStream out = fm.beginMessage(1, length, H);
                out.sendPiece(new byte[] {1, 2, 3}, 0, 3);
                out.sendLongs(longs, 0, 2, n);              // strided gather: the even elements
                out.sendDoubles(doubles, 0, 1, n);
                out.sendInts(ints, 0, 1, n);
                out.sendFloats(floats, 0, 1, n);
                out.sendBytes(bytes, 0, 1, n);
                out.sendInt(-5);
                assertEquals(length, out.lengthBytes());
                out.endMessage();
            } else {
                assertTrue(fm.extractUntil(() -> tail.get() != null, FmTestSupport.WAIT_NS));
            }
        });
        for (int i = 0; i < n; i++) {
            assertEquals(longs[2 * i], gotLongs[1 + 3 * i], "long " + i);
            assertEquals(0, gotLongs[3 * i], "untouched gap " + i);
            assertEquals(bytes[i], gotBytes[2 * i], "byte " + i);
        }
        assertArrayEquals(doubles, gotDoubles);
        assertArrayEquals(ints, gotInts);
        assertArrayEquals(floats, gotFloats);
        assertArrayEquals(new int[] {-5, 3 + n * 25 + 4}, tail.get());
    }

    @Test
    void shortRunsOfEveryTypeShouldMoveElementByElementAndStayExact() {
        // Runs below the bulk-copy size take the element-by-element path; 200 of them cross frame boundaries too.
        final int runs = 200;
        final double[] d = new double[runs * 7];
        final long[] l = new long[runs * 7];
        final int[] i32 = new int[runs * 7];
        final float[] f = new float[runs * 7];
        final byte[] b = new byte[runs * 7];
        for (int k = 0; k < d.length; k++) {
            d[k] = Double.longBitsToDouble(0x7ff0_0000_0000_0001L + k * 0x1_0000_0001L); // NaN payloads survive
            l[k] = Long.MIN_VALUE + k * 0x0102_0304_0506_0709L;
            i32[k] = Integer.MIN_VALUE + k * 0x0102_0305;
            f[k] = k * -1.75f;
            b[k] = (byte) (k * 13);
        }
        final double[] gd = new double[d.length];
        final long[] gl = new long[l.length];
        final int[] gi = new int[i32.length];
        final float[] gf = new float[f.length];
        final byte[] gb = new byte[b.length];
        final AtomicReference<Boolean> done = new AtomicReference<>();
        FmTestSupport.job(2).run(fm -> {
            fm.register(H, (FmHandler) (in, sender) -> {
                for (int r = 0; r < runs; r++) {
                    final int at = r * 7;
                    in.receiveDoubles(gd, at, 1, 3);
                    in.receiveLongs(gl, at + 1, 2, 3);
                    in.receiveInts(gi, at, 1, 5);
                    in.receiveFloats(gf, at + 2, 1, 2);
                    in.receiveBytes(gb, at, 3, 2);
                }
                done.set(true);
            });
            if (fm.pe() == 0) {
                final FmOutputStream out = fm.beginMessage(1, runs * (3 * 8 + 3 * 8 + 5 * 4 + 2 * 4 + 2), H);
                for (int r = 0; r < runs; r++) {
                    final int at = r * 7;
                    out.sendDoubles(d, at, 1, 3);
                    out.sendLongs(l, at + 1, 2, 3);
                    out.sendInts(i32, at, 1, 5);
                    out.sendFloats(f, at + 2, 1, 2);
                    out.sendBytes(b, at, 3, 2);
                }
                out.endMessage();
            } else {
                assertTrue(fm.extractUntil(() -> done.get() != null, FmTestSupport.WAIT_NS));
            }
        });
        for (int r = 0; r < runs; r++) {
            final int at = r * 7;
            for (int k = 0; k < 3; k++) {
                assertEquals(Double.doubleToRawLongBits(d[at + k]), Double.doubleToRawLongBits(gd[at + k]));
                assertEquals(l[at + 1 + 2 * k], gl[at + 1 + 2 * k], "long " + r + "." + k);
            }
            for (int k = 0; k < 5; k++) {
                assertEquals(i32[at + k], gi[at + k]);
            }
            assertEquals(f[at + 2], gf[at + 2]);
            assertEquals(f[at + 3], gf[at + 3]);
            assertEquals(b[at], gb[at]);
            assertEquals(b[at + 3], gb[at + 3]);
            assertEquals(0, gb[at + 1], "untouched between strided bytes");
            assertEquals(0, gl[at + 2], "untouched between strided longs");
        }
    }

    @Test
    void contiguousBytesAreCopiedWholeAcrossFramesWithEveryCheckOfTheTypedCalls() {
        // sendBytes/receiveBytes with stride 1 take the piece copy (no element loop): from an offset, across a 16 KiB
        // frame boundary (below the 32 KiB rendezvous size: the copying stream), and refusing what the typed calls
        // refuse, the same way.
        final int n = 30_000;
        final byte[] src = new byte[n + 5];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (i * 13 + 1);
        }
        final byte[] got = new byte[n + 9];
        final AtomicReference<Boolean> done = new AtomicReference<>();
        FmTestSupport.job(2).run(fm -> {
            fm.register(H, (FmHandler) (in, sender) -> {
                in.receive(new byte[3], 0, 3);
                assertThrows(IllegalArgumentException.class, () -> in.receiveBytes(got, 0, 1, -1));
                assertThrows(IndexOutOfBoundsException.class, () -> in.receiveBytes(new byte[4], 0, 1, 5));
                assertThrows(IndexOutOfBoundsException.class, () -> in.receiveBytes(new byte[n + 1], 0, 1, n + 1),
                    "beyond the declared length");
                in.receiveBytes(got, 7, 1, n);
                done.set(true);
            });
            if (fm.pe() == 0) {
                final FmOutputStream out = fm.beginMessage(1, 3 + n, H);
                out.sendPiece(new byte[] {9, 9, 9}, 0, 3);
                assertThrows(IndexOutOfBoundsException.class, () -> out.sendBytes(src, -1, 1, 1));
                assertThrows(IndexOutOfBoundsException.class, () -> out.sendBytes(src, 6, 1, n));
                assertThrows(IllegalArgumentException.class, () -> out.sendBytes(src, 0, 1, -1));
                assertThrows(IllegalArgumentException.class, () -> out.sendBytes(src, 0, 1, n + 1),
                    "beyond the declared length");
                assertEquals(3, out.lengthBytes(), "rejected pieces sent nothing");
                out.sendBytes(src, 5, 1, n);
                out.endMessage();
            } else {
                assertTrue(fm.extractUntil(() -> done.get() != null, FmTestSupport.WAIT_NS));
            }
        });
        assertArrayEquals(java.util.Arrays.copyOfRange(src, 5, 5 + n), java.util.Arrays.copyOfRange(got, 7, 7 + n));
        assertArrayEquals(new byte[7], java.util.Arrays.copyOf(got, 7), "nothing before the run");
        assertArrayEquals(new byte[2], java.util.Arrays.copyOfRange(got, 7 + n, 9 + n), "nothing after it");
    }

    @Test
    void shouldRejectBadElementRangesBeforeSendingAnything() {
        final AtomicReference<long[]> got = new AtomicReference<>();
        FmTestSupport.job(2).run(fm -> {
            fm.register(H, (FmHandler) (in, sender) -> {
                final long[] dst = new long[4];
                assertThrows(IndexOutOfBoundsException.class, () -> in.receiveLongs(dst, 0, 2, 3));
                assertThrows(IllegalArgumentException.class, () -> in.receiveLongs(dst, 0, 0, 1));
                assertThrows(IndexOutOfBoundsException.class, () -> in.receiveLongs(new long[8], 0, 1, 5),
                    "beyond the declared length");
                in.receiveLongs(dst, 0, 1, 4);
                got.set(dst);
            });
            if (fm.pe() == 0) {
                final long[] src = {10, 20, 30, 40};
                final FmOutputStream out = fm.beginMessage(1, 32, H);
                assertThrows(IndexOutOfBoundsException.class, () -> out.sendLongs(src, 2, 2, 2));
                assertThrows(IndexOutOfBoundsException.class, () -> out.sendLongs(src, -1, 1, 1));
                assertThrows(IllegalArgumentException.class, () -> out.sendLongs(src, 0, 0, 1));
                assertThrows(IllegalArgumentException.class, () -> out.sendLongs(src, 0, 1, -1));
                assertThrows(IllegalArgumentException.class, () -> out.sendLongs(new long[5], 0, 1, 5),
                    "beyond the declared length");
                assertEquals(0, out.lengthBytes(), "rejected pieces sent nothing");
                out.sendLongs(src, 0, 1, 4);
                out.endMessage();
            } else {
                assertTrue(fm.extractUntil(() -> got.get() != null, FmTestSupport.WAIT_NS));
            }
        });
        assertArrayEquals(new long[] {10, 20, 30, 40}, got.get());
    }
}
