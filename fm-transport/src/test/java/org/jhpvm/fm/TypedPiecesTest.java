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
