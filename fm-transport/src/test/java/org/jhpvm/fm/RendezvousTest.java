package org.jhpvm.fm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import org.jhpvm.fabric.FabricConfig;
import org.jhpvm.fabric.FaultPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Large messages by rendezvous (the receiver pulls the sender's pieces by RDMA) against the same messages in frames:
 * random messages up to 2 MiB built of random pieces (large and small, typed, strided, scalars, from more arrays than
 * the registration cache holds and more pieces than a request can name) received in random patterns, both PEs
 * sending to each other at once, with and without faults: every byte, the order per sender and exactly once.
 */
@Timeout(120)
class RendezvousTest {
    private static final int DATA = 4;
    private static final int MESSAGES = 60;
    private static final int MAX_BYTES = 2 << 20;

    private static FmJob job(final boolean rendezvous, final boolean lossy) {
        final FaultPlan plan = lossy ? FaultPlan.builder(16).drop(0.02).corrupt(0.01).duplicate(0.01).reorder(0.01)
            .build() : FaultPlan.none();
        return FmTestSupport.job(FabricConfig.builder(2).faultPlan(plan).build(),
            FmConfig.builder().rendezvousBytes(rendezvous ? 32 << 10 : 0).build());
    }

    /** A message's bytes: its number first (8 bytes), then a pattern of sender, number and position. */
    private static byte[] body(final int sender, final int number, final int length) {
        final byte[] b = FmTestSupport.message(sender * 1000L + 7, number, length);
        for (int i = 0; i < Math.min(8, length); i++) {
            b[i] = (byte) (number >>> (8 * i));
        }
        return b;
    }

    @ParameterizedTest(name = "rendezvous={0} lossy={1}")
    @CsvSource({"true,false", "false,false", "true,true", "false,true"})
    void shouldDeliverRandomPiecesExactlyOnceInOrderBothWays(final boolean rendezvous, final boolean lossy) {
        final long seed = Long.getLong("jhpvm.test.seed", System.nanoTime());
        System.out.println("RendezvousTest seed " + seed + " (replay: -Djhpvm.test.seed=" + seed + ")");
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        // Messages below the rendezvous threshold go in frames; one longer than a frame can lose a later frame.
        final java.util.concurrent.atomic.AtomicInteger framedLong = new java.util.concurrent.atomic.AtomicInteger();
        final FmJob.Report report = job(rendezvous, lossy).run(fm -> {
            final int me = fm.pe();
            final int peer = 1 - me;
            final SplittableRandom random = new SplittableRandom(seed ^ me);
            final SplittableRandom receiving = new SplittableRandom(seed * 31 + me);
            final int[] next = {0};
            final byte[] got = new byte[MAX_BYTES + 8];
            fm.register(DATA, (FmHandler) (in, sender) -> {
                final int length = in.declaredLength();
                int at = 0;
                // Receive in a random pattern: big and small byte runs, longs, ints.
                while (at < length) {
                    final int kind = receiving.nextInt(4);
                    final int left = length - at;
                    if (kind == 0 && left >= 8) {
                        final long v = in.receiveLong();
                        for (int i = 0; i < 8; i++) {
                            got[at + i] = (byte) (v >>> (8 * i));
                        }
                        at += 8;
                    } else if (kind == 1 && left >= 4) {
                        final int v = in.receiveInt();
                        for (int i = 0; i < 4; i++) {
                            got[at + i] = (byte) (v >>> (8 * i));
                        }
                        at += 4;
                    } else {
                        final int n = Math.min(left, receiving.nextBoolean() ? 1 + receiving.nextInt(64)
                            : 1 + receiving.nextInt(1 << 18));
                        in.receive(got, at, n);
                        at += n;
                    }
                }
                assertEquals(length, in.receivedBytes());
                final byte[] want = body(sender, next[0], length);
                for (int i = 0; i < length; i++) {
                    if (got[i] != want[i]) {
                        failures.add("PE " + fm.pe() + ": message " + next[0] + " from PE " + sender + " (" + length
                            + " bytes) differs at byte " + i);
                        break;
                    }
                }
                next[0]++;
            });
            // 40 source arrays: more than the sender's registration cache holds. A piece's bytes must stay as they
            // are until endMessage returns (a rendezvous reads them then), so within a message each array is filled
            // from a cursor on; a piece that fits nowhere gets a fresh array.
            final byte[][] sources = new byte[40][];
            final int[] cursor = new int[sources.length];
            for (int m = 0; m < MESSAGES; m++) {
                final int length = random.nextInt(4) == 0 ? random.nextInt(100) : random.nextInt(MAX_BYTES);
                final byte[] b = body(me, m, length);
                if (length > 1024 && length < 32 << 10) {
                    framedLong.incrementAndGet();
                }
                final FmOutputStream out = fm.beginMessage(peer, length, DATA);
                java.util.Arrays.fill(cursor, 0);
                int at = 0;
                while (at < length) {
                    final int left = length - at;
                    final int n = Math.min(left, random.nextInt(3) == 0 ? 1 + random.nextInt(16)
                        : 1 + random.nextInt(1 << 17));
                    final int slot = random.nextInt(sources.length);
                    if (sources[slot] == null) {
                        sources[slot] = new byte[1 << 18];
                    }
                    final int off = cursor[slot] + random.nextInt(64);
                    final byte[] src;
                    final int srcOff;
                    if (off + n <= sources[slot].length) {
                        src = sources[slot];
                        srcOff = off;
                        cursor[slot] = off + n;
                    } else {
                        src = new byte[n + 3];
                        srcOff = 3;
                    }
                    System.arraycopy(b, at, src, srcOff, n);
                    out.sendPiece(src, srcOff, n);
                    at += n;
                }
                assertEquals(length, out.lengthBytes());
                out.endMessage();
                // The sender may reuse its arrays at once: scribble over them.
                for (final byte[] s : sources) {
                    if (s != null) {
                        java.util.Arrays.fill(s, (byte) 0x5A);
                    }
                }
            }
            assertTrue(fm.extractUntil(() -> next[0] == MESSAGES, FmTestSupport.WAIT_NS), "all messages arrived");
        });
        assertEquals(List.of(), failures);
        final FmCounters t = report.totals();
        assertEquals(2L * MESSAGES, t.messagesHandled(), t.toString());
        assertEquals(t.bytesSent(), t.bytesReceived(), "every byte sent was received once: " + t);
        if (rendezvous) {
            assertTrue(t.rendezvousMessages() > 0, "large messages went by rendezvous: " + t);
            if (lossy) {
                // Only a message in frames whose later frame was lost waits for it (its retransmission).
                assertTrue(t.handlersSuspended() <= framedLong.get(), "only messages in frames waited for frames: "
                    + framedLong.get() + " of them; " + t);
            } else if (t.framesRetransmitted() == 0) {
                assertEquals(0, t.handlersSuspended(), "no handler waited for frames: " + t);
            } else {
                // A busy machine can stretch an acknowledgement past FM's timeout: a frame retransmitted without a
                // loss may still be in flight when its message's handler runs, which then waits for it (seen once).
                assertTrue(t.handlersSuspended() <= t.framesRetransmitted(), "only messages with a retransmitted "
                    + "frame waited: " + t);
            }
        } else {
            assertEquals(0, t.rendezvousMessages(), t.toString());
            assertTrue(t.handlersSuspended() > 0, "2 MiB messages did not fit the queue: " + t);
        }
    }

    @Test
    void shouldMoveTypedStridedAndScalarPiecesAndLeaveUnreceivedBytes() {
        final int n = 20_000;
        final long[] longs = new long[2 * n];
        final double[] doubles = new double[n];
        for (int i = 0; i < longs.length; i++) {
            longs[i] = i * 0x9E3779B97F4A7C15L;
        }
        for (int i = 0; i < n; i++) {
            doubles[i] = i * 0.25 - 3;
        }
        final long[] gotLongs = new long[n];
        final double[] gotDoubles = new double[2 * n];
        final AtomicReference<String> second = new AtomicReference<>();
        final FmJob.Report report = job(true, false).run(fm -> {
            fm.register(DATA, (FmHandler) (in, sender) -> {
                if (in.declaredLength() < 100) {
                    second.set(in.receiveInt() + "/" + in.receivedBytes());
                    return;
                }
                assertEquals(77, in.receiveInt());
                in.receiveLongs(gotLongs, 0, 1, n);           // the strided gather, contiguous here
                in.receiveDoubles(gotDoubles, 1, 2, n);       // a contiguous gather, strided here
                assertEquals(-1L, in.receiveLong());
                // the rest (declared but never sent, or sent and not received) is left
                final byte[] rest = new byte[64];
                assertEquals(0, in.receiveUpTo(rest, 0, 64), "nothing was sent after the long");
                assertThrows(IllegalStateException.class, () -> in.receive(rest, 0, 1), "past the sent bytes");
            });
            if (fm.pe() == 0) {
                final FmOutputStream out = fm.beginMessage(1, 4 + n * 16 + 8 + 1000, DATA);
                out.sendInt(77);
                out.sendLongs(longs, 0, 2, n);
                out.sendDoubles(doubles, 0, 1, n);
                out.sendLong(-1);
                out.endMessage();                           // 1000 declared bytes never sent
                final FmOutputStream small = fm.beginMessage(1, 4, DATA);
                small.sendInt(9);
                small.endMessage();
            } else {
                assertTrue(fm.extractUntil(() -> second.get() != null, FmTestSupport.WAIT_NS));
            }
        });
        for (int i = 0; i < n; i++) {
            assertEquals(longs[2 * i], gotLongs[i], "long " + i);
            assertEquals(doubles[i], gotDoubles[1 + 2 * i], "double " + i);
            assertEquals(0.0, gotDoubles[2 * i], "gap " + i);
        }
        assertEquals("9/4", second.get(), "the next message is intact");
        assertEquals(1, report.totals().rendezvousMessages());
    }

    @Test
    void shouldDeliverLargeFm1SendsAndLargeSendsFromHandlers() {
        final int reply = 5;
        final byte[] big = FmTestSupport.message(3, 1, 300_000);
        final AtomicReference<byte[]> fm1 = new AtomicReference<>();
        final AtomicReference<byte[]> fromHandler = new AtomicReference<>();
        final FmJob.Report report = job(true, false).run(fm -> {
            fm.register(DATA, (Fm1Handler) (sender, buffer, offset, length) -> {
                fm1.set(java.util.Arrays.copyOfRange(buffer, offset, offset + length));
                // A handler's large message goes in frames (a handler may not wait for a rendezvous).
                final FmOutputStream out = fm.beginMessage(sender, big.length, reply);
                out.sendPiece(big, 0, big.length);
                out.endMessage();
            });
            fm.register(reply, (FmHandler) (in, sender) -> {
                final byte[] b = new byte[in.declaredLength()];
                in.receive(b, 0, b.length);
                fromHandler.set(b);
            });
            if (fm.pe() == 0) {
                fm.send(1, DATA, big, 0, big.length);
                assertTrue(fm.extractUntil(() -> fromHandler.get() != null, FmTestSupport.WAIT_NS));
            } else {
                assertTrue(fm.extractUntil(() -> fm1.get() != null, FmTestSupport.WAIT_NS));
            }
        });
        assertArrayEquals(big, fm1.get(), "FM 1.x send by rendezvous");
        assertArrayEquals(big, fromHandler.get(), "the handler's reply in frames");
        assertEquals(1, report.totals().rendezvousMessages(), report.totals().toString());
    }

    /**
     * A large message to this PE itself travels in frames: its handler does not run inside endMessage, so the usual
     * loop (send, then extract until the handler has run) works; a rendezvous would have run it in the send.
     */
    @Test
    void shouldSendLargeMessagesToItselfInFramesAndRunTheHandlerInExtract() {
        final byte[] big = FmTestSupport.message(5, 2, 100_000);
        final byte[][] got = new byte[2][big.length];
        final int[] handled = new int[2];
        final int[] handledDuringSends = new int[2];
        final FmJob.Report report = job(true, false).run(fm -> {
            final int me = fm.pe();
            fm.register(DATA, (FmHandler) (in, sender) -> {
                in.receive(got[me], 0, in.declaredLength());
                handled[me]++;
            });
            for (int i = 0; i < 5; i++) {
                final int before = handled[me];
                final FmOutputStream out = fm.beginMessage(me, big.length, DATA);
                out.sendPiece(big, 0, big.length);
                out.endMessage();
                handledDuringSends[me] += handled[me] - before;
                assertTrue(fm.extractUntil(() -> handled[me] > before, FmTestSupport.WAIT_NS), "message " + i);
            }
        });
        for (int pe = 0; pe < 2; pe++) {
            assertEquals(0, handledDuringSends[pe], "no handler ran inside endMessage on PE " + pe);
            assertEquals(5, handled[pe], "PE " + pe);
            assertArrayEquals(big, got[pe], "PE " + pe);
        }
        assertEquals(0, report.totals().rendezvousMessages(), report.totals().toString());
    }
}
