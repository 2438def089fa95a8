package org.jhpvm.fm;

import static org.jhpvm.fm.FmTestSupport.WAIT_NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RDMA carried in FM's messages between two PEs of one host moves its bytes through host memory
 * ({@code fm.hostStagingBytes}): the two PEs of an in-JVM job share host memory, as the processes of a host do under
 * {@code launch}. The bytes land exactly, at odd offsets, in one piece, in two, and in more pieces than a ring holds
 * (the producer waits for its consumer); the frames carry only the pieces' short messages (with
 * {@code fm.hostStagingBytes=0} these tests fail there); a transfer that fails its checks changes nothing; and two PEs
 * that fill rings towards each other at once both finish.
 */
@Timeout(120)
class HostStagingTest {
    private static final int HANDLE = 4;
    private static final int KEY = 44;

    private static FmJob job() {
        return FmJob.builder().pes(2).timeout(Duration.ofSeconds(100)).option("fm.nicOffload", "false").build();
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {16 << 10, (128 << 10) + 8, (5 << 20) + 24})
    void writesAndReadsShouldLandExactlyWithoutTheirBytesInFrames(final int bytes) {
        final int longs = bytes / 8;
        final long[] src = new SplittableRandom(bytes).longs(longs + 2).toArray();
        final long[] target = new long[longs + 2];
        final long[] back = new long[longs + 3];
        final AtomicReference<FmCounters> writeTarget = new AtomicReference<>();
        final AtomicLong readBytesReceived = new AtomicLong(-1);
        job().run(fm -> {
            fm.register(fm.pe() == 1 ? target : new long[1], HANDLE, KEY);
            final Barrier b = new Barrier(fm);
            b.await();
            if (fm.pe() == 0) {
                final FmRegion local = fm.register(src);
                final FmCompletion c = new FmCompletion();
                for (int i = 0; i < 3; i++) {
                    // From the source's second long into the target's second: neither end on a piece's edge.
                    fm.rdmaWrite(local, 8, 1, HANDLE, KEY, 8, bytes, i);
                    assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                    assertEquals(FmCompletion.OK, c.status(), "write " + i + ": " + c);
                    assertEquals(bytes, c.lengthBytes(), "write " + i + ": " + c);
                }
                final long before = fm.counters().bytesReceived();
                final FmRegion into = fm.register(back);
                fm.rdmaRead(into, 16, 1, HANDLE, KEY, 8, bytes, 9);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                assertEquals(FmCompletion.OK, c.status(), "read: " + c);
                assertEquals(bytes, c.lengthBytes(), "read: " + c);
                readBytesReceived.set(fm.counters().bytesReceived() - before);
            }
            b.await();
            if (fm.pe() == 1) {
                writeTarget.set(fm.counters());
            }
        });
        assertEquals(0, target[0], "the long before the write");
        assertEquals(0, target[longs + 1], "the long after the write");
        for (int i = 0; i < longs; i++) {
            if (target[1 + i] != src[1 + i]) {
                assertEquals(src[1 + i], target[1 + i], "written long " + i);
            }
        }
        assertEquals(0, back[0] | back[1] | back[longs + 2], "the longs beside the read");
        for (int i = 0; i < longs; i++) {
            if (back[2 + i] != src[1 + i]) {
                assertEquals(src[1 + i], back[2 + i], "read long " + i);
            }
        }
        // Three writes of the bytes went to PE 1, and the read's bytes to PE 0: a few hundred bytes of messages each.
        final long perPiece = 128;
        final long pieces = (bytes + (128 << 10) - 1) / (128 << 10);
        assertTrue(writeTarget.get().bytesReceived() < 3 * pieces * perPiece + 4096,
            "the writes' bytes came in frames: " + writeTarget.get());
        assertTrue(readBytesReceived.get() >= 0 && readBytesReceived.get() < pieces * perPiece + 1024,
            "the read's bytes came in frames: " + readBytesReceived.get() + " bytes received");
    }

    @Test
    void aTransferThatFailsItsChecksShouldChangeNothing() {
        final int bytes = 300 << 10; // three pieces
        final long[] src = new SplittableRandom(3).longs(bytes / 8).toArray();
        final long[] target = new long[bytes / 8];
        final long[] back = new long[bytes / 8];
        final AtomicReference<String> statuses = new AtomicReference<>();
        job().run(fm -> {
            fm.register(fm.pe() == 1 ? target : new long[1], HANDLE, KEY);
            final Barrier b = new Barrier(fm);
            b.await();
            if (fm.pe() == 0) {
                final FmRegion local = fm.register(src);
                final FmRegion into = fm.register(back);
                final FmCompletion c = new FmCompletion();
                final StringBuilder s = new StringBuilder();
                fm.rdmaWrite(local, 0, 1, HANDLE, KEY + 1, 0, bytes, 1);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                s.append(FmCompletion.statusName(c.status())).append(' ');
                // Its last piece is the one that goes beyond the region (by one long).
                fm.rdmaWrite(local, 0, 1, HANDLE, KEY, 8, bytes, 2);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                s.append(FmCompletion.statusName(c.status())).append(' ');
                fm.rdmaWrite(local, 0, 1, HANDLE + 1, KEY, 0, bytes, 3);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                s.append(FmCompletion.statusName(c.status())).append(' ');
                fm.rdmaRead(into, 0, 1, HANDLE, KEY + 1, 0, bytes, 4);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                s.append(FmCompletion.statusName(c.status())).append(' ');
                fm.rdmaRead(into, 0, 1, HANDLE, KEY, 8, bytes, 5);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                s.append(FmCompletion.statusName(c.status()));
                statuses.set(s.toString());
                assertTrue(Arrays.stream(target).allMatch(v -> v == 0), "a failed write changed the target");
                assertTrue(Arrays.stream(back).allMatch(v -> v == 0), "a failed read changed the reader");
                // The slots the failed writes took are free again: a good write of the same size lands.
                fm.rdmaWrite(local, 0, 1, HANDLE, KEY, 0, bytes, 6);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                assertEquals(FmCompletion.OK, c.status(), "the good write: " + c);
            }
            b.await();
        });
        assertEquals("BAD_KEY OUT_OF_BOUNDS NOT_REGISTERED BAD_KEY OUT_OF_BOUNDS", statuses.get());
        assertTrue(Arrays.equals(src, target), "the good write after the failed ones");
    }

    @Test
    void twoPesFillingRingsTowardsEachOtherShouldBothFinish() {
        final int bytes = 4 << 20; // two rings' worth each way
        final long[][] src = {new SplittableRandom(1).longs(bytes / 8).toArray(),
            new SplittableRandom(2).longs(bytes / 8).toArray()};
        final long[][] got = {new long[bytes / 8], new long[bytes / 8]};
        job().run(fm -> {
            final int me = fm.pe();
            fm.register(got[me], HANDLE, KEY);
            final FmRegion local = fm.register(src[me]);
            final Barrier b = new Barrier(fm);
            b.await();
            final FmCompletion c = new FmCompletion();
            for (int i = 0; i < 5; i++) {
                fm.rdmaWrite(local, 0, 1 - me, HANDLE, KEY, 0, bytes, i);
                assertTrue(fm.awaitCompletion(c, WAIT_NS), "PE " + me + ": no completion");
                assertEquals(FmCompletion.OK, c.status(), "PE " + me + ", write " + i + ": " + c);
            }
            b.await();
        });
        assertTrue(Arrays.equals(src[1], got[0]), "PE 1's writes into PE 0");
        assertTrue(Arrays.equals(src[0], got[1]), "PE 0's writes into PE 1");
    }
}
