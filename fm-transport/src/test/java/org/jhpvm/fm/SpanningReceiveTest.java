package org.jhpvm.fm;

import static org.jhpvm.fm.FmTestSupport.WAIT_NS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A suspended handler's receive that spans many frames is filled by extract frame by frame and wakes the handler
 * once: the bytes land exactly, in arrays of every kind, at odd offsets (elements straddling frames), with lost and
 * corrupted frames too; and the handler is resumed a few times per message, not once per frame (the counter
 * {@code handlerResumes}: with a resume per frame, as before, these tests fail). FM's own handlers of RDMA carried
 * in messages need no handler thread at all.
 */
@Timeout(120)
class SpanningReceiveTest {
    private static final int H = 5;
    /** Frames of a 1 MiB message at the default 16 KiB frame size: 64 and a little. */
    private static final int LONGS = 1 << 17;

    private static FmJob job(final double drop) {
        final FmJob.Builder b = FmJob.builder().pes(2).timeout(Duration.ofSeconds(100))
            .option("fm.rendezvousBytes", "0"); // every message in frames, as over a fabric without RDMA
        if (drop > 0) {
            b.option("fabric.faults.seed", "5").option("fabric.faults.drop", Double.toString(drop))
                .option("fabric.faults.corrupt", Double.toString(drop / 2));
        }
        return b.build();
    }

    @ParameterizedTest(name = "drop={0}")
    @ValueSource(doubles = {0, 0.02})
    void receivesSpanningFramesShouldLandExactlyAndWakeTheHandlerOncePerReceive(final double drop) {
        final SplittableRandom r = new SplittableRandom(42);
        final long[] longs = r.longs(LONGS).toArray();
        final double[] doubles = r.doubles(LONGS / 2).toArray();
        final byte[] bytes = new byte[300_001];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) r.nextInt();
        }
        final int messages = 3;
        final long[] gotLongs = new long[LONGS + 2];
        final double[] gotDoubles = new double[LONGS / 2];
        final byte[] gotBytes = new byte[bytes.length + 10];
        final AtomicReference<String> wrong = new AtomicReference<>();
        final AtomicReference<FmCounters> receiver = new AtomicReference<>();
        job(drop).run(fm -> {
            final int[] done = {0};
            fm.register(H, (FmHandler) (in, sender) -> {
                in.receive(gotBytes, 0, 1);                       // one odd byte: what follows straddles frames
                in.receiveLongs(gotLongs, 1, 1, LONGS);           // 1 MiB, 65 frames, in one receive
                final int marker = in.receiveInt();
                in.receiveDoubles(gotDoubles, 0, 1, LONGS / 2);   // 512 KiB
                final int rest = in.receiveUpTo(gotBytes, 1, gotBytes.length - 1); // more room than the message has
                if (marker != 0x5EED || rest != bytes.length || in.receivedBytes() != in.declaredLength()) {
                    wrong.set("marker " + marker + ", rest " + rest + ", received " + in.receivedBytes() + " of "
                        + in.declaredLength());
                }
                done[0]++;
            });
            if (fm.pe() == 0) {
                for (int m = 0; m < messages; m++) {
                    final int length = 1 + 8 * LONGS + 4 + 8 * (LONGS / 2) + bytes.length;
                    final FmOutputStream out = fm.beginMessage(1, length, H);
                    out.sendPiece(new byte[] {7}, 0, 1);
                    out.sendLongs(longs, 0, 1, LONGS);
                    out.sendInt(0x5EED);
                    out.sendDoubles(doubles, 0, 1, LONGS / 2);
                    out.sendPiece(bytes, 0, bytes.length);
                    out.endMessage();
                }
            } else {
                assertTrue(fm.extractUntil(() -> done[0] == messages, WAIT_NS));
                receiver.set(fm.counters());
            }
        });
        assertEquals(null, wrong.get());
        assertEquals(7, gotBytes[0]);
        assertEquals(0, gotLongs[0]);
        assertEquals(0, gotLongs[LONGS + 1]);
        for (int i = 0; i < LONGS; i++) {
            if (gotLongs[1 + i] != longs[i]) {
                assertEquals(longs[i], gotLongs[1 + i], "long " + i);
            }
        }
        assertArrayEquals(doubles, gotDoubles);
        for (int i = 0; i < bytes.length; i++) {
            if (gotBytes[1 + i] != bytes[i]) {
                assertEquals(bytes[i], gotBytes[1 + i], "byte " + i);
            }
        }
        final FmCounters c = receiver.get();
        final long framesPerMessage = c.framesConsumed() / messages;
        assertTrue(framesPerMessage > 90, "the messages took " + framesPerMessage + " frames each: " + c);
        assertTrue(c.handlersSuspended() >= messages, "the handlers had to wait for frames: " + c);
        // Each of the 3 long receives wakes its handler once; the short ones (the marker, the odd byte) at most once
        // each when they cross a frame boundary; and the handler's start. Not one wake per frame.
        assertTrue(c.handlerResumes() <= 6L * messages, "handlers resumed " + c.handlerResumes() + " times for "
            + messages + " messages of " + framesPerMessage + " frames: " + c);
    }

    @Test
    void rdmaThroughMessagesShouldLandExactlyWithoutAHandlerThread() {
        // Without NIC offload, an RDMA write is an FM message whose handler receives the bytes into the region (its
        // bytes in frames: not through host memory, which the two PEs of this JVM share).
        final int longs = 3 * LONGS / 2;
        final long[] src = new SplittableRandom(7).longs(longs).toArray();
        final long[] target = new long[longs + 1];
        final AtomicReference<FmCounters> receiver = new AtomicReference<>();
        final AtomicReference<FmCounters> reader = new AtomicReference<>();
        FmJob.builder().pes(2).timeout(Duration.ofSeconds(100))
            .option("fm.nicOffload", "false").option("fm.rendezvousBytes", "0").option("fm.hostStagingBytes", "0")
            .build().run(fm -> {
                final FmRegion mine = fm.register(fm.pe() == 1 ? target : new long[1], 4, 44);
                final Barrier b = new Barrier(fm);
                b.await();
                if (fm.pe() == 0) {
                    final FmRegion local = fm.register(src);
                    for (int i = 0; i < 4; i++) {
                        fm.rdmaWrite(local, 0, 1, 4, 44, 8, 8L * longs, i);
                        final FmCompletion c = new FmCompletion();
                        assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                        assertEquals(0, c.status(), "write " + i + ": " + c);
                    }
                    // And back: reads of the same bytes, whose data comes in frames to this PE.
                    final long[] back = new long[longs + 3];
                    final FmRegion into = fm.register(back);
                    fm.rdmaRead(into, 16, 1, 4, 44, 8, 8L * longs, 9);
                    final FmCompletion c = new FmCompletion();
                    assertTrue(fm.awaitCompletion(c, WAIT_NS), "no completion");
                    assertEquals(0, c.status(), "read: " + c);
                    assertEquals(8L * longs, c.lengthBytes(), "read: " + c);
                    for (int i = 0; i < longs; i++) {
                        if (back[2 + i] != src[i]) {
                            assertEquals(src[i], back[2 + i], "read back long " + i);
                        }
                    }
                    assertEquals(0, back[0] | back[1] | back[longs + 2], "bytes beside the read");
                    reader.set(fm.counters());
                }
                b.await();
                if (fm.pe() == 1) {
                    receiver.set(fm.counters());
                }
                assertTrue(mine != null);
            });
        assertEquals(0, target[0]);
        for (int i = 0; i < longs; i++) {
            if (target[1 + i] != src[i]) {
                assertEquals(src[i], target[1 + i], "long " + i);
            }
        }
        // The handlers of the writes and of the read's data run inline on their first frame and leave the bytes to
        // extract: no virtual thread, no hand-off, though each transfer spans about 100 frames.
        final FmCounters c = receiver.get();
        assertTrue(c.framesConsumed() > 4 * 90, "the writes went in frames: " + c);
        assertEquals(0, c.handlersSuspended(), "target's handlers on threads: " + c);
        assertEquals(0, c.handlerResumes(), "target's handlers resumed: " + c);
        final FmCounters r = reader.get();
        assertTrue(r.framesConsumed() > 90, "the read's data came in frames: " + r);
        assertEquals(0, r.handlersSuspended(), "reader's handlers on threads: " + r);
    }
}
